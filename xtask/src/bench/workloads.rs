//! The benchmark workloads W1–W8 that `cargo xtask bench` times: the shapes Pad meets in image,
//! audio and physics models.

use std::mem::MaybeUninit;

use padkit::{DType, PadMode, PadSpec};

/// One benchmark case: an input shape and type, and the pad applied to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workload {
    /// Short name, `W<n>[-variant]`.
    pub name: String,
    /// Input shape.
    pub shape: Vec<usize>,
    /// Element type (f32, f16 or u8 here).
    pub dtype: DType,
    /// The pad.
    pub spec: PadSpec,
}

impl Workload {
    fn new(name: &str, shape: &[usize], dtype: DType, spec: PadSpec) -> Workload {
        Workload {
            name: name.to_string(),
            shape: shape.to_vec(),
            dtype,
            spec,
        }
    }

    /// The output shape (workloads are valid by construction).
    pub fn output_shape(&self) -> Vec<usize> {
        padkit::output_shape(&self.shape, &self.spec).unwrap_or_default()
    }

    /// Input elements.
    pub fn input_len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Output elements.
    pub fn output_len(&self) -> usize {
        self.output_shape().iter().product()
    }
}

/// W1–W8 in order, with their variants by mode and element type (`cargo xtask bench --quick`
/// leaves out the largest ones).
pub fn all() -> Vec<Workload> {
    let hw2 = |mode| PadSpec::new(vec![0, 0, 2, 2, 0, 0, 2, 2]).with_mode(mode);
    let w1 = [1, 64, 256, 256];
    let mut v: Vec<Workload> = [
        PadMode::Constant,
        PadMode::Reflect,
        PadMode::Edge,
        PadMode::Wrap,
    ]
    .into_iter()
    .map(|m| Workload::new(&format!("W1-{m}"), &w1, DType::Float32, hw2(m)))
    .collect();
    let reflect16 = PadSpec::new(vec![0, 0, 16, 16, 0, 0, 16, 16]).with_mode(PadMode::Reflect);
    v.push(Workload::new(
        "W2-reflect",
        &[8, 3, 512, 512],
        DType::Float32,
        reflect16,
    ));
    for m in [PadMode::Constant, PadMode::Edge] {
        let spec = PadSpec::new(vec![1, 1]).with_axes(vec![-1]).with_mode(m);
        v.push(Workload::new(
            &format!("W3-{m}"),
            &[1024, 1024, 4],
            DType::Float32,
            spec,
        ));
    }
    let axis0 = PadSpec::new(vec![8, 8]).with_axes(vec![0]);
    v.push(Workload::new(
        "W4-constant",
        &[64, 1024, 1024],
        DType::Float32,
        axis0,
    ));
    let crop = PadSpec::new(vec![0, 0, -2, -2, 0, 0, -2, -2]);
    v.push(Workload::new("W5-crop", &w1, DType::Float32, crop));
    v.push(Workload::new(
        "W6-f16",
        &w1,
        DType::Float16,
        hw2(PadMode::Constant),
    ));
    v.push(Workload::new(
        "W6-u8",
        &w1,
        DType::UInt8,
        hw2(PadMode::Constant),
    ));
    let small = PadSpec::new(vec![0, 0, 1, 1, 0, 0, 1, 1]);
    v.push(Workload::new(
        "W7-constant",
        &[1, 3, 8, 8],
        DType::Float32,
        small,
    ));
    let wrap = PadSpec::new(vec![1024, 1024]).with_mode(PadMode::Wrap);
    v.push(Workload::new("W8-wrap", &[16 << 20], DType::Float32, wrap));
    v
}

/// `bytes` seen as room to write, for `Plan::run_bytes` into a buffer that another job
/// also uses as initialised memory.
///
/// # Safety
///
/// `MaybeUninit<u8>` lets safe code write `MaybeUninit::uninit()` through the result,
/// which would leave `bytes` holding uninitialised memory once the borrow ends. The
/// caller must write only initialised bytes through it. `Plan::run_bytes` meets this:
/// every byte it writes is a copy of an input or fill byte.
pub unsafe fn as_uninit_bytes(bytes: &mut [u8]) -> &mut [MaybeUninit<u8>] {
    let ptr: *mut [u8] = bytes;
    // SAFETY: `MaybeUninit<u8>` has the layout of `u8`; the caller writes only
    // initialised bytes through the result (the contract above), so `bytes` is
    // initialised when it is done.
    unsafe { &mut *(ptr as *mut [MaybeUninit<u8>]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workloads_have_their_shapes() {
        let all = all();
        assert_eq!(all.len(), 13);
        assert!(all.iter().any(|w| w.name == "W3-edge"));
        let w = &all[0];
        assert_eq!(w.name, "W1-constant");
        assert_eq!(w.output_shape(), vec![1, 64, 260, 260]);
        assert_eq!(w.input_len(), 64 * 256 * 256);
        assert_eq!(w.output_len(), 64 * 260 * 260);
        let w8 = all.into_iter().find(|w| w.name == "W8-wrap").unwrap();
        assert_eq!(w8.output_shape(), vec![16 * 1024 * 1024 + 2048]);
    }

    #[test]
    fn uninit_bytes_take_what_run_bytes_writes() {
        let mut buf = vec![7u8; 4];
        let plan = padkit::Plan::new(&[2], &padkit::PadSpec::new(vec![1, 1]), 1).unwrap();
        // SAFETY: `run_bytes` writes only initialised bytes (copies of its input and fill).
        let room = unsafe { as_uninit_bytes(&mut buf) };
        plan.run_bytes(&[1, 2], &[0], room).unwrap();
        assert_eq!(buf, [0, 1, 2, 0]);
    }
}
