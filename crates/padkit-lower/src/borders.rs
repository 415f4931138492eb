//! A Pad of data some of whose extents are known only at run time, each such axis only
//! padded (from opset 11): its output is the data joined with two borders whatever its
//! extent. Constant mode's fill blocks take their shape from the data's (`Shape`, sliced
//! and joined with the border's width); the other modes' borders are `Gather`s of
//! positions counted from either end (negative indices, from opset 11): edge `[0, …]` and
//! `[-1, …]`, wrap `[-b, …, -1]` and `[0, …, e-1]`, reflect `[b, …, 1]` and
//! `[-2, …, -e-1]`, symmetric `[b-1, …, 0]` and `[-1, …, -e]`. Those read inside the axis
//! while the pads are at most its extent (less one for reflect); wider, the runtime's
//! `Gather` fails on the position out of range, where padkit would give numpy's answer.
//! An axis whose extent is known takes its exact index map ([`crate::known_map`]).

use padkit::PadMode;
use padkit::axis_map::axis_sources;
use padkit::spec::AxisPad;
use padkit_onnx::pb::NodeProto;

use crate::LowerError;
use crate::emit::Emitter;
use crate::known_map::mapped_axis;
use crate::read::Pad;

/// The nodes that pad `pad`'s data into its output, each axis as `axes` says.
pub(crate) fn emit(
    mut emit: Emitter<'_>,
    pad: &Pad,
    axes: &[AxisPad],
) -> Result<Vec<NodeProto>, LowerError> {
    let (mode, rank) = (pad.mode, pad.shape.len());
    let mut value = pad.x.clone();
    for (axis, p) in axes.iter().enumerate() {
        if p.is_identity() {
            continue;
        }
        if let (Some(d), true) = (pad.shape[axis], mode != PadMode::Constant) {
            let sources = axis_sources(axis, d, p, mode).map_err(|e| pad.fail(e))?;
            value = mapped_axis(&mut emit, pad, &value, d, axis, &sources, None)
                .map_err(|e| pad.fail(e))?;
            continue;
        }
        let (b, e) = (p.begin as usize, p.end as usize);
        let borders = match mode {
            PadMode::Constant => {
                let mut block = |len: usize| {
                    (len > 0).then(|| emit.fill_like(&value, rank, axis, len, &pad.fill))
                };
                (block(b), block(e))
            }
            _ => {
                let (before, after) = positions(mode, b, e);
                let mut border = |positions: Vec<i64>| {
                    (!positions.is_empty()).then(|| emit.gather(&value, axis, &positions))
                };
                (border(before), border(after))
            }
        };
        let mut parts: Vec<String> = borders.0.into_iter().collect();
        parts.push(value.clone());
        parts.extend(borders.1);
        value = emit.concat(parts, axis);
    }
    Ok(emit.finish(&value, &pad.y))
}

/// The positions, counted from either end of the axis, that index `mode` reads into the
/// borders of `b` and `e` elements before and after the data.
fn positions(mode: PadMode, b: usize, e: usize) -> (Vec<i64>, Vec<i64>) {
    let (b, e) = (b as i64, e as i64);
    match mode {
        PadMode::Edge => (vec![0; b as usize], vec![-1; e as usize]),
        PadMode::Wrap => ((-b..0).collect(), (0..e).collect()),
        PadMode::Reflect => ((1..=b).rev().collect(), (2..e + 2).map(|k| -k).collect()),
        _ => ((0..b).rev().collect(), (1..=e).map(|k| -k).collect()),
    }
}

#[cfg(test)]
mod tests {
    use padkit::PadMode;

    use super::positions;

    /// Each mode's borders of the axis [10, 11, 12, 13] padded by 2 before and 3 after,
    /// read from numpy's `np.pad(x, (2, 3), mode)`: edge [10, 10 | … | 13, 13, 13], wrap
    /// [12, 13 | … | 10, 11, 12], reflect [12, 11 | … | 12, 11, 10], symmetric
    /// [11, 10 | … | 13, 12, 11].
    #[test]
    fn border_positions_read_what_numpy_pads_with() {
        let x = [10, 11, 12, 13];
        let at = |i: i64| x[i.rem_euclid(4) as usize];
        let read = |mode| {
            let (before, after) = positions(mode, 2, 3);
            let values = |p: Vec<i64>| p.into_iter().map(at).collect::<Vec<_>>();
            (values(before), values(after))
        };
        assert_eq!(read(PadMode::Edge), (vec![10, 10], vec![13, 13, 13]));
        assert_eq!(read(PadMode::Wrap), (vec![12, 13], vec![10, 11, 12]));
        assert_eq!(read(PadMode::Reflect), (vec![12, 11], vec![12, 11, 10]));
        assert_eq!(read(PadMode::Symmetric), (vec![11, 10], vec![13, 12, 11]));
    }
}
