//! The quiescence leaf of every position under the current weights, as a compact sparse feature
//! vector: Texel's method evaluates the quiet position at the end of the capture sequence, not
//! the labelled position itself, so that a label of a position in the middle of a trade is
//! compared with what the evaluation sees after it. The leaves are recomputed at the start of
//! every iteration (the PV changes with the weights) and are fixed during its epochs.
//!
//! Storage: the learned features of all leaves in one flat array (local index, count) with an
//! offset per position, and the non-learned tables' part of each leaf's sum as a constant: about
//! 1.4 KB per chess position (170 features), nothing per position beyond that.

use crate::eval::{FeatureSet, LinearEval};
use crate::game::{Game, MATE_BOUND};
use crate::learn::learned::Learned;
use crate::search::learner::{LeafSearcher, SearchParams};

/// The leaves of a set of positions.
#[derive(Default)]
pub struct Leaves {
    /// Position p's features are `feats[start[p]..start[p + 1]]`.
    pub start: Vec<usize>,
    /// (local index, count) from the labelled position's side to move.
    pub feats: Vec<(u32, i32)>,
    /// Σ weight·count over the tables not learned, weight units, same sign convention.
    pub constant: Vec<f64>,
    /// Positions whose quiescence search ended in a mate score: their leaf is no evaluation,
    /// so they sit this iteration out.
    pub skip: Vec<bool>,
}

impl Leaves {
    pub fn len(&self) -> usize {
        self.constant.len()
    }

    pub fn is_empty(&self) -> bool {
        self.constant.is_empty()
    }

    pub fn of(&self, p: usize) -> &[(u32, i32)] {
        &self.feats[self.start[p]..self.start[p + 1]]
    }

    /// The linear sum of position p in weight units (divide by the feature set's scale for the
    /// evaluation).
    #[inline]
    pub fn sum(&self, p: usize, theta: &[f64]) -> f64 {
        self.constant[p]
            + self
                .of(p)
                .iter()
                .map(|&(l, c)| theta[l as usize] * c as f64)
                .sum::<f64>()
    }

    pub fn skipped(&self) -> usize {
        self.skip.iter().filter(|&&s| s).count()
    }

    /// Bytes of the leaves' data (the figure the run reports per position; lengths, not
    /// allocations, so that it does not depend on the thread count).
    pub fn bytes(&self) -> usize {
        self.start.len() * 8 + self.feats.len() * 8 + self.constant.len() * 9
    }
}

/// One chunk's leaves, appended to the whole set in chunk order.
fn leaves_of_chunk<G: Game, F: FeatureSet<G>>(
    positions: &[G],
    eval: &LinearEval<G, F>,
    params: &[i32],
    learned: &Learned,
    progress: &(dyn Fn(u64) + Sync),
) -> Leaves {
    let mut searcher = LeafSearcher::new(SearchParams::learner(), 1);
    let mut out = Leaves::default();
    let mut buf = Vec::new();
    out.start.push(0);
    for (k, pos) in positions.iter().enumerate() {
        let r = searcher.search_full(eval, pos, 0);
        let (leaf, mate) = match &r {
            Some(r) => (&r.leaf, r.score.abs() >= MATE_BOUND),
            None => (pos, true),
        };
        let sign = if leaf.side_to_move() == pos.side_to_move() {
            1
        } else {
            -1
        };
        buf.clear();
        F::features(leaf, &mut buf);
        let mut constant = 0.0;
        for &(i, c) in &buf {
            match learned.local(i as usize) {
                Some(l) => out.feats.push((l as u32, sign * c)),
                None => constant += (sign * c) as f64 * params[i as usize] as f64,
            }
        }
        out.constant.push(constant);
        out.skip.push(mate);
        out.start.push(out.feats.len());
        if k % 1024 == 1023 {
            progress(1024);
        }
    }
    progress((positions.len() % 1024) as u64);
    out
}

/// The leaves of `positions` under `params`, on `threads` threads (contiguous chunks, joined in
/// order: the result does not depend on the thread count).
pub fn compute<G: Game, F: FeatureSet<G>>(
    positions: &[G],
    params: &[i32],
    learned: &Learned,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Leaves, String> {
    let eval = crate::learn::build_eval::<G, F>(params, "{}")?;
    let threads = threads.clamp(1, positions.len().max(1));
    let chunk = positions.len().div_ceil(threads).max(1);
    let eval = &eval;
    let parts: Vec<Leaves> = crossbeam::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(chunk)
            .map(|part| {
                scope
                    .builder()
                    .stack_size(64 << 20)
                    .spawn(move |_| leaves_of_chunk::<G, F>(part, eval, params, learned, progress))
                    .expect("spawning a learner thread")
            })
            .collect();
        crate::learn::join_all(handles)
    })
    .unwrap_or_else(|e| std::panic::resume_unwind(e));
    let mut all = Leaves::default();
    all.start.push(0);
    for p in parts {
        let base = all.feats.len();
        all.feats.extend_from_slice(&p.feats);
        all.start.extend(p.start[1..].iter().map(|s| s + base));
        all.constant.extend_from_slice(&p.constant);
        all.skip.extend_from_slice(&p.skip);
    }
    Ok(all)
}
