//! The positions on the solver's current path, for repetition tests.
//!
//! Every table probe asks whether a child repeats a position on the path with the attacker no
//! better off: the same board (and side to move) with at most the hand the attacker held there.
//! That is a failure for the attacker on this path: a mate from the child would be a mate from
//! the earlier position too (the defender holds at least as much: every piece is on the board or
//! in a hand), so a mate that goes round the loop is never needed. The exact repetition is the
//! case of equal hands. (Testing exact repetitions only let two solver threads feed a proof
//! number round such a loop through the table's hand-dominance rule, a few units a pass: #057
//! stalled for seconds; docs/mate.md §28.)
//!
//! A plain scan costs the path's length per probe, and long problems run 70 to hundreds of plies
//! deep with 30 children a node; a small counting filter answers the usual "no" at once and the
//! scan runs only when the filter says "maybe".

use super::hand::Hand;

/// Filter slots: a power of two.
const SLOTS: usize = 1024;

#[derive(Debug, Clone)]
pub struct Path {
    /// Full keys (board, side and hands), for the parent links of double-count detection.
    keys: Vec<u64>,
    /// Board keys (board and side) and the attacker's hand, for the repetition test.
    boards: Vec<(u64, Hand)>,
    /// How many keys on the path fall into each slot (`key % SLOTS`).
    counts: Box<[u16; SLOTS]>,
    /// The same for the board keys.
    board_counts: Box<[u16; SLOTS]>,
}

impl Path {
    pub fn with_capacity(n: usize) -> Path {
        Path {
            keys: Vec::with_capacity(n),
            boards: Vec::with_capacity(n),
            counts: Box::new([0; SLOTS]),
            board_counts: Box::new([0; SLOTS]),
        }
    }

    fn slot(key: u64) -> usize {
        // The low bits of a Zobrist key are as random as any.
        (key as usize) & (SLOTS - 1)
    }

    /// A position enters the path: its full key, its board key and the attacker's hand.
    pub fn push(&mut self, key: u64, board: u64, hand: Hand) {
        self.keys.push(key);
        self.boards.push((board, hand));
        let c = &mut self.counts[Self::slot(key)];
        *c = c.saturating_add(1);
        let c = &mut self.board_counts[Self::slot(board)];
        *c = c.saturating_add(1);
    }

    pub fn pop(&mut self) -> Option<u64> {
        let key = self.keys.pop()?;
        let c = &mut self.counts[Self::slot(key)];
        *c = c.saturating_sub(1);
        if let Some((board, _)) = self.boards.pop() {
            let c = &mut self.board_counts[Self::slot(board)];
            *c = c.saturating_sub(1);
        }
        Some(key)
    }

    pub fn clear(&mut self) {
        while self.pop().is_some() {}
    }

    /// The newest key on the path (the parent of a node that has left it).
    pub fn last(&self) -> Option<u64> {
        self.keys.last().copied()
    }

    /// The key at index `i` (from the root).
    pub fn at(&self, i: usize) -> u64 {
        self.keys[i]
    }

    /// How many positions are on the path.
    pub fn depth(&self) -> usize {
        self.keys.len()
    }

    /// The index of `key` on the path (from the root), if it is there.
    pub fn position(&self, key: u64) -> Option<usize> {
        if self.counts[Self::slot(key)] == 0 {
            return None;
        }
        self.keys.iter().position(|&k| k == key)
    }

    /// The index of the deepest position on the path with board key `board` where the attacker
    /// held at least `hand`, if any: the position `(board, hand)` repeats it no better off.
    /// (The deepest: the failure then depends on the least of the path.)
    pub fn dominating(&self, board: u64, hand: &Hand) -> Option<usize> {
        if self.board_counts[Self::slot(board)] == 0 {
            return None;
        }
        self.boards
            .iter()
            .rposition(|(b, h)| *b == board && h.covers(hand))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_never_hides_a_key_on_the_path() {
        let mut p = Path::with_capacity(8);
        // Keys that share a slot, and one that does not.
        let (a, b, c) = (5u64, 5 + SLOTS as u64, 7u64);
        p.push(a, a, Hand::EMPTY);
        p.push(b, b, Hand::EMPTY);
        p.push(c, c, Hand::EMPTY);
        assert_eq!(p.position(a), Some(0));
        assert_eq!(p.position(b), Some(1));
        assert_eq!(p.position(c), Some(2));
        assert_eq!(p.position(9), None);
        p.pop();
        assert_eq!(p.position(c), None);
        p.pop();
        // `a` still there although its slot's other key left.
        assert_eq!(p.position(a), Some(0));
        assert_eq!(p.position(b), None);
        p.clear();
        assert!(p.keys.is_empty() && p.counts.iter().all(|&n| n == 0));
        assert_eq!(p.position(a), None);
        assert!(p.boards.is_empty() && p.board_counts.iter().all(|&n| n == 0));
    }

    #[test]
    fn a_repetition_with_no_more_in_hand_is_found() {
        let mut p = Path::with_capacity(8);
        let two_pawns = Hand([2, 0, 0, 0, 0, 0, 0, 0]);
        let pawn_gold = Hand([1, 0, 0, 0, 0, 0, 1, 0]);
        p.push(100, 7, two_pawns);
        p.push(101, 8, Hand::EMPTY);
        p.push(102, 7 + SLOTS as u64, pawn_gold);
        let pawn = Hand([1, 0, 0, 0, 0, 0, 0, 0]);
        // Same board, the attacker holding less or the same: the deepest such position.
        assert_eq!(p.dominating(7, &pawn), Some(0));
        assert_eq!(p.dominating(7, &two_pawns), Some(0));
        assert_eq!(p.dominating(7 + SLOTS as u64, &pawn), Some(2));
        assert_eq!(p.dominating(8, &Hand::EMPTY), Some(1));
        // Holding more of any kind than every earlier visit: not a repetition.
        assert_eq!(p.dominating(7, &Hand([3, 0, 0, 0, 0, 0, 0, 0])), None);
        assert_eq!(p.dominating(7, &Hand([0, 0, 0, 0, 0, 0, 1, 0])), None);
        assert_eq!(p.dominating(8, &pawn), None);
        // Another board sharing the filter slot.
        assert_eq!(p.dominating(7 + 2 * SLOTS as u64, &pawn), None);
        p.pop();
        assert_eq!(p.dominating(7 + SLOTS as u64, &pawn), None);
        assert_eq!(p.dominating(7, &pawn), Some(0));
    }
}
