//! Move ordering: the TT move, good captures by SEE and MVV-LVA, killer moves (two per ply), the
//! counter-move of the opponent's last move, the history heuristic for quiet moves, bad captures last.

use crate::game::Game;

/// Ordering tables kept per search thread (history survives between searches, halved each time).
pub struct OrderingTables {
    pub history: Vec<i32>,
    /// counter[history_index of the previous move] = the quiet reply that refuted it (packed).
    pub counter: Vec<u16>,
}

const HISTORY_MAX: i32 = 16_384;

impl OrderingTables {
    pub fn new(size: usize) -> Self {
        OrderingTables {
            history: vec![0; size],
            counter: vec![0; size],
        }
    }

    pub fn age(&mut self) {
        for h in &mut self.history {
            *h /= 2;
        }
    }

    pub fn clear(&mut self) {
        self.history.fill(0);
        self.counter.fill(0);
    }

    /// History gravity: bonuses shrink as the entry nears the maximum, so values stay bounded.
    pub fn update_history(&mut self, index: usize, bonus: i32) {
        if let Some(h) = self.history.get_mut(index) {
            let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
            *h += b - *h * b.abs() / HISTORY_MAX;
        }
    }
}

pub const SCORE_TT: i32 = 1 << 30;
pub const SCORE_GOOD_CAPTURE: i32 = 1 << 28;
pub const SCORE_KILLER1: i32 = (1 << 27) + 2;
pub const SCORE_KILLER2: i32 = (1 << 27) + 1;
pub const SCORE_COUNTER: i32 = 1 << 27;
pub const SCORE_BAD_CAPTURE: i32 = -(1 << 28);

/// Scores `moves` into `scores` for selection: the caller picks the best remaining one at a time, so
/// a cutoff on an early move saves scoring work only in `pick`, not here (SEE is computed for
/// captures once).
#[allow(clippy::too_many_arguments)]
pub fn score_moves<G: Game>(
    pos: &G,
    moves: &[G::Move],
    scores: &mut Vec<i32>,
    tt_move: u16,
    killers: [u16; 2],
    counter: u16,
    tables: &OrderingTables,
) {
    scores.clear();
    for &mv in moves {
        let code = G::encode_move(mv);
        let s = if code == tt_move && tt_move != 0 {
            SCORE_TT
        } else if pos.is_tactical(mv) {
            let mvv_lva = pos.victim_value(mv) * 16 - pos.attacker_value(mv) / 16;
            if pos.see(mv) >= 0 {
                SCORE_GOOD_CAPTURE + mvv_lva
            } else {
                SCORE_BAD_CAPTURE + mvv_lva
            }
        } else if code == killers[0] {
            SCORE_KILLER1
        } else if code == killers[1] {
            SCORE_KILLER2
        } else if code == counter && counter != 0 {
            SCORE_COUNTER
        } else {
            tables.history[pos.history_index(mv)]
        };
        scores.push(s);
    }
}

/// Moves the best-scored move at or after `from` to position `from` and returns it.
pub fn pick<M: Copy>(moves: &mut [M], scores: &mut [i32], from: usize) -> Option<(M, i32)> {
    if from >= moves.len() {
        return None;
    }
    let mut best = from;
    for i in from + 1..moves.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.swap(from, best);
    scores.swap(from, best);
    Some((moves[from], scores[from]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_returns_moves_in_descending_score_order() {
        let mut moves = vec![1, 2, 3, 4, 5];
        let mut scores = vec![10, 50, -3, 50, 7];
        let mut got = vec![];
        let mut i = 0;
        while let Some((m, s)) = pick(&mut moves, &mut scores, i) {
            got.push((m, s));
            i += 1;
        }
        let s: Vec<i32> = got.iter().map(|x| x.1).collect();
        assert_eq!(s, vec![50, 50, 10, 7, -3]);
    }

    #[test]
    fn history_stays_bounded() {
        let mut t = OrderingTables::new(4);
        for _ in 0..10_000 {
            t.update_history(1, 4000);
        }
        assert!(t.history[1] <= HISTORY_MAX);
        for _ in 0..10_000 {
            t.update_history(1, -4000);
        }
        assert!(t.history[1] >= -HISTORY_MAX);
    }
}
