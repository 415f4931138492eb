//! Every public run path of the core against the reference, on one case.
//!
//! Outputs start as a sentinel pattern that is neither an input value nor the fill, so an
//! element a kernel forgets to write shows as a difference, not as whatever the memory
//! held.

use std::fmt::Debug;
use std::mem::MaybeUninit;

use padkit::axis_map::{axis_borders, axis_sources};
use padkit::bytemuck::Pod;
use padkit::run::{pad_bytes, pad_cloned};
use padkit::{DType, Data, Plan, Tensor, output_shape, pad, pad_adjoint, pad_into, pad_tensor};

use crate::{Case, class_of};

/// A plain element type the checks run on, with values that never collide with the fill
/// or the sentinel.
trait Word: Pod + Eq + Debug + Send + Sync {
    /// The fill value.
    const FILL: Self;
    /// What an output holds before the kernel writes it.
    const SENTINEL: Self;
    /// The `i`-th input value: neither the fill nor the sentinel.
    fn at(i: usize) -> Self;
}

macro_rules! words {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const FILL: Self = <$t>::MAX;
            const SENTINEL: Self = 0;
            fn at(i: usize) -> Self {
                (i as u128 % (<$t>::MAX as u128 - 1) + 1) as $t
            }
        }
    )*};
}

words!(u8, u16, u32, u64, u128);

/// What went wrong, for the fuzzer's crash report or the property test's message.
pub type Failure = String;

fn fail<T>(what: impl Into<String>) -> Result<T, Failure> {
    Err(what.into())
}

/// Runs `case` through every public path of the core, with elements of `width` bytes
/// (1, 2, 4, 8 or 16; any other width runs the typed paths on `[u8; 3]`), and compares
/// each with the reference. Outputs above `limit` elements must be refused.
///
/// Also plans the case without any output limit, which must end quickly whatever the
/// pads (planning never costs more than a few runs per axis).
///
/// # Errors
///
/// A [`Failure`] naming the case, the width and the first path that disagrees with the
/// reference: another output shape or other output values, an error where the reference
/// has none, none where it has one, or an error of another [`ErrClass`](crate::ErrClass).
///
/// ```
/// use padkit::PadMode;
/// let case = padkit_testkit::Case::new(vec![2, 3], vec![1, -1, 2, 4], PadMode::Reflect);
/// padkit_testkit::check_core(&case, 4, 1 << 12).unwrap();
/// ```
pub fn check_core(case: &Case, width: usize, limit: usize) -> Result<(), Failure> {
    check_paths(case, width, limit).map_err(|f| format!("{case:?} (width {width}): {f}"))
}

fn check_paths(case: &Case, width: usize, limit: usize) -> Result<(), Failure> {
    let unlimited = Plan::new(&case.shape, &case.spec(), width.max(1));
    let want = case.sources(limit);
    let limited = case
        .spec()
        .with_max_output_bytes((limit * width.max(1)) as u64);
    let plan = match (Plan::new(&case.shape, &limited, width.max(1)), &want) {
        (Ok(plan), Ok((shape, _))) if plan.output_shape() == &shape[..] => plan,
        (Err(e), Err(w)) if class_of(&e) == Some(*w) => return check_unlimited(unlimited, case),
        (got, want) => {
            return fail(format!(
                "{case:?}: Plan::new gives {:?}, the reference {:?}",
                got.map(|p| p.output_shape().to_vec()),
                want.as_ref().map(|w| &w.0)
            ));
        }
    };
    let (shape, sources) = want.map_err(|e| format!("{e:?}"))?;
    check_unlimited(unlimited, case)?;
    let symbolic = output_shape(
        &case.shape.iter().map(|&d| d as i64).collect::<Vec<_>>(),
        &case.spec(),
    );
    if symbolic.map_err(|e| e.to_string())? != shape.iter().map(|&d| d as i64).collect::<Vec<_>>() {
        return fail(format!(
            "{case:?}: output_shape::<i64> differs from {shape:?}"
        ));
    }
    match width {
        1 => check_word::<u8>(case, &plan, &shape, &sources, DType::UInt8)?,
        2 => check_word::<u16>(case, &plan, &shape, &sources, DType::UInt16)?,
        4 => check_word::<u32>(case, &plan, &shape, &sources, DType::UInt32)?,
        8 => check_word::<u64>(case, &plan, &shape, &sources, DType::UInt64)?,
        16 => check_word::<u128>(case, &plan, &shape, &sources, DType::Complex128)?,
        _ => check_odd_width(case, &shape, &sources)?,
    }
    check_strings(case, &shape, &sources)?;
    check_packed(case, &shape, &sources)?;
    check_axis_sources(case, &shape, limit)?;
    check_adjoint(case)
}

/// A plan without a limit either fails as the limited one would, or succeeds.
fn check_unlimited(unlimited: padkit::Result<Plan>, case: &Case) -> Result<(), Failure> {
    match (unlimited, case.sources(0)) {
        (Ok(_), _) => Ok(()),
        (Err(e), Err(w)) if class_of(&e) == Some(w) => Ok(()),
        (Err(padkit::PadError::TooLarge { .. }), _) => Ok(()),
        (Err(e), w) => fail(format!(
            "{case:?}: unlimited Plan::new fails with {e}, the reference gives {:?}",
            w.map(|w| w.0)
        )),
    }
}

/// The reference output for the `Word` inputs.
fn expected<T: Word>(sources: &[Option<usize>]) -> Vec<T> {
    sources.iter().map(|s| s.map_or(T::FILL, T::at)).collect()
}

fn check_word<T: Word>(
    case: &Case,
    plan: &Plan,
    shape: &[usize],
    sources: &[Option<usize>],
    dtype: DType,
) -> Result<(), Failure> {
    let input: Vec<T> = (0..case.input_len()).map(T::at).collect();
    let want = expected::<T>(sources);
    let same = |path: &str, got: &[T]| {
        if got == want {
            Ok(())
        } else {
            fail(format!(
                "{case:?}: {path} gives {got:?}, the reference {want:?}"
            ))
        }
    };
    let spec = case.spec();
    let (s, out) = pad(&input, &case.shape, &spec, T::FILL).map_err(|e| e.to_string())?;
    if s != shape {
        return fail(format!("{case:?}: pad gives shape {s:?}, not {shape:?}"));
    }
    same("pad", &out)?;
    let mut stale = vec![T::SENTINEL; want.len()];
    pad_into(&input, &case.shape, &spec, T::FILL, &mut stale).map_err(|e| e.to_string())?;
    same("pad_into", &stale)?;
    let mut slots = vec![MaybeUninit::new(T::SENTINEL); want.len()];
    let written = plan
        .run_uninit(&input, &T::FILL, &mut slots)
        .map_err(|e| e.to_string())?;
    same("Plan::run_uninit", written)?;
    let bytes: &[u8] = padkit::bytemuck::cast_slice(&input);
    let fill_value = T::FILL;
    let fill = padkit::bytemuck::bytes_of(&fill_value);
    let want_bytes: &[u8] = padkit::bytemuck::cast_slice(&want);
    let mut slots = vec![MaybeUninit::new(0u8); want_bytes.len()];
    let written = plan
        .run_bytes(bytes, fill, &mut slots)
        .map_err(|e| e.to_string())?;
    if written != want_bytes {
        return fail(format!(
            "{case:?}: Plan::run_bytes differs from the reference"
        ));
    }
    let (_, out) =
        pad_bytes(bytes, size_of::<T>(), &case.shape, &spec, fill).map_err(|e| e.to_string())?;
    if out != want_bytes {
        return fail(format!("{case:?}: pad_bytes differs from the reference"));
    }
    let x = Tensor::new(dtype, case.shape.clone(), Data::Bytes(bytes.to_vec()))
        .map_err(|e| e.to_string())?;
    let v = Tensor::new(dtype, vec![], Data::Bytes(fill.to_vec())).map_err(|e| e.to_string())?;
    let y = pad_tensor(&x, &spec, Some(&v)).map_err(|e| e.to_string())?;
    if y.shape() != shape || y.data() != &Data::Bytes(want_bytes.to_vec()) {
        return fail(format!("{case:?}: pad_tensor differs from the reference"));
    }
    Ok(())
}

/// `pad` on a plain type whose width the byte kernel does not serve (3 bytes): the typed
/// kernel.
fn check_odd_width(case: &Case, shape: &[usize], sources: &[Option<usize>]) -> Result<(), Failure> {
    let at = |i: usize| {
        let [a, b, c, _] = (i as u32 + 1).to_le_bytes();
        [a, b, c]
    };
    let input: Vec<[u8; 3]> = (0..case.input_len()).map(at).collect();
    let want: Vec<[u8; 3]> = sources.iter().map(|s| s.map_or([0xFF; 3], at)).collect();
    let (s, out) = pad(&input, &case.shape, &case.spec(), [0xFF; 3]).map_err(|e| e.to_string())?;
    if s != shape || out != want {
        return fail(format!(
            "{case:?}: pad of [u8; 3] differs from the reference"
        ));
    }
    Ok(())
}

/// `pad_cloned` on strings, and `pad_tensor` on a string tensor.
fn check_strings(case: &Case, shape: &[usize], sources: &[Option<usize>]) -> Result<(), Failure> {
    if sources.len() > 1 << 12 {
        return Ok(()); // strings cost a heap allocation each: keep to small outputs
    }
    let input: Vec<String> = (0..case.input_len()).map(|i| i.to_string()).collect();
    let want: Vec<String> = sources
        .iter()
        .map(|s| s.map_or_else(|| "fill".to_string(), |s| s.to_string()))
        .collect();
    let (s, out) = pad_cloned(&input, &case.shape, &case.spec(), "fill".to_string())
        .map_err(|e| e.to_string())?;
    if s != shape || out != want {
        return fail(format!(
            "{case:?}: pad_cloned of strings gives {out:?}, not {want:?}"
        ));
    }
    let x = Tensor::from_strings(&case.shape, input).map_err(|e| e.to_string())?;
    let v = Tensor::from_strings(&[], vec!["fill".to_string()]).map_err(|e| e.to_string())?;
    let y = pad_tensor(&x, &case.spec(), Some(&v)).map_err(|e| e.to_string())?;
    if y.data() != &Data::Strings(want) {
        return fail(format!(
            "{case:?}: pad_tensor of strings differs from the reference"
        ));
    }
    Ok(())
}

/// `pad_tensor` on packed 4-bit codes.
fn check_packed(case: &Case, shape: &[usize], sources: &[Option<usize>]) -> Result<(), Failure> {
    let code = |i: usize| (i % 14 + 1) as u8;
    let codes: Vec<u8> = (0..case.input_len()).map(code).collect();
    let want: Vec<u8> = sources.iter().map(|s| s.map_or(15, code)).collect();
    let x = Tensor::from_codes(DType::Int4, &case.shape, &codes).map_err(|e| e.to_string())?;
    let v = Tensor::from_codes(DType::Int4, &[], &[15]).map_err(|e| e.to_string())?;
    let y = pad_tensor(&x, &case.spec(), Some(&v)).map_err(|e| e.to_string())?;
    if y.shape() != shape || y.unpacked_codes() != Some(want) {
        return fail(format!(
            "{case:?}: pad_tensor of int4 differs from the reference"
        ));
    }
    Ok(())
}

/// `axis_sources` and `axis_borders` on every axis of at most `limit` output elements (an
/// empty output can have enormous axes) against the one-axis reference.
fn check_axis_sources(case: &Case, shape: &[usize], limit: usize) -> Result<(), Failure> {
    let pads = case
        .spec()
        .resolve(case.shape.len())
        .map_err(|e| e.to_string())?;
    for (axis, (p, &d)) in pads.iter().zip(&case.shape).enumerate() {
        if shape[axis] > limit {
            continue;
        }
        let one = Case {
            shape: vec![d],
            pads: vec![p.begin, p.end],
            axes: None,
            interior: Some(vec![p.interior]),
            mode: case.mode,
        };
        let (_, want) = one.sources(usize::MAX).map_err(|e| format!("{e:?}"))?;
        let got = axis_sources(axis, d, p, case.mode).map_err(|e| e.to_string())?;
        if got != want {
            return fail(format!(
                "{case:?}: axis_sources({axis}) gives {got:?}, not {want:?}"
            ));
        }
        let b = axis_borders(axis, d, p, case.mode).map_err(|e| e.to_string())?;
        let center = (0..b.center_len).map(|t| Some(b.center_src + t));
        let joined: Vec<_> = b
            .before
            .iter()
            .copied()
            .chain(center)
            .chain(b.after.iter().copied())
            .collect();
        if joined != want {
            return fail(format!(
                "{case:?}: axis_borders({axis}) gives {b:?}, not {want:?}"
            ));
        }
    }
    Ok(())
}

/// `pad_adjoint` against the reference adjoint.
fn check_adjoint(case: &Case) -> Result<(), Failure> {
    let (_, sources) = case.sources(usize::MAX).map_err(|e| format!("{e:?}"))?;
    let grad: Vec<i64> = (1..=sources.len() as i64).collect();
    let want = case
        .reference_adjoint(&grad)
        .map_err(|e| format!("{e:?}"))?;
    let got = pad_adjoint(&grad, &case.shape, &case.spec()).map_err(|e| e.to_string())?;
    if got != want {
        return fail(format!("{case:?}: pad_adjoint gives {got:?}, not {want:?}"));
    }
    Ok(())
}
