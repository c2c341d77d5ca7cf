//! The `learn texel` driver: iterations of (quiescence leaves under the current weights, the fit
//! measured on them, then `--epochs` Adam passes over the training set), with a metrics line per
//! measurement, the weight files, and an atomic checkpoint after every iteration.
//!
//! Determinism: the leaves do not depend on the thread count (`leaves::compute`), the order of
//! each epoch is a seeded permutation, and gradients are summed in a fixed order, so a run's
//! weights are bit-identical for any `--threads` and across kills and resumes (a resume
//! recomputes the leaves from the checkpoint's weights, exactly as the run it continues did).

use super::args::TexelArgs;
use super::data::{self, DataStats, Labelled};
use super::leaves::{self, Leaves};
use super::optim::{self, Adam, Fit};
use crate::eval::FeatureSet;
use crate::game::records::GameRecords;
use crate::learn::checkpoint::{write_params, BestSoFar, Checkpoint};
use crate::learn::dataset::Rng;
use crate::learn::learned::Learned;
use crate::learn::metrics::{table_summary, unix_time, TablesByName};
use crate::learn::model::Model;
use crate::learn::progress::progress_bar;
use crate::learn::run::{append_line, truncate_lines};
use crate::util::json::{self, fixed6, Num};
use serde::Serialize;
use std::io::Write;
use std::time::Instant;

/// Summary of a finished run.
#[derive(Debug, Clone, PartialEq)]
pub struct TexelSummary {
    pub iterations: u32,
    pub params: Vec<i32>,
    /// The final weights' loss on the test set, or on the training set when there is none.
    pub test_loss: f64,
    /// Whether `test_loss` is a held-out figure.
    pub has_test: bool,
}

impl TexelSummary {
    pub fn describe(&self) -> String {
        let which = if self.has_test {
            "test loss"
        } else {
            "train loss (no test set)"
        };
        format!(
            "learn texel: done after {} iterations, {which} {:.6}",
            self.iterations, self.test_loss
        )
    }
}

/// One line of `metrics.jsonl`: the fit of the weights after `iteration` iterations, measured on
/// leaves computed with them.
#[derive(Serialize)]
struct Line {
    iteration: u32,
    train_positions: usize,
    test_positions: usize,
    train_loss: Num,
    test_loss: Num,
    train_rms_teacher: Num,
    test_rms_teacher: Num,
    mates_skipped: usize,
    best_iteration: u32,
    piece_values: Vec<i32>,
    tables: TablesByName,
    leaf_bytes_per_position: Num,
    seconds_leaves: Num,
    seconds_epochs: Num,
    leaves_per_second: Num,
    adam_steps: u64,
    unix_time: u64,
}

/// The content checksum of the data files, so that a resume with changed data is refused.
fn data_fingerprint(files: &[std::path::PathBuf]) -> Result<String, String> {
    let mut parts = Vec::new();
    for f in files {
        let mut paths = Vec::new();
        if f.is_dir() {
            let mut rd: Vec<_> = std::fs::read_dir(f)
                .map_err(|e| format!("{}: {e}", f.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect();
            rd.sort();
            paths.extend(rd);
        } else {
            paths.push(f.clone());
        }
        for p in paths {
            if p.is_file() {
                let b = std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
                parts.push(format!("{:016x}", crate::eval::format::checksum(&b)));
            }
        }
    }
    Ok(parts.join(","))
}

/// Runs `learn texel`; `out` receives progress lines.
pub fn run<G: GameRecords, F: FeatureSet<G>>(
    args: &TexelArgs,
    out: &mut dyn Write,
) -> Result<TexelSummary, String> {
    let dir = &args.out;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let learned = Learned::select::<G, F>(&args.tables, false)?;
    let base = crate::learn::init::initial_params_from::<G, F>(args.init.as_deref(), None, None)?;
    let start_theta: Vec<f64> = (0..learned.n_local)
        .map(|l| base[learned.global(l)] as f64)
        .collect();
    let fingerprint = format!(
        "{} data={} test={}",
        args.fingerprint(),
        data_fingerprint(&args.data)?,
        data_fingerprint(&args.test)?
    );
    let ckpt_path = dir.join("checkpoint.bin");
    let metrics_path = dir.join("metrics.jsonl");
    let resuming = args.resume && ckpt_path.exists();

    let t_load = Instant::now();
    let (train, test, stats) = data::load::<G>(
        &args.data,
        &args.test,
        args.max_positions,
        args.max_test,
        args.skip_plies,
        args.seed,
        args.lambda,
        args.slope,
        args.teacher_scale,
        args.quiet_only,
    )?;
    if train.pos.is_empty() {
        return Err("no labelled training position in the data".into());
    }
    report_data(out, &stats, &train, &test, t_load.elapsed().as_secs_f64());

    let n = learned.n_local;
    let (mut model, mut adam, mut done, mut lines, mut best) = if resuming {
        let c = Checkpoint::read(&ckpt_path)?;
        if c.fingerprint != fingerprint {
            return Err(format!(
                "{}: the checkpoint was made with other settings or data; refusing to resume",
                ckpt_path.display()
            ));
        }
        if c.shadow.len() != 3 * n + 1 || c.params.len() != F::num_params() {
            return Err(format!("{}: wrong number of weights", ckpt_path.display()));
        }
        truncate_lines(&metrics_path, c.metrics_lines)?;
        let _ = writeln!(
            out,
            "info string learn: resuming after iteration {}",
            c.iteration
        );
        let mut adam = Adam::new(n, args.lr);
        adam.m.copy_from_slice(&c.shadow[n..2 * n]);
        adam.v.copy_from_slice(&c.shadow[2 * n..3 * n]);
        adam.t = c.shadow[3 * n] as u64;
        let model = Model::over_base::<G, F>(&learned, &c.params, c.shadow[..n].to_vec());
        (model, adam, c.iteration, c.metrics_lines, c.best)
    } else {
        if metrics_path.exists() {
            std::fs::remove_file(&metrics_path)
                .map_err(|e| format!("{}: {e}", metrics_path.display()))?;
        }
        let model = Model::over_base::<G, F>(&learned, &base, start_theta.clone());
        model
            .weights::<G, F>(&provenance::<G, F>(args, 0, None))?
            .write(&dir.join("initial.kwt"))?;
        // `BestSoFar`'s default marks "nothing measured" with a negative agreement, but this
        // learner stores a negated loss, which is always negative: its "nothing yet" is −∞.
        let nothing_yet = BestSoFar {
            agreement: f64::NEG_INFINITY,
            ..BestSoFar::default()
        };
        (model, Adam::new(n, args.lr), 0, 0, nothing_yet)
    };
    let _ = writeln!(
        out,
        "info string learn: texel on {} from {} weights ({} learned), {} iterations × {} epochs, batch {}, lr {}, {} threads",
        G::NAME,
        if resuming { "checkpointed" } else { "starting" },
        n,
        args.iterations,
        args.epochs,
        args.batch,
        args.lr,
        args.threads
    );
    let k = args.slope;
    let scale = F::SCALE as f64;
    let mut last_test;
    let mut has_test;
    let mut seconds_epochs = 0.0;
    loop {
        // Leaves and the fit of the weights after `done` iterations.
        let t0 = Instant::now();
        let bar = progress_bar(
            (train.pos.len() + test.pos.len()) as u64,
            args.quiet,
            &format!("leaves {}/{}", done + 1, args.iterations + 1),
            "positions",
        );
        let tick = |d: u64| bar.inc(d);
        let tr_leaves =
            leaves::compute::<G, F>(&train.pos, &model.params, &learned, args.threads, &tick)?;
        let te_leaves =
            leaves::compute::<G, F>(&test.pos, &model.params, &learned, args.threads, &tick)?;
        bar.finish_and_clear();
        let secs_leaves = t0.elapsed().as_secs_f64();
        let tr_fit = optim::fit(&tr_leaves, &train.y, &train.teacher, &model.theta, k, scale);
        let te_fit = optim::fit(&te_leaves, &test.y, &test.teacher, &model.theta, k, scale);
        // The measure of "best": the test loss, or the training loss without a test set
        // (stored negated: `BestSoFar` keeps the highest).
        let measure = if te_fit.used > 0 {
            te_fit.loss
        } else {
            tr_fit.loss
        };
        last_test = measure;
        has_test = te_fit.used > 0;
        if -measure > best.agreement {
            best = BestSoFar {
                agreement: -measure,
                updates: done,
                since: 0,
            };
            model
                .weights::<G, F>(&provenance::<G, F>(args, done, Some((&tr_fit, &te_fit))))?
                .write(&dir.join("best.kwt"))?;
        }
        let line = metrics_line::<G, F>(
            done,
            [&tr_fit, &te_fit],
            (&tr_leaves, &te_leaves),
            &model,
            &learned,
            best.updates,
            [secs_leaves, seconds_epochs],
            adam.t,
        );
        append_line(&metrics_path, &line)?;
        lines += 1;
        let _ = writeln!(
            out,
            "info string learn: iteration {done}: train loss {:.6} {}, rms vs teacher train {} {} ({} mates skipped), leaves {:.1} s",
            tr_fit.loss,
            // Without a test set there is no test figure to print (not a loss of 0).
            if te_fit.used > 0 {
                format!("test loss {:.6}", te_fit.loss)
            } else {
                "(no test set)".to_string()
            },
            rms_text(tr_fit.rms_teacher),
            if te_fit.used > 0 {
                format!("test {}", rms_text(te_fit.rms_teacher))
            } else {
                "(no test set)".to_string()
            },
            tr_leaves.skipped() + te_leaves.skipped(),
            secs_leaves
        );
        let _ = out.flush();
        if done >= args.iterations {
            // The final weights were written before their fit was measured: write them again
            // with it, so that a shipped `weights.kwt` names its held-out loss as `best.kwt` does.
            model
                .weights::<G, F>(&provenance::<G, F>(args, done, Some((&tr_fit, &te_fit))))?
                .write(&dir.join("weights.kwt"))?;
            break;
        }
        drop(te_leaves);

        // Epochs over the training leaves.
        let t1 = Instant::now();
        let batches = train.pos.len().div_ceil(args.batch) as u64;
        let bar = progress_bar(
            batches * args.epochs as u64,
            args.quiet,
            &format!("epochs {}/{}", done + 1, args.iterations),
            "steps",
        );
        let mut grad = vec![0.0; n];
        for e in 0..args.epochs {
            let order = permutation(
                train.pos.len(),
                args.seed ^ ((done as u64) << 32 | e as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            );
            for batch in order.chunks(args.batch) {
                grad.fill(0.0);
                optim::batch_gradient(
                    &tr_leaves,
                    &train.y,
                    batch,
                    &model.theta,
                    k,
                    scale,
                    &mut grad,
                );
                if args.l2 > 0.0 {
                    for ((g, t), s) in grad.iter_mut().zip(&model.theta).zip(&start_theta) {
                        *g += 2.0 * args.l2 * (t - s);
                    }
                }
                adam.step(&mut model.theta, &grad);
                bar.inc(1);
            }
        }
        bar.finish_and_clear();
        model.requantise(&learned);
        seconds_epochs = t1.elapsed().as_secs_f64();
        done += 1;

        let prov = provenance::<G, F>(args, done, None);
        model
            .weights::<G, F>(&prov)?
            .write(&dir.join("weights.kwt"))?;
        write_params(&dir.join("params.bin"), &model.params)?;
        let mut shadow = Vec::with_capacity(3 * n + 1);
        shadow.extend_from_slice(&model.theta);
        shadow.extend_from_slice(&adam.m);
        shadow.extend_from_slice(&adam.v);
        shadow.push(adam.t as f64);
        Checkpoint {
            iteration: done,
            rng: 0,
            metrics_lines: lines,
            fingerprint: fingerprint.clone(),
            params: model.params.clone(),
            shadow,
            best,
            last: [0.0; 3],
        }
        .write(&ckpt_path)?;
    }
    Ok(TexelSummary {
        iterations: done,
        params: model.params,
        test_loss: last_test,
        has_test,
    })
}

fn report_data<G>(
    out: &mut dyn Write,
    st: &DataStats,
    train: &Labelled<G>,
    test: &Labelled<G>,
    secs: f64,
) {
    let _ = writeln!(
        out,
        "info string learn: {} records read in {secs:.1} s ({} malformed, skipped; {} duplicates): {} training and {} test positions ({} with a teacher's score, {} with a result; left out: {} without a label, {} not quiet)",
        st.games_read,
        st.record_errors,
        st.duplicates,
        train.pos.len(),
        test.pos.len(),
        st.with_teacher,
        st.with_result,
        st.unlabelled,
        st.not_quiet
    );
}

/// A seeded permutation of 0..n (Fisher-Yates).
fn permutation(n: usize, seed: u64) -> Vec<u32> {
    let mut v: Vec<u32> = (0..n as u32).collect();
    let mut rng = Rng(seed);
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
    v
}

#[allow(clippy::too_many_arguments)]
fn metrics_line<G: crate::game::Game, F: FeatureSet<G>>(
    iteration: u32,
    fits: [&Fit; 2],
    leaves: (&Leaves, &Leaves),
    model: &Model,
    learned: &Learned,
    best_iteration: u32,
    secs: [f64; 2],
    adam_steps: u64,
) -> String {
    let (tables, piece_values) = table_summary::<G, F>(&model.params, learned);
    let positions = leaves.0.len() + leaves.1.len();
    json::line(&Line {
        iteration,
        train_positions: leaves.0.len(),
        test_positions: leaves.1.len(),
        train_loss: fixed6(fits[0].loss),
        test_loss: if fits[1].used > 0 {
            fixed6(fits[1].loss)
        } else {
            None
        },
        train_rms_teacher: fits[0].rms_teacher.and_then(fixed6),
        test_rms_teacher: fits[1].rms_teacher.and_then(fixed6),
        mates_skipped: leaves.0.skipped() + leaves.1.skipped(),
        best_iteration,
        piece_values,
        tables,
        leaf_bytes_per_position: fixed6(
            (leaves.0.bytes() + leaves.1.bytes()) as f64 / positions.max(1) as f64,
        ),
        seconds_leaves: fixed6(secs[0]),
        seconds_epochs: fixed6(secs[1]),
        leaves_per_second: fixed6(positions as f64 / secs[0].max(1e-9)),
        adam_steps,
        unix_time: unix_time(),
    })
}

/// The provenance block of the weight files (deterministic: no clock).
fn provenance<G: crate::game::Game, F: FeatureSet<G>>(
    args: &TexelArgs,
    iterations: u32,
    fits: Option<(&Fit, &Fit)>,
) -> String {
    let paths = |v: &[std::path::PathBuf]| -> Vec<String> {
        v.iter().map(|p| p.display().to_string()).collect()
    };
    let mut v = serde_json::json!({
        "learner": "kishi learn",
        "method": "texel",
        "game": G::NAME,
        "feature_set": F::NAME,
        "tables_learned": args.tables.join(","),
        "init": args.init.as_ref().map(|p| p.display().to_string()),
        "hyper_parameters": {
            "epochs": args.epochs,
            "batch": args.batch,
            "lr": args.lr,
            "lambda": args.lambda,
            "slope": args.slope,
            "teacher_scale": args.teacher_scale,
            "l2": args.l2,
            "quiet_only": args.quiet_only,
            "max_positions": args.max_positions,
            "skip_plies": args.skip_plies,
            "seed": args.seed,
        },
        "data_files": paths(&args.data),
        "test_files": paths(&args.test),
        "iterations": iterations,
    });
    if let Some((tr, te)) = fits {
        v["train_loss"] = serde_json::json!(format!("{:.6}", tr.loss));
        if te.used > 0 {
            v["test_loss"] = serde_json::json!(format!("{:.6}", te.loss));
        }
        if let Some(rms) = te.rms_teacher {
            v["test_rms_teacher"] = serde_json::json!(format!("{rms:.1}"));
        }
    }
    v.to_string()
}

/// An RMS against the teacher for the progress line: "(no teacher scores)" when the set has none
/// (a games file's positions are fitted to results alone; an RMS of 0 would read as perfect).
fn rms_text(rms: Option<f64>) -> String {
    match rms {
        Some(v) => format!("{v:.1}"),
        None => "(no teacher scores)".to_string(),
    }
}
