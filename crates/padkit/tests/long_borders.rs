//! Index maps of the periodic modes whose borders are longer than the positions the map
//! lists (64) on axes longer than that, where a border after the center repeats the center
//! itself: `axis_sources` and `axis_borders` (which padkit-lower and padkit-burn's GPU
//! tables read) against numpy's formulas, written out here. The `lower` fuzz target found
//! the first: a wrap of 256 and 65 on an axis of 122 read one position as fill.

use padkit::PadMode;
use padkit::axis_map::{axis_borders, axis_sources};
use padkit::spec::AxisPad;

/// numpy's source of output position `o` of an axis of extent `d` padded by `b` before.
fn numpy(mode: PadMode, d: i64, b: i64, o: i64) -> usize {
    let j = o - b;
    let s = match mode {
        PadMode::Wrap => j.rem_euclid(d),
        PadMode::Reflect if d == 1 => 0,
        PadMode::Reflect => {
            let m = j.rem_euclid(2 * (d - 1));
            if m < d { m } else { 2 * (d - 1) - m }
        }
        PadMode::Symmetric => {
            let m = j.rem_euclid(2 * d);
            if m < d { m } else { 2 * d - 1 - m }
        }
        _ => unreachable!("the periodic modes only"),
    };
    s as usize
}

#[test]
fn long_periodic_borders_match_numpy() {
    for mode in [PadMode::Wrap, PadMode::Reflect, PadMode::Symmetric] {
        for d in [1usize, 2, 63, 64, 65, 70, 122, 200] {
            for (b, e) in [(0, 65), (256, 65), (3, 200), (300, 500), (65, 0), (64, 64)] {
                let p = AxisPad {
                    begin: b,
                    end: e,
                    interior: 0,
                };
                let want: Vec<Option<usize>> = (0..d as i64 + b + e)
                    .map(|o| Some(numpy(mode, d as i64, b, o)))
                    .collect();
                let what = format!("{mode:?}, extent {d}, pads ({b}, {e})");
                assert_eq!(axis_sources(0, d, &p, mode).unwrap(), want, "{what}");
                let borders = axis_borders(0, d, &p, mode).unwrap();
                let center = (0..borders.center_len).map(|t| Some(borders.center_src + t));
                let joined: Vec<Option<usize>> = borders
                    .before
                    .iter()
                    .copied()
                    .chain(center)
                    .chain(borders.after.iter().copied())
                    .collect();
                assert_eq!(joined, want, "{what} (borders)");
            }
        }
    }
}
