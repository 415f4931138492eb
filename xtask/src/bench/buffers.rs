//! The bench's buffers: deterministic inputs, cache-line-aligned bytes, the buffers two
//! jobs share, and the floor every job is a ratio to.

use std::cell::RefCell;
use std::rc::Rc;

use super::workloads::Workload;
use padkit::{Data, Tensor};

use super::Job;

/// A deterministic input of the workload's type.
pub(super) fn input(w: &Workload) -> Tensor {
    let n = w.input_len();
    let width = match w.dtype.layout() {
        padkit::dtype::Layout::Bytes(b) => b,
        _ => 1,
    };
    let bytes = (0..n * width).map(|i| (i % 251) as u8).collect();
    Tensor::new(w.dtype, w.shape.clone(), Data::Bytes(bytes))
        .expect("workload inputs are well formed")
}

pub(super) fn bytes(t: &Tensor) -> &[u8] {
    match t.data() {
        Data::Bytes(b) => b,
        Data::Strings(_) => &[],
    }
}

/// Bytes that start at a cache-line (64-byte) boundary, as framework tensors usually do.
/// A plain `Vec<u8>` is only 16-byte aligned, and row copies whose source straddles cache
/// lines run slower, which would time the allocator's alignment rather than the kernel.
/// The floor gets the same alignment.
pub(super) struct LineAligned {
    buf: Vec<u8>,
    start: usize,
}

impl LineAligned {
    /// Room for `len` bytes, not yet written.
    pub(super) fn uninit(len: usize) -> LineAligned {
        let buf: Vec<u8> = Vec::with_capacity(len + 63);
        let start = buf.as_ptr().align_offset(64);
        LineAligned { buf, start }
    }

    /// A copy of `bytes`.
    pub(super) fn copy_of(bytes: &[u8]) -> LineAligned {
        let mut a = LineAligned::uninit(bytes.len());
        a.buf.resize(a.start, 0);
        a.buf.extend_from_slice(bytes);
        a
    }

    /// `len` zero bytes.
    pub(super) fn zeroed(len: usize) -> LineAligned {
        let mut a = LineAligned::uninit(len);
        a.buf.resize(a.start + len, 0);
        a
    }

    pub(super) fn bytes(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    pub(super) fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.buf[self.start..]
    }
}

pub(super) fn floor(x: &Tensor, out_bytes: usize) -> Job {
    let src = LineAligned::copy_of(bytes(x));
    let mut out = LineAligned::zeroed(out_bytes);
    Box::new(move || {
        let (src, out) = (src.bytes(), out.bytes_mut());
        let n = src.len().min(out.len());
        out[..n].copy_from_slice(&src[..n]);
        out[n..].fill(0);
        std::hint::black_box(out);
    })
}

/// The input and output buffers that `padkit-core` and `padkit-typed` share, so that
/// the two differ only by the API they call, not by where their buffers happen to lie.
pub(super) type Shared = Rc<RefCell<(LineAligned, LineAligned)>>;

/// A copy of `x`'s bytes and an output buffer of `out_bytes` zeros.
pub(super) fn shared(x: &Tensor, out_bytes: usize) -> Shared {
    let pair = (
        LineAligned::copy_of(bytes(x)),
        LineAligned::zeroed(out_bytes),
    );
    Rc::new(RefCell::new(pair))
}
