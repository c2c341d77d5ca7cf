//! Move ordering: the TT move, good captures by SEE and MVV-LVA, killer moves (two per ply), the
//! counter-move of the opponent's last move, the history heuristic for quiet moves (plus, in the
//! play search, continuation histories: the history of a move given the move one and two plies
//! before it), bad captures last.

use crate::game::Game;

/// Ordering tables kept per search thread (history survives between searches, halved each time).
pub struct OrderingTables {
    pub history: Vec<i32>,
    /// counter[history_index of the previous move] = the quiet reply that refuted it (packed).
    pub counter: Vec<u16>,
    /// Continuation history: `cont[prev · size + index]` is the history of the quiet move `index`
    /// played one or two plies after the move `prev` (both `Game::history_index` values; one table
    /// for both distances, as the pairs rarely collide in meaning). Empty when the tables are
    /// built without it (`new`): the learners build a searcher per leaf, and a shogi table is
    /// 2268² entries (10 MB), so only the play search's long-lived tables carry one.
    pub cont: Vec<i16>,
    /// Capture history: `capture[history_index · kinds + captured_kind]`, how often the capture
    /// (moving piece, target, captured kind) cut off; orders captures within the SEE bands.
    /// Empty without continuation history (the learners' tables).
    pub capture: Vec<i16>,
    /// Correction histories: `corr[row · CORR_SIZE + key % CORR_SIZE]`, the running average of
    /// (search result − static evaluation) at nodes of that key, within ±`CORR_MAX`. Rows 0–1:
    /// the side to move's pawn structure (`CorrHist`); rows 2–5 (`corr_row`): side to move ×
    /// colour, that colour's other pieces (`CorrNonPawn`); rows 6–7 (`corr_cont_row`): the
    /// side to move's last two moves (`CorrCont`). Empty in the learners' tables (their
    /// searches must give the same value for the same position whatever was searched before).
    pub corr: Vec<i16>,
    size: usize,
    kinds: usize,
}

const HISTORY_MAX: i32 = 16_384;
/// Correction-history entries per side (Stockfish's 16,384).
pub const CORR_SIZE: usize = 16_384;
/// The bound of a correction-history entry; one update moves it by at most a quarter of it.
pub const CORR_MAX: i32 = 1024;
/// Rows of the correction tables: pawns per side to move, then non-pawn pieces per side to
/// move and colour, then the last two moves per side to move.
const CORR_ROWS: usize = 8;

/// The correction-history row of `colour`'s non-pawn pieces seen by side to move `stm`.
#[inline]
pub fn corr_row(stm: usize, colour: usize) -> usize {
    2 + 2 * stm + colour
}

/// The correction-history row of the last two moves seen by side to move `stm` (`CorrCont`).
#[inline]
pub fn corr_cont_row(stm: usize) -> usize {
    6 + stm
}

/// History gravity: bonuses shrink as the entry nears the maximum, so values stay bounded.
#[inline]
fn gravity(h: i32, bonus: i32) -> i32 {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    h + b - h * b.abs() / HISTORY_MAX
}

impl OrderingTables {
    /// Tables for `size` history indices, without continuation history.
    pub fn new(size: usize) -> Self {
        OrderingTables {
            history: vec![0; size],
            counter: vec![0; size],
            cont: Vec::new(),
            capture: Vec::new(),
            corr: Vec::new(),
            size,
            kinds: 0,
        }
    }

    /// The play search's tables: with continuation and capture histories (`kinds`: the game's
    /// `CAPTURE_KINDS`).
    pub fn for_play(size: usize, kinds: usize) -> Self {
        OrderingTables {
            cont: vec![0; size * size],
            capture: vec![0; size * kinds],
            corr: vec![0; CORR_ROWS * CORR_SIZE],
            kinds,
            ..Self::new(size)
        }
    }

    pub fn age(&mut self) {
        for h in &mut self.history {
            *h /= 2;
        }
        for h in self.cont.iter_mut().chain(self.capture.iter_mut()) {
            *h /= 2;
        }
    }

    pub fn clear(&mut self) {
        self.history.fill(0);
        self.counter.fill(0);
        self.cont.fill(0);
        self.capture.fill(0);
        self.corr.fill(0);
    }

    /// The correction-history slot of `key` in `row` (below `CORR_ROWS`).
    #[inline]
    fn corr_slot(row: usize, key: u64) -> usize {
        // The key's top bits: the low ones of a multiplicative hash mix least.
        row * CORR_SIZE + (key >> 50) as usize % CORR_SIZE
    }

    /// The correction-history entry of `key` in `row` (0 without the table).
    #[inline]
    pub fn corr_entry(&self, row: usize, key: u64) -> i32 {
        self.corr
            .get(Self::corr_slot(row, key))
            .map_or(0, |&v| v as i32)
    }

    /// Moves the correction-history entry toward `diff` (search result − static evaluation) with
    /// weight `depth`: the step (diff·depth/8, within ±CORR_MAX/4) shrinks as the entry nears
    /// ±CORR_MAX (the histories' gravity), so the entry is a decaying average of the steps.
    pub fn update_corr(&mut self, row: usize, key: u64, diff: i32, depth: i32) {
        if let Some(h) = self.corr.get_mut(Self::corr_slot(row, key)) {
            let b = (diff.saturating_mul(depth) / 8).clamp(-CORR_MAX / 4, CORR_MAX / 4);
            let v = *h as i32;
            // |v + b − v·|b|/CORR_MAX| ≤ CORR_MAX, so the narrowing is exact.
            *h = (v + b - v * b.abs() / CORR_MAX) as i16;
        }
    }

    pub fn update_history(&mut self, index: usize, bonus: i32) {
        if let Some(h) = self.history.get_mut(index) {
            *h = gravity(*h, bonus);
        }
    }

    /// The continuation-history row of the move `prev` (empty without continuation history or
    /// without a previous move, e.g. after a null move).
    #[inline]
    pub fn cont_row(&self, prev: usize) -> &[i16] {
        let start = prev.wrapping_mul(self.size);
        if prev < self.size && start + self.size <= self.cont.len() {
            &self.cont[start..start + self.size]
        } else {
            &[]
        }
    }

    /// Moves the continuation history of `index` after `prev` by `bonus` (no-op without one).
    #[inline]
    pub fn update_cont(&mut self, prev: usize, index: usize, bonus: i32) {
        if prev < self.size && index < self.size {
            if let Some(h) = self.cont.get_mut(prev * self.size + index) {
                // |gravity| ≤ HISTORY_MAX < i16::MAX, so the narrowing is exact.
                *h = gravity(*h as i32, bonus) as i16;
            }
        }
    }
}

impl OrderingTables {
    /// The capture history of a capture (`index` its history index, `kind` what it takes);
    /// 0 without one.
    #[inline]
    pub fn capture_score(&self, index: usize, kind: usize) -> i32 {
        if kind < self.kinds {
            self.capture
                .get(index * self.kinds + kind)
                .map_or(0, |&v| v as i32)
        } else {
            0
        }
    }

    /// Moves the capture history of a capture by `bonus` (no-op without one).
    #[inline]
    pub fn update_capture(&mut self, index: usize, kind: usize, bonus: i32) {
        if kind < self.kinds && index < self.size {
            if let Some(h) = self.capture.get_mut(index * self.kinds + kind) {
                *h = gravity(*h as i32, bonus) as i16;
            }
        }
    }
}

/// The continuation-history rows a quiet move is scored with: after the moves one, two, four
/// and six plies back (empty slices where there are none or the search does not look that far).
pub type ContRows<'a> = [&'a [i16]; 4];

/// The quiet-move ordering score: the move's history plus its continuation histories (`rows`).
#[inline]
pub fn quiet_score(tables: &OrderingTables, rows: ContRows, index: usize) -> i32 {
    tables.history[index]
        + rows
            .iter()
            .map(|r| r.get(index).map_or(0, |&v| v as i32))
            .sum::<i32>()
}

/// What the move ordering adds to its standard scores, each off by default: the capture slack
/// (a capture counts as good when its SEE is at least minus this percentage of the victim's
/// value, as Stockfish's picker compares SEE with minus its capture score), the escape
/// and check bonuses and the en-prise malus of the moves being scored (`Game::escape_classes`,
/// one class per move; empty when off), and Stockfish 15.1's weights (the main history and the
/// continuation history of the previous move counted twice).
#[derive(Clone, Copy)]
pub struct OrderTerms<'a> {
    pub classes: &'a [u8],
    pub bonus: [i32; 4],
    pub check: i32,
    /// The malus of each en-prise level (`Game::escape_classes`, bits 3–5).
    pub malus: [i32; 8],
    /// Count the main history and the previous move's continuation history twice.
    pub recent_twice: bool,
    /// Percent of the victim's value a good capture's SEE may lose (0: SEE ≥ 0).
    pub capture_slack: i32,
}

impl OrderTerms<'_> {
    /// No term.
    pub const NONE: OrderTerms<'static> = OrderTerms {
        classes: &[],
        bonus: [0; 4],
        check: 0,
        malus: [0; 8],
        recent_twice: false,
        capture_slack: 0,
    };

    /// The bonus (less the malus) of a quiet move of class `c`.
    #[inline]
    pub fn of(&self, c: u8) -> i32 {
        self.bonus[(c & 3) as usize] - self.malus[((c >> crate::game::EN_PRISE_SHIFT) & 7) as usize]
            + if c & crate::game::CHECK_CLASS != 0 {
                self.check
            } else {
                0
            }
    }

    /// Stockfish 15.1's bonuses for a minor, rook and queen escape, scaled by `pct` percent.
    pub fn bonus_for(pct: i32) -> [i32; 4] {
        [0, 15_000, 25_000, 50_000].map(|b| b * pct / 100)
    }

    /// Stockfish 16's malus for putting an unthreatened piece en prise, per level, scaled by
    /// `pct` percent: a minor onto a pawn's square 15,000; a rook onto a minor's / pawn's 25,000 /
    /// 35,000; a queen onto a rook's / minor's / pawn's 50,000 / 60,000 / 80,000.
    pub fn malus_for(pct: i32) -> [i32; 8] {
        [0, 15_000, 25_000, 35_000, 50_000, 60_000, 80_000, 0].map(|b| b * pct / 100)
    }
}

/// MVV-LVA: the most valuable victim first, the least valuable attacker breaking ties. The
/// capture order of quiescence and ProbCut, and the base of the main search's capture score.
#[inline]
pub fn mvv_lva<G: Game>(pos: &G, mv: G::Move) -> i32 {
    pos.victim_value(mv) * 16 - pos.attacker_value(mv) / 16
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
    rows: ContRows,
    terms: OrderTerms,
) {
    scores.clear();
    for (i, &mv) in moves.iter().enumerate() {
        let code = G::encode_move(mv);
        let s = if code == tt_move && tt_move != 0 {
            SCORE_TT
        } else if pos.is_tactical(mv) {
            // MVV-LVA, moved by the capture history by up to half a queen's MVV step.
            let mvv_lva = mvv_lva(pos, mv)
                + tables.capture_score(pos.history_index(mv), pos.captured_kind(mv)) / 2;
            let slack = if terms.capture_slack > 0 {
                pos.victim_value(mv) * terms.capture_slack / 100
            } else {
                0
            };
            if pos.see(mv) >= -slack {
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
            let index = pos.history_index(mv);
            let twice = if terms.recent_twice {
                tables.history[index] + rows[0].get(index).map_or(0, |&v| v as i32)
            } else {
                0
            };
            quiet_score(tables, rows, index)
                + twice
                + terms.classes.get(i).map_or(0, |&c| terms.of(c))
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
    fn correction_history_follows_the_errors_and_stays_bounded() {
        let mut t = OrderingTables::for_play(8, 2);
        let key = 0xDEAD_BEEF_0123_4567u64;
        // The search keeps finding +200 where the evaluation said 0, at depth 8: each step is
        // 200·8/8 = 200, within the quarter bound.
        t.update_corr(0, key, 200, 8);
        assert_eq!(t.corr_entry(0, key), 200);
        // The other rows and another structure are untouched.
        for row in 1..CORR_ROWS {
            assert_eq!(t.corr_entry(row, key), 0);
        }
        assert_eq!(corr_row(1, 1), corr_cont_row(0) - 1);
        assert_eq!(corr_cont_row(1), CORR_ROWS - 1);
        assert_eq!(t.corr_entry(0, key ^ (1 << 60)), 0);
        for _ in 0..1000 {
            t.update_corr(0, key, 30_000, 64);
        }
        let v = t.corr_entry(0, key);
        assert!(v > 900 && v <= CORR_MAX, "{v}");
        // Errors the other way bring it back down.
        for _ in 0..1000 {
            t.update_corr(0, key, -30_000, 64);
        }
        let v = t.corr_entry(0, key);
        assert!((-CORR_MAX..-900).contains(&v), "{v}");
        t.clear();
        assert_eq!(t.corr_entry(0, key), 0);
        // The learners' tables have none: no entry, no update.
        let mut l = OrderingTables::new(8);
        l.update_corr(0, key, 200, 8);
        assert_eq!(l.corr_entry(0, key), 0);
    }

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

    #[test]
    fn continuation_history_is_per_previous_move_and_bounded() {
        let mut plain = OrderingTables::new(4);
        plain.update_cont(1, 2, 4000);
        plain.update_capture(1, 2, 4000);
        assert!(
            plain.cont_row(1).is_empty(),
            "tables without continuation keep none"
        );
        assert_eq!(plain.capture_score(1, 2), 0);
        let mut t = OrderingTables::for_play(4, 3);
        for _ in 0..10_000 {
            t.update_cont(1, 2, 4000);
        }
        assert!(t.cont_row(1)[2] as i32 <= HISTORY_MAX && t.cont_row(1)[2] > 0);
        assert_eq!(t.cont_row(0)[2], 0, "another previous move has its own row");
        assert_eq!(t.cont_row(1)[3], 0);
        assert!(
            t.cont_row(usize::MAX).is_empty(),
            "no previous move: no row"
        );
        t.update_history(2, 100);
        let rows = [t.cont_row(1), t.cont_row(0), &[], &[]];
        assert_eq!(
            quiet_score(&t, rows, 2),
            t.history[2] + t.cont_row(1)[2] as i32
        );
        for _ in 0..10_000 {
            t.update_cont(1, 2, -4000);
        }
        assert!(t.cont_row(1)[2] as i32 >= -HISTORY_MAX && t.cont_row(1)[2] < 0);
        for _ in 0..10_000 {
            t.update_capture(3, 2, 4000);
        }
        let c = t.capture_score(3, 2);
        assert!(c > 0 && c <= HISTORY_MAX);
        assert_eq!(
            t.capture_score(3, 1),
            0,
            "another captured kind has its own entry"
        );
        assert_eq!(
            t.capture_score(3, 3),
            0,
            "a kind out of range reads nothing"
        );
        t.age();
        assert_eq!(t.capture_score(3, 2), c / 2);
        t.clear();
        assert!(t.cont.iter().chain(t.capture.iter()).all(|&v| v == 0));
    }
}
