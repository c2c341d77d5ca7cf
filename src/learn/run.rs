//! The learning driver: iterations of step 1 and `reuse` × (steps 2-3), with a metrics line per
//! iteration (`metrics.jsonl`), the weight file and a checkpoint written atomically after every
//! iteration, and `--resume` continuing exactly from the last checkpoint.

use super::checkpoint::{BestSoFar, Checkpoint};
use super::dataset::{self, Rng};
use super::mmto::{self, LearnConfig, Learned, Method, Step1Stats};
use super::LearnArgs;
use crate::eval::format::write_atomic;
use crate::eval::weights::Weights;
use crate::eval::FeatureSet;
use crate::game::records::GameRecords;
use crate::game::Game;
use crate::util::json::{self, fixed6, shortest, Num};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Summary of a finished run (for tests and the console).
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    pub iterations_done: usize,
    pub final_objective: f64,
    pub train_agreement: f64,
    pub test_agreement: f64,
    pub params: Vec<i32>,
    /// The best test agreement (ties as misses) measured, negative without a test set; its
    /// weights are `best.kwt`.
    pub best: BestSoFar,
    /// Stopped by `--patience` before `--iterations`.
    pub stopped_early: bool,
}

impl RunSummary {
    /// The closing line of `learn` on the console and the command line.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "learn: done after {} iterations{}: objective {:.6}, agreement train {:.2}% test {:.2}%",
            self.iterations_done,
            if self.stopped_early {
                " (stopped early, --patience)"
            } else {
                ""
            },
            self.final_objective,
            100.0 * self.train_agreement,
            100.0 * self.test_agreement
        );
        if self.best.agreement >= 0.0 {
            s.push_str(&format!(
                "; best test agreement {:.2}% (ties as misses) with the weights after {} updates (best.kwt)",
                100.0 * self.best.agreement,
                self.best.updates
            ));
        }
        s
    }
}

/// Initial parameters: the embedded defaults where a default table holds independent parameters
/// directly (material, positional), zero elsewhere; or from `--init` (a learner params file, or any
/// weight file of the feature set: expanded tables are folded back into their independent
/// parameters, `FeatureSet::fold`); then `--keep-defaults` and `--material-init` if given.
pub fn initial_params<G: Game, F: FeatureSet<G>>(args: &LearnArgs) -> Result<Vec<i32>, String> {
    let n = F::num_params();
    let mut params = vec![0i32; n];
    let ranges = Learned::table_ranges::<G, F>();
    match &args.init {
        None => {
            // Default tables stored expanded (none today) have no direct values: they start at 0.
            let defaults = F::default_tables();
            for (t, (_, a, b)) in ranges.iter().enumerate() {
                if let Some(v) = defaults.get(t).and_then(|d| d.as_ref()).map(table_values) {
                    if v.len() == b - a {
                        params[*a..*b].copy_from_slice(&v);
                    }
                }
            }
        }
        Some(path)
            if path.extension().is_some_and(|e| e == "params") || path.ends_with("params.bin") =>
        {
            params = super::checkpoint::read_params(path, n)?;
        }
        Some(path) => {
            let w = Weights::load::<G, F>(path, crate::eval::weights::Verify::All)?;
            params = F::fold(&w).map_err(|e| format!("{}: {e}", path.display()))?;
            warn_if_saturated::<G, F>(path, &params);
        }
    }
    if let Some(keep) = &args.keep_defaults {
        // Only these tables keep their initial values; the rest start at zero (e.g. chess
        // "material-only" starting weights: --keep-defaults A).
        for (k, (name, a, b)) in ranges.iter().enumerate() {
            let letter = ((b'A' + k as u8) as char).to_string();
            if !keep
                .iter()
                .any(|w| w.eq_ignore_ascii_case(name) || w.eq_ignore_ascii_case(&letter))
            {
                params[*a..*b].fill(0);
            }
        }
    }
    if let Some(v) = args.material_init {
        if let Some((_, a, b)) = ranges.iter().find(|r| r.0 == "material") {
            params[*a..*b].fill(v);
        }
    }
    Ok(params)
}

/// A 16-bit table entry at the end of its range may be a learner value that `expand` saturated:
/// the file cannot tell, the run's params.bin has the exact value.
fn warn_if_saturated<G: Game, F: FeatureSet<G>>(path: &Path, params: &[i32]) {
    for (t, (name, a, b)) in Learned::table_ranges::<G, F>().into_iter().enumerate() {
        let narrow = F::tables()
            .get(t)
            .is_some_and(|s| s.elem == crate::eval::format::Elem::I16);
        let extreme = |v: &i32| *v == i16::MAX as i32 || *v == i16::MIN as i32;
        if narrow && params[a..b].iter().any(extreme) {
            log::warn!(
                "{}: table '{name}' has entries at the limit of 16 bits; if they were saturated \
                 when the file was written, the run's params.bin holds the exact values",
                path.display()
            );
        }
    }
}

fn table_values(t: &crate::eval::weights::OwnedTable) -> Vec<i32> {
    match t {
        crate::eval::weights::OwnedTable::I16(v) => v.iter().map(|&x| x as i32).collect(),
        crate::eval::weights::OwnedTable::I32(v) => v.clone(),
    }
}

/// Runs the learner; `out` receives human-readable progress lines (the console or stdout).
pub fn run<G: GameRecords, F: FeatureSet<G>>(
    args: &LearnArgs,
    out: &mut dyn Write,
) -> Result<RunSummary, String> {
    let cfg: LearnConfig = args.config();
    let dir = &args.out;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let learned = Learned::select::<G, F>(&args.tables, cfg.piece_sum.is_some())?;
    let fingerprint = args.fingerprint();
    let ckpt_path = dir.join("checkpoint.bin");
    let resuming = args.resume && ckpt_path.exists();
    // A bad --init file is reported before minutes of data loading, not after.
    let fresh = if resuming {
        None
    } else {
        Some(initial_params::<G, F>(args)?)
    };

    let t0 = Instant::now();
    let data = dataset::load::<G>(&args.data)?;
    for e in data.errors.iter().take(10) {
        let _ = writeln!(out, "info string error: skipped record {e}");
    }
    let _ = writeln!(
        out,
        "info string learn: {} games read, {} training and {} test positions ({} duplicates, {} with one legal move dropped, {} malformed records skipped) in {:.1} s",
        data.games_read,
        data.train.len(),
        data.test.len(),
        data.duplicates,
        data.single_move,
        data.errors.len(),
        t0.elapsed().as_secs_f64()
    );
    if data.ignored_files > 0 {
        let _ = writeln!(
            out,
            "info string learn: ignored {} files in the data directories that are not {} record files ({})",
            data.ignored_files,
            G::NAME,
            G::RECORD_SUFFIXES.join(", ")
        );
    }
    if data.train.is_empty() {
        return Err("no training positions".into());
    }

    // State: from the checkpoint when resuming, else fresh.
    let metrics_path = dir.join("metrics.jsonl");
    let mut last = [f64::NAN, 0.0, 0.0];
    let (mut params, mut rng, start_iter, mut shadow, mut best) = if resuming {
        let c = Checkpoint::read(&ckpt_path)?;
        if c.fingerprint != fingerprint {
            return Err(format!(
                "{}: the checkpoint was made with other settings ({}); refusing to resume with ({})",
                ckpt_path.display(),
                c.fingerprint,
                fingerprint
            ));
        }
        if c.params.len() != F::num_params() {
            return Err(format!(
                "{}: wrong number of parameters",
                ckpt_path.display()
            ));
        }
        truncate_lines(&metrics_path, c.metrics_lines)?;
        let _ = writeln!(
            out,
            "info string learn: resuming after iteration {}",
            c.iteration
        );
        last = c.last;
        (c.params, Rng(c.rng), c.iteration as usize, c.shadow, c.best)
    } else {
        if metrics_path.exists() {
            std::fs::remove_file(&metrics_path)
                .map_err(|e| format!("{}: {e}", metrics_path.display()))?;
        }
        let p = fresh.unwrap_or_default();
        (p, Rng(cfg.seed), 0, Vec::new(), BestSoFar::default())
    };
    if args.patience > 0 && data.test.is_empty() {
        return Err("--patience needs a test set (--split or --test)".into());
    }
    if let Some(sum) = cfg.piece_sum {
        if let Some((a, b)) = learned.constrained {
            let (ga, gb) = (learned.global(a), learned.global(b - 1) + 1);
            let have: i64 = params[ga..gb].iter().map(|&v| v as i64).sum();
            if have != sum && start_iter == 0 {
                let _ = writeln!(
                    out,
                    "info string learn: the piece values sum to {have}, not {sum}; the constraint keeps {have}"
                );
            }
        }
    }
    if cfg.method == Method::Ct && shadow.len() != learned.n_local {
        shadow = (0..learned.n_local)
            .map(|l| params[learned.global(l)] as f64)
            .collect();
    }

    let mut summary = RunSummary {
        iterations_done: start_iter,
        // Restored on a resume: the provenance of files written next depends on them.
        final_objective: last[0],
        train_agreement: last[1],
        test_agreement: last[2],
        params: params.clone(),
        best,
        stopped_early: false,
    };
    if start_iter == 0 {
        // The starting point, for matches of learned weights against the weights they came from.
        let prov = provenance::<G, F>(args, &cfg, 0, &summary);
        Weights::from_params::<G, F>(&params, &prov)?.write(&dir.join("initial.kwt"))?;
    }
    let lines_before = count_lines(&metrics_path);
    for iter in start_iter..args.iterations {
        if args.patience > 0 && best.since as usize >= args.patience {
            summary.stopped_early = true;
            let _ = writeln!(
                out,
                "info string learn: stopping: test agreement has not improved for {} iterations; best {:.2}% with the weights after {} updates (best.kwt)",
                best.since,
                100.0 * best.agreement,
                best.updates
            );
            break;
        }
        let it_start = Instant::now();
        let prov = provenance::<G, F>(args, &cfg, iter, &summary);
        let eval = mmto::build_eval::<G, F>(&params, &prov)?;

        // Step 1 on the training set (leaves kept) and on the test set (agreement only).
        let bar = progress_bar(
            data.train.len() + data.test.len(),
            args.quiet,
            iter + 1,
            args.iterations,
        );
        let tick = |n: u64| bar.inc(n);
        let s1 = Instant::now();
        let (train_data, train_stats) =
            mmto::step1::<G, F>(&data.train, &params, &learned, &cfg, &eval, true, &tick);
        let test_stats = if data.test.is_empty() {
            Step1Stats::default()
        } else {
            mmto::step1::<G, F>(&data.test, &params, &learned, &cfg, &eval, false, &tick).1
        };
        // Step 1 over both sets: positions per second counts both.
        let step1_secs = s1.elapsed().as_secs_f64();
        bar.finish_and_clear();
        // Step 1 measured the weights as they are before this iteration's update: the best of
        // them on the test set is kept, since MMTO's agreement can peak and then drift. Ties
        // count as misses here: excluding them would rank material-only weights, which tie on
        // most positions and are judged on the few they do not, above learned ones.
        if !data.test.is_empty() {
            if test_stats.agreement_strict() > best.agreement {
                best = BestSoFar {
                    agreement: test_stats.agreement_strict(),
                    updates: iter as u32,
                    since: 0,
                };
                Weights::from_params::<G, F>(&params, &prov)?.write(&dir.join("best.kwt"))?;
            } else {
                best.since += 1;
            }
        }

        // Steps 2-3, reusing the leaves.
        let mut w: Vec<i32> = (0..learned.n_local)
            .map(|l| params[learned.global(l)])
            .collect();
        let s2 = Instant::now();
        let mut j_before = f64::NAN;
        let mut lambda0 = 0.0;
        for r in 0..cfg.reuse.max(1) {
            let obj = mmto::objective(&train_data, &w, F::SCALE, &cfg);
            if r == 0 {
                j_before = obj.j / obj.pairs.max(1) as f64;
            }
            let info = match cfg.method {
                Method::Mmto => mmto::mmto_update(&mut w, &obj.grad, &learned, &cfg, &mut rng),
                Method::Ct => mmto::ct_update(&mut w, &mut shadow, &obj.grad, F::SCALE, &cfg),
            };
            lambda0 = info.lambda0;
        }
        let final_obj = mmto::objective(&train_data, &w, F::SCALE, &cfg);
        let step23_secs = s2.elapsed().as_secs_f64();
        for (l, &v) in w.iter().enumerate() {
            params[learned.global(l)] = v;
        }
        let pairs = final_obj.pairs.max(1) as f64;
        let j_after = final_obj.j / pairs;
        let j_r = mmto::l1_term(&w, &learned, cfg.l1) / pairs;

        // Outputs: weights, params, checkpoint, metrics line (in that order: a kill between them
        // leaves a checkpoint that is never newer than the weights).
        summary.iterations_done = iter + 1;
        summary.final_objective = j_after + j_r;
        summary.train_agreement = train_stats.agreement();
        summary.test_agreement = test_stats.agreement();
        summary.params = params.clone();
        summary.best = best;
        let prov = provenance::<G, F>(args, &cfg, iter + 1, &summary);
        let weights = Weights::from_params::<G, F>(&params, &prov)?;
        weights.write(&dir.join("weights.kwt"))?;
        super::checkpoint::write_params(&dir.join("params.bin"), &params)?;
        let line = metrics_line::<G, F>(
            iter + 1,
            j_before,
            j_after,
            j_r,
            lambda0,
            &train_stats,
            &test_stats,
            &params,
            &learned,
            best,
            [step1_secs, step23_secs, it_start.elapsed().as_secs_f64()],
        );
        append_line(&metrics_path, &line)?;
        let metrics_lines = lines_before + (iter + 1 - start_iter) as u64;
        Checkpoint {
            iteration: (iter + 1) as u32,
            rng: rng.0,
            metrics_lines,
            fingerprint: fingerprint.clone(),
            params: params.clone(),
            shadow: shadow.clone(),
            best,
            last: [
                summary.final_objective,
                summary.train_agreement,
                summary.test_agreement,
            ],
        }
        .write(&ckpt_path)?;
        let _ = writeln!(
            out,
            "info string learn: iteration {} J {:.6} -> {:.6} (+J_R {:.6}) agreement train {:.2}% test {:.2}% pairs {} in-window {} mates {} inconsistent {} step1 {:.1} s ({:.0} pos/s) steps2-3 {:.1} s",
            iter + 1,
            j_before,
            j_after,
            j_r,
            100.0 * train_stats.agreement(),
            100.0 * test_stats.agreement(),
            train_stats.pairs,
            train_stats.in_window,
            train_stats.mates,
            train_stats.inconsistent,
            step1_secs,
            (train_stats.positions + test_stats.positions) as f64 / step1_secs.max(1e-9),
            step23_secs
        );
        let _ = out.flush();
    }
    Ok(summary)
}

fn progress_bar(len: usize, quiet: bool, iter: usize, total: usize) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix} step 1 [{bar:30}] {pos}/{len} positions {per_sec} eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(format!("iteration {iter}/{total}"));
    bar
}

/// One table's size in a metrics line.
#[derive(Serialize)]
struct TableStats {
    nonzero: usize,
    l1: u64,
    learned: bool,
}

/// The tables of a metrics line: a JSON object keyed by table name, in parameter order.
struct TablesByName(Vec<(String, TableStats)>);

impl Serialize for TablesByName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// One line of `metrics.jsonl` (field order = key order; `scripts/plot_learning.py` reads it).
#[derive(Serialize)]
struct MetricsLine {
    iteration: usize,
    weights_measured: usize,
    best_test: Num,
    best_updates: u32,
    #[serde(rename = "J")]
    j: Num,
    #[serde(rename = "J_after")]
    j_after: Num,
    /// The constraint term: always 0 (the constraint is kept exactly, not penalised).
    #[serde(rename = "J_C")]
    j_c: u8,
    lambda0: Num,
    #[serde(rename = "J_R")]
    j_r: Num,
    total: Num,
    agreement_train: Num,
    agreement_test: Num,
    agreement_train_strict: Num,
    agreement_test_strict: Num,
    test_ties: usize,
    train_positions: usize,
    train_used: usize,
    test_used: usize,
    pairs: usize,
    in_window: usize,
    mates_excluded: usize,
    ties: usize,
    inconsistent_leaves: usize,
    piece_values: Vec<i32>,
    tables: TablesByName,
    seconds_step1: Num,
    seconds_steps23: Num,
    seconds_total: Num,
    positions_per_second: Num,
    unix_time: u64,
}

#[allow(clippy::too_many_arguments)]
fn metrics_line<G: Game, F: FeatureSet<G>>(
    iter: usize,
    j_before: f64,
    j_after: f64,
    j_r: f64,
    lambda0: f64,
    train: &Step1Stats,
    test: &Step1Stats,
    params: &[i32],
    learned: &Learned,
    best: BestSoFar,
    secs: [f64; 3],
) -> String {
    let mut tables = Vec::new();
    for (name, a, b) in Learned::table_ranges::<G, F>() {
        let nonzero = params[a..b].iter().filter(|&&v| v != 0).count();
        let l1: u64 = params[a..b].iter().map(|v| v.unsigned_abs() as u64).sum();
        let learned = learned.tables.iter().any(|t| t.0 == name);
        tables.push((
            name,
            TableStats {
                nonzero,
                l1,
                learned,
            },
        ));
    }
    let piece_values = Learned::table_ranges::<G, F>()
        .into_iter()
        .find(|t| t.0 == "material")
        .map(|(_, a, b)| params[a..b].to_vec())
        .unwrap_or_default();
    let unix_time = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    json::line(&MetricsLine {
        iteration: iter,
        weights_measured: iter - 1,
        best_test: if best.agreement >= 0.0 {
            fixed6(best.agreement)
        } else {
            None
        },
        best_updates: best.updates,
        j: fixed6(j_before),
        j_after: fixed6(j_after),
        j_c: 0,
        lambda0: fixed6(lambda0),
        j_r: fixed6(j_r),
        total: fixed6(j_after + j_r),
        agreement_train: fixed6(train.agreement()),
        agreement_test: fixed6(test.agreement()),
        agreement_train_strict: fixed6(train.agreement_strict()),
        agreement_test_strict: fixed6(test.agreement_strict()),
        test_ties: test.ties,
        train_positions: train.positions,
        train_used: train.used,
        test_used: test.used,
        pairs: train.pairs,
        in_window: train.in_window,
        mates_excluded: train.mates,
        ties: train.ties,
        inconsistent_leaves: train.inconsistent,
        piece_values,
        tables: TablesByName(tables),
        seconds_step1: fixed6(secs[0]),
        seconds_steps23: fixed6(secs[1]),
        seconds_total: fixed6(secs[2]),
        positions_per_second: fixed6((train.positions + test.positions) as f64 / secs[0].max(1e-9)),
        unix_time,
    })
}

/// The learner's settings in the provenance block.
#[derive(Serialize)]
struct HyperParameters {
    a: Num,
    l1: Num,
    step: String,
    piece_sum: Option<i64>,
    depth: i32,
    window: i32,
    reuse: usize,
    seed: u64,
}

/// The provenance block of a learned weight file (field order = key order).
#[derive(Serialize)]
struct Provenance<'a> {
    learner: &'a str,
    method: &'a str,
    game: &'a str,
    feature_set: &'a str,
    tables_learned: String,
    hyper_parameters: HyperParameters,
    data_files: Vec<String>,
    iterations: usize,
    final_objective: Num,
    agreement_train: Num,
    agreement_test: Num,
}

/// The provenance block of the weight file: deterministic (no clock), so that two runs with the
/// same seed and one thread write identical files.
fn provenance<G: Game, F: FeatureSet<G>>(
    args: &LearnArgs,
    cfg: &LearnConfig,
    iter: usize,
    s: &RunSummary,
) -> String {
    let data_files: Vec<String> = args
        .data
        .train_files
        .iter()
        .chain(&args.data.split_files)
        .chain(&args.data.test_files)
        .map(|p| p.display().to_string())
        .collect();
    json::line(&Provenance {
        learner: "kishi learn",
        method: match cfg.method {
            Method::Mmto => "mmto",
            Method::Ct => "ct",
        },
        game: G::NAME,
        feature_set: F::NAME,
        tables_learned: args.tables.join(","),
        hyper_parameters: HyperParameters {
            a: shortest(cfg.a),
            l1: shortest(cfg.l1),
            step: format!("{:?}", cfg.step),
            piece_sum: cfg.piece_sum,
            depth: cfg.depth,
            window: cfg.window,
            reuse: cfg.reuse,
            seed: cfg.seed,
        },
        data_files,
        iterations: iter,
        final_objective: fixed6(s.final_objective),
        agreement_train: fixed6(s.train_agreement),
        agreement_test: fixed6(s.test_agreement),
    })
}

fn count_lines(path: &Path) -> u64 {
    std::fs::read_to_string(path)
        .map(|s| s.lines().count() as u64)
        .unwrap_or(0)
}

fn truncate_lines(path: &Path, keep: u64) -> Result<(), String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(());
    };
    let kept: Vec<&str> = text.lines().take(keep as usize).collect();
    let mut body = kept.join("\n");
    if !body.is_empty() {
        body.push('\n');
    }
    write_atomic(path, body.as_bytes())
}

fn append_line(path: &Path, line: &str) -> Result<(), String> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    writeln!(f, "{line}").map_err(|e| format!("{}: {e}", path.display()))?;
    f.sync_data()
        .map_err(|e| format!("{}: {e}", path.display()))
}
