//! The principal variation of a proven mate: the shortest mate the solver can establish, with the
//! longest defence.
//!
//! The first proof df-pn finds is not the shortest. Table entries of proven positions carry the
//! length of their proof, so after the root is proven the PV is read from the table (the
//! attacker's shortest proven check, the defender's longest proven evasion, re-proving positions
//! whose entries were replaced). Then the root is searched again with a length bound of the PV's
//! length minus two; each success gives a shorter PV, and a failure (no mate within the bound)
//! shows the PV is the shortest. Between evasions of equal length the PV prefers moves that are
//! not drops, so interpositions that only lengthen the line appear only when they are needed.
//! Futile interpositions ([`MateGame::is_futile`]) are no defence by the convention of mate
//! problems: the PV never plays one, and it ends where only such moves are left. The proof still
//! refutes them (without the length bound below them), but the solver's lengths do not count
//! them, so the bound the shortest-mate search tightens is the length of such a PV.

use super::dfpn::{NodeResult, Solver, MAX_PLY};
use super::table::INF;
use super::{verify_mate_line_with, MateGame};

/// The PV of the proven root and whether its length was shown to be the shortest.
///
/// Budget: the PV of the first proof is read at once (with a small grace, see
/// [`Solver::grant_pv_grace`]), so a proof found near the limit is answered; the shortest-mate
/// search and the PV read under its bound get only what is left of the budget, and when they do
/// not finish the first PV is the answer (a mate line whose defences are the table's longest,
/// which need not be the longest there are).
pub fn shortest_pv<G: MateGame>(
    solver: &mut Solver<'_, G>,
    root: &G,
    shortest: bool,
) -> (Option<Vec<G::Move>>, bool) {
    solver.grant_pv_grace();
    let first = extract(solver, root);
    solver.restore_budget();
    // The length of the proof found bounds the mate length from above; tighten it. (Not the
    // first PV's length: its defences are the table's longest, which may not be the longest.)
    let mut bound = u32::from(solver.probe(root, 0).len);
    let mut proven_shortest = bound <= 1;
    if !shortest {
        // The first proof's line is the answer: no re-read under its length bound (that read
        // searches every defence again with a bound two plies tighter, for the longest one, and
        // took the whole budget on Zukou #017, #073, #093 and #097: docs/mate.md §27).
        let shortest = proven_shortest && first.as_ref().is_some_and(|p| p.len() as u32 == bound);
        return (first, shortest);
    }
    while shortest && bound >= 3 && !solver.aborted() {
        solver.set_max_ply(bound - 2);
        solver.path.clear();
        let r = solver.mid(root, 0, INF, INF);
        if r.pn == 0 {
            bound = u32::from(r.len).min(bound - 2);
        } else if r.dn == 0 && !solver.aborted() {
            // No mate within the tighter bound (path-dependent disproofs inside are trusted
            // here: they concern repetitions, which cannot shorten a mate).
            proven_shortest = true;
            break;
        } else {
            break;
        }
    }
    // Read the PV under the final bound (the longest defence is searched again under it), with
    // what is left; the first PV stands when this cannot be done in time.
    solver.set_max_ply(bound.max(1));
    let mut pv = extract(solver, root);
    solver.set_max_ply(MAX_PLY);
    if pv.is_none() {
        pv = first;
    }
    if pv.as_ref().is_some_and(|p| p.len() as u32 != bound) {
        proven_shortest = false;
    }
    (pv, proven_shortest)
}

/// Reads the PV from the table under the current length bound. `None` when a position on it
/// cannot be (re-)proven within the budget.
fn extract<G: MateGame>(solver: &mut Solver<'_, G>, root: &G) -> Option<Vec<G::Move>> {
    solver.path.clear();
    let line = walk(solver, root);
    solver.path.clear();
    let line = line?;
    verify_mate_line_with(root, &line, solver.futile_rule()).ok()?;
    Some(line)
}

fn walk<G: MateGame>(solver: &mut Solver<'_, G>, root: &G) -> Option<Vec<G::Move>> {
    let mut line = Vec::new();
    let mut cur = root.clone();
    let mut ply = 0u32;
    let rule = solver.futile_rule();
    loop {
        let or = ply.is_multiple_of(2);
        let moves = solver.node_moves(&cur, ply);
        // Mate at an AND node, also when only futile interpositions are left (they are no
        // defence by the convention of mate problems); no check at an OR node means the proof
        // was lost.
        if moves.is_empty() || (!or && moves.iter().all(|&mv| cur.is_futile(mv, rule))) {
            return if or { None } else { Some(line) };
        }
        if ply >= MAX_PLY {
            return None;
        }
        solver.push_path(&cur);
        let mut scored = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let child = cur.play(mv);
            let r = if !or && cur.is_futile(mv, rule) {
                solver.unbounded(|s| s.probe(&child, ply + 1))
            } else {
                solver.probe(&child, ply + 1)
            };
            scored.push((mv, child, r));
        }
        if or && scored.iter().all(|(_, _, r)| r.pn != 0) {
            // The proving entry was replaced: prove again, first the most promising checks.
            scored.sort_by_key(|(_, _, r)| r.pn);
            for (_, child, r) in scored.iter_mut() {
                if r.dn == 0 {
                    continue;
                }
                *r = solver.mid(child, ply + 1, INF, INF);
                if r.pn == 0 || solver.aborted() {
                    break;
                }
            }
        }
        if !or {
            for (mv, child, r) in scored.iter_mut() {
                if r.pn != 0 {
                    *r = if cur.is_futile(*mv, rule) {
                        solver.unbounded(|s| s.mid(child, ply + 1, INF, INF))
                    } else {
                        solver.mid(child, ply + 1, INF, INF)
                    };
                    if r.pn != 0 {
                        return None;
                    }
                }
            }
        }
        let best = if or {
            scored
                .iter()
                .filter(|(_, _, r)| r.pn == 0)
                .min_by_key(|(_, _, r)| r.len)
        } else {
            // Every evasion is proven above (the proof needs them all); the line follows only
            // those that are a defence.
            scored.retain(|(mv, _, _)| !cur.is_futile(*mv, rule));
            longest_defence(solver, &cur, ply, &scored)
        };
        let (mv, child, _) = best?;
        line.push(*mv);
        cur = child.clone();
        ply += 1;
    }
}

/// The defender's choice at an AND node on the PV: an evasion after which no mate is shorter
/// than the bound allows. Table lengths are only those of the proofs found (upper bounds), so
/// under a length bound each evasion, longest first by the table, is searched again with a bound
/// two plies tighter; the first that is not mate within it is a longest defence. Without a bound
/// (or when every evasion is mate sooner) the table's longest is taken. Of equal candidates, not
/// a drop.
fn longest_defence<'s, G: MateGame>(
    solver: &mut Solver<'_, G>,
    cur: &G,
    ply: u32,
    scored: &'s [(G::Move, G, NodeResult)],
) -> Option<&'s (G::Move, G, NodeResult)> {
    let mut order: Vec<&(G::Move, G, NodeResult)> = scored.iter().collect();
    order.sort_by_key(|(mv, _, r)| std::cmp::Reverse((r.len, !cur.is_drop(*mv))));
    let bound = solver.max_ply();
    if bound < MAX_PLY && solver.plies_left(ply) >= 3 && order.len() > 1 {
        for &cand in &order {
            if solver.aborted() {
                break;
            }
            solver.set_max_ply(bound - 2);
            let r = solver.mid(&cand.1, ply + 1, INF, INF);
            solver.set_max_ply(bound);
            if r.dn == 0 && !solver.aborted() {
                return Some(cand);
            }
        }
    }
    order.first().copied()
}
