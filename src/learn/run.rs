//! The iteration driver: iterations of step 1 and `reuse` × (steps 2-3), with a metrics line per
//! iteration (`metrics.jsonl`), the weight file and a checkpoint written atomically after every
//! iteration, and `--resume` continuing exactly from the last checkpoint. It knows a method only
//! through `LearningMethod` (its loss, update, report and state).
//!
//! Memory: step 1's leaves go into a compact `LeafStore` (spilling to `DIR/leaves.scratch` past
//! the `--max-memory` budget), and steps 2-3 keep one sparse gradient buffer per thread for the
//! whole run, so a reuse pass costs O(stored features), not O(learned weights).

use super::checkpoint::{BestSoFar, Checkpoint};
use super::config::LearnConfig;
use super::dataset::{self, Dataset, Rng};
use super::grad::SparseGrad;
use super::learned::Learned;
use super::leaves::{resident_bytes, show_bytes, LeafStore};
use super::method::{self, LearningMethod};
use super::metrics::{metrics_line, provenance};
use super::objective::setup::{self as pobj, Parameterised};
use super::objective::weighted::{objective_store_weighted, CategoryAgreement, Terms};
use super::objective::{l1_term, objective_store};
use super::progress::StepProgress;
use super::step1::Step1Stats;
use super::step1::{build_eval, step1_store_with, StoreExtras};
use super::LearnArgs;
use crate::eval::format::write_atomic;
use crate::eval::weights::Weights;
use crate::eval::FeatureSet;
use crate::game::records::GameRecords;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

pub use super::init::initial_params;

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

/// Where a run starts: from the checkpoint when resuming, else fresh.
struct StartState {
    params: Vec<i32>,
    rng: Rng,
    start_iter: usize,
    /// The method's own state from the checkpoint (empty when fresh).
    method_state: Vec<f64>,
    best: BestSoFar,
    /// The last iteration's objective, train and test agreement.
    last: [f64; 3],
}

/// The outputs of one iteration's steps 2-3.
struct Steps23 {
    j_before: f64,
    j_after: f64,
    j_r: f64,
    lambda0: f64,
    secs: f64,
    /// The parameterised objective's terms before the first and after the last update.
    terms: Option<(Terms, Terms)>,
}

/// A run in progress: its settings, files and the state carried between iterations.
struct Driver<'a> {
    args: &'a LearnArgs,
    cfg: LearnConfig,
    learned: Learned,
    method: Box<dyn LearningMethod>,
    fingerprint: String,
    dir: &'a Path,
    ckpt_path: PathBuf,
    metrics_path: PathBuf,
    /// The training leaves of the current iteration.
    store: LeafStore,
    /// `--objective-params`: the parameterised objective (None: plain MMTO / CT).
    pobj: Option<Parameterised>,
}

/// Runs the learner; `out` receives human-readable progress lines (the console or stdout).
pub fn run<G: GameRecords, F: FeatureSet<G>>(
    args: &LearnArgs,
    out: &mut dyn Write,
) -> Result<RunSummary, String> {
    let cfg: LearnConfig = args.config();
    let dir = &args.out;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut d = Driver {
        args,
        learned: Learned::select::<G, F>(&args.tables, cfg.piece_sum.is_some())?,
        method: method::for_config(&cfg),
        cfg,
        fingerprint: args.fingerprint(),
        dir,
        ckpt_path: dir.join("checkpoint.bin"),
        metrics_path: dir.join("metrics.jsonl"),
        store: LeafStore::new(u64::MAX, &dir.join("leaves.scratch"))
            .with_compression(args.compress_leaves),
        pobj: None,
    };
    // A bad objective parameter file is refused before any data loads.
    let objective_params = pobj::read_params(args)?;
    let resuming = args.resume && d.ckpt_path.exists();
    // A bad --init file is reported before minutes of data loading, not after.
    let fresh = if resuming {
        None
    } else {
        Some(initial_params::<G, F>(args)?)
    };
    let data = load_data::<G>(args, out)?;
    if let Some(p) = objective_params {
        // Categories come from the run's starting weights, also on a resume (the same every
        // time, so a resumed run optimises the same objective).
        let initial = match &fresh {
            Some(f) => f.clone(),
            None => initial_params::<G, F>(args)?,
        };
        d.pobj = Some(pobj::prepare::<G, F>(p, args, &initial, &data, out)?);
    }
    let start = d.start_state::<G, F>(resuming, fresh, out)?;
    if args.patience > 0 && data.test.is_empty() {
        return Err("--patience needs a test set (--split or --test)".into());
    }
    d.check_piece_sum(&start, out);
    d.run_iterations::<G, F>(&data, start, out)
}

/// Reads the training and test positions and reports what was read.
fn load_data<G: GameRecords>(args: &LearnArgs, out: &mut dyn Write) -> Result<Dataset<G>, String> {
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
    Ok(data)
}

impl Driver<'_> {
    /// The state to start from: the checkpoint's (checked against these settings) when resuming,
    /// else `fresh` with an empty metrics file.
    fn start_state<G: GameRecords, F: FeatureSet<G>>(
        &self,
        resuming: bool,
        fresh: Option<Vec<i32>>,
        out: &mut dyn Write,
    ) -> Result<StartState, String> {
        if resuming {
            let c = Checkpoint::read(&self.ckpt_path)?;
            if c.fingerprint != self.fingerprint {
                return Err(format!(
                    "{}: the checkpoint was made with other settings ({}); refusing to resume with ({})",
                    self.ckpt_path.display(),
                    c.fingerprint,
                    self.fingerprint
                ));
            }
            if c.params.len() != F::num_params() {
                return Err(format!(
                    "{}: wrong number of parameters",
                    self.ckpt_path.display()
                ));
            }
            truncate_lines(&self.metrics_path, c.metrics_lines)?;
            let _ = writeln!(
                out,
                "info string learn: resuming after iteration {}",
                c.iteration
            );
            return Ok(StartState {
                params: c.params,
                rng: Rng(c.rng),
                start_iter: c.iteration as usize,
                method_state: c.shadow,
                best: c.best,
                last: c.last,
            });
        }
        if self.metrics_path.exists() {
            std::fs::remove_file(&self.metrics_path)
                .map_err(|e| format!("{}: {e}", self.metrics_path.display()))?;
        }
        Ok(StartState {
            params: fresh.unwrap_or_default(),
            rng: Rng(self.cfg.seed),
            start_iter: 0,
            method_state: Vec::new(),
            best: BestSoFar::default(),
            last: [f64::NAN, 0.0, 0.0],
        })
    }

    /// Says so when the starting piece values do not sum to `--piece-sum` (the constraint keeps
    /// the sum they have).
    fn check_piece_sum(&self, start: &StartState, out: &mut dyn Write) {
        let (Some(sum), Some((a, b))) = (self.cfg.piece_sum, self.learned.constrained) else {
            return;
        };
        let (ga, gb) = (self.learned.global(a), self.learned.global(b - 1) + 1);
        let have: i64 = start.params[ga..gb].iter().map(|&v| v as i64).sum();
        if have != sum && start.start_iter == 0 {
            let _ = writeln!(
                out,
                "info string learn: the piece values sum to {have}, not {sum}; the constraint keeps {have}"
            );
        }
    }

    fn provenance<G: GameRecords, F: FeatureSet<G>>(&self, iter: usize, s: &RunSummary) -> String {
        provenance::<G, F>(self.args, &self.cfg, self.method.name(), iter, s)
    }

    /// The iterations from `start` to `--iterations` (or `--patience`).
    fn run_iterations<G: GameRecords, F: FeatureSet<G>>(
        &mut self,
        data: &Dataset<G>,
        start: StartState,
        out: &mut dyn Write,
    ) -> Result<RunSummary, String> {
        let StartState {
            mut params,
            mut rng,
            start_iter,
            method_state,
            mut best,
            last,
        } = start;
        let local: Vec<i32> = (0..self.learned.n_local)
            .map(|l| params[self.learned.global(l)])
            .collect();
        self.method.start(&local, method_state);
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
            let prov = self.provenance::<G, F>(0, &summary);
            Weights::from_params::<G, F>(&params, &prov)?.write(&self.dir.join("initial.kwt"))?;
        }
        let lines_before = count_lines(&self.metrics_path);
        for iter in start_iter..self.args.iterations {
            if self.args.patience > 0 && best.since as usize >= self.args.patience {
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
            let prov = self.provenance::<G, F>(iter, &summary);
            let eval = build_eval::<G, F>(&params, &prov)?;

            // Step 1 on the training set (leaves kept) and on the test set (agreement only).
            let bar = StepProgress::new(
                data.train.len() + data.test.len(),
                self.args.quiet,
                iter + 1,
                self.args.iterations,
            );
            let tick = |n: u64| bar.inc(n);
            let s1 = Instant::now();
            if iter == start_iter {
                self.set_leaf_budget(out);
            }
            self.store.clear()?;
            let (learned, cfg) = (&self.learned, &self.cfg);
            let (train_agree, test_agree) = (Mutex::new(Vec::new()), Mutex::new(Vec::new()));
            let extras = |agree| match &self.pobj {
                Some(p) => StoreExtras {
                    keep_record: p.weights.j2,
                    agree: Some(agree),
                },
                None => StoreExtras::default(),
            };
            let train_stats = step1_store_with::<G, F>(
                &data.train,
                &params,
                learned,
                cfg,
                &eval,
                Some(&mut self.store),
                extras(&train_agree),
                &tick,
            )?;
            let test_stats = step1_store_with::<G, F>(
                &data.test,
                &params,
                learned,
                cfg,
                &eval,
                None,
                extras(&test_agree),
                &tick,
            )?;
            // Step 1 over both sets: positions per second counts both.
            let step1_secs = s1.elapsed().as_secs_f64();
            bar.finish();
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
                    Weights::from_params::<G, F>(&params, &prov)?
                        .write(&self.dir.join("best.kwt"))?;
                } else {
                    best.since += 1;
                }
            }

            // The play evaluation is not needed again this iteration: free it before steps 2-3.
            drop(eval);
            let s23 = self.steps23::<G, F>(&mut params, &mut rng)?;
            self.report_leaves(&train_stats, out);
            // Free the leaves before the weight files are built.
            self.store.clear()?;

            // Outputs: weights, params, checkpoint, metrics line (in that order: a kill between
            // them leaves a checkpoint that is never newer than the weights).
            summary.iterations_done = iter + 1;
            summary.final_objective = s23.j_after + s23.j_r;
            summary.train_agreement = train_stats.agreement();
            summary.test_agreement = test_stats.agreement();
            summary.params = params.clone();
            summary.best = best;
            let prov = self.provenance::<G, F>(iter + 1, &summary);
            let weights = Weights::from_params::<G, F>(&params, &prov)?;
            weights.write(&self.dir.join("weights.kwt"))?;
            super::checkpoint::write_params(&self.dir.join("params.bin"), &params)?;
            let line = metrics_line::<G, F>(
                iter + 1,
                s23.j_before,
                s23.j_after,
                s23.j_r,
                s23.lambda0,
                &train_stats,
                &test_stats,
                &params,
                &self.learned,
                best,
                [step1_secs, s23.secs, it_start.elapsed().as_secs_f64()],
            );
            let line = match (&self.pobj, &s23.terms) {
                (Some(p), Some((before, after))) => pobj::extend_metrics(
                    line,
                    before,
                    after,
                    &CategoryAgreement::from_step1(
                        &train_agree.into_inner().unwrap_or_default(),
                        &p.train_cats,
                    ),
                    &CategoryAgreement::from_step1(
                        &test_agree.into_inner().unwrap_or_default(),
                        &p.test_cats,
                    ),
                ),
                _ => line,
            };
            append_line(&self.metrics_path, &line)?;
            let metrics_lines = lines_before + (iter + 1 - start_iter) as u64;
            Checkpoint {
                iteration: (iter + 1) as u32,
                rng: rng.0,
                metrics_lines,
                fingerprint: self.fingerprint.clone(),
                params: params.clone(),
                shadow: self.method.state(),
                best,
                last: [
                    summary.final_objective,
                    summary.train_agreement,
                    summary.test_agreement,
                ],
            }
            .write(&self.ckpt_path)?;
            if let Some((b, a)) = &s23.terms {
                let pairs = |t: &Terms| t.pairs.max(1) as f64;
                let _ = writeln!(
                    out,
                    "info string learn: iteration {} J1 {:.6} -> {:.6} J2 {:.6} -> {:.6} (per move pair; J2 over {} positions)",
                    iter + 1,
                    b.j1 / pairs(b),
                    a.j1 / pairs(a),
                    b.j2 / pairs(b),
                    a.j2 / pairs(a),
                    b.j2_positions
                );
            }
            let _ = writeln!(
                out,
                "info string learn: iteration {} J {:.6} -> {:.6} (+J_R {:.6}) agreement train {:.2}% test {:.2}% pairs {} in-window {} mates {} inconsistent {} step1 {:.1} s ({:.0} pos/s) steps2-3 {:.1} s",
                iter + 1,
                s23.j_before,
                s23.j_after,
                s23.j_r,
                100.0 * train_stats.agreement(),
                100.0 * test_stats.agreement(),
                train_stats.pairs,
                train_stats.in_window,
                train_stats.mates,
                train_stats.inconsistent,
                step1_secs,
                (train_stats.positions + test_stats.positions) as f64 / step1_secs.max(1e-9),
                s23.secs
            );
            let _ = out.flush();
        }
        Ok(summary)
    }

    /// Steps 2-3, `reuse` times on step 1's leaves: the objective, its gradient and the method's
    /// update of the learned weights, written back into `params`.
    fn steps23<G: GameRecords, F: FeatureSet<G>>(
        &mut self,
        params: &mut [i32],
        rng: &mut Rng,
    ) -> Result<Steps23, String> {
        let learned = &self.learned;
        let threads = self.cfg.threads.max(1);
        // One gradient buffer per thread, made here as zero pages (free until touched) and dropped
        // when steps 2-3 end: the pages the passes touch (most of each 46.7M-entry e_ABCD buffer)
        // would otherwise stay resident through the next step 1, beside its leaves.
        let mut grads: Vec<SparseGrad> = (0..threads)
            .map(|_| SparseGrad::new(learned.n_local))
            .collect();
        let mut w: Vec<i32> = (0..learned.n_local)
            .map(|l| params[learned.global(l)])
            .collect();
        let s2 = Instant::now();
        let mut j_before = f64::NAN;
        let mut lambda0 = 0.0;
        let method = self.method.as_mut();
        let (store, pobj) = (&self.store, &self.pobj);
        let mut first_terms = None;
        let mut last_terms = None;
        // J (raw sum) and the move pairs: MMTO's or the parameterised objective's.
        let mut pass = |w: &[i32],
                        grads: &mut [SparseGrad],
                        method: &dyn LearningMethod|
         -> Result<(f64, u64), String> {
            match pobj {
                None => objective_store(store, w, F::SCALE, method, grads),
                Some(p) => {
                    let t = objective_store_weighted(store, w, F::SCALE, &p.weights, grads)?;
                    first_terms.get_or_insert(t);
                    last_terms = Some(t);
                    Ok((t.j1 + t.j2, t.pairs))
                }
            }
        };
        for r in 0..self.cfg.reuse.max(1) {
            let (j, pairs) = pass(&w, &mut grads, &*method)?;
            if r == 0 {
                j_before = j / pairs.max(1) as f64;
            }
            let info = method.update(&mut w, &grads[0], learned, F::SCALE / F::COUNT_UNIT, rng);
            lambda0 = info.lambda0;
        }
        let (j, pairs) = pass(&w, &mut grads, &*method)?;
        drop(grads);
        let secs = s2.elapsed().as_secs_f64();
        for (l, &v) in w.iter().enumerate() {
            params[learned.global(l)] = v;
        }
        let pairs = pairs.max(1) as f64;
        Ok(Steps23 {
            j_before,
            j_after: j / pairs,
            j_r: l1_term(&w, learned, self.cfg.l1) / pairs,
            lambda0,
            secs,
            terms: first_terms.zip(last_terms),
        })
    }

    /// Sets the leaf store's memory budget from `--max-memory`: what the process holds now (data,
    /// weights, the play evaluation) and the gradient buffers to come are taken off first.
    fn set_leaf_budget(&mut self, out: &mut dyn Write) {
        let Some(max) = self.args.max_memory else {
            return;
        };
        let grads = SparseGrad::bytes_for(self.learned.n_local) * self.cfg.threads.max(1) as u64
            // the local weights and the method's index lists
            + self.learned.n_local as u64 * 12;
        let now = resident_bytes().unwrap_or(0);
        let fixed = now + grads;
        let budget = max.saturating_sub(fixed);
        let scratch = self.dir.join("leaves.scratch");
        if budget == 0 {
            let _ = writeln!(
                out,
                "info string learn: warning: --max-memory {} is below what the run needs without leaves (about {}: {} in use, {} of gradient buffers); every leaf goes to {}",
                show_bytes(max),
                show_bytes(fixed),
                show_bytes(now),
                show_bytes(grads),
                scratch.display()
            );
        } else {
            let _ = writeln!(
                out,
                "info string learn: --max-memory {}: {} in use, {} of gradient buffers, up to {} of leaves in memory, the rest in {}",
                show_bytes(max),
                show_bytes(now),
                show_bytes(grads),
                show_bytes(budget),
                scratch.display()
            );
        }
        self.store = LeafStore::new(budget, &scratch).with_compression(self.args.compress_leaves);
    }

    /// One line on the size of this iteration's leaves.
    fn report_leaves(&self, train: &Step1Stats, out: &mut dyn Write) {
        let (mem, file) = self.store.bytes();
        let raw = self.store.raw_bytes();
        let codec = if self.store.compresses() {
            format!(
                ", LZ4 from {} ({:.2}x)",
                show_bytes(raw),
                raw as f64 / (mem + file).max(1) as f64
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "info string learn: leaves {} ({:.0} bytes per position, {:.1} per move pair{}): {} in memory, {} in the scratch file",
            show_bytes(mem + file),
            (mem + file) as f64 / self.store.len().max(1) as f64,
            (mem + file) as f64 / train.pairs.max(1) as f64,
            codec,
            show_bytes(mem),
            show_bytes(file)
        );
    }
}

fn count_lines(path: &Path) -> u64 {
    std::fs::read_to_string(path)
        .map(|s| s.lines().count() as u64)
        .unwrap_or(0)
}

/// Keeps the first `keep` lines of a metrics file (a resume drops what the checkpoint does not
/// cover). Also used by the self-play learners.
pub(crate) fn truncate_lines(path: &Path, keep: u64) -> Result<(), String> {
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

/// Appends one line to a metrics file and syncs it. Also used by the self-play learners.
pub(crate) fn append_line(path: &Path, line: &str) -> Result<(), String> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    writeln!(f, "{line}").map_err(|e| format!("{}: {e}", path.display()))?;
    f.sync_data()
        .map_err(|e| format!("{}: {e}", path.display()))
}
