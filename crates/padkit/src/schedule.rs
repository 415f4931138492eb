//! What the kernel walks: the pad's axes with runs of untouched axes merged, one map per
//! merged axis, block sizes, and the program of the rows of the last one.

use smallvec::SmallVec;

use crate::axis_map::AxisMap;
use crate::row::RowProgram;
use crate::{AxisPad, PadMode};

/// The merged axes of a pad on one input shape, for an output that is not empty.
#[derive(Debug, Clone)]
pub(crate) struct Schedule {
    /// One map per merged axis.
    pub(crate) maps: SmallVec<[AxisMap; 4]>,
    /// Input and output elements per index of each merged axis.
    pub(crate) blocks: SmallVec<[(usize, usize); 4]>,
    /// What every row of the last merged axis writes, unless its border is long.
    pub(crate) row: Option<RowProgram>,
    /// Input elements in one row of the last merged axis.
    pub(crate) in_row: usize,
}

impl Schedule {
    /// Merges runs of untouched axes into one axis each; a trailing run becomes part of
    /// every copied unit. `pads` and `output_shape` were checked against `input_shape`,
    /// and the extents' products fit a `usize` (`Plan::new` checked both shapes).
    pub(crate) fn new(
        input_shape: &[usize],
        pads: &[AxisPad],
        mode: PadMode,
        output_shape: &[usize],
    ) -> Box<Schedule> {
        // (merged extent, the padded axis and its pad; none for a run of untouched axes)
        type Group = (usize, Option<(usize, AxisPad)>);
        let mut groups: SmallVec<[Group; 6]> = SmallVec::new();
        for (axis, (p, &d)) in pads.iter().zip(input_shape).enumerate() {
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
        // Built in place on the heap: the maps are a few hundred bytes, and a plan is
        // moved several times on its way to the caller.
        let mut s = Box::new(Schedule {
            maps: SmallVec::new(),
            blocks: SmallVec::new(),
            row: None,
            in_row: groups[groups.len() - 1].0 * unit,
        });
        for &(d, pad) in &groups {
            s.maps.push(match pad {
                None => AxisMap::new(d, &AxisPad::default(), mode, d),
                Some((axis, p)) => AxisMap::new(d, &p, mode, output_shape[axis]),
            });
        }
        let (mut ib, mut ob) = (unit, unit);
        for k in (0..groups.len()).rev() {
            s.blocks.push((ib, ob));
            ib *= groups[k].0;
            ob *= s.maps[k].out_len;
        }
        s.blocks.reverse();
        s.row = RowProgram::new(&s.maps[s.maps.len() - 1], unit, s.in_row);
        s
    }
}
