//! The leaf store of steps 2-3: step 1's leaf differences of every training position, encoded
//! compactly (`codec`: varint deltas, no per-leaf allocation), held in memory up to a byte budget
//! (`--max-memory`) and spilled beyond it to a scratch file in the run's folder, which each reuse
//! pass reads back block by block. Memory then grows with the budget, not with the number of
//! positions; the page cache keeps the scratch file in RAM when there is room.
//!
//! Blocks are the step-1 work units (16 positions), encoded by the worker that searched them and
//! inserted under a lock in any order; `finish` puts them in position order. Where a block lives
//! never changes what is read back, so a run with a scratch file learns bit-identical weights.
//!
//! Blocks kept in memory are copied into large slabs (64 MiB) filled in order, not kept as one
//! allocation each: a million block-sized allocations interleaved with step 1's short-lived
//! buffers fragmented the heap, and a 1M-position shogi run peaked 2 GiB over its `--max-memory`
//! (docs/learning/REPORT.md, session 30). `clear` frees the slabs (each a mapping of its own,
//! returned to the system at once) rather than keeping them for the next iteration: the learner
//! clears the store before it builds its weight files, and kept slabs put those files on top of
//! the leaves' memory (0.5 GiB over step 1's peak in the 1M-position run, session 31).
//!
//! Blocks may also be LZ4-compressed (`--leaf-codec lz4`, the default): the varint encoding leaves
//! much redundancy, since sibling leaves are differences against the same record leaf and share
//! most of their features (a shogi e_ABCD block shrinks about four times), and LZ4 decodes at
//! gigabytes a second, a small cost beside the gradient pass over the same leaves. Compression
//! is done by the worker that encoded the block, outside the store's lock; it changes only where
//! the bytes are kept, never what is read back.

pub mod codec;

use super::step1::PositionData;
use codec::Reader;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// One step-1 block of positions, encoded.
#[derive(Debug, Default)]
pub struct EncodedBlock {
    bytes: Vec<u8>,
    /// Start of each position in `bytes`, and the end.
    offsets: Vec<u32>,
    /// The features the block's leaves use, sorted, each once.
    feats: Vec<u32>,
    /// Each position's index in the searched set (`PositionData::sample`).
    samples: Vec<u32>,
    /// `Some(n)`: `bytes` is the LZ4 block of `n` encoded bytes.
    raw_len: Option<usize>,
}

impl EncodedBlock {
    /// Encodes a block of positions.
    pub fn encode(positions: &[PositionData]) -> EncodedBlock {
        Self::encode_with(positions, false)
    }

    /// Encodes a block of positions; with `record`, each position's record-move leaf follows its
    /// children (`codec::encode_position_with_record`), for the win-probability term.
    pub fn encode_with(positions: &[PositionData], record: bool) -> EncodedBlock {
        let mut b = EncodedBlock {
            bytes: Vec::new(),
            offsets: Vec::with_capacity(positions.len() + 1),
            feats: Vec::new(),
            samples: positions.iter().map(|p| p.sample).collect(),
            raw_len: None,
        };
        for p in positions {
            b.offsets.push(b.bytes.len() as u32);
            if record {
                codec::encode_position_with_record(p, &mut b.bytes);
                b.feats.extend(p.record.feats.iter().map(|f| f.0));
            } else {
                codec::encode_position(p, &mut b.bytes);
            }
            for c in &p.children {
                if let super::step1::Child::Window(leaf) = c {
                    b.feats.extend(leaf.feats.iter().map(|f| f.0));
                }
            }
        }
        b.offsets.push(b.bytes.len() as u32);
        b.bytes.shrink_to_fit();
        b.feats.sort_unstable();
        b.feats.dedup();
        b
    }

    /// The block with its bytes LZ4-compressed (once; a compressed block is returned as it is).
    pub fn compressed(mut self) -> EncodedBlock {
        if self.raw_len.is_none() {
            self.raw_len = Some(self.bytes.len());
            self.bytes = lz4_flex::block::compress(&self.bytes);
            self.bytes.shrink_to_fit();
        }
        self
    }
}

#[derive(Debug)]
enum Loc {
    /// `len` bytes at `at` of slab `slab`.
    Mem {
        slab: usize,
        at: usize,
        len: usize,
    },
    File {
        at: u64,
        len: usize,
    },
}

/// Capacity of a slab of in-memory leaves (a block larger than this gets a slab of its own).
const SLAB_BYTES: usize = 64 << 20;

#[derive(Debug)]
struct Block {
    /// Index of the block's first position in the store.
    first: usize,
    offsets: Vec<u32>,
    samples: Vec<u32>,
    loc: Loc,
    /// `Some(n)`: the stored bytes are the LZ4 block of `n` encoded bytes.
    raw_len: Option<usize>,
}

/// The encoded leaves of one iteration's training positions.
#[derive(Debug)]
pub struct LeafStore {
    /// By step-1 block number while filling; in position order (empty blocks dropped) after
    /// `finish`.
    slots: Vec<Option<Block>>,
    blocks: Vec<Block>,
    positions: usize,
    /// Bytes of leaves allowed in memory (slab capacity); the rest go to the scratch file.
    budget: u64,
    /// The in-memory leaves, filled in order; the last is the one being filled.
    slabs: Vec<Vec<u8>>,
    mem_bytes: u64,
    file_bytes: u64,
    /// Encoded bytes before compression (equal to `mem_bytes + file_bytes` without it).
    raw_bytes: u64,
    /// Whether step 1 should compress the blocks it inserts (`EncodedBlock::compressed`).
    compress: bool,
    scratch_path: PathBuf,
    scratch: Option<File>,
    error: Option<String>,
    /// Bitmap of the features any stored leaf uses, and (after `finish`) their sorted list: the
    /// indices a gradient pass can touch.
    feature_bits: Vec<u64>,
    features: Vec<u32>,
}

impl LeafStore {
    /// An empty store keeping up to `budget` bytes in memory and the rest in `scratch_path`
    /// (created when first needed, removed when the store is dropped).
    pub fn new(budget: u64, scratch_path: &Path) -> LeafStore {
        LeafStore {
            slots: Vec::new(),
            blocks: Vec::new(),
            positions: 0,
            budget,
            slabs: Vec::new(),
            mem_bytes: 0,
            file_bytes: 0,
            raw_bytes: 0,
            compress: false,
            scratch_path: scratch_path.to_path_buf(),
            scratch: None,
            error: None,
            feature_bits: Vec::new(),
            features: Vec::new(),
        }
    }

    /// The store with step 1's blocks LZ4-compressed (`true`) or kept as encoded.
    pub fn with_compression(mut self, compress: bool) -> LeafStore {
        self.compress = compress;
        self
    }

    /// Whether blocks are to be compressed before they are inserted.
    pub fn compresses(&self) -> bool {
        self.compress
    }

    /// Empties the store for the next iteration and frees its memory (the scratch file is
    /// truncated, not removed).
    pub fn clear(&mut self) -> Result<(), String> {
        self.slots.clear();
        self.blocks.clear();
        self.positions = 0;
        self.slabs = Vec::new();
        self.mem_bytes = 0;
        self.file_bytes = 0;
        self.raw_bytes = 0;
        self.error = None;
        self.feature_bits.fill(0);
        self.features.clear();
        if let Some(f) = &mut self.scratch {
            f.set_len(0)
                .and_then(|_| f.seek(SeekFrom::Start(0)).map(|_| ()))
                .map_err(|e| format!("{}: {e}", self.scratch_path.display()))?;
        }
        Ok(())
    }

    /// Stores step-1 block number `b`. A write error is kept and reported by `finish`.
    pub fn insert(&mut self, b: usize, block: EncodedBlock) {
        if self.error.is_some() {
            return;
        }
        if let Some(&last) = block.feats.last() {
            let words = last as usize / 64 + 1;
            if self.feature_bits.len() < words {
                self.feature_bits.resize(words, 0);
            }
        }
        for &i in &block.feats {
            self.feature_bits[i as usize / 64] |= 1 << (i % 64);
        }
        let len = block.bytes.len() as u64;
        self.raw_bytes += block.raw_len.map_or(len, |n| n as u64);
        let loc = if let Some((slab, at)) = self.slab_room(block.bytes.len()) {
            self.slabs[slab].extend_from_slice(&block.bytes);
            self.mem_bytes += len;
            Loc::Mem {
                slab,
                at,
                len: block.bytes.len(),
            }
        } else {
            match self.write_scratch(&block.bytes) {
                Ok(at) => Loc::File {
                    at,
                    len: block.bytes.len(),
                },
                Err(e) => {
                    self.error = Some(e);
                    return;
                }
            }
        };
        if self.slots.len() <= b {
            self.slots.resize_with(b + 1, || None);
        }
        self.slots[b] = Some(Block {
            first: 0,
            offsets: block.offsets,
            samples: block.samples,
            loc,
            raw_len: block.raw_len,
        });
    }

    /// Where `len` more bytes fit in memory: the current slab, or a new one while the budget
    /// allows it; `None` sends the block to the scratch file.
    fn slab_room(&mut self, len: usize) -> Option<(usize, usize)> {
        if let Some(s) = self.slabs.last() {
            if s.capacity() - s.len() >= len {
                return Some((self.slabs.len() - 1, s.len()));
            }
        }
        let held: u64 = self.slabs.iter().map(|s| s.capacity() as u64).sum();
        let room = self.budget.saturating_sub(held);
        let cap = (SLAB_BYTES.max(len) as u64).min(room) as usize;
        if cap < len {
            return None;
        }
        self.slabs.push(Vec::with_capacity(cap));
        Some((self.slabs.len() - 1, 0))
    }

    fn write_scratch(&mut self, bytes: &[u8]) -> Result<u64, String> {
        let name = self.scratch_path.display().to_string();
        if self.scratch.is_none() {
            let f = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(true)
                .open(&self.scratch_path)
                .map_err(|e| format!("{name}: {e}"))?;
            self.scratch = Some(f);
        }
        let at = self.file_bytes;
        if let Some(f) = &mut self.scratch {
            f.write_all(bytes).map_err(|e| format!("{name}: {e}"))?;
        }
        self.file_bytes += bytes.len() as u64;
        Ok(at)
    }

    /// Puts the blocks in position order; reports a scratch-file write error.
    pub fn finish(&mut self) -> Result<(), String> {
        if let Some(e) = self.error.take() {
            return Err(format!("writing the leaf scratch file: {e}"));
        }
        if let Some(f) = &mut self.scratch {
            f.flush()
                .map_err(|e| format!("{}: {e}", self.scratch_path.display()))?;
        }
        let mut first = 0;
        for mut b in self.slots.drain(..).flatten() {
            let n = b.offsets.len().saturating_sub(1);
            if n == 0 {
                continue;
            }
            b.first = first;
            first += n;
            self.blocks.push(b);
        }
        self.positions = first;
        self.features.clear();
        for (w, &word) in self.feature_bits.iter().enumerate() {
            let mut b = word;
            while b != 0 {
                self.features.push((w * 64) as u32 + b.trailing_zeros());
                b &= b - 1;
            }
        }
        Ok(())
    }

    /// The features the stored leaves use, sorted (after `finish`).
    pub fn features(&self) -> &[u32] {
        &self.features
    }

    /// Positions stored (after `finish`).
    pub fn len(&self) -> usize {
        self.positions
    }

    pub fn is_empty(&self) -> bool {
        self.positions == 0
    }

    /// Bytes of stored leaves (compressed when the store compresses) in memory and in the
    /// scratch file.
    pub fn bytes(&self) -> (u64, u64) {
        (self.mem_bytes, self.file_bytes)
    }

    /// Bytes of the encoded leaves before compression.
    pub fn raw_bytes(&self) -> u64 {
        self.raw_bytes
    }

    /// Calls `f` with a reader at the start of each position in `lo..hi`, in order. `f` must read
    /// the whole position (its child count, then each child).
    pub fn visit(
        &self,
        lo: usize,
        hi: usize,
        mut f: impl FnMut(&mut Reader<'_>) -> Result<(), String>,
    ) -> Result<(), String> {
        self.visit_indexed(lo, hi, |_, r| f(r))
    }

    /// `visit`, also giving each position's index in the searched set (`PositionData::sample`).
    pub fn visit_indexed(
        &self,
        lo: usize,
        hi: usize,
        mut f: impl FnMut(u32, &mut Reader<'_>) -> Result<(), String>,
    ) -> Result<(), String> {
        if lo >= hi {
            return Ok(());
        }
        let mut file: Option<File> = None;
        let mut buf = Vec::new();
        let mut raw = Vec::new();
        let mut k = self
            .blocks
            .partition_point(|b| b.first + block_len(b) <= lo);
        let mut feats = Vec::new();
        while k < self.blocks.len() && self.blocks[k].first < hi {
            let b = &self.blocks[k];
            let bytes: &[u8] = match &b.loc {
                Loc::Mem { slab, at, len } => &self.slabs[*slab][*at..*at + *len],
                Loc::File { at, len } => {
                    if file.is_none() {
                        file = Some(
                            File::open(&self.scratch_path)
                                .map_err(|e| format!("{}: {e}", self.scratch_path.display()))?,
                        );
                    }
                    buf.resize(*len, 0);
                    if let Some(f) = &mut file {
                        f.seek(SeekFrom::Start(*at))
                            .and_then(|_| f.read_exact(&mut buf))
                            .map_err(|e| format!("{}: {e}", self.scratch_path.display()))?;
                    }
                    &buf
                }
            };
            let bytes: &[u8] = match b.raw_len {
                None => bytes,
                Some(n) => {
                    raw.resize(n, 0);
                    let what = match lz4_flex::block::decompress_into(bytes, &mut raw) {
                        Ok(got) if got == n => None,
                        Ok(got) => Some(format!("decompressed to {got} bytes, not {n}")),
                        Err(e) => Some(format!("does not decompress ({e})")),
                    };
                    if let Some(what) = what {
                        let place = match b.loc {
                            Loc::Mem { .. } => "in memory".to_string(),
                            Loc::File { .. } => format!("in {}", self.scratch_path.display()),
                        };
                        return Err(format!("a leaf block {place} {what}: it is corrupt"));
                    }
                    &raw
                }
            };
            let from = lo.max(b.first) - b.first;
            let to = hi.min(b.first + block_len(b)) - b.first;
            // The feature buffer moves from block to block (a reader borrows one block's bytes).
            let mut reader = Reader::with_buffer(bytes, std::mem::take(&mut feats));
            for p in from..to {
                reader.seek(b.offsets[p] as usize);
                f(b.samples.get(p).copied().unwrap_or(u32::MAX), &mut reader)?;
            }
            feats = reader.into_buffer();
            k += 1;
        }
        Ok(())
    }
}

fn block_len(b: &Block) -> usize {
    b.offsets.len().saturating_sub(1)
}

impl Drop for LeafStore {
    fn drop(&mut self) {
        if self.scratch.take().is_some() {
            let _ = std::fs::remove_file(&self.scratch_path);
        }
    }
}

/// Parses a byte count: a number with an optional K, M, G or T suffix (powers of 1,024, an
/// optional trailing B): `8G`, `512M`, `1.5G`, `100000`.
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let upper = t.to_ascii_uppercase();
    let body = upper.strip_suffix('B').unwrap_or(&upper);
    let (num, mult) = match body.chars().last() {
        Some('K') => (&body[..body.len() - 1], 1u64 << 10),
        Some('M') => (&body[..body.len() - 1], 1 << 20),
        Some('G') => (&body[..body.len() - 1], 1 << 30),
        Some('T') => (&body[..body.len() - 1], 1 << 40),
        _ => (body, 1),
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("bad byte count '{s}' (e.g. 8G, 512M, 100000)"))?;
    let bytes = v * mult as f64;
    if !(1.0..1.8e19).contains(&bytes) {
        return Err(format!("bad byte count '{s}' (e.g. 8G, 512M, 100000)"));
    }
    Ok(bytes as u64)
}

/// Formats a byte count for the console (GB with two decimals, or MB, or KB).
pub fn show_bytes(b: u64) -> String {
    let b = b as f64;
    if b >= (1u64 << 30) as f64 {
        format!("{:.2} GB", b / (1u64 << 30) as f64)
    } else if b >= (1u64 << 20) as f64 {
        format!("{:.1} MB", b / (1u64 << 20) as f64)
    } else {
        format!("{:.1} KB", b / 1024.0)
    }
}

/// The resident set size of this process (Linux; `None` elsewhere).
pub fn resident_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = s.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_parse_with_suffixes_and_bad_ones_are_refused() {
        assert_eq!(parse_bytes("8G").unwrap(), 8 << 30);
        assert_eq!(parse_bytes("512m").unwrap(), 512 << 20);
        assert_eq!(parse_bytes("1.5GB").unwrap(), 3 << 29);
        assert_eq!(parse_bytes("100000").unwrap(), 100_000);
        for bad in ["", "G", "-1G", "0", "eight", "1X", "nan"] {
            assert!(parse_bytes(bad).is_err(), "{bad}");
        }
    }
}
