//! The byte encoding of one training position's children in the leaf store.
//!
//! A position is `n` (varint, the number of children) then per child a head varint: 0 = below
//! the window, 1 = above it, else `2 + (features << 2 | raw << 1 | tagged)`, followed by the leaf
//! difference's constant (a zigzag varint when it is a whole number, as it always is for integer
//! weights; `raw` = 8 bytes of f64 otherwise) and its features, indices sorted, each the index's
//! delta from the previous one and its coefficient:
//! - plain leaves: the delta and the coefficient as a zigzag varint, two varints;
//! - tagged leaves: one varint `delta << 2 | tag`, tag 0 for a coefficient of +1, 1 for −1, 2
//!   when the coefficient follows as a zigzag varint.
//!
//! Why two forms: in shogi's KPP differences 99% of coefficients are ±1 and most index deltas
//! are small (the pairs of one moved piece lie close together), so a tagged feature takes about
//! 1.3 bytes instead of 2.1, and leaves are the learner's memory (issue 13: 64 KB per shogi
//! e_ABCD position in the plain form, 40% less tagged). Chess coefficients are tapered values up
//! to a few hundred, where the tag's two bits would only add bytes, so a leaf is tagged when at
//! least half of its coefficients are ±1.

use crate::learn::step1::{Child, Leaf, PositionData};

#[inline]
pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[inline]
fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

#[inline]
fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// Appends one position's children.
pub fn encode_position(p: &PositionData, out: &mut Vec<u8>) {
    put_varint(out, p.children.len() as u64);
    for c in &p.children {
        encode_child(c, out);
    }
}

/// Appends one position's children and then its record move's leaf, encoded as one more
/// `Window` child that the count does not include (read it with `child` after the children).
pub fn encode_position_with_record(p: &PositionData, out: &mut Vec<u8>) {
    encode_position(p, out);
    encode_leaf(&p.record, out);
}

fn encode_child(c: &Child, out: &mut Vec<u8>) {
    match c {
        Child::Below => put_varint(out, 0),
        Child::Above => put_varint(out, 1),
        Child::Window(leaf) => encode_leaf(leaf, out),
    }
}

fn encode_leaf(leaf: &Leaf, out: &mut Vec<u8>) {
    let k = leaf.constant;
    // Whole numbers within ±2^53 survive the trip through i64 exactly.
    let whole = k.fract() == 0.0 && k.abs() < 9.0e15 && !(k == 0.0 && k.is_sign_negative());
    let n = leaf.feats.len() as u64;
    let units = leaf
        .feats
        .iter()
        .filter(|&&(_, c)| c == 1 || c == -1)
        .count() as u64;
    let tagged = 2 * units >= n;
    put_varint(
        out,
        2 + ((n << 2) | (u64::from(!whole) << 1) | u64::from(tagged)),
    );
    if whole {
        put_varint(out, zigzag(k as i64));
    } else {
        out.extend_from_slice(&k.to_le_bytes());
    }
    let mut prev = 0u32;
    for &(i, coef) in &leaf.feats {
        let delta = u64::from(i - prev);
        if !tagged {
            put_varint(out, delta);
            put_varint(out, zigzag(i64::from(coef)));
        } else {
            match coef {
                1 => put_varint(out, delta << 2),
                -1 => put_varint(out, delta << 2 | 1),
                c => {
                    put_varint(out, delta << 2 | 2);
                    put_varint(out, zigzag(i64::from(c)));
                }
            }
        }
        prev = i;
    }
}

/// What a child decodes to: `Window` leaves are in the decoder's buffers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Decoded {
    Below,
    Above,
    /// The constant; the features are in `Reader::feats`.
    Window(f64),
}

/// Reads positions from a byte slice; errors mean a corrupt scratch file or a bug.
pub struct Reader<'a> {
    b: &'a [u8],
    at: usize,
    /// The features of the last `Window` child read.
    pub feats: Vec<(u32, i32)>,
}

impl<'a> Reader<'a> {
    pub fn new(b: &'a [u8]) -> Self {
        Reader {
            b,
            at: 0,
            feats: Vec::new(),
        }
    }

    /// A reader of `b` that reuses `feats`' allocation.
    pub fn with_buffer(b: &'a [u8], feats: Vec<(u32, i32)>) -> Self {
        Reader { b, at: 0, feats }
    }

    /// Continues at byte `at`.
    pub fn seek(&mut self, at: usize) {
        self.at = at;
    }

    /// The feature buffer back, for the next reader.
    pub fn into_buffer(self) -> Vec<(u32, i32)> {
        self.feats
    }

    #[inline(always)]
    fn varint(&mut self) -> Result<u64, String> {
        // Most values (coefficients, short index gaps) take one byte.
        if let Some(&byte) = self.b.get(self.at) {
            if byte < 0x80 {
                self.at += 1;
                return Ok(u64::from(byte));
            }
        }
        self.varint_long()
    }

    #[inline(never)]
    fn varint_long(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let Some(&byte) = self.b.get(self.at) else {
                return Err("leaf store: truncated entry".into());
            };
            self.at += 1;
            if shift >= 64 {
                return Err("leaf store: bad varint".into());
            }
            v |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                return Ok(v);
            }
            shift += 7;
        }
    }

    /// The number of children of the next position.
    pub fn children(&mut self) -> Result<usize, String> {
        Ok(self.varint()? as usize)
    }

    /// The next child.
    #[inline]
    pub fn child(&mut self) -> Result<Decoded, String> {
        let head = self.varint()?;
        match head {
            0 => Ok(Decoded::Below),
            1 => Ok(Decoded::Above),
            h => {
                let (n, raw, tagged) = ((h - 2) >> 2, (h - 2) & 2 != 0, (h - 2) & 1 == 1);
                let k = if raw {
                    let bytes = self
                        .b
                        .get(self.at..self.at + 8)
                        .ok_or("leaf store: truncated entry")?;
                    self.at += 8;
                    let mut a = [0u8; 8];
                    a.copy_from_slice(bytes);
                    f64::from_le_bytes(a)
                } else {
                    unzigzag(self.varint()?) as f64
                };
                self.feats.clear();
                let mut prev = 0u64;
                for _ in 0..n {
                    let c = if tagged {
                        let v = self.varint()?;
                        prev = prev.saturating_add(v >> 2);
                        let tag = v & 3;
                        if tag < 2 {
                            // ±1 without a branch on the sign, which is a coin toss.
                            1 - 2 * tag as i64
                        } else if tag == 2 {
                            unzigzag(self.varint()?)
                        } else {
                            return Err("leaf store: bad feature tag".into());
                        }
                    } else {
                        prev = prev.saturating_add(self.varint()?);
                        unzigzag(self.varint()?)
                    };
                    if prev > u64::from(u32::MAX)
                        || c < i64::from(i32::MIN)
                        || c > i64::from(i32::MAX)
                    {
                        return Err("leaf store: feature out of range".into());
                    }
                    self.feats.push((prev as u32, c as i32));
                }
                Ok(Decoded::Window(k))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_exactly() {
        let p = PositionData {
            record: Leaf::default(),
            children: vec![
                Child::Above,
                Child::Window(Leaf {
                    feats: vec![
                        (0, -3),
                        (7, 1),
                        (46_000_000, i32::MIN),
                        (46_000_001, i32::MAX),
                    ],
                    constant: -1234.0,
                }),
                Child::Below,
                Child::Window(Leaf {
                    feats: vec![],
                    constant: 0.5,
                }),
            ],
            agree: Some(true),
            sample: 0,
        };
        let mut b = Vec::new();
        encode_position(&p, &mut b);
        let mut r = Reader::new(&b);
        assert_eq!(r.children().unwrap(), 4);
        assert_eq!(r.child().unwrap(), Decoded::Above);
        assert_eq!(r.child().unwrap(), Decoded::Window(-1234.0));
        assert_eq!(
            r.feats,
            vec![
                (0, -3),
                (7, 1),
                (46_000_000, i32::MIN),
                (46_000_001, i32::MAX)
            ]
        );
        assert_eq!(r.child().unwrap(), Decoded::Below);
        assert_eq!(r.child().unwrap(), Decoded::Window(0.5));
        assert!(r.feats.is_empty());
        // A truncated entry is an error, not a panic.
        let mut r = Reader::new(&b[..b.len() - 9]);
        r.children().unwrap();
        let mut err = false;
        for _ in 0..4 {
            if r.child().is_err() {
                err = true;
                break;
            }
        }
        assert!(err);
    }

    #[test]
    fn unit_coefficients_take_one_varint_and_round_trip() {
        // Shogi-like leaves: coefficients ±1 and small deltas, then the same indices with one
        // coefficient of 2 (only that feature pays a second varint).
        let unit: Vec<(u32, i32)> = (0..200u32)
            .map(|i| (1_000 + i * 31, if i % 3 == 0 { -1 } else { 1 }))
            .collect();
        let mut mixed = unit.clone();
        mixed[57].1 = 2;
        let leaf = |feats: &Vec<(u32, i32)>| {
            Child::Window(Leaf {
                feats: feats.clone(),
                constant: 12.0,
            })
        };
        let p = PositionData {
            record: Leaf::default(),
            children: vec![leaf(&unit), leaf(&mixed), leaf(&vec![(46_699_999, -1)])],
            agree: None,
            sample: 0,
        };
        let mut b = Vec::new();
        encode_position(&p, &mut b);
        let mut r = Reader::new(&b);
        assert_eq!(r.children().unwrap(), 3);
        assert_eq!(r.child().unwrap(), Decoded::Window(12.0));
        assert_eq!(r.feats, unit);
        let after_unit = r.at;
        assert_eq!(r.child().unwrap(), Decoded::Window(12.0));
        assert_eq!(r.feats, mixed);
        let mixed_bytes = r.at - after_unit;
        assert_eq!(r.child().unwrap(), Decoded::Window(12.0));
        assert_eq!(r.feats, vec![(46_699_999, -1)]);
        assert_eq!(r.at, b.len());
        // Tagged: a delta of 31 with its tag fits one byte (the first, 1,000, two): count (1) +
        // head (2) + constant (1) + 2 + 199; the coefficient of 2 adds one byte.
        assert_eq!(after_unit, 1 + 2 + 1 + 2 + 199);
        assert_eq!(mixed_bytes, 2 + 1 + 2 + 199 + 1);
        // A leaf of mostly larger coefficients (chess's tapered values) stays plain: two bytes
        // a feature here, as before the tag existed.
        let tapered: Vec<(u32, i32)> = (0..40u32).map(|i| (i * 20, 7 + i as i32)).collect();
        let q = PositionData {
            record: Leaf::default(),
            children: vec![leaf(&tapered)],
            agree: None,
            sample: 0,
        };
        let mut b = Vec::new();
        encode_position(&q, &mut b);
        assert_eq!(b.len(), 1 + 2 + 1 + 2 * 40);
        let mut r = Reader::new(&b);
        r.children().unwrap();
        assert_eq!(r.child().unwrap(), Decoded::Window(12.0));
        assert_eq!(r.feats, tapered);
        // Tag 3 is no encoding: an error, not a panic.
        let bad = [1u8, 2 + (1 << 2 | 1), 0, 3];
        let mut r = Reader::new(&bad);
        r.children().unwrap();
        assert!(r.child().is_err());
    }
}
