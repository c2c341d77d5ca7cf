//! `kishi weights …`: inspect, verify, generate and measure weight files. clap reads the words
//! (`WeightsCmd`; `kishi weights --help` lists the subcommands, a bad word is clap's error with exit
//! code 2); a failure of the work itself is `error: …` with exit code 1.
//!
//! * `inspect FILE` — the header, table directory and provenance (no content checks).
//! * `verify FILE` — every check including every table's checksum (`isready` skips the checksum
//!   of tables over 64 MiB: see README).
//! * `make-random <shogi|chess> OUT [--seed N] [--spread R]` — every table, random weights expanded
//!   from random independent parameters (benchmarks and memory measurements).
//! * `annotate FILE --out OUT [--set KEY=TEXT]... [--set-json KEY=JSON]...` — edit the provenance.
//! * `scale FILE --table NAME --factor F --out OUT` — one table's weights × F (rounded), the rest
//!   unchanged: what a table's learned size is worth in play (e.g. king danger priced by a teacher
//!   that misses attacks) is then one A/B match away.
//! * `hold FILE [SECONDS]` — map and check the file as `isready` does, touch every page, then sleep
//!   (for measuring the resident and proportional memory of several processes).
//! * `eval <shogi|chess> <FILE|default|handset> "<sfen|fen|startpos>"` — the static evaluation by
//!   table.
//! * `bench <shogi|chess> <FILE|default|handset> [depth] [threads] [hash-mb]` — the search bench
//!   (the same positions and code as `kishi bench`) with this evaluation; and `evalbench
//!   <shogi|chess> <FILE|default|handset> [games]` — update+evaluate throughput over random
//!   playouts, without search.

use super::{BenchSize, GameName};
use crate::chess::features::ChessFeatures;
use crate::chess::ChessPos;
use crate::eval::format::{self, parse_header};
use crate::eval::rng::SplitMix64;
use crate::eval::weights::{write_weight_file, OwnedTable};
use crate::eval::{Evaluator, FeatureSet, LinearEval, Verify, Weights};
use crate::game::Game;
use crate::shogi::features::Bonanza;
use crate::shogi::ShogiPos;
use clap::Subcommand;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The weight-file subcommands (`kishi weights --help`).
#[derive(Debug, Subcommand)]
#[command(after_help = FILE_NOTE)]
pub enum WeightsCmd {
    /// The header, table directory and provenance (no content checks)
    #[command(after_help = FILE_NOTE)]
    Inspect { file: PathBuf },
    /// Every check, including every table's checksum
    #[command(after_help = FILE_NOTE)]
    Verify { file: PathBuf },
    /// A full-size file of random weights (benchmarks and memory measurements)
    MakeRandom {
        game: GameName,
        out: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// the random tables' spread (weights in -R..=R)
        #[arg(long, value_name = "R", default_value_t = 64,
              value_parser = clap::value_parser!(i32).range(0..=32_000))]
        spread: i32,
    },
    /// Sets provenance keys and writes the file atomically to --out (the tables stay unchanged)
    Annotate {
        file: PathBuf,
        /// where to write (may be FILE itself)
        #[arg(long)]
        out: PathBuf,
        /// a string value; repeatable
        #[arg(long = "set", value_name = "KEY=TEXT", value_parser = key_text)]
        set: Vec<(String, serde_json::Value)>,
        /// any JSON value; repeatable (applied after the --set keys)
        #[arg(long = "set-json", value_name = "KEY=JSON", value_parser = key_json)]
        set_json: Vec<(String, serde_json::Value)>,
    },
    /// Adds the hand-set default of every table the file lacks (e.g. a feature set's new table)
    /// and writes the result atomically to --out; the file's own tables stay unchanged
    #[command(after_help = FILE_NOTE)]
    AddDefaults {
        file: PathBuf,
        /// where to write (may be FILE itself)
        #[arg(long)]
        out: PathBuf,
    },
    /// Multiplies one table's weights by a factor (each rounded to the nearest integer) and
    /// writes the result atomically to --out; the other tables stay unchanged
    #[command(after_help = FILE_NOTE)]
    Scale {
        file: PathBuf,
        /// the table's name (`kishi weights inspect FILE` lists a file's tables)
        #[arg(long)]
        table: String,
        /// the factor, -100..=100
        #[arg(long, allow_negative_numbers = true)]
        factor: f64,
        /// where to write (may be FILE itself)
        #[arg(long)]
        out: PathBuf,
    },
    /// Maps and checks the file as `isready` does, touches every page, then sleeps (memory
    /// measurements of several processes)
    #[command(after_help = FILE_NOTE)]
    Hold {
        file: PathBuf,
        #[arg(default_value_t = 60)]
        seconds: u64,
    },
    /// The static evaluation of a position, by table
    #[command(after_help = FILE_NOTE)]
    Eval {
        game: GameName,
        /// a weight file, default (the built-in evaluation) or handset (the learner's start)
        #[arg(value_name = "FILE|default|handset")]
        which: String,
        #[arg(value_name = "sfen|fen|startpos")]
        position: String,
    },
    /// The search bench (the positions and code of `kishi bench`) with this evaluation
    #[command(after_help = FILE_NOTE)]
    Bench {
        game: GameName,
        #[arg(value_name = "FILE|default|handset")]
        which: String,
        #[command(flatten)]
        size: BenchSize,
    },
    /// Update+evaluate throughput over random playouts, without search
    #[command(after_help = FILE_NOTE)]
    Evalbench {
        game: GameName,
        #[arg(value_name = "FILE|default|handset")]
        which: String,
        #[arg(default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        games: u64,
    },
}

const FILE_NOTE: &str =
    "FILE: a path or the name of a file in eval_weights/; .xz files are unpacked once into a cache";

/// `KEY=TEXT` for `--set`: the text becomes a JSON string.
fn key_text(s: &str) -> Result<(String, serde_json::Value), String> {
    let (k, v) = split_key(s)?;
    Ok((k, serde_json::Value::String(v.to_string())))
}

/// `KEY=JSON` for `--set-json`: the value must parse as JSON.
fn key_json(s: &str) -> Result<(String, serde_json::Value), String> {
    let (k, v) = split_key(s)?;
    let v = serde_json::from_str(v).map_err(|e| format!("{k}: not JSON ({e})"))?;
    Ok((k, v))
}

fn split_key(s: &str) -> Result<(String, &str), String> {
    s.split_once('=')
        .filter(|(k, _)| !k.is_empty())
        .map(|(k, v)| (k.to_string(), v))
        .ok_or_else(|| "expected KEY=VALUE".to_string())
}

/// Runs one weights subcommand (clap has checked its words); returns the exit code: 0, or 1 with
/// `error: …` on stderr when the work itself fails (a missing or corrupt file, a bad position).
pub fn run(cmd: WeightsCmd) -> i32 {
    let result = match cmd {
        WeightsCmd::Inspect { file } => inspect(&file),
        WeightsCmd::Verify { file } => verify(&file),
        WeightsCmd::MakeRandom {
            game,
            out,
            seed,
            spread,
        } => make_random(game, &out, seed, spread),
        WeightsCmd::Annotate {
            file,
            out,
            set,
            set_json,
        } => annotate(&file, &out, set.into_iter().chain(set_json)),
        WeightsCmd::AddDefaults { file, out } => add_defaults(&file, &out),
        WeightsCmd::Scale {
            file,
            table,
            factor,
            out,
        } => scale(&file, &table, factor, &out),
        WeightsCmd::Hold { file, seconds } => hold(&file, seconds),
        WeightsCmd::Eval {
            game,
            which,
            position,
        } => match game {
            GameName::Shogi => eval_cmd::<ShogiPos, Bonanza>(&which, &position),
            GameName::Chess => eval_cmd::<ChessPos, ChessFeatures>(&which, &position),
        },
        WeightsCmd::Bench { game, which, size } => match game {
            GameName::Shogi => bench::<ShogiPos, Bonanza>(&which, size),
            GameName::Chess => bench::<ChessPos, ChessFeatures>(&which, size),
        },
        WeightsCmd::Evalbench { game, which, games } => match game {
            GameName::Shogi => evalbench::<ShogiPos, Bonanza>(&which, games as usize),
            GameName::Chess => evalbench::<ChessPos, ChessFeatures>(&which, games as usize),
        },
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn inspect(given: &Path) -> Result<(), String> {
    // A shipped name or an `.xz` file is inspected through its unpacked copy, as `verify` does.
    let path = &resolve(given, None)?;
    let map = format::map_file(path)?;
    let h = parse_header(&map).map_err(|e| format!("{}: {e}", path.display()))?;
    if path != given {
        println!(
            "file: {} (unpacked copy of {})",
            path.display(),
            given.display()
        );
    } else {
        println!("file: {}", path.display());
    }
    println!(
        "bytes: {} ({:.1} MiB)",
        h.file_bytes,
        h.file_bytes as f64 / 1048576.0
    );
    println!("format version: {}", h.version);
    println!("game: {}", h.game);
    println!(
        "feature set: {} version {}",
        h.feature_set, h.feature_set_version
    );
    match (h.game.as_str(), h.feature_set.as_str()) {
        ("shogi", "bonanza") => println!("independent parameters: {}", Bonanza::num_params()),
        ("chess", "kishi-chess") => {
            println!("independent parameters: {}", ChessFeatures::num_params())
        }
        _ => {}
    }
    println!("tables: {}", h.tables.len());
    for t in &h.tables {
        println!(
            "  {:<12} {} {:?} offset {} bytes {} checksum {:016x}",
            t.name,
            t.elem.name(),
            t.dims,
            t.offset,
            t.bytes,
            t.checksum
        );
    }
    let (a, b) = (
        h.provenance_offset as usize,
        (h.provenance_offset + h.provenance_bytes) as usize,
    );
    println!("provenance: {}", String::from_utf8_lossy(&map[a..b]));
    Ok(())
}

fn load_any(path: &Path, verify: Verify) -> Result<(String, Weights), String> {
    let path = &resolve(path, None)?;
    let map = format::map_file(path)?;
    let h = parse_header(&map).map_err(|e| format!("{}: {e}", path.display()))?;
    drop(map);
    let w = match h.game.as_str() {
        "shogi" => Weights::load::<ShogiPos, Bonanza>(path, verify)?,
        "chess" => Weights::load::<ChessPos, ChessFeatures>(path, verify)?,
        g => return Err(format!("{}: unknown game '{g}'", path.display())),
    };
    Ok((h.game, w))
}

/// Sets keys of a file's provenance (a string with `--set`, any JSON value with `--set-json`) and
/// writes the result atomically to `--out` (which may be the file itself): the tables are copied
/// unchanged, so the weights stay byte-identical and only the provenance and checksums change.
fn annotate(
    path: &Path,
    out: &Path,
    sets: impl Iterator<Item = (String, serde_json::Value)>,
) -> Result<(), String> {
    let img = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let header = format::verify_image(&img).map_err(|e| format!("{}: {e}", path.display()))?;
    let (a, b) = (
        header.provenance_offset as usize,
        (header.provenance_offset + header.provenance_bytes) as usize,
    );
    let mut prov: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(&img[a..b])
        .map_err(|e| {
        format!(
            "{}: the provenance is not a JSON object ({e})",
            path.display()
        )
    })?;
    for (k, v) in sets {
        prov.insert(k, v);
    }
    let json = serde_json::to_string(&prov).map_err(|e| e.to_string())?;
    let new =
        format::with_provenance(&img, &json).map_err(|e| format!("{}: {e}", path.display()))?;
    format::write_atomic(out, &new)?;
    println!(
        "{}: provenance updated ({} bytes)",
        out.display(),
        json.len()
    );
    Ok(())
}

/// Table `t` of `w` as an owned copy (a file derived from `w` keeps it unchanged).
fn owned_copy(w: &Weights, t: usize, elem: format::Elem) -> OwnedTable {
    match elem {
        format::Elem::I16 => OwnedTable::I16(w.i16(t).to_vec()),
        format::Elem::I32 => OwnedTable::I32(w.i32(t).to_vec()),
    }
}

/// Writes `tables` atomically to `out` as a file derived from `path` by `kishi weights <how>`.
/// The source's provenance is kept whole under `from_provenance`: its learner keys (command,
/// agreement, Elo) describe the source, not this file; `keys` say what was changed.
fn write_derived<G: Game, F: FeatureSet<G>>(
    path: &Path,
    w: &Weights,
    how: &str,
    keys: serde_json::Value,
    tables: &[Option<OwnedTable>],
    out: &Path,
) -> Result<(), String> {
    let from: serde_json::Value =
        serde_json::from_str(w.provenance()).unwrap_or(serde_json::Value::Null);
    let mut prov = serde_json::json!({
        "made_by": format!("kishi weights {how}"),
        "from": path.display().to_string(),
    });
    if let (Some(p), serde_json::Value::Object(k)) = (prov.as_object_mut(), keys) {
        p.extend(k);
        p.insert("from_provenance".to_string(), from);
    }
    let json = serde_json::to_string(&prov).map_err(|e| e.to_string())?;
    write_weight_file::<G, F>(out, tables, &json)
}

/// `weights scale`: the file's tables with one of them multiplied by `factor`; the provenance
/// keeps the source's whole and says what was scaled.
fn scale(path: &Path, table: &str, factor: f64, out: &Path) -> Result<(), String> {
    if !factor.is_finite() || factor.abs() > 100.0 {
        return Err(format!("--factor {factor}: must be a number in -100..=100"));
    }
    match load_any(path, Verify::All)? {
        (g, w) if g == "shogi" => scale_for::<ShogiPos, Bonanza>(path, &w, table, factor, out),
        (_, w) => scale_for::<ChessPos, ChessFeatures>(path, &w, table, factor, out),
    }
}

fn scale_for<G: Game, F: FeatureSet<G>>(
    path: &Path,
    w: &Weights,
    table: &str,
    factor: f64,
    out: &Path,
) -> Result<(), String> {
    let specs = F::tables();
    let Some(target) = specs.iter().position(|s| s.name == table) else {
        let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
        return Err(format!(
            "no table '{table}' in the {} feature set (its tables: {})",
            F::NAME,
            names.join(", ")
        ));
    };
    if !w.has(target) {
        return Err(format!(
            "{}: has no table '{table}' (an absent table reads as zeros; nothing to scale)",
            path.display()
        ));
    }
    // Every weight of the target table × factor, rounded in f64 and checked against [lo, hi]
    // (the table's type), so a factor never wraps a weight silently.
    let (mut l1_before, mut l1_after) = (0i64, 0i64);
    let mut scale_all = |xs: Vec<i64>, lo: i64, hi: i64| -> Result<Vec<i64>, String> {
        let mut ys = Vec::with_capacity(xs.len());
        for (i, x) in xs.into_iter().enumerate() {
            let y = (x as f64 * factor).round();
            if y < lo as f64 || y > hi as f64 {
                return Err(format!(
                    "table '{table}' entry {i}: {x} × {factor} = {y} does not fit the table's type"
                ));
            }
            let y = y as i64;
            (l1_before, l1_after) = (l1_before + x.abs(), l1_after + y.abs());
            ys.push(y);
        }
        Ok(ys)
    };
    let mut tables = Vec::new();
    for (t, spec) in specs.iter().enumerate() {
        if !w.has(t) {
            tables.push(None);
            continue;
        }
        let owned = match (spec.elem, t == target) {
            (elem, false) => owned_copy(w, t, elem),
            (format::Elem::I16, true) => {
                let xs = w.i16(t).iter().map(|&x| i64::from(x)).collect();
                let ys = scale_all(xs, i16::MIN.into(), i16::MAX.into())?;
                OwnedTable::I16(ys.into_iter().map(|y| y as i16).collect())
            }
            (format::Elem::I32, true) => {
                let xs = w.i32(t).iter().map(|&x| i64::from(x)).collect();
                let ys = scale_all(xs, i32::MIN.into(), i32::MAX.into())?;
                OwnedTable::I32(ys.into_iter().map(|y| y as i32).collect())
            }
        };
        tables.push(Some(owned));
    }
    let keys = serde_json::json!({ "scaled_table": table, "factor": factor });
    write_derived::<G, F>(path, w, "scale", keys, &tables, out)?;
    println!(
        "{}: {} with table {table} × {factor} (L1 {l1_before} → {l1_after})",
        out.display(),
        path.display()
    );
    Ok(())
}

/// `weights add-defaults`: the file's tables, plus the feature set's hand-set default for each
/// table it lacks; the provenance says what was added to which file.
fn add_defaults(path: &Path, out: &Path) -> Result<(), String> {
    match load_any(path, Verify::All)? {
        (g, w) if g == "shogi" => add_defaults_for::<ShogiPos, Bonanza>(path, &w, out),
        (_, w) => add_defaults_for::<ChessPos, ChessFeatures>(path, &w, out),
    }
}

fn add_defaults_for<G: Game, F: FeatureSet<G>>(
    path: &Path,
    w: &Weights,
    out: &Path,
) -> Result<(), String> {
    let defaults = F::default_tables();
    let mut added = Vec::new();
    let mut tables = Vec::new();
    for (t, spec) in F::tables().iter().enumerate() {
        let table = if w.has(t) {
            Some(owned_copy(w, t, spec.elem))
        } else {
            let d = defaults.get(t).cloned().flatten();
            if d.is_some() {
                added.push(spec.name);
            }
            d
        };
        tables.push(table);
    }
    let keys = serde_json::json!({ "added_default_tables": added });
    write_derived::<G, F>(path, w, "add-defaults", keys, &tables, out)?;
    println!(
        "{}: written from {} with the default tables added: {}",
        out.display(),
        path.display(),
        if added.is_empty() {
            "none (the file has every table that has a default)".to_string()
        } else {
            added.join(", ")
        }
    );
    Ok(())
}

fn verify(path: &Path) -> Result<(), String> {
    let t = Instant::now();
    let (game, w) = load_any(path, Verify::All)?;
    println!(
        "{}: ok ({game}, {} {} tables, every checksum verified in {:.0} ms)",
        path.display(),
        w.header().tables.len(),
        w.header().feature_set,
        t.elapsed().as_secs_f64() * 1e3
    );
    Ok(())
}

fn make_random(game: GameName, out: &Path, seed: u64, spread: i32) -> Result<(), String> {
    let t = Instant::now();
    /// The provenance of a random file (field order = key order).
    #[derive(serde::Serialize)]
    struct Random {
        learner: &'static str,
        method: &'static str,
        seed: u64,
        spread: i32,
        note: &'static str,
    }
    let prov = crate::util::json::line(&Random {
        learner: "none",
        method: "random",
        seed,
        spread,
        note: "for benchmarks only",
    });
    let w = match game {
        GameName::Shogi => Weights::from_params::<ShogiPos, Bonanza>(
            &crate::shogi::features::random_params(seed, spread),
            &prov,
        )?,
        GameName::Chess => Weights::from_params::<ChessPos, ChessFeatures>(
            &crate::chess::features::random_params(seed, spread),
            &prov,
        )?,
    };
    w.write(out)?;
    println!(
        "wrote {}: {} bytes ({:.1} MiB) in {:.1} s",
        out.display(),
        w.image_bytes(),
        w.image_bytes() as f64 / 1048576.0,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

fn hold(path: &Path, secs: u64) -> Result<(), String> {
    let (_, w) = load_any(path, Verify::Load)?;
    let x = w.touch_all();
    println!(
        "holding {} pid {} (loaded in {:.1} ms, touched {} bytes, {x})",
        path.display(),
        std::process::id(),
        w.load_millis(),
        w.image_bytes()
    );
    std::thread::sleep(std::time::Duration::from_secs(secs));
    Ok(())
}

/// A weight-file argument resolved like `EvalFile`: a path, or a shipped name, with `.xz` files
/// unpacked into the cache (progress on stderr).
fn resolve(path: &Path, game: Option<&str>) -> Result<std::path::PathBuf, String> {
    crate::eval::shipped::resolve(&path.to_string_lossy(), game, &mut |note| {
        eprintln!("{note}")
    })
}

/// `default` (the built-in evaluation), `handset` (the hand-set tables the learner starts from)
/// or a weight file.
fn eval_for<G: Game, F: FeatureSet<G>>(which: &str) -> Result<LinearEval<G, F>, String> {
    match which {
        "default" => Ok(LinearEval::new(Arc::new(crate::eval::default_weights::<
            G,
            F,
        >()))),
        "handset" => Ok(LinearEval::new(Arc::new(crate::eval::handset_weights::<
            G,
            F,
        >()))),
        _ => LinearEval::load(&resolve(Path::new(which), Some(G::NAME))?),
    }
}

fn eval_cmd<G: Game, F: FeatureSet<G>>(which: &str, text: &str) -> Result<(), String> {
    let e = eval_for::<G, F>(which)?;
    let pos = G::from_text(text).map_err(|e| e.to_string())?;
    for (name, v) in e.breakdown(&pos) {
        println!("{name:<12} {v:>7}");
    }
    Ok(())
}

fn bench<G: Game, F: FeatureSet<G>>(which: &str, size: BenchSize) -> Result<(), String>
where
    LinearEval<G, F>: Evaluator<G>,
{
    let e = eval_for::<G, F>(which)?;
    let depth = size
        .depth
        .unwrap_or_else(crate::search::bench::default_depth::<G>);
    let (threads, hash) = (size.threads as usize, size.hash_mb as usize);
    let t = e.weights().touch_all();
    eprintln!(
        "eval: {} ({} bytes touched, {t})",
        e.weights().source(),
        e.weights().image_bytes()
    );
    crate::search::bench::run::<G, _>(e, depth, threads, hash, &mut std::io::stdout())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Update + evaluate throughput along random playouts (positions generated before timing).
fn evalbench<G: Game, F: FeatureSet<G>>(which: &str, games: usize) -> Result<(), String> {
    let e = eval_for::<G, F>(which)?;
    e.weights().touch_all();
    let mut rng = SplitMix64::new(1);
    let mut lines = Vec::new();
    let mut list = Vec::new();
    for _ in 0..games {
        let mut pos = G::startpos();
        let mut line = vec![(pos.clone(), None)];
        for _ in 0..200 {
            list.clear();
            pos.legal_moves(&mut list);
            if list.is_empty() || pos.position_outcome().is_some() {
                break;
            }
            let mv = list[rng.below(list.len())];
            pos = pos.play(mv);
            line.push((pos.clone(), Some(mv)));
        }
        lines.push(line);
    }
    let plies: usize = lines.iter().map(|l| l.len() - 1).sum();
    let mut acc = vec![F::Acc::default(); 2];
    let mut check = 0i64;
    let t = Instant::now();
    for line in &lines {
        e.refresh(&line[0].0, &mut acc[0]);
        for i in 1..line.len() {
            let (a, b) = acc.split_at_mut(1);
            if let Some(mv) = line[i].1 {
                e.update(&line[i - 1].0, mv, &line[i].0, &a[0], &mut b[0]);
            }
            check += e.evaluate(&line[i].0, &b[0]) as i64;
            std::mem::swap(&mut a[0], &mut b[0]);
        }
    }
    let inc = t.elapsed().as_secs_f64();
    let t = Instant::now();
    for line in &lines {
        for (p, _) in &line[1..] {
            check -= e.evaluate_scratch(p) as i64;
        }
    }
    let scratch = t.elapsed().as_secs_f64();
    println!(
        "{}: {plies} plies; update+evaluate {:.0} ns/ply ({:.2} M/s); from scratch {:.0} ns/position (check {check})",
        e.weights().source(),
        inc * 1e9 / plies as f64,
        plies as f64 / inc / 1e6,
        scratch * 1e9 / plies as f64
    );
    Ok(())
}
