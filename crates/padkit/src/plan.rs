//! A pad planned for one concrete input shape, and every way to run it.

use std::mem::MaybeUninit;

use bytemuck::Pod;
use smallvec::SmallVec;

use crate::block_copy::BlockCopy;
use crate::bytes::{fill_splat, partial_element};
use crate::kernel::{Cloning, FillRun, RowMoves, fill_each, write};
use crate::memory::fresh_vec;
use crate::schedule::Schedule;
use crate::shape::{check_strict_onnx, concrete_extent};
use crate::{AxisPad, PadError, PadSpec, Result};

/// Extents of a shape, held inline up to rank 6: planning a small pad allocates little.
pub(crate) type Dims = SmallVec<[usize; 6]>;

/// A pad planned for one input shape and element size: validated, with untouched axes
/// merged, ready to run any number of times.
///
/// ```
/// use padkit::{Plan, PadSpec};
/// let plan = Plan::new(&[2, 3], &PadSpec::new(vec![0, 1, 0, 1]), 4).unwrap();
/// assert_eq!(plan.output_shape(), &[2, 5]);
/// assert_eq!(plan.output_len(), 10);
/// ```
#[derive(Debug, Clone)]
pub struct Plan {
    input_shape: Dims,
    output_shape: Dims,
    input_len: usize,
    output_len: usize,
    /// What the kernel walks; `None` when the output is empty.
    schedule: Option<Box<Schedule>>,
}

impl Plan {
    /// Plans `spec` on an input of `shape` whose elements take `element_bytes` bytes
    /// (used for the output size limit).
    ///
    /// Every number is checked: the pads may be anything an `i64` holds, and a plan that
    /// is returned covers every output element. Planning costs a few runs per axis,
    /// whatever the pads.
    ///
    /// # Errors
    ///
    /// - [`PadError::InputTooLarge`] when the extents of `shape` multiply past
    ///   `isize::MAX` (not counting zero extents);
    /// - the errors of [`PadSpec::resolve`] when the spec does not fit the rank of
    ///   `shape` (pads, axes or interior of the wrong length, axes out of range or
    ///   repeated, interior padding negative or outside constant mode);
    /// - [`PadError::NegativeOutput`] when an axis' output extent would be negative,
    ///   [`PadError::CropTooLarge`] when a mode other than constant crops more than an
    ///   axis holds, [`PadError::EmptyWindow`] when it must pad an axis with nothing left
    ///   to copy from, and [`PadError::Overflow`] when an extent or an output extent does
    ///   not fit an `i64`;
    /// - with [`PadSpec::with_strict_onnx`], [`PadError::BeyondOnnx`] where ONNX's
    ///   reference refuses a reflect pad ([`crate::shape::check_strict_onnx`]);
    /// - [`PadError::TooLarge`] when the output would take more than `isize::MAX` bytes,
    ///   or more than the spec's `max_output_bytes`, at `element_bytes` bytes an element.
    ///
    /// ```
    /// use padkit::{Plan, PadSpec, PadMode};
    /// let plan = Plan::new(&[2], &PadSpec::new(vec![3, 0]).with_mode(PadMode::Reflect), 4);
    /// assert!(plan.is_ok()); // numpy's answer for reflect wider than the axis
    /// let crop = PadSpec::new(vec![i64::MIN, i64::MAX]).with_mode(PadMode::Edge);
    /// assert!(Plan::new(&[3], &crop, 4).is_err()); // crops far past the axis
    /// ```
    pub fn new(shape: &[usize], spec: &PadSpec, element_bytes: usize) -> Result<Plan> {
        let input_len = input_len(shape)?;
        let pads = spec.resolve(shape.len())?;
        let output_shape = concrete_output_shape(shape, &pads, spec)?;
        let output_len = check_size(&output_shape, element_bytes, spec.max_output_bytes)?;
        let schedule =
            (output_len > 0).then(|| Schedule::new(shape, &pads, spec.mode, &output_shape));
        Ok(Plan {
            input_shape: shape.into(),
            output_shape,
            input_len,
            output_len,
            schedule,
        })
    }

    /// The input shape this plan was made for.
    ///
    /// ```
    /// let plan = padkit::Plan::new(&[3], &padkit::PadSpec::new(vec![1, 1]), 1).unwrap();
    /// assert_eq!(plan.input_shape(), &[3]);
    /// ```
    pub fn input_shape(&self) -> &[usize] {
        &self.input_shape
    }

    /// The output shape.
    ///
    /// ```
    /// let plan = padkit::Plan::new(&[3], &padkit::PadSpec::new(vec![1, -1]), 1).unwrap();
    /// assert_eq!(plan.output_shape(), &[3]);
    /// ```
    pub fn output_shape(&self) -> &[usize] {
        &self.output_shape
    }

    /// Number of output elements.
    ///
    /// ```
    /// let plan = padkit::Plan::new(&[2, 2], &padkit::PadSpec::new(vec![1, 1, 1, 1]), 1).unwrap();
    /// assert_eq!(plan.output_len(), 16);
    /// ```
    pub fn output_len(&self) -> usize {
        self.output_len
    }

    /// Number of input elements.
    ///
    /// ```
    /// let plan = padkit::Plan::new(&[2, 3], &padkit::PadSpec::new(vec![0; 4]), 1).unwrap();
    /// assert_eq!(plan.input_len(), 6);
    /// ```
    pub fn input_len(&self) -> usize {
        self.input_len
    }

    /// Runs the plan: pads `input` into `out`, which must hold exactly the output.
    ///
    /// Plain-data elements (numbers, `half` floats, complex numbers, arrays of them) of
    /// 1, 2, 4, 8 or 16 bytes run on the byte-width kernel ([`Plan::run_bytes`]); other
    /// sizes on the typed kernel. Types that are not plain data use
    /// [`Plan::run_cloned`].
    ///
    /// # Errors
    ///
    /// [`PadError::DataLength`] when `input` does not hold exactly [`Plan::input_len`]
    /// elements or `out` exactly [`Plan::output_len`]; `out` is left untouched then.
    ///
    /// ```
    /// use padkit::{Plan, PadSpec, PadMode};
    /// let spec = PadSpec::new(vec![2, 2]).with_mode(PadMode::Symmetric);
    /// let plan = Plan::new(&[3], &spec, 4).unwrap();
    /// let mut out = vec![0; plan.output_len()];
    /// plan.run(&[1, 2, 3], &0, &mut out).unwrap();
    /// assert_eq!(out, vec![2, 1, 1, 2, 3, 3, 2]);
    /// ```
    pub fn run<T: Pod + Send + Sync>(&self, input: &[T], value: &T, out: &mut [T]) -> Result<()> {
        self.run_uninit(input, value, as_uninit(out)).map(drop)
    }

    /// Runs the plan into uninitialised memory (e.g. a vector's spare capacity), which
    /// must hold exactly the output; returns it, now initialised. The kernel writes every
    /// element once, so nothing needs filling first.
    ///
    /// # Errors
    ///
    /// [`PadError::DataLength`] when `input` does not hold exactly [`Plan::input_len`]
    /// elements or `out` exactly [`Plan::output_len`]; nothing is written then.
    ///
    /// ```
    /// use padkit::{Plan, PadSpec};
    /// let plan = Plan::new(&[2], &PadSpec::new(vec![1, 1]), 4).unwrap();
    /// let mut out: Vec<i32> = Vec::with_capacity(plan.output_len());
    /// let written = plan.run_uninit(&[5, 6], &0, out.spare_capacity_mut()).unwrap();
    /// assert_eq!(written, &[0, 5, 6, 0]);
    /// ```
    pub fn run_uninit<'o, T: Pod + Send + Sync>(
        &self,
        input: &[T],
        value: &T,
        out: &'o mut [MaybeUninit<T>],
    ) -> Result<&'o mut [T]> {
        macro_rules! on_width {
            ($($n:literal)*) => {
                match size_of::<T>() {
                    $($n => {
                        self.check_lens(input.len(), out.len())?;
                        let slots = out_as::<T, [u8; $n]>(out);
                        let input = bytemuck::cast_slice::<T, [u8; $n]>(input);
                        self.run_width::<$n>(input, bytemuck::cast_ref(value), slots)?;
                        // SAFETY: `run_width` initialised every byte of `out`, and any
                        // bytes are a valid `T` (`T: Pod`).
                        Ok(unsafe { out.assume_init_mut() })
                    })*
                    _ => self.run_moving::<T, Cloning>(input, value, out, fill_each),
                }
            };
        }
        on_width!(1 2 4 8 16)
    }

    /// Runs the plan into a new vector.
    ///
    /// # Errors
    ///
    /// [`PadError::Alloc`] when the output cannot be allocated, and
    /// [`PadError::DataLength`] when `input` does not hold exactly [`Plan::input_len`]
    /// elements.
    ///
    /// ```
    /// let plan = padkit::Plan::new(&[1], &padkit::PadSpec::new(vec![0, 2]), 1).unwrap();
    /// assert_eq!(plan.run_to_vec(&[7u8], &1).unwrap(), vec![7, 1, 1]);
    /// ```
    pub fn run_to_vec<T: Pod + Send + Sync>(&self, input: &[T], value: &T) -> Result<Vec<T>> {
        fresh_vec(self.output_len, |out| self.run_uninit(input, value, out))
    }

    /// [`Plan::run`] for any `Clone` element (strings, for instance), cloning every
    /// element it writes. `out`'s old elements are dropped as they are replaced.
    ///
    /// # Errors
    ///
    /// [`PadError::DataLength`] when `input` does not hold exactly [`Plan::input_len`]
    /// elements or `out` exactly [`Plan::output_len`], and [`PadError::Alloc`] when the
    /// scratch output the clones are written to first cannot be allocated. `out` is left
    /// untouched on any error.
    ///
    /// ```
    /// let plan = padkit::Plan::new(&[1], &padkit::PadSpec::new(vec![1, 0]), 24).unwrap();
    /// let mut out = vec![String::new(); 2];
    /// plan.run_cloned(&["a".to_string()], &"-".to_string(), &mut out).unwrap();
    /// assert_eq!(out, ["-", "a"]);
    /// ```
    pub fn run_cloned<T: Clone + Send + Sync>(
        &self,
        input: &[T],
        value: &T,
        out: &mut [T],
    ) -> Result<()> {
        self.check_lens(input.len(), out.len())?;
        let fresh = self.run_cloned_to_vec(input, value)?;
        for (o, n) in out.iter_mut().zip(fresh) {
            *o = n;
        }
        Ok(())
    }

    /// Runs the plan on any `Clone` element into a new vector, cloning every element it
    /// writes: what [`pad_cloned`](crate::pad_cloned) and [`Plan::run_cloned`] run.
    pub(crate) fn run_cloned_to_vec<T: Clone + Send + Sync>(
        &self,
        input: &[T],
        value: &T,
    ) -> Result<Vec<T>> {
        fresh_vec(self.output_len, |out| {
            self.run_moving::<T, Cloning>(input, value, out, fill_each)
        })
    }

    /// Runs the plan on raw elements of `value.len()` bytes each (1, 2, 4, 8 or 16) into
    /// uninitialised bytes (e.g. the spare capacity of a vector of a wider, aligned word
    /// type), which must hold exactly the output; returns them, now initialised.
    ///
    /// # Errors
    ///
    /// - [`PadError::UnsupportedType`] when `value` is not 1, 2, 4, 8 or 16 bytes long;
    /// - [`PadError::ByteLength`] when `input` or `out` does not end on a whole element;
    /// - [`PadError::DataLength`] when they hold whole elements, but not exactly
    ///   [`Plan::input_len`] and [`Plan::output_len`] of them.
    ///
    /// Nothing is written on any error.
    ///
    /// ```
    /// // one 2-byte element, padded by one element in front
    /// let plan = padkit::Plan::new(&[1], &padkit::PadSpec::new(vec![1, 0]), 2).unwrap();
    /// let mut bytes = [std::mem::MaybeUninit::uninit(); 4];
    /// let written = plan.run_bytes(&[1, 2], &[9, 9], &mut bytes).unwrap();
    /// assert_eq!(written, &[9, 9, 1, 2]);
    /// ```
    pub fn run_bytes<'o>(
        &self,
        input: &[u8],
        value: &[u8],
        out: &'o mut [MaybeUninit<u8>],
    ) -> Result<&'o mut [u8]> {
        macro_rules! on_width {
            ($($n:literal)*) => {
                match value.len() {
                    $($n => {
                        let (elements, rest) = input.as_chunks::<$n>();
                        if !rest.is_empty() {
                            return Err(partial_element("input bytes", &self.input_shape, self.input_len, $n, input.len()));
                        }
                        let (slots, rest) = out.as_chunks_mut::<$n>();
                        if !rest.is_empty() {
                            return Err(partial_element("output bytes", &self.output_shape, self.output_len, $n, out.len()));
                        }
                        let value = value.try_into().expect("dispatched on value.len()");
                        self.run_width::<$n>(elements, value, elements_of(slots))?;
                        // SAFETY: `run_width` initialised every byte of `out`.
                        Ok(unsafe { out.assume_init_mut() })
                    })*
                    other => Err(PadError::UnsupportedType(format!("{other}-byte elements"))),
                }
            };
        }
        on_width!(1 2 4 8 16)
    }

    /// The byte-width kernel: elements of `N` bytes, long fills by `memset` when the
    /// fill's bytes are all equal, row bodies copied by blocks.
    fn run_width<const N: usize>(
        &self,
        input: &[[u8; N]],
        value: &[u8; N],
        out: &mut [MaybeUninit<[u8; N]>],
    ) -> Result<()> {
        let fill: FillRun<[u8; N]> = if value.iter().all(|&b| b == value[0]) {
            fill_splat::<N>
        } else {
            fill_each
        };
        self.run_moving::<_, BlockCopy>(input, value, out, fill)
            .map(drop)
    }

    /// Checks the buffers' lengths, then runs the kernel with `fill` writing the fill
    /// value over runs of whole blocks and `C` copying long row bodies.
    fn run_moving<'o, T: Clone + Send + Sync, C: RowMoves<T>>(
        &self,
        input: &[T],
        value: &T,
        out: &'o mut [MaybeUninit<T>],
        fill: FillRun<T>,
    ) -> Result<&'o mut [T]> {
        self.check_lens(input.len(), out.len())?;
        match &self.schedule {
            Some(schedule) => Ok(write::<T, C>(schedule, input, value, out, fill)),
            // SAFETY: the output is empty (no schedule), so there is nothing to initialise.
            None => Ok(unsafe { out.assume_init_mut() }),
        }
    }

    /// Refuses input and output buffers whose lengths (in elements) differ from the
    /// plan's.
    fn check_lens(&self, input: usize, out: usize) -> Result<()> {
        let check = |what, shape: &Dims, expected, got| {
            if expected == got {
                return Ok(());
            }
            Err(PadError::DataLength {
                what,
                shape: shape.to_vec(),
                expected,
                got,
            })
        };
        check("input data", &self.input_shape, self.input_len, input)?;
        check("output buffer", &self.output_shape, self.output_len, out)
    }
}

/// An initialised slice seen as possibly uninitialised, for a kernel that only writes
/// initialised values through it (`T: Pod` has no drop glue, so nothing leaks).
fn as_uninit<T: Pod>(out: &mut [T]) -> &mut [MaybeUninit<T>] {
    let ptr: *mut [T] = out;
    // SAFETY: `MaybeUninit<T>` has the layout of `T`; callers only write valid `T`s.
    unsafe { &mut *(ptr as *mut [MaybeUninit<T>]) }
}

/// Chunks of `N` uninitialised bytes seen as uninitialised `N`-byte elements.
fn elements_of<const N: usize>(chunks: &mut [[MaybeUninit<u8>; N]]) -> &mut [MaybeUninit<[u8; N]>] {
    let ptr: *mut [[MaybeUninit<u8>; N]] = chunks;
    // SAFETY: `[MaybeUninit<u8>; N]` and `MaybeUninit<[u8; N]>` have the same size (N),
    // alignment (1) and validity (none), so the view reinterprets the same bytes.
    unsafe { &mut *(ptr as *mut [MaybeUninit<[u8; N]>]) }
}

/// Uninitialised elements of `T` seen as elements of `W`, a type of the same size whose
/// alignment is at most `T`'s (a byte array).
fn out_as<T, W>(out: &mut [MaybeUninit<T>]) -> &mut [MaybeUninit<W>] {
    assert!(size_of::<W>() == size_of::<T>() && align_of::<W>() <= align_of::<T>());
    // SAFETY: same size, no stricter alignment, and `MaybeUninit` makes no claim about
    // the contents, so the view covers exactly the same memory.
    unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<MaybeUninit<W>>(), out.len()) }
}

/// Checked output shape for known extents.
fn concrete_output_shape(shape: &[usize], pads: &[AxisPad], spec: &PadSpec) -> Result<Dims> {
    shape
        .iter()
        .zip(pads)
        .enumerate()
        .map(|(axis, (&d, p))| {
            let d = i64::try_from(d).map_err(|_| PadError::Overflow {
                axis,
                extent: d.to_string(),
                begin: p.begin,
                end: p.end,
                interior: p.interior,
            })?;
            let out = concrete_extent(axis, d, p, spec.mode)?;
            if spec.strict_onnx {
                check_strict_onnx(axis, d, p, spec.mode)?;
            }
            Ok(out as usize)
        })
        .collect()
}

/// The element count of an input of `shape`. Refuses shapes whose non-zero extents
/// multiply past `isize::MAX`: no buffer holds such a tensor unless it is empty, and the
/// plan's block sizes (products of extents) must not overflow even then.
fn input_len(shape: &[usize]) -> Result<usize> {
    let fits = shape
        .iter()
        .try_fold(1u128, |acc, &d| {
            acc.checked_mul(d.max(1) as u128)
                .filter(|&n| n <= isize::MAX as u128)
        })
        .is_some();
    if !fits {
        return Err(PadError::InputTooLarge {
            shape: shape.to_vec(),
        });
    }
    Ok(shape.iter().product())
}

/// Refuses outputs above the caller's limit or the address space, before any allocation
/// ([`crate::shape::check_output_size`]); returns the output's element count.
fn check_size(shape: &[usize], element_bytes: usize, limit: Option<u64>) -> Result<usize> {
    let bits = (element_bytes.max(1) as u64).saturating_mul(8);
    let bytes = crate::shape::check_output_size(shape, bits, limit)?;
    // No bytes: an empty output, whose other extents may multiply past usize. Else at most
    // isize::MAX bytes of at least one each, so the element count fits a usize.
    Ok(if bytes == 0 {
        0
    } else {
        shape.iter().product()
    })
}
