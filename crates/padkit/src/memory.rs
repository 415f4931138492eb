//! Buffers: allocated fallibly (an error, never an abort), and, for fresh outputs on
//! Linux, backed by transparent huge pages when large.
//!
//! A new output buffer is untouched memory: the kernel's first write to each 4 KiB page
//! faults it in and the kernel zeroes it, which costs more than the pad itself on large
//! outputs. Advised with `MADV_HUGEPAGE` before that first write, the kernel faults in
//! 2 MiB pages instead (on systems whose transparent huge pages are in `madvise` or
//! `always` mode), 512 times fewer faults.

use std::alloc::Layout;
use std::mem::MaybeUninit;

use crate::{PadError, Result};

/// Buffers of at least this many bytes are advised to use huge pages: a huge page is
/// 2 MiB, so smaller buffers hold no whole one.
pub const HUGE_PAGE_THRESHOLD: usize = 4 << 20;

/// An empty vector with room for `len` elements, failing with [`PadError::Alloc`] instead
/// of aborting.
pub(crate) fn with_capacity<T>(len: usize) -> Result<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(len).map_err(|_| PadError::Alloc {
        bytes: len.saturating_mul(size_of::<T>()),
    })?;
    Ok(out)
}

/// `len` copies of `value`, allocated fallibly.
pub(crate) fn filled<T: Clone>(len: usize, value: T) -> Result<Vec<T>> {
    let mut out = with_capacity(len)?;
    out.resize(len, value);
    Ok(out)
}

/// A new vector of `len` elements, all written by `write`, which gets the vector's
/// uninitialised storage (advised to use huge pages when large) and must return it
/// initialised.
pub(crate) fn fresh_vec<T>(
    len: usize,
    write: impl for<'a> FnOnce(&'a mut [MaybeUninit<T>]) -> Result<&'a mut [T]>,
) -> Result<Vec<T>> {
    let mut out = with_capacity(len)?;
    let slots = &mut out.spare_capacity_mut()[..len];
    prefer_huge_pages(slots);
    let written = write(slots)?.len();
    assert_eq!(
        written, len,
        "writers initialise the whole buffer they are given"
    );
    // SAFETY: `write` returned the `len` slots it was given, initialised.
    unsafe { out.set_len(len) };
    Ok(out)
}

/// Asks the kernel to back `buf` with transparent huge pages, when it is at least
/// [`HUGE_PAGE_THRESHOLD`] bytes and the system supports it (Linux; elsewhere this does
/// nothing). Call it on a fresh, still untouched buffer before writing it: pages already
/// faulted in stay small. Adapters call it on the output buffers their framework
/// allocates.
///
/// ```
/// let mut buf: Vec<f32> = Vec::with_capacity(4 << 20);
/// padkit::memory::prefer_huge_pages(buf.spare_capacity_mut());
/// ```
pub fn prefer_huge_pages<T>(buf: &mut [MaybeUninit<T>]) {
    let bytes = size_of_val(buf);
    if bytes < HUGE_PAGE_THRESHOLD {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = buf.as_mut_ptr() as usize;
        let first = start.next_multiple_of(PAGE);
        let end = (start + bytes) / PAGE * PAGE;
        if end > first {
            // SAFETY: `first..end` lies inside `buf`, memory this process owns, and is
            // page-aligned as madvise requires. MADV_HUGEPAGE only changes how the kernel
            // backs the pages, never their contents, so no Rust value is affected; a
            // refusal (e.g. huge pages disabled) leaves things as they were.
            unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
        }
    }
}

/// The default output limit of padkit's tools, and of adapters whose framework allocates
/// infallibly: the memory available now ([`available_bytes`]), or `isize::MAX` bytes (no
/// limit beyond the address space) where that is unknown.
///
/// ```
/// assert!(padkit::memory::default_max_output_bytes() > 0);
/// ```
pub fn default_max_output_bytes() -> u64 {
    available_bytes().unwrap_or(isize::MAX as u64)
}

/// The memory available for new allocations now, in bytes: `MemAvailable` from
/// `/proc/meminfo` on Linux; `None` elsewhere, or where it cannot be read.
///
/// ```
/// if let Some(bytes) = padkit::memory::available_bytes() {
///     assert!(bytes > 0);
/// }
/// ```
pub fn available_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Outputs from this many bytes on are allocated once on trial by [`check_allocatable`].
const TRIAL_BYTES: usize = 1 << 20;

/// Fails with [`PadError::Alloc`] when `bytes` (at least 1 MiB) cannot be allocated now,
/// by allocating and freeing them once. For adapters whose framework allocates outputs
/// infallibly (a failed allocation panics or aborts there): they call it before asking
/// the framework for the output.
///
/// # Errors
///
/// [`PadError::Alloc`] when `bytes` is at least 1 MiB and the allocator refuses that
/// many bytes (or they exceed `isize::MAX`).
///
/// ```
/// assert!(padkit::memory::check_allocatable(1 << 20).is_ok());
/// assert!(padkit::memory::check_allocatable(isize::MAX as usize).is_err());
/// ```
pub fn check_allocatable(bytes: usize) -> Result<()> {
    if bytes < TRIAL_BYTES {
        return Ok(());
    }
    let layout = Layout::from_size_align(bytes, 128).map_err(|_| PadError::Alloc { bytes })?;
    // SAFETY: `layout` has a non-zero size.
    let trial = unsafe { std::alloc::alloc(layout) };
    if trial.is_null() {
        return Err(PadError::Alloc { bytes });
    }
    // SAFETY: `trial` was allocated just above with `layout`, and never used.
    unsafe { std::alloc::dealloc(trial, layout) };
    Ok(())
}

/// Fails with [`PadError::Strides`] when a row-major tensor of `shape` has a stride (a
/// product of trailing dims) beyond `isize::MAX`. Such a shape may be empty, so it passes
/// every size check, yet frameworks compute its strides on creation. For adapters.
///
/// # Errors
///
/// [`PadError::Strides`] when a stride of `shape` (the product of the dims after an axis)
/// exceeds `isize::MAX`.
///
/// ```
/// assert!(padkit::memory::check_strides(&[0, 1 << 20, 1 << 20]).is_ok());
/// assert!(padkit::memory::check_strides(&[0, 1 << 40, 1 << 40]).is_err());
/// ```
pub fn check_strides(shape: &[usize]) -> Result<()> {
    let mut stride = 1usize;
    for &d in shape.iter().skip(1).rev() {
        stride = stride
            .checked_mul(d)
            .filter(|&s| isize::try_from(s).is_ok())
            .ok_or_else(|| PadError::Strides {
                shape: shape.to_vec(),
            })?;
    }
    Ok(())
}
