//! The self-play driver: batches of games played from the same weights (in parallel on
//! `--threads`), their changes summed in game order and applied, and at every checkpoint a
//! metrics line, the weight file and an atomic checkpoint; `--resume` continues exactly.
//! With `--average N` the driver also keeps a running average of the weights (a mean until N
//! games, then exponential with time constant N) and writes it beside them: one game's updates
//! move shogi's piece values by tens, and a snapshot of such noisy weights plays at random
//! strength, however well the run learns on average.
//!
//! Determinism: a game depends only on the weights at the start of its batch, its index and the
//! settings (`selfplay`), and a batch's changes are summed in game order, so a run's weights are
//! bit-identical for any `--threads` and across kills and resumes. What is not deterministic:
//! the seconds, games per hour and nodes per second in the metrics, and the progress bar.

use super::args::SelfPlayArgs;
use super::backup::BackupStats;
use super::openings;
use super::selfplay::{self, GameOut};
use crate::eval::FeatureSet;
use crate::game::{Game, GameHistory};
use crate::learn::checkpoint::{BestSoFar, Checkpoint};
use crate::learn::learned::Learned;
use crate::learn::model::Model;
use crate::learn::run::{append_line, truncate_lines};
use crate::search::learner::TrainingSearch;
use crate::util::json::{self, fixed6, Num};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::Write;
use std::time::Instant;

/// Summary of a finished run.
#[derive(Debug, Clone, PartialEq)]
pub struct SelfPlaySummary {
    pub games: u64,
    pub params: Vec<i32>,
    pub theta: Vec<f64>,
}

impl SelfPlaySummary {
    pub fn describe(&self, method: &str) -> String {
        format!("learn {method}: done after {} games", self.games)
    }
}

/// One line of `metrics.jsonl` per checkpoint (the games since the last one).
#[derive(Serialize)]
struct Line {
    games: u64,
    method: &'static str,
    plies: u64,
    nodes_searched: u64,
    nodes_seen: u64,
    nodes_updated: u64,
    /// √(Σδ²/nodes seen): how far H is outside the search's bounds, evaluation units.
    rms_bound_error: Num,
    wins_first: u64,
    draws: u64,
    wins_second: u64,
    unfinished: u64,
    mean_plies: Num,
    piece_values: Vec<i32>,
    tables_l1: Vec<(String, u64)>,
    seconds: Num,
    games_per_hour: Num,
    nodes_updated_per_second: Num,
    nodes_searched_per_second: Num,
    threads: usize,
    unix_time: u64,
}

#[derive(Default)]
struct Window {
    games: u64,
    plies: u64,
    nodes: u64,
    stats: BackupStats,
    results: [u64; 4],
}

impl Window {
    fn add(&mut self, g: &GameOut) {
        self.games += 1;
        self.plies += g.plies;
        self.nodes += g.nodes;
        self.stats.add(&g.stats);
        let i = match g.result {
            Some(1) => 0,
            Some(0) => 1,
            Some(_) => 2,
            None => 3,
        };
        self.results[i] += 1;
    }
}

/// Runs self-play learning; `out` receives progress lines.
pub fn run<G: Game, F: FeatureSet<G>>(
    args: &SelfPlayArgs,
    out: &mut dyn Write,
) -> Result<SelfPlaySummary, String> {
    let dir = &args.out;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let learned = Learned::select::<G, F>(&args.tables, false)?;
    // Checked before any game: a wrong table name is an error, not a silent --eta.
    args.table_etas(&learned)?;
    let (book, book_text): (Vec<GameHistory<G>>, String) = match &args.openings {
        Some(p) => (
            openings::load::<G>(p)?,
            std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?,
        ),
        None => (Vec::new(), String::new()),
    };
    // The starting weights: `--init`'s (the tables not learned keep them), or none (zero).
    let base = match &args.init {
        Some(p) => Some(crate::learn::init::initial_params_from::<G, F>(
            Some(p.as_path()),
            None,
            None,
        )?),
        None => None,
    };
    // The opening file's and the starting weights' contents, not their paths, must match on a
    // resume (named only when set, so that older checkpoints still resume).
    let mut fingerprint = format!(
        "{} openings={:016x}",
        args.fingerprint(),
        crate::eval::format::checksum(book_text.as_bytes())
    );
    if let Some(b) = &base {
        fingerprint.push_str(&format!(
            " init={:016x}",
            crate::eval::format::checksum(bytemuck::cast_slice(b))
        ));
    }
    let ckpt_path = dir.join("checkpoint.bin");
    let metrics_path = dir.join("metrics.jsonl");
    let resuming = args.resume && ckpt_path.exists();
    let (mut model, mut avg, mut done, mut lines) = if resuming {
        let c = Checkpoint::read(&ckpt_path)?;
        if c.fingerprint != fingerprint {
            return Err(format!(
                "{}: the checkpoint was made with other settings ({}); refusing to resume with ({fingerprint})",
                ckpt_path.display(),
                c.fingerprint
            ));
        }
        // With --average the averaged weights follow the current ones in the shadow vector
        // (the fingerprint names --average, so the length is known).
        let n_shadow = learned.n_local * if args.average > 0 { 2 } else { 1 };
        if c.shadow.len() != n_shadow || c.params.len() != F::num_params() {
            return Err(format!("{}: wrong number of weights", ckpt_path.display()));
        }
        let mut theta = c.shadow;
        let avg = theta.split_off(learned.n_local);
        truncate_lines(&metrics_path, c.metrics_lines)?;
        let _ = writeln!(
            out,
            "info string learn: resuming after game {}",
            c.iteration
        );
        (
            // The checkpoint's full parameter vector holds the tables not learned (`--init`'s).
            Model::over_base::<G, F>(&learned, &c.params, theta),
            avg,
            c.iteration as u64,
            c.metrics_lines,
        )
    } else {
        if metrics_path.exists() {
            std::fs::remove_file(&metrics_path)
                .map_err(|e| format!("{}: {e}", metrics_path.display()))?;
        }
        let m = match &base {
            Some(b) => Model::random_over_base::<G, F>(&learned, b, args.init_range, args.seed),
            None => Model::random::<G, F>(&learned, args.init_range, args.seed),
        };
        m.weights::<G, F>(&provenance::<G, F>(args, 0, false))?
            .write(&dir.join("initial.kwt"))?;
        let avg = if args.average > 0 {
            m.theta.clone()
        } else {
            Vec::new()
        };
        (m, avg, 0, 0)
    };
    let _ = writeln!(
        out,
        "info string learn: {} on {} from {} weights ({} learned), {} openings, depth {}, {} threads",
        args.variant.name(),
        G::NAME,
        if resuming {
            "checkpointed"
        } else if args.init.is_some() {
            "--init's"
        } else {
            "random"
        },
        learned.n_local,
        book.len(),
        args.depth,
        args.threads
    );
    let mut searches: Vec<TrainingSearch> = (0..args.threads)
        .map(|_| TrainingSearch::new(args.hash_mb))
        .collect();
    let bar = progress_bar(args, done);
    let mut window = Window::default();
    let mut t0 = Instant::now();
    while done < args.games {
        // Whole batches only (the last may pass --games): a partial one would make the weights
        // after a game count depend on where the run was told to stop.
        let n = args.batch;
        let outs = play_batch::<G, F>(&model, &learned, &book, args, done, n, &mut searches)?;
        let mut sum = vec![0.0; learned.n_local];
        for g in &outs {
            for (s, d) in sum.iter_mut().zip(&g.delta) {
                *s += d;
            }
            window.add(g);
        }
        model.add(&sum, &learned);
        done += n;
        if args.average > 0 {
            // A running mean until `average` games are played, then an exponential one with
            // that time constant, so the start's random weights fade out.
            let a = n as f64 / done.min(args.average).max(n) as f64;
            for (m, &t) in avg.iter_mut().zip(&model.theta) {
                *m += a * (t - *m);
            }
        }
        bar.set_position(done);
        if done % args.checkpoint_every == 0 || done >= args.games {
            let secs = t0.elapsed().as_secs_f64();
            let line = metrics_line::<G, F>(args, done, &window, &model, secs);
            append_line(&metrics_path, &line)?;
            lines += 1;
            let prov = provenance::<G, F>(args, done, false);
            let w = model.weights::<G, F>(&prov)?;
            w.write(&dir.join("weights.kwt"))?;
            if args.snapshots.contains(&done) {
                w.write(&dir.join(format!("weights_{done}.kwt")))?;
            }
            if args.average > 0 {
                // Over the current parameters: the tables not learned are `--init`'s (or zero).
                let wa = Model::over_base::<G, F>(&learned, &model.params, avg.clone())
                    .weights::<G, F>(&provenance::<G, F>(args, done, true))?;
                wa.write(&dir.join("weights_avg.kwt"))?;
                if args.snapshots.contains(&done) {
                    wa.write(&dir.join(format!("weights_avg_{done}.kwt")))?;
                }
            }
            Checkpoint {
                iteration: done as u32,
                rng: 0,
                metrics_lines: lines,
                fingerprint: fingerprint.clone(),
                params: model.params.clone(),
                shadow: model.theta.iter().chain(&avg).copied().collect(),
                best: BestSoFar::default(),
                last: [0.0; 3],
            }
            .write(&ckpt_path)?;
            let st = &window.stats;
            bar.suspend(|| {
                let _ = writeln!(
                    out,
                    "info string learn: {done} games, rms bound error {:.1}, {} of {} nodes updated, W/D/L/unfinished {}/{}/{}/{}, {:.0} games/h",
                    (st.sq_error / st.nodes_seen.max(1) as f64).sqrt(),
                    st.nodes_updated,
                    st.nodes_seen,
                    window.results[0],
                    window.results[1],
                    window.results[2],
                    window.results[3],
                    window.games as f64 * 3600.0 / secs.max(1e-9)
                );
                let _ = out.flush();
            });
            window = Window::default();
            t0 = Instant::now();
        }
    }
    bar.finish_and_clear();
    Ok(SelfPlaySummary {
        games: done,
        params: model.params,
        theta: model.theta,
    })
}

/// Plays games `first..first + n` from `model`, spread over the threads; the results in game
/// order.
fn play_batch<G: Game, F: FeatureSet<G>>(
    model: &Model,
    learned: &Learned,
    book: &[GameHistory<G>],
    args: &SelfPlayArgs,
    first: u64,
    n: u64,
    searches: &mut [TrainingSearch],
) -> Result<Vec<GameOut>, String> {
    let threads = searches.len().min(n as usize).max(1);
    let results: Vec<Vec<(u64, Result<GameOut, String>)>> = crossbeam::scope(|scope| {
        let handles: Vec<_> = searches
            .iter_mut()
            .take(threads)
            .enumerate()
            .map(|(t, search)| {
                scope
                    .builder()
                    .stack_size(64 << 20)
                    .spawn(move |_| {
                        let mut mine = Vec::new();
                        let mut g = first + t as u64;
                        while g < first + n {
                            mine.push((
                                g,
                                selfplay::play::<G, F>(model, learned, book, args, g, search),
                            ));
                            g += threads as u64;
                        }
                        mine
                    })
                    .map_err(|e| format!("cannot start a self-play thread: {e}"))
            })
            .collect();
        let mut all = Vec::new();
        for h in handles {
            match h {
                Ok(h) => all.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))),
                Err(e) => all.push(vec![(u64::MAX, Err(e))]),
            }
        }
        all
    })
    .unwrap_or_else(|e| std::panic::resume_unwind(e));
    let mut flat: Vec<(u64, Result<GameOut, String>)> = results.into_iter().flatten().collect();
    flat.sort_by_key(|(g, _)| *g);
    flat.into_iter().map(|(_, r)| r).collect()
}

fn metrics_line<G: Game, F: FeatureSet<G>>(
    args: &SelfPlayArgs,
    games: u64,
    w: &Window,
    model: &Model,
    secs: f64,
) -> String {
    let ranges = Learned::table_ranges::<G, F>();
    let piece_values = ranges
        .iter()
        .find(|t| t.0 == "material")
        .map(|(_, a, b)| model.params[*a..*b].to_vec())
        .unwrap_or_default();
    let tables_l1 = ranges
        .iter()
        .map(|(n, a, b)| {
            (
                n.clone(),
                model.params[*a..*b]
                    .iter()
                    .map(|v| v.unsigned_abs() as u64)
                    .sum(),
            )
        })
        .collect();
    let st = &w.stats;
    let unix_time = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    json::line(&Line {
        games,
        method: args.variant.name(),
        plies: w.plies,
        nodes_searched: w.nodes,
        nodes_seen: st.nodes_seen,
        nodes_updated: st.nodes_updated,
        rms_bound_error: fixed6((st.sq_error / st.nodes_seen.max(1) as f64).sqrt()),
        wins_first: w.results[0],
        draws: w.results[1],
        wins_second: w.results[2],
        unfinished: w.results[3],
        mean_plies: fixed6(w.plies as f64 / w.games.max(1) as f64),
        piece_values,
        tables_l1,
        seconds: fixed6(secs),
        games_per_hour: fixed6(w.games as f64 * 3600.0 / secs.max(1e-9)),
        nodes_updated_per_second: fixed6(st.nodes_updated as f64 / secs.max(1e-9)),
        nodes_searched_per_second: fixed6(w.nodes as f64 / secs.max(1e-9)),
        threads: args.threads,
        unix_time,
    })
}

/// The provenance block of the weight files (deterministic: no clock); `averaged`: the block of
/// the averaged weights, which names the averaging.
fn provenance<G: Game, F: FeatureSet<G>>(
    args: &SelfPlayArgs,
    games: u64,
    averaged: bool,
) -> String {
    let mut v = serde_json::json!({
        "learner": "kishi",
        "method": args.variant.name(),
        "game": G::NAME,
        "feature_set": F::NAME,
        "tables_learned": args.tables.join(","),
        "hyper_parameters": {
            "depth": args.depth,
            "min_depth": args.min_depth,
            "eta": args.eta,
            "lambda": args.lambda,
            "init_range": args.init_range,
            "init": args.init.as_ref().map(|p| p.display().to_string()),
            "seed": args.seed,
            "random_plies": args.random_plies,
            "max_plies": args.max_plies,
            "score_cap": args.score_cap,
            "batch": args.batch,
        },
        "openings": args.openings.as_ref().map(|p| p.display().to_string()),
        "games": games,
    });
    // Only when set: the files of runs without per-table rates keep their provenance.
    if !args.table_eta.is_empty() {
        v["hyper_parameters"]["table_eta"] = serde_json::Value::String(args.table_eta_text());
    }
    if args.quiet_nodes {
        v["hyper_parameters"]["quiet_nodes"] = serde_json::Value::Bool(true);
    }
    if args.quiescence_values {
        v["hyper_parameters"]["node_value"] = serde_json::Value::String("quiescence".into());
    }
    if args.minimax {
        v["hyper_parameters"]["search"] = serde_json::Value::String("minimax".into());
    }
    if averaged {
        v["averaged_over_games"] = serde_json::Value::from(args.average);
    }
    v.to_string()
}

fn progress_bar(args: &SelfPlayArgs, done: u64) -> ProgressBar {
    if args.quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(args.games);
    if let Ok(style) =
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} games {per_sec} eta {eta}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(args.variant.name());
    bar.set_position(done);
    bar
}
