//! A naive reference Pad, written from the rules and independent of the kernels: one
//! source index per output element, computed straight from the mode's formula, with all
//! arithmetic in `i128` so that any `i64` pads are fine.

use padkit::{PadError, PadMode, PadSpec};

/// The class of error the reference reports; the kernels must report the same class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrClass {
    /// An `axes` entry outside `[-rank, rank-1]`.
    AxisRange,
    /// Two `axes` entries name the same axis.
    DuplicateAxis,
    /// `pads` is not two values per padded axis.
    PadsLength,
    /// `interior` is not one value per padded axis.
    InteriorLength,
    /// A negative interior padding.
    NegativeInterior,
    /// Interior padding outside constant mode.
    InteriorMode,
    /// An output extent below zero.
    NegativeOutput,
    /// An output extent above `i64::MAX`.
    Overflow,
    /// Crops larger than the axis (modes other than constant).
    Crop,
    /// Padding from an axis with nothing left after its crops.
    EmptyWindow,
    /// The input's extents multiply past `isize::MAX`.
    InputTooLarge,
    /// The output is above the limit.
    TooLarge,
}

/// The class of a padkit error.
///
/// ```
/// use padkit_conformance::{ErrClass, class_of};
/// let e = padkit::PadSpec::new(vec![1]).resolve(1).unwrap_err();
/// assert_eq!(class_of(&e), Some(ErrClass::PadsLength));
/// ```
pub fn class_of(e: &PadError) -> Option<ErrClass> {
    use PadError::*;
    Some(match e {
        AxisOutOfRange { .. } => ErrClass::AxisRange,
        DuplicateAxis { .. } => ErrClass::DuplicateAxis,
        PadsLength { .. } => ErrClass::PadsLength,
        InteriorLength { .. } => ErrClass::InteriorLength,
        NegativeInterior { .. } => ErrClass::NegativeInterior,
        InteriorMode { .. } => ErrClass::InteriorMode,
        NegativeOutput { .. } => ErrClass::NegativeOutput,
        Overflow { .. } => ErrClass::Overflow,
        CropTooLarge { .. } => ErrClass::Crop,
        EmptyWindow { .. } => ErrClass::EmptyWindow,
        InputTooLarge { .. } => ErrClass::InputTooLarge,
        TooLarge { .. } => ErrClass::TooLarge,
        _ => return None,
    })
}

/// One pad: the input shape and the spec's parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// Input shape.
    pub shape: Vec<usize>,
    /// ONNX-order pads over `axes`.
    pub pads: Vec<i64>,
    /// Padded axes (`None`: all).
    pub axes: Option<Vec<i64>>,
    /// Interior padding per padded axis.
    pub interior: Option<Vec<i64>>,
    /// The mode.
    pub mode: PadMode,
}

impl Case {
    /// A case over all axes, without interior padding.
    ///
    /// ```
    /// let case = padkit_conformance::reference::Case::new(vec![2], vec![1, 0], padkit::PadMode::Edge);
    /// assert_eq!(case.spec().mode, padkit::PadMode::Edge);
    /// ```
    pub fn new(shape: Vec<usize>, pads: Vec<i64>, mode: PadMode) -> Case {
        Case {
            shape,
            pads,
            axes: None,
            interior: None,
            mode,
        }
    }

    /// The padkit spec of this case (no output limit).
    ///
    /// ```
    /// use padkit::PadMode;
    /// let case = padkit_conformance::reference::Case::new(vec![2], vec![1, 0], PadMode::Wrap);
    /// assert_eq!(case.spec().mode, PadMode::Wrap);
    /// ```
    pub fn spec(&self) -> PadSpec {
        PadSpec::new(self.pads.clone())
            .with_axes(self.axes.clone())
            .with_interior(self.interior.clone())
            .with_mode(self.mode)
    }

    /// Number of input elements (0 when the extents overflow, which the reference refuses).
    ///
    /// ```
    /// use padkit::PadMode;
    /// let case = padkit_conformance::reference::Case::new(vec![2, 3], vec![0; 4], PadMode::Edge);
    /// assert_eq!(case.input_len(), 6);
    /// ```
    pub fn input_len(&self) -> usize {
        self.shape
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
            .unwrap_or(0)
    }

    /// The reference pad of `input` with fill `value`; outputs of more than `limit`
    /// elements are refused.
    ///
    /// # Panics
    ///
    /// When `input` holds fewer than [`Case::input_len`] elements.
    ///
    /// # Errors
    ///
    /// The [`ErrClass`] padkit must report when the case breaks a rule of Pad (see
    /// [`Case::sources`]), and [`ErrClass::TooLarge`] when the output has more than `limit`
    /// elements.
    ///
    /// ```
    /// use padkit::PadMode;
    /// let case = padkit_conformance::reference::Case::new(vec![3], vec![i64::MIN, i64::MAX], PadMode::Edge);
    /// assert_eq!(case.reference(&[1, 2, 3], 0, 100).unwrap_err(), padkit_conformance::ErrClass::Crop);
    /// ```
    pub fn reference<T: Clone>(
        &self,
        input: &[T],
        value: T,
        limit: usize,
    ) -> Result<(Vec<usize>, Vec<T>), ErrClass> {
        let (shape, sources) = self.sources(limit)?;
        let out = sources
            .into_iter()
            .map(|s| s.map_or_else(|| value.clone(), |s| input[s].clone()))
            .collect();
        Ok((shape, out))
    }

    /// The reference adjoint: each output-gradient element added onto the input element
    /// it was read from.
    ///
    /// # Panics
    ///
    /// When a sum overflows `i64` (the tests feed small gradients).
    ///
    /// # Errors
    ///
    /// The [`ErrClass`] padkit must report when the case breaks a rule of Pad (see
    /// [`Case::sources`]).
    ///
    /// ```
    /// use padkit::PadMode;
    /// let case = padkit_conformance::reference::Case::new(vec![2], vec![1, 1], PadMode::Edge);
    /// assert_eq!(case.reference_adjoint(&[1, 2, 3, 4]).unwrap(), vec![3, 7]);
    /// ```
    pub fn reference_adjoint(&self, grad: &[i64]) -> Result<Vec<i64>, ErrClass> {
        let (_, sources) = self.sources(usize::MAX)?;
        let mut out = vec![0; self.input_len()];
        for (g, s) in grad.iter().zip(sources) {
            if let Some(s) = s {
                out[s] += g;
            }
        }
        Ok(out)
    }

    /// The output shape and, for every output element, the flat input index it reads
    /// (`None`: the fill value).
    ///
    /// # Errors
    ///
    /// The [`ErrClass`] of the first rule the case breaks, checked in this order:
    /// - [`ErrClass::InputTooLarge`] when the input's extents multiply past `isize::MAX`;
    /// - [`ErrClass::AxisRange`], [`ErrClass::DuplicateAxis`], [`ErrClass::PadsLength`],
    ///   [`ErrClass::InteriorLength`], [`ErrClass::NegativeInterior`] and
    ///   [`ErrClass::InteriorMode`] when the axes, pads or interior padding break the rules
    ///   that need no extents;
    /// - per axis, [`ErrClass::NegativeOutput`], [`ErrClass::Crop`],
    ///   [`ErrClass::EmptyWindow`] and [`ErrClass::Overflow`] when its output extent would
    ///   be negative, its crops remove more than it holds, a mode other than constant pads
    ///   it with nothing left, or its output extent exceeds `i64::MAX`;
    /// - [`ErrClass::TooLarge`] when the output has more than `limit` elements.
    ///
    /// ```
    /// use padkit::PadMode;
    /// let case = padkit_conformance::reference::Case::new(vec![2], vec![1, 0], PadMode::Constant);
    /// assert_eq!(case.sources(10).unwrap(), (vec![3], vec![None, Some(0), Some(1)]));
    /// ```
    pub fn sources(&self, limit: usize) -> Result<(Vec<usize>, Vec<Option<usize>>), ErrClass> {
        let fits = self
            .shape
            .iter()
            .try_fold(1i128, |acc, &d| {
                Some(acc * (d.max(1) as i128)).filter(|&n| n <= isize::MAX as i128)
            })
            .is_some();
        if !fits {
            return Err(ErrClass::InputTooLarge);
        }
        let axes = self.per_axis()?;
        let mut out_shape = Vec::new();
        for (a, &(b, e, r)) in axes.iter().enumerate() {
            let d = self.shape[a] as i128;
            if (b, e, r) == (0, 0, 0) {
                out_shape.push(self.shape[a]);
                continue;
            }
            let o = d + (d - 1).max(0) * r + b + e;
            if o < 0 {
                return Err(ErrClass::NegativeOutput);
            }
            if self.mode != PadMode::Constant {
                let k = d - (-b).max(0) - (-e).max(0);
                if k < 0 {
                    return Err(ErrClass::Crop);
                }
                if k == 0 && (b > 0 || e > 0) {
                    return Err(ErrClass::EmptyWindow);
                }
            }
            if o > i64::MAX as i128 {
                return Err(ErrClass::Overflow);
            }
            out_shape.push(o as usize);
        }
        let total = if out_shape.contains(&0) {
            0
        } else {
            out_shape
                .iter()
                .try_fold(1usize, |acc, &d| acc.checked_mul(d))
                .unwrap_or(usize::MAX)
        };
        if total > limit {
            return Err(ErrClass::TooLarge);
        }
        let mut sources = Vec::with_capacity(total);
        let mut idx = vec![0usize; out_shape.len()];
        for _ in 0..total {
            let mut flat = Some(0usize);
            for (a, &(b, e, r)) in axes.iter().enumerate() {
                let d = self.shape[a];
                let s = source(idx[a] as i128, d as i128, b, e, r, self.mode);
                flat = flat.zip(s).map(|(f, s)| f * d + s as usize);
            }
            sources.push(flat);
            for a in (0..idx.len()).rev() {
                idx[a] += 1;
                if idx[a] < out_shape[a] {
                    break;
                }
                idx[a] = 0;
            }
        }
        Ok((out_shape, sources))
    }

    /// `(begin, end, interior)` of every axis, with the spec's rules checked.
    fn per_axis(&self) -> Result<Vec<(i128, i128, i128)>, ErrClass> {
        let rank = self.shape.len() as i64;
        let listed: Vec<i64> = self.axes.clone().unwrap_or_else(|| (0..rank).collect());
        let mut axis_of: Vec<usize> = Vec::new();
        for &a in &listed {
            let n = if a < 0 { a.checked_add(rank) } else { Some(a) };
            let n = match n {
                Some(n) if (0..rank).contains(&n) => n as usize,
                _ => return Err(ErrClass::AxisRange),
            };
            if axis_of.contains(&n) {
                return Err(ErrClass::DuplicateAxis);
            }
            axis_of.push(n);
        }
        if self.pads.len() != 2 * listed.len() {
            return Err(ErrClass::PadsLength);
        }
        if self
            .interior
            .as_ref()
            .is_some_and(|r| r.len() != listed.len())
        {
            return Err(ErrClass::InteriorLength);
        }
        let mut axes = vec![(0i128, 0i128, 0i128); self.shape.len()];
        for (i, &a) in axis_of.iter().enumerate() {
            let r = self.interior.as_ref().map_or(0, |x| x[i]);
            if r < 0 {
                return Err(ErrClass::NegativeInterior);
            }
            if r > 0 && self.mode != PadMode::Constant {
                return Err(ErrClass::InteriorMode);
            }
            axes[a] = (
                self.pads[i].into(),
                self.pads[listed.len() + i].into(),
                r.into(),
            );
        }
        Ok(axes)
    }
}

/// Where output index `i` of an axis of extent `d` reads from, or `None` for the fill.
fn source(i: i128, d: i128, b: i128, e: i128, r: i128, mode: PadMode) -> Option<i128> {
    if mode == PadMode::Constant {
        let p = i - b;
        if p < 0 || p % (r + 1) != 0 {
            return None;
        }
        let j = p / (r + 1);
        return (j < d).then_some(j);
    }
    // Crop first: the window of `k` elements from `lo` on; then pad it.
    let lo = (-b).max(0);
    let k = d - lo - (-e).max(0);
    let j = i - b.max(0);
    let m = match mode {
        PadMode::Edge => j.clamp(0, k - 1),
        PadMode::Wrap => j.rem_euclid(k),
        PadMode::Reflect if k == 1 => 0,
        PadMode::Reflect => {
            let m = j.rem_euclid(2 * (k - 1));
            if m < k { m } else { 2 * (k - 1) - m }
        }
        PadMode::Symmetric => {
            let m = j.rem_euclid(2 * k);
            if m < k { m } else { 2 * k - 1 - m }
        }
        _ => unreachable!("constant mode is handled above"),
    };
    Some(lo + m)
}
