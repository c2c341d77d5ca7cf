//! The `learn results` driver: generations of (self-play games with the current weights W_k,
//! written to `gen-KKK/games.txt`; a `learn texel` fit of W_k to the results of the pool's games,
//! in `gen-KKK/fit/`, whose weights are W_{k+1}; a metrics line; the state file).
//!
//! Files: `initial.params` (W_0's parameters), `gen-KKK/games.txt` and `gen-KKK/games.json`
//! (the generation's sums), `gen-KKK/fit/` (texel's own files: weights.kwt, params.bin,
//! checkpoint.bin, metrics.jsonl), `weights.kwt` (the newest weights: the last fit's, under a
//! provenance block naming the generation and settings instead of texel's paths, so that the
//! file does not depend on where the run was made), `metrics.jsonl` and `state.json` (finished
//! generations and the settings' fingerprint). Every file is written
//! atomically except the appended metrics lines, which a resume truncates to the state's count.
//!
//! Determinism: the games depend only on W_k, their generation and index and the settings
//! (`games`), and texel's fit is bit-identical for any thread count and across resumes, so a
//! run's files (apart from timings) are the same for any `--threads`, and a resumed run ends
//! where an uninterrupted one does: a finished generation is skipped, an unfinished one reuses
//! its games file (or plays the same games again) and resumes its fit from texel's checkpoint.
//! The next fit starts from the last one's `params.bin` rather than its `weights.kwt`: the
//! same weights, without the 16-bit saturation a weight file may apply.

use super::args::ResultsArgs;
use super::games::{self, GenStats};
use crate::eval::format::{checksum, write_atomic};
use crate::eval::{FeatureSet, Weights};
use crate::game::records::GameRecords;
use crate::learn::checkpoint::{read_params, write_params};
use crate::learn::learned::Learned;
use crate::learn::metrics::{table_summary, unix_time, TablesByName};
use crate::learn::progress::progress_bar;
use crate::learn::run::{append_line, truncate_lines};
use crate::learn::texel::{self, TexelArgs};
use crate::util::json::{self, fixed6, Num};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Summary of a finished run.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultsSummary {
    pub generations: u32,
    /// W_N's parameters (empty when no generation was left to run).
    pub params: Vec<i32>,
}

impl ResultsSummary {
    pub fn describe(&self) -> String {
        format!("learn results: done after {} generations", self.generations)
    }
}

/// `state.json`: how many generations are finished, and the settings they were made with.
#[derive(Serialize, Deserialize)]
struct State {
    generations: u32,
    fingerprint: String,
}

/// One line of `metrics.jsonl` per generation: its games (played with W_k) and its fit (W_{k+1}).
#[derive(Serialize)]
struct Line {
    generation: u32,
    games: u64,
    wins_first: u64,
    draws: u64,
    losses_first: u64,
    resignations: u64,
    max_plies: u64,
    mean_plies: Num,
    nodes_searched: u64,
    seconds_games: Num,
    games_per_hour: Num,
    /// The games file of an interrupted run was reused (its timings are the original's).
    games_reused: bool,
    pool_generations: u32,
    /// W_k's loss on the results of this generation's games, before any fit has seen them: the
    /// run's held-out measure (each generation's games are new data, from W_k's own play).
    fresh_loss: Num,
    fresh_positions: usize,
    /// The fit's final loss on the pool's games (its training set).
    train_loss: Num,
    piece_values: Vec<i32>,
    tables: TablesByName,
    seconds_fit: Num,
    unix_time: u64,
}

/// `DIR/gen-KKK`.
fn gen_dir(dir: &Path, k: u32) -> PathBuf {
    dir.join(format!("gen-{k:03}"))
}

/// The parameters of W_k: the initial ones, or the previous generation's fit's.
fn params_path(dir: &Path, k: u32) -> PathBuf {
    match k {
        0 => dir.join("initial.params"),
        _ => gen_dir(dir, k - 1).join("fit").join("params.bin"),
    }
}

fn write_state(path: &Path, generations: u32, fingerprint: &str) -> Result<(), String> {
    let s = serde_json::to_string(&State {
        generations,
        fingerprint: fingerprint.to_string(),
    })
    .map_err(|e| format!("{}: {e}", path.display()))?;
    write_atomic(path, format!("{s}\n").as_bytes())
}

/// The finished generations to start after: 0 for a new run (whose first files are written
/// here), the state's count on a resume with the same settings.
fn start(
    args: &ResultsArgs,
    fingerprint: &str,
    base: &[i32],
    out: &mut dyn Write,
) -> Result<u32, String> {
    let dir = &args.out;
    let state_path = dir.join("state.json");
    let metrics_path = dir.join("metrics.jsonl");
    if state_path.exists() {
        if !args.resume {
            // Generations of games are hours of work: never overwritten by a repeated command.
            return Err(format!(
                "{} holds a learn results run (state.json): add --resume to continue it, or give another --out",
                dir.display()
            ));
        }
        let text = std::fs::read_to_string(&state_path)
            .map_err(|e| format!("{}: {e}", state_path.display()))?;
        let s: State =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", state_path.display()))?;
        if s.fingerprint != fingerprint {
            return Err(format!(
                "{}: the run was made with other settings ({}); refusing to resume with ({fingerprint})",
                state_path.display(),
                s.fingerprint
            ));
        }
        truncate_lines(&metrics_path, s.generations as u64)?;
        let _ = writeln!(
            out,
            "info string learn: resuming after generation {}",
            s.generations
        );
        return Ok(s.generations);
    }
    if metrics_path.exists() || gen_dir(dir, 0).exists() {
        return Err(format!(
            "{} holds files of another run but no state.json; give another --out or remove them",
            dir.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    write_params(&params_path(dir, 0), base)?;
    write_state(&state_path, 0, fingerprint)?;
    Ok(0)
}

/// Runs `learn results`; `out` receives progress lines.
pub fn run<G: GameRecords, F: FeatureSet<G>>(
    args: &ResultsArgs,
    out: &mut dyn Write,
) -> Result<ResultsSummary, String> {
    let dir = &args.out;
    // Every input is checked before anything is written or played.
    let learned = Learned::select::<G, F>(&args.tables, false)?;
    let book = crate::learn::selfplay_common::load::<G>(&args.openings)?;
    let book_text =
        std::fs::read(&args.openings).map_err(|e| format!("{}: {e}", args.openings.display()))?;
    let base = crate::learn::init::initial_params_from::<G, F>(args.init.as_deref(), None, None)?;
    // The contents of the opening file and of W_0, not their paths, must match on a resume.
    let fingerprint = format!(
        "{} openings={:016x} init={:016x}",
        args.fingerprint(),
        checksum(&book_text),
        checksum(bytemuck::cast_slice(&base))
    );
    let done = start(args, &fingerprint, &base, out)?;
    // The generations read W_k from files; the large shogi vector is not kept through them.
    drop(base);
    let _ = writeln!(
        out,
        "info string learn: results on {}, {} generations × {} games at {}/{} nodes, {} openings, fitting {} ({} weights), {} threads",
        G::NAME,
        args.generations,
        args.games,
        args.nodes,
        args.nodes + 100,
        book.len(),
        args.tables.join(","),
        learned.n_local,
        args.threads
    );
    if done >= args.generations {
        let _ = writeln!(
            out,
            "info string learn: {done} generations are finished already (raise --generations to continue)"
        );
    }
    let metrics_path = dir.join("metrics.jsonl");
    let state_path = dir.join("state.json");
    let mut params = Vec::new();
    for k in done..args.generations {
        let gdir = gen_dir(dir, k);
        std::fs::create_dir_all(&gdir).map_err(|e| format!("{}: {e}", gdir.display()))?;
        let init = params_path(dir, k);
        let (stats, reused) = generation_games::<G, F>(args, &book, k, &init, out)?;
        let slope = crate::learn::objective::params::default_j2_slope(args.shogi);
        let fresh = texel::measure::loss_on_results::<G, F>(
            &[gen_dir(dir, k).join("games.txt")],
            &read_params(&init, F::num_params())?,
            &args.tables,
            slope,
            args.threads,
        )?;

        // The fit: W_k towards the results of the pool's games, mixed with the play search's
        // scores of their positions when --lambda > 0.
        let first = match args.pool {
            0 => 0,
            p => (k + 1).saturating_sub(p),
        };
        let targs = TexelArgs {
            game: args.game.clone(),
            data: (first..=k)
                .map(|j| gen_dir(dir, j).join("games.txt"))
                .collect(),
            test: Vec::new(),
            out: gdir.join("fit"),
            init: Some(init),
            tables: args.tables.clone(),
            iterations: args.iterations,
            epochs: args.epochs,
            batch: args.batch,
            lr: args.lr,
            lambda: args.lambda,
            slope,
            teacher_scale: 1.0,
            l2: args.l2,
            quiet_only: false,
            max_positions: 0,
            max_test: 0,
            skip_plies: 0,
            seed: args.seed,
            threads: args.threads,
            // Only an interrupted generation has a fit checkpoint: texel resumes it exactly.
            resume: args.resume,
            quiet: args.quiet,
        };
        let t1 = Instant::now();
        let fit = texel::run::<G, F>(&targs, out)?;
        let seconds_fit = t1.elapsed().as_secs_f64();
        // The current weights: the fit's, under a provenance block without the paths texel's
        // names (the run's directory), so that the file is the same wherever the run was made.
        Weights::from_params::<G, F>(&fit.params, &provenance::<G, F>(args, k + 1, &fingerprint))?
            .write(&dir.join("weights.kwt"))?;

        let (tables, piece_values) = table_summary::<G, F>(&fit.params, &learned);
        let line = json::line(&Line {
            generation: k,
            games: stats.games,
            wins_first: stats.wins_first,
            draws: stats.draws,
            losses_first: stats.losses_first,
            resignations: stats.resignations,
            max_plies: stats.max_plies,
            mean_plies: fixed6(stats.plies as f64 / stats.games.max(1) as f64),
            nodes_searched: stats.nodes,
            seconds_games: fixed6(stats.seconds),
            games_per_hour: fixed6(stats.games as f64 * 3600.0 / stats.seconds.max(1e-9)),
            games_reused: reused,
            pool_generations: k + 1 - first,
            fresh_loss: fixed6(fresh.loss),
            fresh_positions: fresh.positions,
            train_loss: fixed6(fit.test_loss),
            piece_values: piece_values.clone(),
            tables,
            seconds_fit: fixed6(seconds_fit),
            unix_time: unix_time(),
        });
        append_line(&metrics_path, &line)?;
        write_state(&state_path, k + 1, &fingerprint)?;
        let _ = writeln!(
            out,
            "info string learn: generation {k}: first player W/D/L {}/{}/{} ({} resigned, {} at --max-plies, {:.1} plies a game), W_{k}'s loss on them {:.6}, fit loss {:.6} on {} generations, piece values {:?}, games {:.1} s, fit {:.1} s",
            stats.wins_first,
            stats.draws,
            stats.losses_first,
            stats.resignations,
            stats.max_plies,
            stats.plies as f64 / stats.games.max(1) as f64,
            fresh.loss,
            fit.test_loss,
            k + 1 - first,
            piece_values,
            stats.seconds,
            seconds_fit
        );
        let _ = out.flush();
        params = fit.params;
    }
    Ok(ResultsSummary {
        generations: args.generations.max(done),
        params,
    })
}

/// Generation `k`'s games: its games file when an interrupted run left one (with its sums),
/// else played with the parameters in `init` and written. Returns the sums and whether the file
/// was reused.
fn generation_games<G: GameRecords, F: FeatureSet<G>>(
    args: &ResultsArgs,
    book: &[crate::game::GameHistory<G>],
    k: u32,
    init: &Path,
    out: &mut dyn Write,
) -> Result<(GenStats, bool), String> {
    let gdir = gen_dir(&args.out, k);
    let games_path = gdir.join("games.txt");
    let stats_path = gdir.join("games.json");
    // games.json is written before games.txt: a games file always has its sums beside it.
    if games_path.exists() {
        if let Some(s) = std::fs::read_to_string(&stats_path)
            .ok()
            .and_then(|t| serde_json::from_str::<GenStats>(&t).ok())
        {
            let _ = writeln!(
                out,
                "info string learn: generation {k}: reusing {}",
                games_path.display()
            );
            return Ok((s, true));
        }
    }
    let params = read_params(init, F::num_params())?;
    let prov = provenance::<G, F>(args, k, "");
    let weights = Arc::new(Weights::from_params::<G, F>(&params, &prov)?);
    drop(params);
    let bar = progress_bar(
        args.games,
        args.quiet,
        &format!("generation {}/{}", k + 1, args.generations),
        "games",
    );
    let g = games::play_generation::<G, F>(weights, book, args, k, &bar)?;
    bar.finish_and_clear();
    let stats_text =
        serde_json::to_string(&g.stats).map_err(|e| format!("{}: {e}", stats_path.display()))?;
    write_atomic(&stats_path, format!("{stats_text}\n").as_bytes())?;
    write_atomic(&games_path, g.text.as_bytes())?;
    Ok((g.stats, false))
}

/// The provenance block of W_`generation` (deterministic: no clock, no path).
fn provenance<G: GameRecords, F: FeatureSet<G>>(
    args: &ResultsArgs,
    generation: u32,
    settings: &str,
) -> String {
    serde_json::json!({
        "learner": "kishi learn",
        "method": "results",
        "game": G::NAME,
        "feature_set": F::NAME,
        "tables_learned": args.tables.join(","),
        "generation": generation,
        "settings": settings,
    })
    .to_string()
}
