//! Zeroed slots in an anonymous memory map, for the solver's large tables.
//!
//! Mapped lazily by the kernel like `calloc` (a short solve touches few pages) and advised to use
//! transparent huge pages, so that a probe into a large table does not miss the TLB every time
//! and filling it takes 512 times fewer page faults.

use bytemuck::Pod;

pub struct Slots<T: Pod> {
    map: memmap2::MmapMut,
    _slot: std::marker::PhantomData<T>,
}

impl<T: Pod> Slots<T> {
    /// `n` zeroed slots, or `None` when the memory cannot be mapped.
    pub fn new(n: usize) -> Option<Slots<T>> {
        let map = memmap2::MmapMut::map_anon(n * std::mem::size_of::<T>()).ok()?;
        // Only a hint: without huge pages (not configured, or refused) the table works the same.
        let _ = map.advise(memmap2::Advice::HugePage);
        Some(Slots {
            map,
            _slot: std::marker::PhantomData,
        })
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

impl<T: Pod> std::ops::Deref for Slots<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // A page-aligned map of a whole number of slots: the cast cannot fail.
        bytemuck::cast_slice(&self.map[..])
    }
}

impl<T: Pod> std::ops::DerefMut for Slots<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        bytemuck::cast_slice_mut(&mut self.map[..])
    }
}
