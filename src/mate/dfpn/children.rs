//! A `mid` frame's children and the choice among them: the child record, the node's proof and
//! disproof numbers from its children (sums that saturate below infinity, double counts counted
//! once), the child to search next with its threshold, and the delayed-expansion groups that
//! keep later moves of a group waiting. Kept apart from `mid` itself, which only calls these.

use super::{NodeResult, Solver, INDEPENDENT};
use crate::mate::table::INF;
use crate::mate::{Hand, HandEffect, MateGame};

/// A child of a `mid` frame: its position, its numbers, and how they count in the node's.
pub(super) struct Child<G: MateGame> {
    pub(super) pos: G,
    pub(super) effect: HandEffect,
    pub(super) res: NodeResult,
    /// Delayed-expansion group ([`MateGame::delay_group`]).
    pub(super) group: Option<u32>,
    /// Its proof number (at an AND node) enters the node's as a term of the sum; `false`: as a
    /// maximum, a double count found through it (`dfpn/double_count.rs`).
    pub(super) summed: bool,
    /// Counted and searched: not waiting behind an unsettled earlier move of its group.
    pub(super) active: bool,
    /// A futile interposition ([`MateGame::is_futile`]): it must be refuted, but its length does
    /// not count and the length bound does not apply below it.
    pub(super) futile: bool,
    /// The move's destination square (`Game::move_to`): a replay prefers a sibling that
    /// interposed on the same square.
    pub(super) to: u8,
    /// A replay of a proven sibling's proof was tried in this frame ([`Solver::simulate`]).
    pub(super) replayed: bool,
    /// Its rank among children of equal numbers, highest first (`MateLimits::captures_first`).
    pub(super) tie: u8,
}

impl<G: MateGame> Child<G> {
    /// A new child, unsearched: numbers 1 / 1, counted in the sum, waiting until activated.
    pub(super) fn new(
        pos: G,
        effect: HandEffect,
        hand: Hand,
        group: Option<u32>,
        futile: bool,
        to: u8,
        tie: u8,
    ) -> Self {
        Child {
            pos,
            effect,
            res: NodeResult {
                pn: 1,
                dn: 1,
                len: 0,
                hand,
                dep: INDEPENDENT,
            },
            group,
            summed: true,
            active: false,
            futile,
            to,
            replayed: false,
            tie,
        }
    }

    /// A reused slot made a new child, as [`Child::new`] would, its position already written.
    pub(super) fn reset(
        &mut self,
        effect: HandEffect,
        hand: Hand,
        group: Option<u32>,
        futile: bool,
        to: u8,
        tie: u8,
    ) {
        self.effect = effect;
        self.res = NodeResult {
            pn: 1,
            dn: 1,
            len: 0,
            hand,
            dep: INDEPENDENT,
        };
        self.group = group;
        self.summed = true;
        self.active = false;
        self.futile = futile;
        self.to = to;
        self.tie = tie;
        self.replayed = false;
    }
}

/// Proven or disproven.
pub(super) fn settled(r: &NodeResult) -> bool {
    r.pn == 0 || r.dn == 0
}

/// A proof (disproof) number sum: infinite only when a term is (a disproven child of an AND
/// node, a proven one of an OR node); a finite sum that overflows stops just below infinity.
/// (Sums over a DAG count shared subtrees again and again, and near a length bound they reach
/// 2³⁰: a saturated sum read as infinite stopped the root's loop with neither number zero, and
/// the shortest-mate search could not show that no shorter mate exists.)
pub(super) fn saturating_sum(a: u32, b: u32) -> u32 {
    if a >= INF || b >= INF {
        INF
    } else {
        a.saturating_add(b).min(INF - 1)
    }
}

impl<G: MateGame> Solver<'_, G> {
    /// After a move of group `g` settled: the group's first unsettled move becomes active. (A
    /// waiting move is never searched, so it is unsettled; the moves before it are settled.)
    pub(super) fn activate(children: &mut [Child<G>], g: u32) {
        if let Some(c) = children
            .iter_mut()
            .find(|c| c.group == Some(g) && !settled(&c.res))
        {
            c.active = true;
        }
    }

    /// Whether a move of `group` after `earlier` is free to be searched: no group, or every
    /// earlier move of its group settled.
    pub(super) fn free_to_search(earlier: &[Child<G>], group: Option<u32>) -> bool {
        group.is_none_or(|g| {
            earlier
                .iter()
                .all(|c| c.group != Some(g) || settled(&c.res))
        })
    }

    /// Proof and disproof numbers of a node from its children (sums saturate at infinity).
    pub(super) fn numbers(or: bool, children: &[Child<G>]) -> (u32, u32) {
        let mut min = INF;
        let mut sum = 0u32;
        // The largest maximum-counted term (`Child::summed`), added to the sum once.
        let mut max = 0u32;
        for c in children.iter().filter(|c| c.active) {
            let (m, s) = if or {
                (c.res.pn, c.res.dn)
            } else {
                (c.res.dn, c.res.pn)
            };
            min = min.min(m);
            if c.summed {
                sum = saturating_sum(sum, s);
            } else {
                max = max.max(s);
            }
        }
        if max > 0 {
            sum = saturating_sum(sum, max);
        }
        if or {
            (min, sum)
        } else {
            (sum, min)
        }
    }

    /// The child to search (least proof number at OR nodes, least disproof number at AND nodes)
    /// and the second-least number, for the child's threshold. Of equal children the first of
    /// the highest `tie`.
    pub(super) fn select(or: bool, children: &[Child<G>]) -> (usize, u32) {
        Self::select_by(or, children, |_, c| u64::from(c.tie))
    }

    /// [`Solver::select`] with a tie rule: of equal children the one `rank` puts highest (the
    /// first of those when they rank equal).
    #[inline]
    pub(super) fn select_by(
        or: bool,
        children: &[Child<G>],
        rank: impl Fn(usize, &Child<G>) -> u64,
    ) -> (usize, u32) {
        let mut best = 0;
        let mut best_v = u32::MAX;
        let mut best_rank = 0;
        let mut second = INF;
        for (i, c) in children.iter().enumerate().filter(|(_, c)| c.active) {
            let v = if or { c.res.pn } else { c.res.dn };
            let r = rank(i, c);
            if v < best_v || (v == best_v && r > best_rank) {
                second = best_v.min(INF);
                best_v = v;
                best = i;
                best_rank = r;
            } else if v < second {
                second = v;
            }
        }
        (best, second)
    }

    /// [`Solver::select`] for a helper thread: of equal children of the highest `tie`, helper
    /// 1 takes the last instead of the first, further helpers the one their own hash of the
    /// child's key ranks first, so that each parts from the main thread (and the others) at the first tie. A
    /// helper that broke ties as the main thread does gained nothing: it followed the same path
    /// (docs/mate.md §27). (A virtual loss — a child another thread is in counting half as much
    /// again — made the threads chase each other's marks: they re-expanded the same nodes over
    /// and over and hardly stored anything new.)
    pub(super) fn select_helper(&self, or: bool, children: &[Child<G>]) -> (usize, u32) {
        let seed = u64::from(self.helper);
        Self::select_by(or, children, |i, c| {
            let own = if seed == 1 {
                i as u64
            } else {
                (c.pos.key() ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32
            };
            (u64::from(c.tie) << 40) | own
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finite_sums_stay_finite() {
        assert_eq!(saturating_sum(3, 4), 7);
        assert_eq!(saturating_sum(INF - 1, INF - 1), INF - 1);
        assert_eq!(saturating_sum(INF / 2 + 1, INF / 2 + 1), INF - 1);
        assert_eq!(saturating_sum(INF, 0), INF);
        assert_eq!(saturating_sum(5, INF), INF);
    }
}
