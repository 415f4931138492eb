//! Which implementation a pad runs, and why: [`pad_path`] answers before a call
//! ([`kernel_runs`](crate::counters::kernel_runs) counts what ran).

use std::fmt;
use std::sync::Once;

use burn::backend::DispatchDevice;
use burn::tensor::{DType, Device};

pub use crate::composed::pad_composed;

/// The implementation a pad takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PadPath {
    /// padkit's kernel on the host buffer of a CPU backend (Flex, NdArray).
    Host,
    /// padkit's CubeCL kernel on the device, recorded as one operation by burn-fusion where
    /// the backend fuses. Run on wgpu only (in CI, on Vulkan's CPU adapter lavapipe); see
    /// the crate docs for the other runtimes.
    Device,
    /// A composition of Burn tensor ops ([`pad_composed`]), for the
    /// reason given.
    Composed(Reason),
}

/// Why a pad takes the composed path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// padkit-burn has no kernel for this backend (LibTorch, Remote, …).
    Backend(String),
    /// padkit-burn has a kernel for this device's backend, but was built without the
    /// feature that brings it. On a CubeCL device (wgpu, CUDA, ROCm, Metal) the composed
    /// path is slower than Burn's own `Tensor::pad`; the first pad that meets this logs a
    /// warning (through the `log` facade) naming the feature.
    FeatureOff {
        /// The device, as Burn prints it.
        device: String,
        /// padkit-burn's feature that brings the kernel: `wgpu`, `metal`, `cuda`, `rocm`,
        /// `cube` (any other CubeCL runtime), `flex` or `ndarray`.
        feature: &'static str,
    },
    /// An autodiff device, and padkit-burn was built without its `autodiff` feature
    /// (which brings the native backward).
    NoAutodiffFeature,
    /// The device does not hold this element type.
    ElementType(DType),
    /// The pad is too large for the CubeCL kernel's 32-bit indexing: its input or output
    /// has more than `u32::MAX` elements, or its axes are so long that the kernel's index
    /// tables (an entry per border position and per input index of an axis) would not
    /// index in 32 bits.
    TooLarge {
        /// Elements of the input.
        input: usize,
        /// Elements of the output.
        output: usize,
    },
}

impl fmt::Display for PadPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PadPath::Host => f.write_str("native: padkit's kernel on the host buffer"),
            PadPath::Device => f.write_str("native: padkit's CubeCL kernel on the device"),
            PadPath::Composed(reason) => write!(f, "composed from Burn tensor ops: {reason}"),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Backend(device) => write!(f, "no padkit kernel for {device}"),
            Reason::FeatureOff { device, feature } => write!(
                f,
                "padkit-burn was built without its `{feature}` feature, which brings its \
                 kernel for {device}"
            ),
            Reason::NoAutodiffFeature => {
                f.write_str("an autodiff device, and padkit-burn lacks its `autodiff` feature")
            }
            Reason::ElementType(dtype) => write!(f, "the device does not hold {dtype:?}"),
            Reason::TooLarge { input, output } => write!(
                f,
                "a pad of {input} to {output} elements, or of axes this long, exceeds the \
                 kernel's 32-bit indexing"
            ),
        }
    }
}

impl PadPath {
    /// True for the two native paths.
    ///
    /// ```
    /// assert!(padkit_burn::route::PadPath::Host.is_native());
    /// ```
    pub fn is_native(&self) -> bool {
        !matches!(self, PadPath::Composed(_))
    }
}

/// The path a pad of a `dtype` tensor of `input` elements to `output` elements takes on
/// `device`: a function of them (the spec decides only the output's size).
///
/// On a device whose backend padkit-burn has a kernel for but was built without the
/// feature for (most often: Burn's wgpu without padkit-burn's `wgpu` feature), the reason
/// is [`Reason::FeatureOff`], and the first such call logs a warning through the `log`
/// facade, since the composed path is slower there than Burn's own pad.
///
/// ```
/// use burn::tensor::{DType, Device};
/// use padkit_burn::route::{PadPath, pad_path};
/// assert_eq!(pad_path(&Device::flex(), DType::F32, &[2, 3], &[4, 5]), PadPath::Host);
/// ```
// (the element type and sizes matter only to the CubeCL kernel)
#[cfg_attr(not(feature = "cube"), allow(unused_variables))]
pub fn pad_path(device: &Device, dtype: DType, input: &[usize], output: &[usize]) -> PadPath {
    let inner = device.clone().inner();
    #[allow(unreachable_patterns)] // every variant is native when no other backend is built
    let path = match inner.as_dispatch() {
        #[cfg(feature = "flex")]
        DispatchDevice::Flex(_) => PadPath::Host,
        #[cfg(feature = "ndarray")]
        #[allow(deprecated)]
        DispatchDevice::NdArray(_) => PadPath::Host,
        #[cfg(feature = "cube")]
        DispatchDevice::Cube(_) => cube_path(&inner, dtype, input, output),
        other => PadPath::Composed(no_kernel(format!("{other:?}"))),
    };
    if path.is_native() && device.is_autodiff() && !cfg!(feature = "autodiff") {
        return PadPath::Composed(Reason::NoAutodiffFeature);
    }
    path
}

/// The CubeCL kernel's path on `device`, a CubeCL device: native unless the device lacks
/// the element type or the pad is too large for 32-bit indexing.
#[cfg(feature = "cube")]
fn cube_path(device: &Device, dtype: DType, input: &[usize], output: &[usize]) -> PadPath {
    if !device.supports_dtype(dtype) {
        return PadPath::Composed(Reason::ElementType(dtype));
    }
    let elements = |s: &[usize]| s.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
    let (i, o) = (elements(input), elements(output));
    let small = |n: Option<usize>| n.is_some_and(|n| n <= u32::MAX as usize);
    if small(i) && small(o) && crate::native::cube_tables_fit(input, output) {
        PadPath::Device
    } else {
        PadPath::Composed(Reason::TooLarge {
            input: i.unwrap_or(usize::MAX),
            output: o.unwrap_or(usize::MAX),
        })
    }
}

/// Why a device that padkit-burn, as built, has no kernel for (`device`: its dispatch
/// device as Burn prints it) takes the composed path; warns once when padkit-burn has a
/// kernel for it behind a feature that is off.
fn no_kernel(device: String) -> Reason {
    match feature_for(&device) {
        Some(feature) => {
            let reason = Reason::FeatureOff { device, feature };
            warn_once(&reason);
            reason
        }
        None => Reason::Backend(device),
    }
}

/// padkit-burn's feature that brings its kernel for `device`, a dispatch device as Burn
/// 0.22.1 prints it (`DispatchDevice`'s `Debug`: `Cube(…)` around CubeCL's derived `Debug`
/// of the device, `Wgpu(WgpuDevice { kind: …, backend: … })`, `Cuda(…)`, `Hip(…)`, …;
/// `Flex(…)`, `NdArray(…)`); `None` for a backend padkit-burn has no kernel for.
///
/// A string, not a match on `DispatchDevice::Cube`: that variant exists only where Burn is
/// built with a CubeCL runtime, which padkit-burn cannot tell at compile time without its
/// own feature — the very case this detects.
fn feature_for(device: &str) -> Option<&'static str> {
    if let Some(cube) = device.strip_prefix("Cube(") {
        return Some(if cube.starts_with("Wgpu(") {
            if cube.contains("backend: Metal") {
                "metal"
            } else {
                "wgpu"
            }
        } else if cube.starts_with("Cuda(") {
            "cuda"
        } else if cube.starts_with("Hip(") {
            "rocm"
        } else {
            "cube"
        });
    }
    if device.starts_with("Flex(") {
        Some("flex")
    } else if device.starts_with("NdArray(") {
        Some("ndarray")
    } else {
        None
    }
}

/// Logs `reason` (a [`Reason::FeatureOff`]) as a warning, once per process.
fn warn_once(reason: &Reason) {
    static WARNED: Once = Once::new();
    WARNED.call_once(|| {
        log::warn!(
            "padkit-burn: pads take the composed path (Burn tensor ops): {reason}. The \
             composed path is slower than padkit-burn's kernel and, on a GPU, than Burn's own \
             `Tensor::pad`; turn the feature on (`padkit_burn::route::pad_path` says which path a \
             pad takes). Warned once."
        );
    });
}

/// True for devices whose backend has a padkit kernel in this build: Flex (feature
/// `flex`), NdArray (feature `ndarray`) and Burn's CubeCL backend (features `wgpu`, `cuda`,
/// `rocm`, `metal`, or `cube`; run on wgpu only, see the crate docs); on an autodiff
/// device over them, only with the `autodiff` feature, which brings the native backward.
/// Every other device takes the composed path; [`pad_path`] also weighs the element type
/// and size of one call (for f32, as here).
///
/// ```
/// use burn::tensor::{DType, Device};
/// assert!(padkit_burn::route::has_native_kernel(&Device::flex().autodiff()));
/// ```
pub fn has_native_kernel(device: &Device) -> bool {
    pad_path(device, burn::tensor::DType::F32, &[], &[]).is_native()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wgpu device on Vulkan's CPU adapter, as Burn 0.22.1 prints its dispatch device.
    const WGPU: &str = "Cube(Wgpu(WgpuDevice { kind: Cpu, backend: Auto }))";

    /// Which of padkit-burn's features a device needs, read from the dispatch device as
    /// Burn 0.22.1 prints it. (A build of this crate without its GPU features cannot make
    /// such a device: Burn has no CubeCL variant then, so the strings stand in for them;
    /// the tests below check them against the devices of the build, where it has them.)
    #[test]
    fn a_device_names_the_feature_that_brings_its_kernel() {
        for (device, feature) in [
            (WGPU, Some("wgpu")),
            (
                "Cube(Wgpu(WgpuDevice { kind: DiscreteGpu(0), backend: Vulkan }))",
                Some("wgpu"),
            ),
            (
                "Cube(Wgpu(WgpuDevice { kind: DefaultDevice, backend: Metal }))",
                Some("metal"),
            ),
            ("Cube(Cuda(CudaDevice { index: 0 }))", Some("cuda")),
            ("Cube(Hip(AmdDevice { index: 0 }))", Some("rocm")),
            ("Cube(Cpu(CpuDevice))", Some("cube")),
            ("Flex(FlexDevice)", Some("flex")),
            ("NdArray(Cpu)", Some("ndarray")),
            ("LibTorch(Cpu)", None),
            ("Remote(RemoteDevice { address: \"ws://localhost\" })", None),
        ] {
            assert_eq!(feature_for(device), feature, "{device}");
        }
    }

    #[cfg(feature = "flex")]
    #[test]
    fn flex_devices_print_as_read() {
        let device = format!("{:?}", Device::flex().as_dispatch());
        assert_eq!(feature_for(&device), Some("flex"), "{device}");
    }

    #[cfg(feature = "ndarray")]
    #[test]
    #[allow(deprecated)]
    fn ndarray_devices_print_as_read() {
        let device = format!("{:?}", Device::ndarray().as_dispatch());
        assert_eq!(feature_for(&device), Some("ndarray"), "{device}");
    }

    #[cfg(feature = "wgpu-without-fusion")]
    #[test]
    fn wgpu_devices_print_as_read() {
        use burn::tensor::DeviceKind;
        for kind in [DeviceKind::Cpu, DeviceKind::DefaultDevice] {
            let device = format!("{:?}", Device::wgpu(kind).as_dispatch());
            assert_eq!(feature_for(&device), Some("wgpu"), "{device}");
        }
        let device = format!("{:?}", Device::wgpu(DeviceKind::Cpu).as_dispatch());
        assert_eq!(device, WGPU);
    }

    #[cfg(feature = "metal")]
    #[test]
    fn metal_devices_print_as_read() {
        use burn::tensor::DeviceKind;
        let device = format!(
            "{:?}",
            Device::metal(DeviceKind::DefaultDevice).as_dispatch()
        );
        assert_eq!(feature_for(&device), Some("metal"), "{device}");
    }

    /// The warnings padkit-burn logs, captured (this is the only test of the library that
    /// sets a logger, and the only one that meets a device whose feature is off).
    static WARNINGS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

    struct Capture;

    impl log::Log for Capture {
        fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
            metadata.level() <= log::Level::Warn
        }

        fn log(&self, record: &log::Record<'_>) {
            if self.enabled(record.metadata()) && record.target().starts_with("padkit_burn") {
                let mut warnings = WARNINGS.lock().unwrap_or_else(|e| e.into_inner());
                warnings.push(record.args().to_string());
            }
        }

        fn flush(&self) {}
    }

    fn warnings() -> Vec<String> {
        WARNINGS.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    #[test]
    fn a_device_whose_feature_is_off_says_so_and_warns_once() {
        static CAPTURE: Capture = Capture;
        log::set_logger(&CAPTURE).expect("no other test of the library sets a logger");
        log::set_max_level(log::LevelFilter::Warn);

        let reason = no_kernel(WGPU.to_string());
        assert_eq!(
            reason,
            Reason::FeatureOff {
                device: WGPU.to_string(),
                feature: "wgpu"
            }
        );
        assert_eq!(
            PadPath::Composed(reason).to_string(),
            "composed from Burn tensor ops: padkit-burn was built without its `wgpu` \
             feature, which brings its kernel for \
             Cube(Wgpu(WgpuDevice { kind: Cpu, backend: Auto }))"
        );
        let warned = warnings();
        assert_eq!(warned.len(), 1, "{warned:?}");
        assert!(
            warned[0].contains("without its `wgpu` feature")
                && warned[0].contains("slower than padkit-burn's kernel")
                && warned[0].contains("than Burn's own `Tensor::pad`"),
            "{}",
            warned[0]
        );
        // once per process: not again, for this device or another
        let cuda = "Cube(Cuda(CudaDevice { index: 0 }))";
        no_kernel(WGPU.to_string());
        assert_eq!(
            no_kernel(cuda.to_string()),
            Reason::FeatureOff {
                device: cuda.to_string(),
                feature: "cuda"
            }
        );
        // a backend padkit-burn has no kernel for: nothing to turn on, nothing to warn of
        assert_eq!(
            no_kernel("LibTorch(Cpu)".to_string()),
            Reason::Backend("LibTorch(Cpu)".to_string())
        );
        assert_eq!(warnings().len(), 1, "{:?}", warnings());
        #[cfg(not(feature = "flex"))]
        flex_without_its_feature();
    }

    /// Without padkit-burn's `flex` feature, Burn's Flex (there through the tests' Burn)
    /// takes the composed path, for that reason, and pads right (runs only in such a
    /// build, e.g. `cargo test -p padkit-burn --no-default-features --features ndarray
    /// --lib`).
    #[cfg(not(feature = "flex"))]
    fn flex_without_its_feature() {
        use burn::tensor::{Int, Tensor};
        let dev = Device::flex();
        let path = pad_path(&dev, DType::I64, &[3], &[3]);
        assert!(
            matches!(
                &path,
                PadPath::Composed(Reason::FeatureOff {
                    feature: "flex",
                    ..
                })
            ),
            "{path:?}"
        );
        let runs = crate::counters::kernel_runs().host;
        let x = Tensor::<1, Int>::from_data([1i64, 2, 3], (&dev, DType::I64));
        let y = crate::pad_with(x, &padkit::PadSpec::new(vec![1, -1]), 7i64).unwrap();
        assert_eq!(
            y.into_data().try_into_vec_as::<i64>().unwrap(),
            vec![7, 1, 2]
        );
        assert_eq!(
            crate::counters::kernel_runs().host,
            runs,
            "the composed path runs no host kernel"
        );
    }

    /// Without padkit-burn's `autodiff` feature, an autodiff device over Flex takes the
    /// composed path, which Burn differentiates: the reason, the values and the gradient
    /// (runs only in such a build, e.g. `cargo test -p padkit-burn --no-default-features
    /// --features flex --lib`).
    #[cfg(all(feature = "flex", not(feature = "autodiff")))]
    #[test]
    fn an_autodiff_device_without_the_autodiff_feature_is_composed_and_right() {
        use burn::tensor::Tensor;
        use padkit::{PadMode, PadSpec};

        let dev = Device::flex().autodiff();
        assert_eq!(
            pad_path(&dev, DType::F32, &[5], &[10]),
            PadPath::Composed(Reason::NoAutodiffFeature)
        );
        assert_eq!(
            pad_path(&Device::flex(), DType::F32, &[5], &[10]),
            PadPath::Host
        );
        let runs = crate::counters::kernel_runs().host;
        let spec = PadSpec::new(vec![2, 3]).with_mode(PadMode::Wrap);
        let x = Tensor::<1>::from_data([1.0f32, 2., 3., 4., 5.], &dev).require_grad();
        let y = crate::pad_with(x.clone(), &spec, 0.0).unwrap();
        assert_eq!(
            y.clone().into_data().try_to_vec::<f32>().unwrap(),
            vec![4.0, 5.0, 1.0, 2.0, 3.0, 4.0, 5.0, 1.0, 2.0, 3.0]
        );
        let w = Tensor::<1>::from_data([1.0f32, 2., 3., 4., 5., 6., 7., 8., 9., 10.], &dev);
        let grads = (y * w).sum().backward();
        // x[i] is read at two outputs: the sum of their weights
        assert_eq!(
            x.grad(&grads)
                .unwrap()
                .into_data()
                .try_to_vec::<f32>()
                .unwrap(),
            vec![11.0, 13.0, 15.0, 7.0, 9.0]
        );
        assert_eq!(
            crate::counters::kernel_runs().host,
            runs,
            "the composed path runs no host kernel"
        );
    }
}
