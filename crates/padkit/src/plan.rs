//! A pad planned for one concrete input shape: per-axis maps after merging untouched axes.

use smallvec::SmallVec;

use crate::axis_map::AxisMap;
use crate::row::RowProgram;
use crate::shape::concrete_extent;
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
    pub(crate) input_shape: Dims,
    pub(crate) output_shape: Dims,
    /// One map per merged axis.
    pub(crate) maps: SmallVec<[AxisMap; 4]>,
    /// Input and output elements per index of each merged axis.
    pub(crate) blocks: SmallVec<[(usize, usize); 4]>,
    /// What every row of the last merged axis writes, unless its border is long.
    pub(crate) row: Option<RowProgram>,
    /// Input elements in one row of the last merged axis.
    pub(crate) in_row: usize,
}

impl Plan {
    /// Plans `spec` on an input of `shape` whose elements take `element_bytes` bytes
    /// (used for the output size limit).
    ///
    /// ```
    /// use padkit::{Plan, PadSpec, PadMode};
    /// let err = Plan::new(&[2], &PadSpec::new(vec![3, 0]).with_mode(PadMode::Reflect), 4);
    /// assert!(err.is_ok()); // numpy's answer for reflect wider than the axis
    /// ```
    pub fn new(shape: &[usize], spec: &PadSpec, element_bytes: usize) -> Result<Plan> {
        let pads = spec.resolve(shape.len())?;
        let output_shape = concrete_output_shape(shape, &pads, spec)?;
        check_size(&output_shape, element_bytes, spec.max_output_bytes)?;
        let mut plan = Plan {
            input_shape: shape.into(),
            output_shape,
            maps: SmallVec::new(),
            blocks: SmallVec::new(),
            row: None,
            in_row: 0,
        };
        if plan.output_len() > 0 {
            plan.merge_axes(&pads, spec);
        }
        Ok(plan)
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
        self.output_shape.iter().product()
    }

    /// Number of input elements.
    ///
    /// ```
    /// let plan = padkit::Plan::new(&[2, 3], &padkit::PadSpec::new(vec![0; 4]), 1).unwrap();
    /// assert_eq!(plan.input_len(), 6);
    /// ```
    pub fn input_len(&self) -> usize {
        self.input_shape.iter().product()
    }

    /// Merges runs of untouched axes into one axis each; a trailing run becomes part of
    /// every copied unit.
    fn merge_axes(&mut self, pads: &[AxisPad], spec: &PadSpec) {
        // (merged extent, the padded axis and its pad; none for a run of untouched axes)
        type Group = (usize, Option<(usize, AxisPad)>);
        let mut groups: SmallVec<[Group; 6]> = SmallVec::new();
        for (axis, (p, &d)) in pads.iter().zip(&self.input_shape).enumerate() {
            match groups.last_mut() {
                Some((extent, None)) if p.is_identity() => *extent *= d,
                _ if p.is_identity() => groups.push((d, None)),
                _ => groups.push((d, Some((axis, *p)))),
            }
        }
        let unit = match groups.last() {
            Some(&(extent, None)) => {
                groups.pop();
                extent
            }
            _ => 1,
        };
        if groups.is_empty() {
            groups.push((1, None)); // nothing padded: one unit that is the whole tensor
        }
        self.maps.reserve_exact(groups.len());
        self.blocks.reserve_exact(groups.len());
        for &(d, pad) in &groups {
            let map = match pad {
                None => AxisMap::new(d, &AxisPad::default(), spec.mode, d),
                Some((axis, p)) => AxisMap::new(d, &p, spec.mode, self.output_shape[axis]),
            };
            self.maps.push(map);
        }
        let (mut ib, mut ob) = (unit, unit);
        for (map, &(d, _)) in self.maps.iter().zip(&groups).rev() {
            self.blocks.push((ib, ob));
            ib *= d;
            ob *= map.out_len;
        }
        self.blocks.reverse();
        let last = self.maps.len() - 1;
        self.in_row = groups[last].0 * unit;
        self.row = RowProgram::new(&self.maps[last], unit, self.in_row);
    }
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
            Ok(concrete_extent(axis, d, p, spec.mode)? as usize)
        })
        .collect()
}

/// Refuses outputs above the caller's limit or the address space, before any allocation.
fn check_size(shape: &[usize], element_bytes: usize, limit: Option<u64>) -> Result<()> {
    let bytes = shape
        .iter()
        .try_fold(element_bytes as u128, |acc, &d| acc.checked_mul(d as u128))
        .unwrap_or(u128::MAX);
    let cap = (isize::MAX as u128).min(limit.map_or(u128::MAX, u128::from));
    if bytes > cap {
        return Err(PadError::TooLarge {
            shape: shape.to_vec(),
            bytes,
            limit: cap,
        });
    }
    Ok(())
}
