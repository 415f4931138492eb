//! What the forward and gradient suites share: random pad cases and the devices they run
//! on: Flex, and NdArray with the default `ndarray` feature, in f64 and i64; with the `wgpu`
//! feature (or `wgpu-without-fusion`) also Burn's CubeCL wgpu backend on Vulkan's CPU
//! adapter (lavapipe where there is no GPU), in f32 and i32, which every wgpu adapter
//! supports.
#![allow(deprecated)] // Device::ndarray: NdArray is deprecated in Burn 0.22, still served
#![allow(dead_code)] // each test binary uses a part

use burn::tensor::{DType, Device};
use padkit::{PadMode, PadSpec};
use proptest::prelude::*;

/// One device and the element types the suites use on it.
#[derive(Clone)]
pub struct TestDevice {
    pub name: &'static str,
    pub device: Device,
    pub float: DType,
    pub int: DType,
}

pub fn devices() -> Vec<TestDevice> {
    let host = |name, device| TestDevice {
        name,
        device,
        float: DType::F64,
        int: DType::I64,
    };
    #[allow(unused_mut)]
    let mut v = vec![host("flex", Device::flex())];
    #[cfg(feature = "ndarray")]
    v.push(host("ndarray", Device::ndarray()));
    #[cfg(feature = "wgpu-without-fusion")]
    v.push(TestDevice {
        name: "wgpu",
        device: Device::wgpu(burn::tensor::DeviceKind::Cpu),
        float: DType::F32,
        int: DType::I32,
    });
    v
}

/// A 3-D input of at most 4 × 4 × 4 and a spec over some of its axes (negative ones too),
/// pads from -3 to 5, interior padding for constant pads.
#[derive(Debug, Clone)]
pub struct Case {
    pub shape: [usize; 3],
    pub spec: PadSpec,
}

pub fn case() -> impl Strategy<Value = Case> {
    (
        [0usize..=4, 0usize..=4, 0usize..=4],
        prop::sample::select(PadMode::ALL.to_vec()),
        prop::sample::subsequence(vec![0i64, 1, 2], 0..=3),
        any::<[bool; 3]>(),
        prop::collection::vec(-3i64..=5, 6),
        prop::collection::vec(0i64..=2, 3),
    )
        .prop_map(|(shape, mode, axes, neg, pads, interior)| {
            let n = axes.len();
            let axes: Vec<i64> = axes
                .iter()
                .zip(neg)
                .map(|(&a, ng)| if ng { a - 3 } else { a })
                .collect();
            let mut spec = PadSpec::new([&pads[..n], &pads[3..3 + n]].concat())
                .with_axes(axes)
                .with_mode(mode);
            if mode == PadMode::Constant {
                spec = spec.with_interior(interior[..n].to_vec());
            }
            Case { shape, spec }
        })
}

impl Case {
    /// The same case for padkit-conformance's naive reference.
    pub fn reference(&self) -> padkit_conformance::reference::Case {
        let s = &self.spec;
        padkit_conformance::reference::Case {
            shape: self.shape.to_vec(),
            pads: s.pads.clone(),
            axes: s.axes.clone(),
            interior: s.interior.clone(),
            mode: s.mode,
        }
    }
}
