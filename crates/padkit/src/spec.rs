//! What to pad: the user-facing [`PadSpec`] and its per-axis normal form [`AxisPad`].

use crate::{PadError, PadMode, Result};

/// A complete description of a pad, independent of the element type.
///
/// `pads` follows ONNX: `[b_0, .., b_{n-1}, e_0, .., e_{n-1}]` over `axes` (all axes in
/// order when `axes` is `None`). Pads may be negative (crop). `interior` (nGraph/XLA) holds
/// one value per listed axis: that many fill values are inserted between adjacent elements.
///
/// ```
/// use padkit::{PadSpec, PadMode};
/// let spec = PadSpec::new(vec![1, 1])
///     .with_axes(vec![-1])
///     .with_mode(PadMode::Wrap);
/// assert_eq!(padkit::pad(&[1, 2, 3], &[3], &spec, 0).unwrap().1, vec![3, 1, 2, 3, 1]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct PadSpec {
    /// Begin pads then end pads, one pair per padded axis.
    pub pads: Vec<i64>,
    /// The axes `pads` refers to (negative counts from the back); `None` means all axes.
    pub axes: Option<Vec<i64>>,
    /// Interior padding per padded axis; `None` means none.
    pub interior: Option<Vec<i64>>,
    /// How the padded region is filled.
    pub mode: PadMode,
    /// Largest output, in bytes, the caller accepts; `None` means only what the address
    /// space allows.
    pub max_output_bytes: Option<u64>,
    /// Refuse what ONNX's reference evaluator refuses by design and padkit otherwise
    /// answers with numpy's result ([`PadSpec::with_strict_onnx`]).
    pub strict_onnx: bool,
}

/// The pad of one axis after normalisation.
///
/// ```
/// use padkit::spec::AxisPad;
/// use padkit::PadSpec;
/// let axes = PadSpec::new(vec![1, -2]).with_axes(vec![-1]).resolve(2).unwrap();
/// assert_eq!(axes[0], AxisPad::default());
/// assert_eq!(axes[1], AxisPad { begin: 1, end: -2, interior: 0 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct AxisPad {
    /// Elements added (negative: removed) before the first element.
    pub begin: i64,
    /// Elements added (negative: removed) after the last element.
    pub end: i64,
    /// Fill values inserted between adjacent elements.
    pub interior: i64,
}

impl AxisPad {
    /// True when this axis is left untouched.
    ///
    /// ```
    /// assert!(padkit::spec::AxisPad::default().is_identity());
    /// ```
    pub fn is_identity(&self) -> bool {
        self.begin == 0 && self.end == 0 && self.interior == 0
    }

    /// Checks the interior padding of axis `axis`: not negative, and only in constant
    /// mode.
    ///
    /// # Errors
    ///
    /// [`PadError::NegativeInterior`] when the interior padding is negative, and
    /// [`PadError::InteriorMode`] when it is positive in a mode other than constant.
    ///
    /// ```
    /// use padkit::spec::AxisPad;
    /// use padkit::PadMode;
    /// let p = AxisPad { begin: 0, end: 0, interior: 1 };
    /// assert!(p.check_interior(0, PadMode::Constant).is_ok());
    /// assert!(p.check_interior(0, PadMode::Edge).is_err());
    /// ```
    pub fn check_interior(&self, axis: usize, mode: PadMode) -> Result<()> {
        match self.interior {
            interior if interior < 0 => Err(PadError::NegativeInterior { axis, interior }),
            interior if interior > 0 && mode != PadMode::Constant => Err(PadError::InteriorMode {
                axis,
                mode,
                interior,
            }),
            _ => Ok(()),
        }
    }
}

impl PadSpec {
    /// A constant-mode spec over all axes with the given pads.
    ///
    /// ```
    /// let spec = padkit::PadSpec::new(vec![1, 2]);
    /// assert_eq!(spec.mode, padkit::PadMode::Constant);
    /// ```
    pub fn new(pads: Vec<i64>) -> Self {
        PadSpec {
            pads,
            ..PadSpec::default()
        }
    }

    /// Sets the mode.
    ///
    /// ```
    /// let spec = padkit::PadSpec::new(vec![1, 1]).with_mode(padkit::PadMode::Edge);
    /// assert_eq!(spec.mode, padkit::PadMode::Edge);
    /// ```
    pub fn with_mode(mut self, mode: PadMode) -> Self {
        self.mode = mode;
        self
    }

    /// Restricts `pads` to these axes (negative axes count from the back); `None` pads
    /// every axis.
    ///
    /// ```
    /// let spec = padkit::PadSpec::new(vec![1, 1]).with_axes(vec![-1]);
    /// assert_eq!(spec.axes, Some(vec![-1]));
    /// assert_eq!(spec.with_axes(None).axes, None);
    /// ```
    pub fn with_axes(mut self, axes: impl Into<Option<Vec<i64>>>) -> Self {
        self.axes = axes.into();
        self
    }

    /// Sets interior padding, one value per padded axis.
    ///
    /// ```
    /// let spec = padkit::PadSpec::new(vec![0, 0]).with_interior(vec![1]);
    /// assert_eq!(padkit::pad(&[1, 2, 3], &[3], &spec, 9).unwrap().1, vec![1, 9, 2, 9, 3]);
    /// ```
    pub fn with_interior(mut self, interior: impl Into<Option<Vec<i64>>>) -> Self {
        self.interior = interior.into();
        self
    }

    /// Refuses outputs larger than `bytes` (`None`: only outputs that cannot be allocated).
    ///
    /// ```
    /// let spec = padkit::PadSpec::new(vec![0, 1000]).with_max_output_bytes(64);
    /// assert!(padkit::pad(&[1.0f32], &[1], &spec, 0.0).is_err());
    /// ```
    pub fn with_max_output_bytes(mut self, bytes: impl Into<Option<u64>>) -> Self {
        self.max_output_bytes = bytes.into();
        self
    }

    /// ONNX's refusals where padkit answers beyond ONNX (`true`), or numpy's results
    /// there (`false`, the default). Beyond ONNX, in reflect mode, are a pad above the
    /// axis length − 1 after its crops and padding an axis shorter than 2 after its
    /// crops: numpy.pad reflects again or repeats the element, ONNX's reference evaluator
    /// (from onnx 1.24) refuses. With `true` they are refused with
    /// [`PadError::BeyondOnnx`], as an engine that follows ONNX to the letter refuses them;
    /// every other pad gives the same output either way.
    ///
    /// ```
    /// use padkit::{PadMode, PadSpec, pad};
    /// let spec = PadSpec::new(vec![3, 0]).with_mode(PadMode::Reflect);
    /// assert_eq!(pad(&[1, 2], &[2], &spec, 0).unwrap().1, vec![2, 1, 2, 1, 2]); // numpy's
    /// let err = pad(&[1, 2], &[2], &spec.with_strict_onnx(true), 0).unwrap_err();
    /// assert!(err.to_string().contains("above the axis length - 1"));
    /// ```
    pub fn with_strict_onnx(mut self, strict: bool) -> Self {
        self.strict_onnx = strict;
        self
    }

    /// Normalises the spec for a tensor of rank `rank`: one [`AxisPad`] per axis.
    ///
    /// Checks the rules that need no extents: pads length, axes range and repeats,
    /// interior length, sign and mode.
    ///
    /// # Errors
    ///
    /// - [`PadError::AxisOutOfRange`] and [`PadError::DuplicateAxis`] when `axes` names an
    ///   axis outside `[-rank, rank-1]` or one axis twice;
    /// - [`PadError::PadsLength`] when `pads` does not hold two values per padded axis, and
    ///   [`PadError::InteriorLength`] when `interior` does not hold one;
    /// - [`PadError::NegativeInterior`] and [`PadError::InteriorMode`] when an interior
    ///   padding is negative, or positive in a mode other than constant.
    ///
    /// ```
    /// use padkit::PadSpec;
    /// let err = PadSpec::new(vec![1, 1]).with_axes(vec![0, -2]).resolve(2).unwrap_err();
    /// assert_eq!(err.to_string(), "axes: axis -2 names axis 0, which is already listed");
    /// ```
    pub fn resolve(&self, rank: usize) -> Result<Vec<AxisPad>> {
        let axes = match &self.axes {
            None => None,
            Some(axes) => Some(normalize_axes(axes, rank)?),
        };
        let n = axes.as_ref().map_or(rank, Vec::len);
        if self.pads.len() != 2 * n {
            return Err(PadError::PadsLength {
                got: self.pads.len(),
                axes: n,
                expected: 2 * n,
            });
        }
        if let Some(interior) = &self.interior
            && interior.len() != n
        {
            return Err(PadError::InteriorLength {
                got: interior.len(),
                expected: n,
            });
        }
        let mut out = vec![AxisPad::default(); rank];
        for i in 0..n {
            let axis = axes.as_ref().map_or(i, |axes| axes[i]);
            let p = AxisPad {
                begin: self.pads[i],
                end: self.pads[n + i],
                interior: self.interior.as_ref().map_or(0, |r| r[i]),
            };
            p.check_interior(axis, self.mode)?;
            out[axis] = p;
        }
        Ok(out)
    }
}

/// Maps axes in `[-rank, rank-1]` to `[0, rank-1]`, refusing repeats.
///
/// # Errors
///
/// [`PadError::AxisOutOfRange`] when an axis is outside `[-rank, rank-1]`, and
/// [`PadError::DuplicateAxis`] when two axes name the same axis.
///
/// ```
/// assert_eq!(padkit::spec::normalize_axes(&[-1, 0], 3).unwrap(), vec![2, 0]);
/// assert!(padkit::spec::normalize_axes(&[3], 3).is_err());
/// ```
pub fn normalize_axes(axes: &[i64], rank: usize) -> Result<Vec<usize>> {
    let r = rank as i64;
    let mut seen = vec![false; rank];
    axes.iter()
        .map(|&axis| {
            let a = if axis < 0 { axis + r } else { axis };
            if !(0..r).contains(&a) {
                return Err(PadError::AxisOutOfRange { axis, rank });
            }
            let a = a as usize;
            if std::mem::replace(&mut seen[a], true) {
                return Err(PadError::DuplicateAxis {
                    axis,
                    normalized: a,
                });
            }
            Ok(a)
        })
        .collect()
}
