//! Kawano's simulation (Kawano 1996, as in GPS/OSL's solver): prove a position by replaying the
//! proof already found for a similar one, instead of searching it.
//!
//! Why: in long tsume the defender often interposes on one square with one hand piece after
//! another, and each interposition is refuted the same way (capture it, then the same mating
//! net). Delayed expansion searches them one after another, but each later one was still a
//! full df-pn search: on Zukou #001, 95% of the nodes to the first proof went to interpositions
//! whose earlier sibling (the same square, another piece) was already proven. The replay walks
//! the sibling's proof tree in the table: at an OR node it plays the move that proved the
//! sibling's corresponding node, at an AND node it must refute every evasion, each with the
//! sibling's proof for the same evasion. Any step that does not map (a check that is not legal
//! here, an evasion the sibling did not have, a proof no longer in the table) ends the replay
//! with nothing stored but the proofs of the subtrees it completed, and df-pn searches the node
//! as before. A successful replay stores ordinary proofs (proof hand, mate length) computed as
//! `mid` computes them, so everything downstream (PV reading, the shortest-mate search) reads
//! them like any other.

use super::{Child, NodeResult, Solver, INDEPENDENT};
use crate::mate::table::INF;
use crate::mate::{Hand, MateGame};

/// Nodes one replay may visit. A replay that maps visits about as many nodes as the sibling's
/// proof tree has; one that does not map usually fails within a few plies. The cap bounds what
/// a replay of a huge proof costs when it fails deep down.
const REPLAY_BUDGET: u32 = 20_000;

impl<G: MateGame> Solver<'_, G> {
    /// At an AND node at `ply`, before `best` (an interposition) is searched: once per frame,
    /// when a sibling of its delayed-expansion group is proven, tries that sibling's proof.
    /// Returns whether `best` is now proven.
    pub(super) fn replay_child(
        &mut self,
        children: &mut [Child<G>],
        best: usize,
        ply: u32,
    ) -> bool {
        if children[best].replayed {
            return false;
        }
        children[best].replayed = true;
        let Some(m) = Self::proven_sibling(children, best) else {
            return false;
        };
        let (c, model) = (&children[best], &children[m]);
        let r = if c.futile {
            self.unbounded(|s| s.simulate(&c.pos, &model.pos, ply + 1))
        } else {
            self.simulate(&c.pos, &model.pos, ply + 1)
        };
        let Some(r) = r else {
            return false;
        };
        self.replayed += 1;
        children[best].res = r;
        if let Some(g) = children[best].group {
            Self::activate(children, g);
        }
        true
    }

    /// A proven child of `best`'s delayed-expansion group: the last one that moved to the same
    /// square if any (the futile group spans squares, and a proof maps best onto a sibling that
    /// put another piece on the same square), else the last one.
    fn proven_sibling(children: &[Child<G>], best: usize) -> Option<usize> {
        let g = children[best].group?;
        let proven = |c: &Child<G>| c.group == Some(g) && c.res.pn == 0;
        let to = children[best].to;
        children
            .iter()
            .rposition(|c| proven(c) && c.to == to)
            .or_else(|| children.iter().rposition(proven))
    }

    /// Tries to prove `pos`, an OR node at `ply`, by replaying the proof of `model` (a proven
    /// sibling position). Returns the proof, stored in the table, or `None`.
    fn simulate(&mut self, pos: &G, model: &G, ply: u32) -> Option<NodeResult> {
        let mut budget = REPLAY_BUDGET;
        self.replay_or(pos, model, ply, &mut budget)
    }

    /// Counts a replayed node against the solve's budget and the replay's.
    fn replay_step(&mut self, budget: &mut u32) -> bool {
        if *budget == 0 || self.aborted {
            return false;
        }
        *budget -= 1;
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.out_of_budget() {
            self.aborted = true;
        }
        true
    }

    fn replay_or(&mut self, pos: &G, model: &G, ply: u32, budget: &mut u32) -> Option<NodeResult> {
        let (r, _) = self.probe_found(pos, ply);
        if r.pn == 0 {
            return Some(r);
        }
        if r.dn == 0 || self.plies_left(ply) == 0 || !self.replay_step(budget) {
            return None;
        }
        let mut checks = Vec::with_capacity(64);
        pos.check_moves(&mut checks);
        let mut found = None;
        for mv in self.proof_moves(model, ply) {
            if !checks.contains(&mv) {
                continue;
            }
            let child = pos.play(mv);
            let model_child = model.play(mv);
            self.push_path(pos);
            let r = self.replay_and(&child, &model_child, ply + 1, budget);
            self.path.pop();
            if let Some(r) = r {
                found = Some((mv, r));
                break;
            }
        }
        let (mv, r) = found?;
        let (len, hand) = Self::or_proof(&r, pos.hand_effect(mv), &pos.hand(self.attacker));
        Some(self.store_replayed(pos, len, hand))
    }

    /// Stores the replayed proof of `pos` (its mate length and proof hand) and returns it.
    fn store_replayed(&mut self, pos: &G, len: u16, hand: Hand) -> NodeResult {
        self.table
            .store(pos.board_key(), hand, 0, INF, len, false, 1);
        NodeResult {
            pn: 0,
            dn: INF,
            len,
            hand,
            dep: INDEPENDENT,
        }
    }

    fn replay_and(&mut self, pos: &G, model: &G, ply: u32, budget: &mut u32) -> Option<NodeResult> {
        let (r, _) = self.probe_found(pos, ply);
        if r.pn == 0 {
            return Some(r);
        }
        if r.dn == 0 || !self.replay_step(budget) {
            return None;
        }
        let hand = pos.hand(self.attacker);
        let mut moves = Vec::with_capacity(64);
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            let pp = self.store_mated(pos, pos.board_key());
            return Some(NodeResult {
                pn: 0,
                dn: INF,
                len: 0,
                hand: pp,
                dep: INDEPENDENT,
            });
        }
        let mut model_moves = Vec::with_capacity(64);
        model.legal_moves(&mut model_moves);
        self.push_path(pos);
        let mut proofs = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let child = pos.play(mv);
            let futile = pos.is_futile(mv, self.futile);
            let r = if futile {
                self.unbounded(|s| s.replay_evasion(&child, model, &model_moves, mv, ply, budget))
            } else {
                self.replay_evasion(&child, model, &model_moves, mv, ply, budget)
            };
            match r {
                Some(r) => proofs.push((r, futile)),
                None => break,
            }
        }
        self.path.pop();
        if proofs.len() < moves.len() {
            return None;
        }
        let (len, hand) = self.and_proof(pos, proofs.iter().map(|(r, f)| (r, *f)), &hand);
        Some(self.store_replayed(pos, len, hand))
    }

    /// The proof of `child`, the position after the evasion `mv` of an AND node at `ply`: the
    /// model's proof for the same evasion replayed, or, for an evasion the model did not have,
    /// what the table or a mate-in-one test says.
    fn replay_evasion(
        &mut self,
        child: &G,
        model: &G,
        model_moves: &[G::Move],
        mv: G::Move,
        ply: u32,
        budget: &mut u32,
    ) -> Option<NodeResult> {
        if model_moves.contains(&mv) {
            return self.replay_or(child, &model.play(mv), ply + 1, budget);
        }
        let key = child.board_key();
        let (r, found) = self.probe_keyed(child, key, ply + 1);
        if r.pn == 0 {
            return Some(r);
        }
        if found || !self.replay_step(budget) {
            return None;
        }
        self.leaf_mate(child, key, ply + 1, false)
    }

    /// The check that proved `model` (an OR node at `ply`, proven in the table): its proven
    /// child with the shortest mate.
    fn proof_moves(&self, model: &G, ply: u32) -> Vec<G::Move> {
        let mut checks = Vec::with_capacity(64);
        model.check_moves(&mut checks);
        let mut proven: Vec<(u16, G::Move)> = checks
            .into_iter()
            .filter_map(|m| {
                let r = self.probe(&model.play(m), ply + 1);
                (r.pn == 0).then_some((r.len, m))
            })
            .collect();
        proven.sort_by_key(|&(len, _)| len);
        proven.into_iter().map(|(_, m)| m).collect()
    }
}
