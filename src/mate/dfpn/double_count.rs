//! Double-count elimination for proof numbers (after KomoringHeights' `FindKnownAncestor` and
//! `EliminateDoubleCount`).
//!
//! Why: an AND node's proof number is the sum of its children's, and when two of its children
//! lead into one subtree (a transposition: the same pieces dropped or captured in another
//! order), that subtree is counted twice. Tsume problems are full of such joins, and a doubled
//! number makes df-pn leave a line that is nearly proven. Summing by the largest term
//! everywhere (weak proof numbers) or marking every transposed child (docs/mate.md §22–§23)
//! moved single problems by large factors both ways and the set did not gain; this finds the
//! join itself: on entering a node, follow the parent links (`links.rs`) up from its best child.
//! If they reach an ancestor on the current path other than the node (the *branch root*: the
//! links' path and the current path leave it by different children and meet below), and the
//! numbers along the links stay close (no side branch dominates, else the double count hardly
//! matters), the branch root counts those two children as a maximum instead of a sum from then
//! on. The choice is kept in the branch root's link, so that it holds when the node is searched
//! again. Only at AND nodes (proof numbers): at OR nodes (disproof numbers) it did not gain.
//!
//! The numbers change, the search order with them; proofs and disproofs do not: a node is
//! proven or disproven by its children's results, never by the numbers.

use super::{Child, Solver};
use crate::mate::table::INF;
use crate::mate::MateGame;

/// How much larger a number may be than its child's along the links (and a path node's than its
/// best child's) before a side branch is taken to dominate it: a few leaves' worth, as in
/// KomoringHeights (`kAncestorSearchThreshold`, 3 units). Measured: 1 and 8 did worse
/// (docs/mate.md §24).
const SIDE_BRANCH: u32 = 3;

/// What a `mid` frame on the current path shows the detection of the nodes below it.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Frame {
    /// A frame of the current search (not a stale one, not the PV reader's path).
    live: bool,
    or: bool,
    /// The frame's sum-side number (proof number at AND nodes) and its best child's, when it
    /// went down to that child.
    sum: u32,
    best: u32,
}

impl<G: MateGame> Solver<'_, G> {
    /// A new node's frame at path index `frame`: applies the maximum-counted children its link
    /// keeps. Returns whether any child is counted as a maximum.
    pub(super) fn enter_frame(
        &mut self,
        frame: usize,
        key: u64,
        children: &mut [Child<G>],
    ) -> bool {
        if self.frames.len() <= frame {
            self.frames.resize(frame + 1, Frame::default());
        }
        self.frames[frame] = Frame {
            live: true,
            ..Frame::default()
        };
        let Some(link) = self.table.links.get(key) else {
            return false;
        };
        let mut any = false;
        for (i, c) in children.iter_mut().enumerate().take(64) {
            if link.max_counted & (1 << i) != 0 {
                c.summed = false;
                any = true;
            }
        }
        any
    }

    /// Before the frame at `frame` searches its child `best`: what the nodes below may read.
    pub(super) fn descend(&mut self, frame: usize, or: bool, sum: u32, best: u32) {
        self.frames[frame] = Frame {
            live: true,
            or,
            sum,
            best,
        };
    }

    /// After a child returned: the double counts found below with this frame as the branch
    /// root. Returns whether any child became maximum-counted.
    pub(super) fn take_marks(&mut self, frame: usize, children: &mut [Child<G>]) -> bool {
        let mut any = false;
        let mut i = 0;
        while i < self.marks.len() {
            if self.marks[i].0 != frame {
                i += 1;
                continue;
            }
            let key = self.marks.swap_remove(i).1;
            if let Some(c) = children.iter_mut().find(|c| c.pos.key() == key) {
                c.summed = false;
                any = true;
            }
        }
        any
    }

    /// The frame at `frame` ends: its node's result `(pn, dn)` and maximum-counted children go
    /// into its link (unfinished results only: a settled node is never summed again).
    pub(super) fn leave_frame(
        &mut self,
        frame: usize,
        key: u64,
        pn: u32,
        dn: u32,
        children: &[Child<G>],
    ) {
        self.frames.truncate(frame);
        self.marks.retain(|m| m.0 < frame);
        let Some(parent) = self.path.last() else {
            return;
        };
        if pn == 0 || dn == 0 {
            return;
        }
        let mut max_counted = 0u64;
        for (i, c) in children.iter().enumerate().take(64) {
            if !c.summed {
                max_counted |= 1 << i;
            }
        }
        self.table.links.record(key, parent, pn, dn, max_counted);
    }

    /// At the node at path index `frame` (an OR node if `or`), whose best child has the full key
    /// `child`: follows the links up; at a branch root found (an AND node), marks its two
    /// children for [`Solver::take_marks`].
    pub(super) fn detect(&mut self, or: bool, child: u64, frame: usize) {
        let node = self.path.at(frame);
        let mut key = child;
        let mut last_pn = INF;
        // The parent's type: the node's, then alternating.
        let mut parent_or = or;
        for i in 0..=frame {
            let Some(link) = self.table.links.get(key) else {
                return;
            };
            if i == 0 && link.parent == node {
                // The child was reached from this node last: no other path in sight.
                return;
            }
            if link.pn > last_pn.saturating_add(SIDE_BRANCH) {
                // A side branch dominates this number: a double count below barely shows.
                return;
            }
            if let Some(j) = self.path.position(link.parent) {
                if parent_or || j >= frame || !self.frames.get(j).is_some_and(|f| f.live) {
                    return;
                }
                // Any path node between the branch root and this node whose own number is not
                // mostly its best child's: the double count matters little there.
                for f in &self.frames[j + 1..frame] {
                    if f.or == parent_or && f.sum.saturating_sub(f.best) > SIDE_BRANCH {
                        return;
                    }
                }
                let on_path = self.path.at(j + 1);
                if key != on_path {
                    self.marks.push((j, on_path));
                    self.marks.push((j, key));
                }
                return;
            }
            key = link.parent;
            last_pn = link.pn;
            parent_or = !parent_or;
        }
    }

    /// The sum-side number of the node without `best` (its best child), for `best`'s threshold:
    /// a summed `best` leaves the others' sum and maximum; a maximum-counted one leaves the
    /// others' sum (the maximum then grows with `best` itself).
    pub(super) fn without_best(or: bool, children: &[Child<G>], best: usize) -> u32 {
        let mut sum = 0u32;
        let mut max = 0u32;
        for (i, c) in children.iter().enumerate().filter(|(_, c)| c.active) {
            if i == best {
                continue;
            }
            let s = if or { c.res.dn } else { c.res.pn };
            if c.summed {
                sum = super::saturating_sum(sum, s);
            } else {
                max = max.max(s);
            }
        }
        if children[best].summed {
            super::saturating_sum(sum, max)
        } else {
            sum
        }
    }
}
