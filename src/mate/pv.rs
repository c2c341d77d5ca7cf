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

use super::dfpn::{Solver, MAX_PLY};
use super::table::INF;
use super::{verify_mate_line, MateGame};

/// The PV of the proven root and whether it was shown to be the shortest.
pub fn shortest_pv<G: MateGame>(
    solver: &mut Solver<'_, G>,
    root: &G,
    shortest: bool,
) -> (Option<Vec<G::Move>>, bool) {
    solver.extend_budget();
    let Some(mut pv) = extract(solver, root) else {
        return (None, false);
    };
    let mut proven_shortest = pv.len() <= 1;
    if shortest {
        solver.extend_budget();
        while pv.len() >= 3 && !solver.aborted() {
            let bound = pv.len() as u32 - 2;
            solver.set_max_ply(bound);
            solver.path.clear();
            let r = solver.mid(root, 0, INF, INF);
            if r.pn == 0 {
                match extract(solver, root) {
                    Some(p) if p.len() < pv.len() => pv = p,
                    _ => break,
                }
            } else if r.dn == 0 && !solver.aborted() {
                // No mate within the bound (path-dependent disproofs inside are trusted here:
                // they only concern repetitions, which cannot shorten a mate).
                proven_shortest = true;
                break;
            } else {
                break;
            }
        }
        solver.set_max_ply(MAX_PLY);
    }
    (Some(pv), proven_shortest)
}

/// Reads the PV from the table under the current length bound. `None` when a position on it
/// cannot be (re-)proven within the budget.
fn extract<G: MateGame>(solver: &mut Solver<'_, G>, root: &G) -> Option<Vec<G::Move>> {
    solver.path.clear();
    let line = walk(solver, root);
    solver.path.clear();
    let line = line?;
    verify_mate_line(root, &line).ok()?;
    Some(line)
}

fn walk<G: MateGame>(solver: &mut Solver<'_, G>, root: &G) -> Option<Vec<G::Move>> {
    let mut line = Vec::new();
    let mut cur = root.clone();
    let mut ply = 0u32;
    loop {
        let or = ply % 2 == 0;
        let moves = solver.node_moves(&cur, ply);
        if moves.is_empty() {
            // Mate at an AND node; no check at an OR node means the proof was lost.
            return if or { None } else { Some(line) };
        }
        if ply >= MAX_PLY {
            return None;
        }
        solver.path.push(cur.key());
        let mut scored = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let child = cur.play(mv);
            let r = solver.probe(&child, ply + 1);
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
            for (_, child, r) in scored.iter_mut() {
                if r.pn != 0 {
                    *r = solver.mid(child, ply + 1, INF, INF);
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
            // Longest defence; of equal ones, not a drop.
            scored
                .iter()
                .max_by_key(|(mv, _, r)| (r.len, !cur.is_drop(*mv)))
        };
        let (mv, child, _) = best?;
        line.push(*mv);
        cur = child.clone();
        ply += 1;
    }
}
