//! The sparse gradient of steps 2-3: a dense buffer over the learned weights that is written and
//! cleared only where a leaf touched it, with a bitmap of the touched indices. A reuse pass then
//! costs O(features in the stored leaves) instead of O(learned weights): e_ABCD has 46.7M learned
//! weights, and clearing, merging and scanning dense vectors of that size took about 10 s a pass
//! whatever the number of positions. The objective writes `values_mut()` directly and names the
//! touched indices afterwards (the features present in the leaf store), which keeps the per-feature
//! inner loop as cheap as the dense one.
//!
//! The buffers live across the reuse passes of one steps 2-3 (made at its start as zero pages,
//! which cost nothing until touched, and dropped at its end so that the pages the passes touched
//! are not held through the next step 1). Values are accumulated in the same order as the dense
//! reference (`objective::objective_dense`), so the two agree to the last bit.

/// A gradient over `len` weights: `values()` is dense (0.0 where untouched), `touched()` the
/// sorted indices that a leaf reached (their value may still be 0.0).
#[derive(Debug, Clone, Default)]
pub struct SparseGrad {
    values: Vec<f64>,
    bits: Vec<u64>,
    /// Indices in the order first touched, until `finish` sorts them.
    touched: Vec<u32>,
}

impl SparseGrad {
    /// An all-zero gradient over `len` weights.
    pub fn new(len: usize) -> Self {
        SparseGrad {
            values: vec![0.0; len],
            bits: vec![0; len.div_ceil(64)],
            touched: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// `values[i] += v`, marking `i` touched.
    #[inline]
    pub fn add(&mut self, i: usize, v: f64) {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        if self.bits[word] & bit == 0 {
            self.bits[word] |= bit;
            self.touched.push(i as u32);
        }
        self.values[i] += v;
    }

    /// Sorts the touched indices (after the last `add`; `touched()` is sorted from here on).
    pub fn finish(&mut self) {
        if self.touched.len() > self.bits.len() {
            // Many touched: reading them off the bitmap is cheaper than sorting them.
            self.touched.clear();
            for (w, &word) in self.bits.iter().enumerate() {
                let mut b = word;
                while b != 0 {
                    self.touched.push((w * 64) as u32 + b.trailing_zeros());
                    b &= b - 1;
                }
            }
        } else {
            self.touched.sort_unstable();
        }
    }

    /// The whole gradient, 0.0 at untouched indices.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The touched indices, sorted once `finish` ran.
    pub fn touched(&self) -> &[u32] {
        &self.touched
    }

    /// The values, for a caller that keeps track of the touched indices itself and hands them
    /// over with `set_touched` (the objective: it knows them from the leaf store).
    pub fn values_mut(&mut self) -> &mut [f64] {
        &mut self.values
    }

    /// Declares the touched indices: sorted, duplicate-free, covering every non-zero value.
    pub fn set_touched(&mut self, sorted: &[u32]) {
        for &i in &self.touched {
            self.bits[i as usize / 64] = 0;
        }
        self.touched.clear();
        self.touched.extend_from_slice(sorted);
        for &i in sorted {
            self.bits[i as usize / 64] |= 1 << (i % 64);
        }
    }

    /// Back to all zeros, in O(touched).
    pub fn clear(&mut self) {
        for &i in &self.touched {
            self.values[i as usize] = 0.0;
            self.bits[i as usize / 64] = 0;
        }
        self.touched.clear();
    }

    /// Adds `other` into `self` at `other`'s touched indices, in their order.
    pub fn absorb(&mut self, other: &SparseGrad) {
        for &i in &other.touched {
            self.add(i as usize, other.values[i as usize]);
        }
    }

    /// The dense vector (tests and the dense reference path).
    pub fn to_dense(&self) -> Vec<f64> {
        self.values.clone()
    }

    /// Bytes held (for the memory budget).
    pub fn bytes_for(len: usize) -> u64 {
        (len as u64) * 8 + (len as u64).div_ceil(64) * 8
    }
}

/// The sorted union of two sorted, duplicate-free index lists.
pub fn union_sorted(a: &[u32], b: &[u32], out: &mut Vec<u32>) {
    out.clear();
    out.reserve(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        if x < y {
            out.push(x);
            i += 1;
        } else if y < x {
            out.push(y);
            j += 1;
        } else {
            out.push(x);
            i += 1;
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clear_resets_only_what_was_touched_and_union_merges() {
        let mut g = SparseGrad::new(200);
        g.add(130, 1.5);
        g.add(3, -2.0);
        g.add(130, 0.5);
        g.finish();
        assert_eq!(g.touched(), &[3, 130]);
        assert_eq!(g.values()[130], 2.0);
        g.clear();
        assert!(g.values().iter().all(|&v| v == 0.0));
        assert!(g.touched().is_empty());
        g.add(3, 1.0);
        assert_eq!(g.touched(), &[3]);
        let mut out = Vec::new();
        union_sorted(&[1, 4, 9], &[0, 4, 10], &mut out);
        assert_eq!(out, vec![0, 1, 4, 9, 10]);
    }
}
