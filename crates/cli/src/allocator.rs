//! The global allocator of the `webmcp-sim` binary.

/// `mimalloc::MiMalloc`, except that a layout whose alignment `malloc` already guarantees goes to
/// `mi_malloc` instead of `mi_malloc_aligned` (whose extra checks cost about 3 % of an
/// exploration). The rule is the one Rust's own `System` allocator applies to C `malloc`: an
/// alignment of at most 16 bytes (`max_align_t` on the 64-bit targets we build for) that is no
/// larger than the size. mimalloc, a drop-in `malloc`, keeps that guarantee.
pub struct Allocator;

impl Allocator {
    const MALLOC_ALIGN: usize = 16;

    /// Whether a `malloc` block of `size` bytes is aligned enough for `align`.
    #[inline]
    fn malloc_aligns(align: usize, size: usize) -> bool {
        align <= Self::MALLOC_ALIGN && align <= size
    }
}

// SAFETY: every block comes from mimalloc and goes back to it (`mi_free` takes blocks from both
// entry points); a block from `mi_malloc` is used only when `malloc_aligns` says its alignment
// suffices, otherwise the aligned entry point is called with the layout's alignment.
unsafe impl std::alloc::GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        if Self::malloc_aligns(layout.align(), layout.size()) {
            // SAFETY: see the impl; mi_malloc has no preconditions.
            unsafe { libmimalloc_sys::mi_malloc(layout.size()).cast() }
        } else {
            // SAFETY: `GlobalAlloc::alloc`'s contract is passed on (non-zero size, valid layout).
            unsafe { mimalloc::MiMalloc.alloc(layout) }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        if Self::malloc_aligns(layout.align(), layout.size()) {
            // SAFETY: see the impl; mi_zalloc has no preconditions.
            unsafe { libmimalloc_sys::mi_zalloc(layout.size()).cast() }
        } else {
            // SAFETY: as in `alloc`.
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: `ptr` came from this allocator, hence from mimalloc.
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        if Self::malloc_aligns(layout.align(), new_size) {
            // SAFETY: `ptr` came from mimalloc; the new block's alignment suffices (see `alloc`).
            unsafe { libmimalloc_sys::mi_realloc(ptr.cast(), new_size).cast() }
        } else {
            // SAFETY: as in `alloc`.
            unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
        }
    }
}

/// mimalloc's `mi_option_purge_delay` (v2's `mimalloc.h`: the option after
/// `mi_option_eager_commit_delay`, which libmimalloc-sys names 14; it has no constant for this
/// one). The test below checks it by its documented default, 10 ms.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Tells mimalloc to keep the pages it frees instead of giving them back to the system 10 ms
/// later. An exploration frees and allocates state copies all the time; with purging, pages
/// went back and were faulted in (and zeroed by the kernel) again and again: 8.6 % of
/// four-calls-unload's time was the kernel clearing pages, and its search took 4.84 s instead of
/// 4.31 s. The peak resident memory hardly moves (227 MB against 222 MB): the pages are reused.
pub fn keep_freed_pages() {
    // SAFETY: setting an option has no preconditions; it is done before any other thread starts.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

#[cfg(test)]
mod tests {
    /// The option number names the purge delay: its documented default is 10 ms, and setting
    /// it reads back.
    #[test]
    fn the_purge_delay_option_is_the_one_set() {
        // SAFETY: reading and setting options has no preconditions.
        unsafe {
            assert_eq!(libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY), 10);
            super::keep_freed_pages();
            assert_eq!(libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY), -1);
        }
    }
}
