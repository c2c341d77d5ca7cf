//! Proof and disproof hands and mate lengths: what a settled node stores, from its children's.
//!
//! A proof hand is the least the attacker needs for the proof (more pieces cannot hurt the
//! attacker), a disproof hand the most he may hold for the disproof; they let one table entry
//! answer for every hand it covers (`table.rs`).

use super::{Child, NodeResult, Solver, ALWAYS, INDEPENDENT};
use crate::mate::table::INF;
use crate::mate::{Hand, HandEffect, MateGame, HAND_KINDS};

impl<G: MateGame> Solver<'_, G> {
    /// Stores the proof of a mated position (the defender to move without a legal move) and
    /// returns its proof hand.
    pub(super) fn store_mated(&mut self, mated: &G, key: u64) -> Hand {
        let pp = self.and_proof_hand(mated, Hand::EMPTY, &mated.hand(self.attacker));
        self.table.store(key, pp, 0, INF, 0, false, 1);
        pp
    }

    /// The proof hand of a mated (or proven AND) position: what the attacker needs beyond `pp`
    /// when the defender could drop into the check: every kind the defender has none of must stay
    /// with the attacker (fewer for the attacker would mean some for the defender).
    pub(super) fn and_proof_hand(&self, pos: &G, pp: Hand, hand: &Hand) -> Hand {
        let mut pp = pp;
        if pos.interposable() {
            let theirs = pos.hand(self.defender());
            for k in 0..HAND_KINDS {
                if theirs.get(k) == 0 {
                    pp.set(k, hand.get(k));
                }
            }
        }
        pp.min(hand)
    }

    /// The disproof hand of an OR node from the children's: kinds the attacker lacks cannot be
    /// added (a new kind means new drops).
    pub(super) fn or_disproof_hand(dp: Hand, hand: &Hand) -> Hand {
        let mut dp = dp;
        for k in 0..HAND_KINDS {
            if hand.get(k) == 0 {
                dp.set(k, 0);
            }
        }
        dp.max(hand)
    }

    /// The node's result once its loop has ended, with proof / disproof hands and mate length.
    pub(super) fn result(
        &self,
        or: bool,
        pos: &G,
        hand: &Hand,
        children: &[Child<G>],
        ply: u32,
        plies_left: u32,
    ) -> NodeResult {
        let (pn, dn) = Self::numbers(or, children);
        let mut r = NodeResult {
            pn,
            dn,
            len: 0,
            hand: *hand,
            dep: INDEPENDENT,
        };
        if pn == 0 {
            if or {
                // The shortest proven check.
                let c = children
                    .iter()
                    .filter(|c| c.res.pn == 0)
                    .min_by_key(|c| c.res.len);
                if let Some(c) = c {
                    (r.len, r.hand) = Self::or_proof(&c.res, c.effect, hand);
                }
            } else {
                (r.len, r.hand) =
                    self.and_proof(pos, children.iter().map(|c| (&c.res, c.futile)), hand);
            }
        } else if dn == 0 {
            if or {
                let mut dp = Hand::ANY;
                for c in children {
                    dp = dp.min(&c.res.hand.disproof_before(c.effect));
                    r.dep = r.dep.min(c.res.dep);
                }
                r.hand = Self::or_disproof_hand(dp, hand);
            } else {
                // Prefer a disproof that does not depend on the path.
                let c = children
                    .iter()
                    .filter(|c| c.res.dn == 0)
                    .max_by_key(|c| c.res.dep);
                if let Some(c) = c {
                    let mut dp = c.res.hand;
                    if let HandEffect::Drop(k) = c.effect {
                        // The defender's drop needs the piece: the attacker may not hold more.
                        dp.set(k, hand.get(k));
                    }
                    r.hand = dp.max(hand);
                    r.dep = c.res.dep;
                }
            }
            if r.dep != ALWAYS && r.dep > ply {
                // The repetitions it used are inside this node's subtree.
                r.dep = INDEPENDENT;
            }
            if r.path_dependent() {
                r.len = plies_left.min(u32::from(u16::MAX)) as u16;
            }
        }
        r
    }

    /// Length and proof hand of an OR node proven through `child` (the move's hand effect
    /// `effect`; `hand` the attacker's hand at the node).
    pub(super) fn or_proof(child: &NodeResult, effect: HandEffect, hand: &Hand) -> (u16, Hand) {
        (
            child.len.saturating_add(1),
            child.hand.proof_before(effect).min(hand),
        )
    }

    /// Length and proof hand of an AND node `pos` whose evasions are all proven (`(proof,
    /// futile)` each). Every evasion's proof hand counts; the length is the longest defence's,
    /// and futile interpositions are no defence: when only they are left the position counts as
    /// mated (length 0), as the PV ends there.
    pub(super) fn and_proof<'r>(
        &self,
        pos: &G,
        evasions: impl Iterator<Item = (&'r NodeResult, bool)>,
        hand: &Hand,
    ) -> (u16, Hand) {
        let mut pp = Hand::EMPTY;
        let mut len: Option<u16> = None;
        for (res, futile) in evasions {
            pp = pp.max(&res.hand);
            if !futile {
                len = Some(len.unwrap_or(0).max(res.len));
            }
        }
        (
            len.map_or(0, |l| l.saturating_add(1)),
            self.and_proof_hand(pos, pp, hand),
        )
    }
}
