//! The position categories of the parameterised objective ("Objective tuning", eq. 6): progress
//! ratio (8 bins of ply / game length), best-move change over search depths 1-3 (0, 1 or 2
//! changes) and the depth at which the search first picks the expert move (1, 2, 3 or >3).
//!
//! The last two need three root searches per position (depths 1, 2, 3 with the learner's search
//! settings, full window, the best move = the first PV move). They are made once, before the first
//! iteration, with the run's starting weights, and kept for the whole run: categories that moved
//! with the weights would change the objective under the learner's feet. The cost is printed (one
//! console line with the seconds and positions per second); it is a few times one step 1 at depth 1.

use super::params::N_CATEGORIES;
use crate::eval::linear::LinearEval;
use crate::eval::FeatureSet;
use crate::game::Game;
use crate::learn::dataset::Sample;
use crate::search::learner::{LeafSearcher, SearchParams};

/// The categories of one position (indices within each class).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Category {
    /// 0..7: ⌊8 · ply / plies⌋.
    pub progress: u8,
    /// 0..2: how often the best move changed from depth 1 to 2 and from 2 to 3.
    pub change: u8,
    /// 0..3: depth 1, 2, 3 at which the best move is first the expert move, 3 = not by depth 3.
    pub depth: u8,
}

impl Category {
    /// The position's three categories as indices into a row of 15 (`params::class_offset`).
    pub fn indices(&self) -> [usize; 3] {
        [
            self.progress as usize,
            8 + self.change as usize,
            11 + self.depth as usize,
        ]
    }
}

/// The progress bin of ply `ply` of a game of `plies` plies.
pub fn progress_bin(ply: u32, plies: u32) -> u8 {
    if plies == 0 {
        return 0;
    }
    ((8 * ply as u64) / plies as u64).min(7) as u8
}

/// The change and depth categories from the best moves at depths 1, 2, 3 (`None`: no move,
/// e.g. a search that found none).
pub fn search_categories<M: PartialEq + Copy>(best: [Option<M>; 3], expert: M) -> (u8, u8) {
    let change = (1..3).filter(|&d| best[d] != best[d - 1]).count() as u8;
    let depth = best.iter().position(|&b| b == Some(expert)).unwrap_or(3) as u8;
    (change, depth)
}

/// Categories of every sample, searched on `threads` workers with `eval` (results do not depend
/// on the thread count: every search starts from a cleared table).
pub fn categorise<G: Game, F: FeatureSet<G>>(
    samples: &[Sample<G>],
    eval: &LinearEval<G, F>,
    threads: usize,
) -> Vec<Category> {
    const BLOCK: usize = 16;
    let blocks = samples.len().div_ceil(BLOCK);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let next = &next;
    let parts: Vec<Vec<(usize, Vec<Category>)>> = crossbeam::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1).min(blocks.max(1)))
            .map(|_| {
                scope
                    .builder()
                    .stack_size(64 << 20)
                    .spawn(move |_| {
                        let mut searcher = LeafSearcher::new(SearchParams::learner(), 1);
                        let mut out = Vec::new();
                        loop {
                            let b = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            if b >= blocks {
                                break;
                            }
                            let part = &samples[b * BLOCK..samples.len().min((b + 1) * BLOCK)];
                            let cats = part
                                .iter()
                                .map(|s| {
                                    let mut best = [None; 3];
                                    for (d, slot) in best.iter_mut().enumerate() {
                                        *slot = searcher
                                            .search_full(eval, &s.pos, d as i32 + 1)
                                            .and_then(|r| r.pv.first().copied());
                                    }
                                    let (change, depth) = search_categories(best, s.mv);
                                    Category {
                                        progress: progress_bin(s.ply, s.plies),
                                        change,
                                        depth,
                                    }
                                })
                                .collect();
                            out.push((b, cats));
                        }
                        out
                    })
                    .expect("spawning a learner thread")
            })
            .collect();
        crate::learn::join_all(handles)
    })
    .unwrap_or_default();
    let mut all: Vec<(usize, Vec<Category>)> = parts.into_iter().flatten().collect();
    all.sort_unstable_by_key(|p| p.0);
    all.into_iter().flat_map(|p| p.1).collect()
}

/// How many positions fall in each of the 15 categories.
pub fn counts(cats: &[Category]) -> [u64; N_CATEGORIES] {
    let mut n = [0u64; N_CATEGORIES];
    for c in cats {
        for i in c.indices() {
            n[i] += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_bins_and_search_categories() {
        assert_eq!(progress_bin(0, 80), 0);
        assert_eq!(progress_bin(9, 80), 0);
        assert_eq!(progress_bin(10, 80), 1);
        assert_eq!(progress_bin(79, 80), 7);
        assert_eq!(progress_bin(5, 0), 0);
        // expert move 7
        assert_eq!(search_categories([Some(7), Some(7), Some(7)], 7), (0, 0));
        assert_eq!(search_categories([Some(1), Some(7), Some(7)], 7), (1, 1));
        assert_eq!(search_categories([Some(1), Some(2), Some(7)], 7), (2, 2));
        assert_eq!(search_categories([Some(1), Some(2), Some(1)], 7), (2, 3));
        assert_eq!(search_categories([Some(7), Some(2), Some(2)], 7), (1, 0));
        assert_eq!(search_categories([None, None, None], 7), (0, 3));
    }
}
