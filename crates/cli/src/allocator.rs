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
