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
