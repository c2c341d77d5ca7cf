//! The fit of fixed weights on a set of records, without learning: the loss `learn texel` would
//! report at its iteration 0 on them. `learn results` uses it for each generation's *fresh* loss,
//! the current weights measured on the games they have just played, which no fit has seen yet
//! (a held-out measure that needs no set aside: every generation's games are new data).

use super::{data, leaves, optim};
use crate::eval::FeatureSet;
use crate::game::records::GameRecords;
use crate::learn::learned::Learned;
use std::path::PathBuf;

/// A measured loss.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// Mean cross-entropy over the positions used.
    pub loss: f64,
    /// Positions measured (mates at the leaf are left out, as in a fit).
    pub positions: usize,
}

/// The loss of `params` on the results (λ = 0) of the records in `files`, with the tables in
/// `tables` as the ones whose weights count (the others are constants of the leaves), logistic
/// slope `k`, on `threads` threads. The data are read and deduplicated as a fit reads them.
pub fn loss_on_results<G: GameRecords, F: FeatureSet<G>>(
    files: &[PathBuf],
    params: &[i32],
    tables: &[String],
    k: f64,
    threads: usize,
) -> Result<Measured, String> {
    let learned = Learned::select::<G, F>(tables, false)?;
    let (set, _, _) = data::load::<G>(files, &[], 0, 0, 0, 0, 0.0, k, 1.0, false)?;
    if set.pos.is_empty() {
        return Err("no position with a result to measure on".into());
    }
    let lv = leaves::compute::<G, F>(&set.pos, params, &learned, threads, &|_| {})?;
    let theta: Vec<f64> = (0..learned.n_local)
        .map(|l| params[learned.global(l)] as f64)
        .collect();
    let f = optim::fit(&lv, &set.y, &set.teacher, &theta, k, F::SCALE as f64);
    Ok(Measured {
        loss: f.loss,
        positions: f.used,
    })
}
