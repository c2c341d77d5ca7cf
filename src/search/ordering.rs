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

/// How many moves are chosen by selection before the rest is sorted once. Most cut nodes fail high
/// on one of the first few moves, where a selection step is cheapest; all-nodes try every move, and
/// selecting each of a shogi position's 100+ moves one at a time (quadratic) took 18% of the shogi
/// bench's time.
const SELECT_FIRST: usize = 4;

/// Reusable buffers for sorting the moves left after the selection phase (one per search thread).
pub struct SortScratch<M> {
    keys: Vec<u64>,
    moves: Vec<M>,
}

impl<M> SortScratch<M> {
    pub fn new() -> Self {
        SortScratch {
            keys: Vec::new(),
            moves: Vec::new(),
        }
    }
}

impl<M> Default for SortScratch<M> {
    fn default() -> Self {
        Self::new()
    }
}

/// Returns the best-scored move at or after `from`, moved to position `from`. Callers step `from`
/// through 0, 1, 2, ... in order: the first `SELECT_FIRST` calls select, the next one sorts the
/// rest (by score descending, ties in their order in the list, so searches stay deterministic) and later
/// calls just read the next entry.
pub fn pick<M: Copy>(
    moves: &mut [M],
    scores: &mut [i32],
    from: usize,
    scratch: &mut SortScratch<M>,
) -> Option<(M, i32)> {
    if from >= moves.len() {
        return None;
    }
    if from < SELECT_FIRST {
        let mut best = from;
        for i in from + 1..moves.len() {
            if scores[i] > scores[best] {
                best = i;
            }
        }
        moves.swap(from, best);
        scores.swap(from, best);
    } else if from == SELECT_FIRST && moves.len() - from > 1 {
        sort_rest(moves, scores, from, scratch);
    }
    Some((moves[from], scores[from]))
}

/// Sorts `moves[from..]` and `scores[from..]` together by score, highest first, ties by position.
fn sort_rest<M: Copy>(
    moves: &mut [M],
    scores: &mut [i32],
    from: usize,
    scratch: &mut SortScratch<M>,
) {
    // One u64 per move: the inverted biased score above, the index below, so an ascending sort of
    // plain integers gives descending scores with ties in order.
    scratch.keys.clear();
    for (i, &s) in scores.iter().enumerate().skip(from) {
        let biased = (s as i64 - i32::MIN as i64) as u64;
        scratch.keys.push(((0xFFFF_FFFF - biased) << 32) | i as u64);
    }
    scratch.keys.sort_unstable();
    scratch.moves.clear();
    scratch.moves.extend_from_slice(&moves[from..]);
    for (j, &k) in scratch.keys.iter().enumerate() {
        let i = (k & 0xFFFF_FFFF) as usize;
        moves[from + j] = scratch.moves[i - from];
        scores[from + j] = ((0xFFFF_FFFF - (k >> 32)) as i64 + i32::MIN as i64) as i32;
    }
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
        let mut scratch = SortScratch::new();
        while let Some((m, s)) = pick(&mut moves, &mut scores, i, &mut scratch) {
            got.push((m, s));
            i += 1;
        }
        let s: Vec<i32> = got.iter().map(|x| x.1).collect();
        assert_eq!(s, vec![50, 50, 10, 7, -3]);
    }

    #[test]
    fn pick_keeps_moves_with_their_scores_past_the_selection_phase() {
        // 60 moves, scores spread over the whole i32 range with ties: every pick must return the
        // highest remaining score, with the move that was generated with it.
        let n = 60;
        let mut x = 12345u64;
        let mut moves: Vec<usize> = (0..n).collect();
        let mut scores: Vec<i32> = (0..n)
            .map(|i| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                match i % 7 {
                    0 => i32::MIN,
                    1 => i32::MAX,
                    2 => 42,
                    _ => (x >> 32) as i32,
                }
            })
            .collect();
        let original = scores.clone();
        let mut expected = scores.clone();
        expected.sort_unstable_by(|a, b| b.cmp(a));
        let mut scratch = SortScratch::new();
        let mut got = vec![];
        let mut i = 0;
        while let Some((m, s)) = pick(&mut moves, &mut scores, i, &mut scratch) {
            assert_eq!(original[m], s, "move {m} lost its score");
            got.push((m, s));
            i += 1;
        }
        assert_eq!(got.iter().map(|g| g.1).collect::<Vec<_>>(), expected);
        let mut seen: Vec<usize> = got.iter().map(|g| g.0).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..n).collect::<Vec<_>>());
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
