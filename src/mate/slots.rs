//! Zeroed slots in an anonymous memory map, for the solver's large tables.
//!
//! Mapped lazily by the kernel like `calloc` (a short solve touches few pages) and advised to use
//! transparent huge pages, so that a probe into a large table does not miss the TLB every time
//! and filling it takes 512 times fewer page faults.
//!
//! Solver threads share the tables (`table.rs` locks a bucket before it touches it; `links.rs`
//! reads and writes whole words atomically), so besides the exclusive slice views the slots
//! offer a raw pointer for those accesses.

use bytemuck::Pod;
use std::ptr::NonNull;

pub struct Slots<T: Pod> {
    /// Owns the mapping (unmapped when dropped); the slots are reached through `base`.
    _map: memmap2::MmapMut,
    /// The first slot, taken from the map once, with write permission (`MmapMut::as_mut_ptr`).
    base: NonNull<T>,
    len: usize,
}

// SAFETY: the slots are plain data in memory the map owns; the map itself is `Send` and `Sync`.
// Shared access from several threads goes through `Slots::ptr`, whose users synchronise it
// (bucket locks in `table.rs`, atomic words in `links.rs`).
unsafe impl<T: Pod + Send> Send for Slots<T> {}
// SAFETY: as above.
unsafe impl<T: Pod + Sync> Sync for Slots<T> {}

impl<T: Pod> Slots<T> {
    /// `n` zeroed slots, or `None` when the memory cannot be mapped.
    pub fn new(n: usize) -> Option<Slots<T>> {
        let mut map = memmap2::MmapMut::map_anon(n.max(1) * std::mem::size_of::<T>()).ok()?;
        // Only a hint: without huge pages (not configured, or refused) the table works the same.
        let _ = map.advise(memmap2::Advice::HugePage);
        let base = NonNull::new(map.as_mut_ptr().cast::<T>())?;
        Some(Slots {
            _map: map,
            base,
            len: n,
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// A pointer to slot `i` (`i < len`), for accesses the caller synchronises.
    #[inline]
    pub fn ptr(&self, i: usize) -> *mut T {
        debug_assert!(i < self.len);
        self.base.as_ptr().wrapping_add(i)
    }
}

/// Asks the CPU to start loading the `bytes` bytes at `first` into the cache (a hint: the solver
/// requests what it will read soon, so that the misses overlap instead of stalling in turn).
#[inline]
pub fn prefetch<T>(first: *const T, bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        for line in 0..bytes.div_ceil(64) {
            // SAFETY: a prefetch is only a hint: it never faults (even past the end of the
            // allocation) and has no effect on memory; SSE is part of every x86_64 CPU.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(first.cast::<i8>().wrapping_add(line * 64)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (first, bytes);
}

impl<T: Pod> Slots<T> {
    /// Every slot, for tests that check what a table holds.
    #[cfg(test)]
    pub fn as_slice(&mut self) -> &[T] {
        // SAFETY: `base` points to `len` initialised slots of the live map; `&mut self`
        // excludes every other access while the slice lives.
        unsafe { std::slice::from_raw_parts(self.base.as_ptr(), self.len) }
    }

    /// Zeroes every slot (the empty table). `&mut self` excludes every other access.
    pub fn zero(&mut self) {
        // SAFETY: `base` points to `len` slots of the live map, writable, and all zeros is a
        // valid `Pod` value; no other access can run during `&mut self`.
        unsafe { std::ptr::write_bytes(self.base.as_ptr(), 0, self.len) };
    }
}
