//! `kishi weights …`: inspect, verify, generate and measure weight files.
//!
//! * `inspect FILE` — the header, table directory and provenance (no content checks).
//! * `verify FILE` — every check including every table's checksum (`isready` skips the checksum
//!   of tables over 64 MiB: see README).
//! * `make-random <shogi|chess> OUT [--seed N] [--spread R]` — every table, random weights expanded
//!   from random independent parameters (benchmarks and memory measurements).
//! * `hold FILE [SECONDS]` — map and check the file as `isready` does, touch every page, then sleep
//!   (for measuring the resident and proportional memory of several processes).
//! * `eval <shogi|chess> <FILE|default> "<sfen|fen|startpos>"` — the static evaluation by table.
//! * `bench <shogi|chess> <FILE|default> [depth] [threads] [hash-mb]` — the search bench (the same
//!   positions and code as `kishi bench`) with this evaluation; and `evalbench <shogi|chess>
//!   <FILE|default> [games]` — update+evaluate throughput over random playouts, without search.

use crate::chess::features::ChessFeatures;
use crate::chess::ChessPos;
use crate::eval::format::{self, parse_header};
use crate::eval::rng::SplitMix64;
use crate::eval::{Evaluator, FeatureSet, GameEval, LinearEval, Verify, Weights};
use crate::game::Game;
use crate::shogi::features::Bonanza;
use crate::shogi::ShogiPos;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

const USAGE: &str = "\
usage:
  kishi weights inspect FILE
  kishi weights verify FILE
  kishi weights make-random <shogi|chess> OUT [--seed N] [--spread R]
  kishi weights annotate FILE --out OUT [--set KEY=TEXT]... [--set-json KEY=JSON]...
  kishi weights hold FILE [SECONDS]
  kishi weights eval <shogi|chess> <FILE|default|handset> \"<sfen|fen|startpos>\"
  kishi weights bench <shogi|chess> <FILE|default|handset> [depth] [threads] [hash-mb]
  kishi weights evalbench <shogi|chess> <FILE|default|handset> [games]
FILE: a path or the name of a file in eval_weights/; .xz files are unpacked once into a cache
";

pub fn run(args: &[String]) -> i32 {
    let rest = args.get(1..).unwrap_or(&[]);
    let result = match args.first().map(String::as_str) {
        Some("inspect") => inspect(rest),
        Some("verify") => verify(rest),
        Some("make-random") => make_random(rest),
        Some("annotate") => annotate(rest),
        Some("hold") => hold(rest),
        Some("eval") => by_game(
            rest,
            eval_cmd::<ShogiPos, Bonanza>,
            eval_cmd::<ChessPos, ChessFeatures>,
        ),
        Some("bench") => by_game(
            rest,
            bench::<ShogiPos, Bonanza>,
            bench::<ChessPos, ChessFeatures>,
        ),
        Some("evalbench") => by_game(
            rest,
            evalbench::<ShogiPos, Bonanza>,
            evalbench::<ChessPos, ChessFeatures>,
        ),
        _ => Err(USAGE.trim_end().to_string()),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

type Cmd = fn(&[String]) -> Result<(), String>;

fn by_game(args: &[String], shogi: Cmd, chess: Cmd) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("shogi") => shogi(&args[1..]),
        Some("chess") => chess(&args[1..]),
        other => Err(format!("expected shogi or chess, got {other:?}\n{USAGE}")),
    }
}

fn file_arg(args: &[String]) -> Result<&Path, String> {
    args.first()
        .map(Path::new)
        .ok_or_else(|| format!("missing FILE\n{USAGE}"))
}

fn inspect(args: &[String]) -> Result<(), String> {
    let path = file_arg(args)?;
    let map = format::map_file(path)?;
    let h = parse_header(&map).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("file: {}", path.display());
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
fn annotate(args: &[String]) -> Result<(), String> {
    let path = Path::new(args.first().ok_or(USAGE.trim_end())?);
    let mut out = None;
    let mut sets: Vec<(String, serde_json::Value)> = Vec::new();
    let mut rest = args[1..].iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let kv = || {
            value
                .split_once('=')
                .filter(|(k, _)| !k.is_empty())
                .ok_or_else(|| format!("{flag} {value}: expected KEY=VALUE"))
        };
        match flag.as_str() {
            "--out" => out = Some(Path::new(value)),
            "--set" => {
                let (k, v) = kv()?;
                sets.push((k.into(), serde_json::Value::String(v.into())));
            }
            "--set-json" => {
                let (k, v) = kv()?;
                let v = serde_json::from_str(v)
                    .map_err(|e| format!("--set-json {k}: not JSON ({e})"))?;
                sets.push((k.into(), v));
            }
            _ => return Err(format!("unknown option '{flag}'\n{}", USAGE.trim_end())),
        }
    }
    let out = out.ok_or("annotate needs --out OUT")?;
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

fn verify(args: &[String]) -> Result<(), String> {
    let path = file_arg(args)?;
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

fn opt(args: &[String], name: &str, default: u64) -> Result<u64, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(default),
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("{name} needs a number")),
    }
}

fn make_random(args: &[String]) -> Result<(), String> {
    let (Some(game), Some(out)) = (args.first(), args.get(1)) else {
        return Err(USAGE.trim_end().into());
    };
    let seed = opt(args, "--seed", 1)?;
    let spread = opt(args, "--spread", 64)?.min(32_000) as i32;
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
    let w = match game.as_str() {
        "shogi" => Weights::from_params::<ShogiPos, Bonanza>(
            &crate::shogi::features::random_params(seed, spread),
            &prov,
        )?,
        "chess" => Weights::from_params::<ChessPos, ChessFeatures>(
            &crate::chess::features::random_params(seed, spread),
            &prov,
        )?,
        g => return Err(format!("unknown game '{g}'")),
    };
    w.write(Path::new(out))?;
    println!(
        "wrote {out}: {} bytes ({:.1} MiB) in {:.1} s",
        w.image_bytes(),
        w.image_bytes() as f64 / 1048576.0,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

fn hold(args: &[String]) -> Result<(), String> {
    let path = file_arg(args)?;
    let secs: u64 = match args.get(1) {
        Some(s) => s.parse().map_err(|_| format!("bad SECONDS '{s}'"))?,
        None => 60,
    };
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

fn eval_cmd<G: Game, F: FeatureSet<G>>(args: &[String]) -> Result<(), String> {
    let (Some(which), Some(text)) = (args.first(), args.get(1)) else {
        return Err(USAGE.trim_end().into());
    };
    let e = eval_for::<G, F>(which)?;
    let pos = G::from_text(text).map_err(|e| e.to_string())?;
    for (name, v) in e.breakdown(&pos) {
        println!("{name:<12} {v:>7}");
    }
    Ok(())
}

fn bench<G: Game, F: FeatureSet<G>>(args: &[String]) -> Result<(), String>
where
    LinearEval<G, F>: Evaluator<G>,
{
    let which = args.first().ok_or(USAGE.trim_end())?;
    let e = eval_for::<G, F>(which)?;
    let num = |i: usize, d: u64| -> Result<u64, String> {
        args.get(i).map_or(Ok(d), |s| {
            s.parse().map_err(|_| format!("bad number '{s}'"))
        })
    };
    let depth = num(1, crate::search::bench::default_depth::<G>() as u64)? as u32;
    let threads = num(2, 1)?.max(1) as usize;
    let hash = num(3, 16)?.max(1) as usize;
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
fn evalbench<G: Game, F: FeatureSet<G>>(args: &[String]) -> Result<(), String> {
    let which = args.first().ok_or(USAGE.trim_end())?;
    let games: usize = args
        .get(1)
        .map_or(Ok(200), |s| s.parse().map_err(|_| "bad games".to_string()))?;
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

/// Protocol helper: the `eval` console command's text for a position (one line per table).
pub fn eval_text<G: GameEval>(eval: &G::Eval, pos: &G) -> String {
    eval.breakdown(pos)
        .into_iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join("\n")
}
