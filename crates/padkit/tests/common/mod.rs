//! A naive reference Pad, written from the rules in the core issue and independent of
//! the kernels: one source index per output element, computed straight from the mode's
//! formula.

#![allow(dead_code)] // each test binary uses part of this module

/// The class of error the reference reports; the kernels must report the same class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrClass {
    AxisRange,
    DuplicateAxis,
    PadsLength,
    InteriorLength,
    NegativeInterior,
    InteriorMode,
    NegativeOutput,
    Crop,
    EmptyWindow,
    TooLarge,
}

pub fn class_of(e: &padkit::PadError) -> ErrClass {
    use padkit::PadError::*;
    match e {
        AxisOutOfRange { .. } => ErrClass::AxisRange,
        DuplicateAxis { .. } => ErrClass::DuplicateAxis,
        PadsLength { .. } => ErrClass::PadsLength,
        InteriorLength { .. } => ErrClass::InteriorLength,
        NegativeInterior { .. } => ErrClass::NegativeInterior,
        InteriorMode { .. } => ErrClass::InteriorMode,
        NegativeOutput { .. } => ErrClass::NegativeOutput,
        CropTooLarge { .. } => ErrClass::Crop,
        EmptyWindow { .. } => ErrClass::EmptyWindow,
        TooLarge { .. } => ErrClass::TooLarge,
        other => panic!("unexpected error class: {other}"),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Constant,
    Reflect,
    Edge,
    Wrap,
    Symmetric,
}

impl Mode {
    pub fn of(m: padkit::PadMode) -> Mode {
        match m.name() {
            "constant" => Mode::Constant,
            "reflect" => Mode::Reflect,
            "edge" => Mode::Edge,
            "wrap" => Mode::Wrap,
            _ => Mode::Symmetric,
        }
    }
}

/// Where output index `i` of an axis reads from, or `None` for the fill value.
fn source(i: i64, d: i64, b: i64, e: i64, r: i64, mode: Mode) -> Option<i64> {
    if mode == Mode::Constant {
        let p = i - b;
        if p < 0 || p % (r + 1) != 0 {
            return None;
        }
        let j = p / (r + 1);
        return (j < d).then_some(j);
    }
    let lo = (-b).max(0);
    let k = d - lo - (-e).max(0);
    let j = i - b.max(0);
    let m = match mode {
        Mode::Edge => j.clamp(0, k - 1),
        Mode::Wrap => j.rem_euclid(k),
        Mode::Reflect if k == 1 => 0,
        Mode::Reflect => {
            let m = j.rem_euclid(2 * (k - 1));
            if m < k { m } else { 2 * (k - 1) - m }
        }
        Mode::Symmetric => {
            let m = j.rem_euclid(2 * k);
            if m < k { m } else { 2 * k - 1 - m }
        }
        Mode::Constant => unreachable!(),
    };
    Some(lo + m)
}

/// The reference pad. `limit` is the largest output in elements.
#[allow(clippy::too_many_arguments)]
pub fn reference<T: Clone>(
    input: &[T],
    shape: &[usize],
    pads: &[i64],
    axes: Option<&[i64]>,
    interior: Option<&[i64]>,
    mode: Mode,
    value: T,
    limit: usize,
) -> Result<(Vec<usize>, Vec<T>), ErrClass> {
    let rank = shape.len() as i64;
    let listed: Vec<i64> = axes.map_or((0..rank).collect(), |a| a.to_vec());
    let mut axis_of = Vec::new();
    for &a in &listed {
        let n = if a < 0 { a + rank } else { a };
        if n < 0 || n >= rank {
            return Err(ErrClass::AxisRange);
        }
        if axis_of.contains(&n) {
            return Err(ErrClass::DuplicateAxis);
        }
        axis_of.push(n);
    }
    if pads.len() != 2 * listed.len() {
        return Err(ErrClass::PadsLength);
    }
    if interior.is_some_and(|r| r.len() != listed.len()) {
        return Err(ErrClass::InteriorLength);
    }
    let n = rank as usize;
    let (mut b, mut e, mut r) = (vec![0i64; n], vec![0i64; n], vec![0i64; n]);
    for (i, &a) in axis_of.iter().enumerate() {
        let a = a as usize;
        b[a] = pads[i];
        e[a] = pads[listed.len() + i];
        r[a] = interior.map_or(0, |x| x[i]);
        if r[a] < 0 {
            return Err(ErrClass::NegativeInterior);
        }
        if r[a] > 0 && mode != Mode::Constant {
            return Err(ErrClass::InteriorMode);
        }
    }
    let mut out_shape = Vec::new();
    for a in 0..n {
        let d = shape[a] as i64;
        if b[a] == 0 && e[a] == 0 && r[a] == 0 {
            out_shape.push(shape[a]);
            continue;
        }
        let o = d + (d - 1).max(0) * r[a] + b[a] + e[a];
        if o < 0 {
            return Err(ErrClass::NegativeOutput);
        }
        if mode != Mode::Constant {
            let k = d - (-b[a]).max(0) - (-e[a]).max(0);
            if k < 0 {
                return Err(ErrClass::Crop);
            }
            if k == 0 && (b[a] > 0 || e[a] > 0) {
                return Err(ErrClass::EmptyWindow);
            }
        }
        out_shape.push(o as usize);
    }
    let total = out_shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .unwrap_or(usize::MAX);
    if total > limit {
        return Err(ErrClass::TooLarge);
    }
    let mut out = Vec::with_capacity(total);
    let mut idx = vec![0usize; n];
    for _ in 0..total {
        let mut flat = Some(0i64);
        for a in 0..n {
            let s = source(idx[a] as i64, shape[a] as i64, b[a], e[a], r[a], mode);
            flat = match (flat, s) {
                (Some(f), Some(s)) => Some(f * shape[a] as i64 + s),
                _ => None,
            };
        }
        out.push(match flat {
            Some(f) => input[f as usize].clone(),
            None => value.clone(),
        });
        for a in (0..n).rev() {
            idx[a] += 1;
            if idx[a] < out_shape[a] {
                break;
            }
            idx[a] = 0;
        }
    }
    Ok((out_shape, out))
}
