//! Burn models generated at build time (see `build.rs`) from ONNX models whose Pads stock
//! burn-onnx cannot import: each module holds a `Model` with `Model::default()` (weights
//! from the `.bpk` beside the generated code) and a `forward`.

macro_rules! models {
    ($($name:ident),*) => {$(
        #[allow(clippy::all, missing_docs, unused)]
        pub mod $name {
            include!(concat!(env!("OUT_DIR"), "/model/", stringify!($name), ".rs"));
        }
    )*};
}

models!(
    wrap_pad,
    edge_pad,
    reflect_pad,
    constant_pad,
    constant_pad_axes,
    constant_pad_negative_axes,
    negative_edge,
    bool_constant,
    int64_exact,
    wrap_conv,
    reflect_axes_runtime,
    newest_onnx
);
