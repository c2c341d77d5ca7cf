//! The labelled positions of a `learn texel` run and their targets: y = λ·g(s·teacher score) +
//! (1 − λ)·result, g(v) = 1/(1 + exp(−k·v)), from the side to move; a position with only one of
//! the two labels uses that one, a position with neither is left out (counted). s (`--teacher-scale`)
//! converts the teacher's units into this evaluation's.

use crate::game::records::GameRecords;
use crate::learn::dataset::{self, DataOptions, Sample};
use std::path::PathBuf;

/// Positions with their targets, in data order.
pub struct Labelled<G> {
    pub pos: Vec<G>,
    /// y in [0, 1], from the side to move in `pos`.
    pub y: Vec<f32>,
    /// The teacher's score where there is one (evaluation units, side to move), for the error
    /// in evaluation units the metrics report.
    pub teacher: Vec<Option<i32>>,
}

/// What was read.
#[derive(Debug, Default, Clone, Copy)]
pub struct DataStats {
    pub games_read: usize,
    pub record_errors: usize,
    pub duplicates: usize,
    pub with_teacher: usize,
    pub with_result: usize,
    /// Positions without a label of either kind (left out).
    pub unlabelled: usize,
    /// Positions left out by `--quiet-only`.
    pub not_quiet: usize,
}

/// The logistic g(v) = 1/(1 + exp(−k·v)).
#[inline]
pub fn sigmoid(k: f64, v: f64) -> f64 {
    1.0 / (1.0 + (-k * v).exp())
}

fn label<G>(
    samples: Vec<Sample<G>>,
    lambda: f64,
    k: f64,
    teacher_scale: f64,
    quiet_only: bool,
    st: &mut DataStats,
) -> Labelled<G>
where
    G: crate::game::Game,
{
    let mut out = Labelled {
        pos: Vec::with_capacity(samples.len()),
        y: Vec::with_capacity(samples.len()),
        teacher: Vec::with_capacity(samples.len()),
    };
    for mut s in samples {
        if quiet_only && (s.pos.in_check() || s.pos.is_tactical(s.mv) || s.pos.gives_check(s.mv)) {
            st.not_quiet += 1;
            continue;
        }
        // In this evaluation's units from here on (the error figures compare with it too).
        s.teacher = s.teacher.map(|t| {
            (t as f64 * teacher_scale)
                .round()
                .clamp(-30_000.0, 30_000.0) as i32
        });
        st.with_teacher += s.teacher.is_some() as usize;
        st.with_result += s.result.is_some() as usize;
        let y = match (s.teacher, s.result) {
            (Some(t), Some(r)) => lambda * sigmoid(k, t as f64) + (1.0 - lambda) * r,
            (Some(t), None) => sigmoid(k, t as f64),
            (None, Some(r)) => r,
            (None, None) => {
                st.unlabelled += 1;
                continue;
            }
        };
        out.pos.push(s.pos);
        out.y.push(y as f32);
        out.teacher.push(s.teacher);
    }
    out
}

/// Reads the training and test files (deduplicated by position and move, as every learner's
/// data) and labels them.
#[allow(clippy::too_many_arguments)]
pub fn load<G: GameRecords>(
    train: &[PathBuf],
    test: &[PathBuf],
    max_train: usize,
    max_test: usize,
    skip_plies: usize,
    seed: u64,
    lambda: f64,
    k: f64,
    teacher_scale: f64,
    quiet_only: bool,
) -> Result<(Labelled<G>, Labelled<G>, DataStats), String> {
    let opts = DataOptions {
        train_files: train.to_vec(),
        test_files: test.to_vec(),
        seed,
        skip_plies,
        max_train,
        max_test,
        ..Default::default()
    };
    let ds = dataset::load::<G>(&opts)?;
    let mut st = DataStats {
        games_read: ds.games_read,
        record_errors: ds.errors.len(),
        duplicates: ds.duplicates,
        ..Default::default()
    };
    let tr = label(ds.train, lambda, k, teacher_scale, quiet_only, &mut st);
    let te = label(ds.test, lambda, k, teacher_scale, quiet_only, &mut st);
    Ok((tr, te, st))
}
