//! The positions on the solver's current path, for repetition tests.
//!
//! Every table probe asks whether a child is on the path (a repetition is a failure for the
//! attacker). A plain scan costs the path's length per probe, and long problems run 70 to
//! hundreds of plies deep with 30 children a node; a small counting filter answers the usual "no"
//! at once and the scan runs only when the filter says "maybe".

/// Filter slots: a power of two.
const SLOTS: usize = 1024;

#[derive(Debug, Clone)]
pub struct Path {
    keys: Vec<u64>,
    /// How many keys on the path fall into each slot (`key % SLOTS`).
    counts: Box<[u16; SLOTS]>,
}

impl Path {
    pub fn with_capacity(n: usize) -> Path {
        Path {
            keys: Vec::with_capacity(n),
            counts: Box::new([0; SLOTS]),
        }
    }

    fn slot(key: u64) -> usize {
        // The low bits of a Zobrist key are as random as any.
        (key as usize) & (SLOTS - 1)
    }

    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
        let c = &mut self.counts[Self::slot(key)];
        *c = c.saturating_add(1);
    }

    pub fn pop(&mut self) -> Option<u64> {
        let key = self.keys.pop()?;
        let c = &mut self.counts[Self::slot(key)];
        *c = c.saturating_sub(1);
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_never_hides_a_key_on_the_path() {
        let mut p = Path::with_capacity(8);
        // Keys that share a slot, and one that does not.
        let (a, b, c) = (5u64, 5 + SLOTS as u64, 7u64);
        p.push(a);
        p.push(b);
        p.push(c);
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
    }
}
