//! The catalogue's own promises: unique names, every version, mode and type the ONNX spec
//! admits present (and nothing it does not admit expected to succeed), the small catalogue
//! inside the full one, and expectations that agree with the rules of Pad where they can be
//! stated without the reference.
//!
//! The coverage tests read [`SPEC`], a table transcribed from the ONNX Pad spec text, not
//! `padkit::onnx`: the catalogue is built from `padkit::onnx`, so a check against it would
//! agree with any mistake in it.

use std::collections::{BTreeSet, HashSet};

use padkit::PadMode;
use padkit_conformance::{Case, ErrClass, Expected, Refusal, Size, cases};

/// One version of ONNX Pad as its spec states it: the element types of its type
/// constraint `T` (the spec's `tensor(NAME)` as `NAME`, in the spec's order) and the modes
/// its `mode` attribute lists.
struct SpecVersion {
    version: i64,
    types: &'static [&'static str],
    modes: &'static [&'static str],
}

/// Every version of ONNX Pad, oldest first, transcribed from the spec text: the seed
/// documents of this project (`000_f9ca862cf2801c97.txt`, the rendered docs of Pad-18, -13,
/// -11, -2 and -1; `001_733c0d2c9580f093.txt`, the same as reStructuredText; and
/// `004_eeaf2c9ffaf74627.txt`, the current page, "All versions: 1, 2, 11, 13, 18, 19, 21,
/// 23, 24", with its "Version History" of types), and onnx.ai's Pad page for what the seeds
/// do not hold (Pad-25).
const SPEC: &[SpecVersion] = &[
    // Pad - 1: "T in ( tensor(double), tensor(float), tensor(float16) ): Constrain input
    // and output types to float tensors."; "mode: Three modes: constant(default), reflect,
    // edge". Seeds 000 and 001 (004: "Opset 1: Types: ...", the same three).
    SpecVersion {
        version: 1,
        types: &["double", "float", "float16"],
        modes: &["constant", "reflect", "edge"],
    },
    // Pad - 2: "T in ( tensor(double), tensor(float), tensor(float16) ): Constrain input
    // and output types to float tensors."; "mode: Three modes: constant(default), reflect,
    // edge". Seeds 000 and 001 (004: "Opset 2: Types: ...").
    SpecVersion {
        version: 2,
        types: &["double", "float", "float16"],
        modes: &["constant", "reflect", "edge"],
    },
    // Pad - 11: "T in ( tensor(double), tensor(float), tensor(float16), tensor(int16),
    // tensor(int32), tensor(int64), tensor(int8), tensor(uint16), tensor(uint32),
    // tensor(uint64), tensor(uint8) ): Constrain input and output to only numeric types.";
    // "mode: Supported modes: constant(default), reflect, edge". Seeds 000 and 001 (004:
    // "Opset 11: Types: ...").
    SpecVersion {
        version: 11,
        types: &[
            "double", "float", "float16", "int16", "int32", "int64", "int8", "uint16", "uint32",
            "uint64", "uint8",
        ],
        modes: &["constant", "reflect", "edge"],
    },
    // Pad - 13: "T in ( tensor(bfloat16), tensor(bool), tensor(complex128),
    // tensor(complex64), tensor(double), tensor(float), tensor(float16), tensor(int16),
    // tensor(int32), tensor(int64), tensor(int8), tensor(string), tensor(uint16),
    // tensor(uint32), tensor(uint64), tensor(uint8) ): Constrain input and output types to
    // all tensor types."; "mode: Supported modes: constant(default), reflect, edge". Seeds
    // 000 and 001 (004: "Opset 13: Types: ...").
    SpecVersion {
        version: 13,
        types: &[
            "bfloat16",
            "bool",
            "complex128",
            "complex64",
            "double",
            "float",
            "float16",
            "int16",
            "int32",
            "int64",
            "int8",
            "string",
            "uint16",
            "uint32",
            "uint64",
            "uint8",
        ],
        modes: &["constant", "reflect", "edge"],
    },
    // Pad - 18: "T in ( tensor(bfloat16), tensor(bool), tensor(complex128),
    // tensor(complex64), tensor(double), tensor(float), tensor(float16), tensor(int16),
    // tensor(int32), tensor(int64), tensor(int8), tensor(string), tensor(uint16),
    // tensor(uint32), tensor(uint64), tensor(uint8) )"; "mode: Supported modes:
    // constant(default), reflect, edge" (and "The three supported modes are ..."). Seeds 000
    // and 001 (004: "Opset 18: Types: ...").
    SpecVersion {
        version: 18,
        types: &[
            "bfloat16",
            "bool",
            "complex128",
            "complex64",
            "double",
            "float",
            "float16",
            "int16",
            "int32",
            "int64",
            "int8",
            "string",
            "uint16",
            "uint32",
            "uint64",
            "uint8",
        ],
        modes: &["constant", "reflect", "edge"],
    },
    // Pad-19: seed 004, "Opset 19: Types: tensor(bfloat16), tensor(bool),
    // tensor(complex128), tensor(complex64), tensor(double), tensor(float), tensor(float16),
    // tensor(int16), tensor(int32), tensor(int64), tensor(int8), tensor(string),
    // tensor(uint16), tensor(uint32), tensor(uint64), tensor(uint8)" (Pad-18's types: what
    // Pad-19 changed is not a type). Modes: the seeds render the `mode` attribute of Pad-18
    // and older (no wrap, above) and of the current version only, 004's "mode (STRING,
    // optional): Supported modes: `constant`(default), `reflect`, `edge`, `wrap`" with "4)
    // `wrap` - wrap-around padding as if the data tensor forms a torus". Pad-19 is the one
    // version between them whose types did not change, and ONNX's changelog says it added
    // wrap.
    SpecVersion {
        version: 19,
        types: &[
            "bfloat16",
            "bool",
            "complex128",
            "complex64",
            "double",
            "float",
            "float16",
            "int16",
            "int32",
            "int64",
            "int8",
            "string",
            "uint16",
            "uint32",
            "uint64",
            "uint8",
        ],
        modes: &["constant", "reflect", "edge", "wrap"],
    },
    // Pad-21: seed 004, "Opset 21: Types: tensor(bfloat16), tensor(bool),
    // tensor(complex128), tensor(complex64), tensor(double), tensor(float), tensor(float16),
    // tensor(float8e4m3fn), tensor(float8e4m3fnuz), tensor(float8e5m2),
    // tensor(float8e5m2fnuz), tensor(int16), tensor(int32), tensor(int4), tensor(int64),
    // tensor(int8), tensor(string), tensor(uint16), tensor(uint32), tensor(uint4),
    // tensor(uint64), tensor(uint8)". Modes as Pad-19 (004's mode attribute; onnx.ai's
    // Pad-21 page: "4. wrap - wrap-around padding").
    SpecVersion {
        version: 21,
        types: &[
            "bfloat16",
            "bool",
            "complex128",
            "complex64",
            "double",
            "float",
            "float16",
            "float8e4m3fn",
            "float8e4m3fnuz",
            "float8e5m2",
            "float8e5m2fnuz",
            "int16",
            "int32",
            "int4",
            "int64",
            "int8",
            "string",
            "uint16",
            "uint32",
            "uint4",
            "uint64",
            "uint8",
        ],
        modes: &["constant", "reflect", "edge", "wrap"],
    },
    // Pad-23: seed 004, "Opset 23: Types: tensor(bfloat16), tensor(bool),
    // tensor(complex128), tensor(complex64), tensor(double), tensor(float), tensor(float16),
    // tensor(float4e2m1), tensor(float8e4m3fn), tensor(float8e4m3fnuz), tensor(float8e5m2),
    // tensor(float8e5m2fnuz), tensor(int16), tensor(int32), tensor(int4), tensor(int64),
    // tensor(int8), tensor(string), tensor(uint16), tensor(uint32), tensor(uint4),
    // tensor(uint64), tensor(uint8)". Modes as Pad-19 (onnx.ai's Pad-23 page: "mode -
    // STRING (default is 'constant'): Supported modes: constant (default), reflect, edge,
    // wrap").
    SpecVersion {
        version: 23,
        types: &[
            "bfloat16",
            "bool",
            "complex128",
            "complex64",
            "double",
            "float",
            "float16",
            "float4e2m1",
            "float8e4m3fn",
            "float8e4m3fnuz",
            "float8e5m2",
            "float8e5m2fnuz",
            "int16",
            "int32",
            "int4",
            "int64",
            "int8",
            "string",
            "uint16",
            "uint32",
            "uint4",
            "uint64",
            "uint8",
        ],
        modes: &["constant", "reflect", "edge", "wrap"],
    },
    // Pad-24: seed 004, "Opset 24: Types: ..." and "Type Constraints - T: tensor(bfloat16),
    // tensor(bool), tensor(complex128), tensor(complex64), tensor(double), tensor(float),
    // tensor(float16), tensor(float4e2m1), tensor(float8e4m3fn), tensor(float8e4m3fnuz),
    // tensor(float8e5m2), tensor(float8e5m2fnuz), tensor(float8e8m0), tensor(int16),
    // tensor(int32), tensor(int4), tensor(int64), tensor(int8), tensor(string),
    // tensor(uint16), tensor(uint32), tensor(uint4), tensor(uint64), tensor(uint8) Constrain
    // input and output types to all tensor types up to IRv12."; "mode (STRING, optional):
    // Supported modes: `constant`(default), `reflect`, `edge`, `wrap`".
    SpecVersion {
        version: 24,
        types: &[
            "bfloat16",
            "bool",
            "complex128",
            "complex64",
            "double",
            "float",
            "float16",
            "float4e2m1",
            "float8e4m3fn",
            "float8e4m3fnuz",
            "float8e5m2",
            "float8e5m2fnuz",
            "float8e8m0",
            "int16",
            "int32",
            "int4",
            "int64",
            "int8",
            "string",
            "uint16",
            "uint32",
            "uint4",
            "uint64",
            "uint8",
        ],
        modes: &["constant", "reflect", "edge", "wrap"],
    },
    // Pad-25: not in the seed documents (004: "All versions: 1, 2, 11, 13, 18, 19, 21, 23,
    // 24"). onnx.ai's current Pad page: "Pad - 25 ... since_version: 25", the four modes of
    // Pad-24 ("4) `wrap` - wrap-around padding as if the data tensor forms a torus"), and T
    // Pad-24's types plus tensor(int2) and tensor(uint2) (ONNX 1.20's 2-bit integers). This
    // row is the one not checked against spec text held in this project.
    SpecVersion {
        version: 25,
        types: &[
            "bfloat16",
            "bool",
            "complex128",
            "complex64",
            "double",
            "float",
            "float16",
            "float4e2m1",
            "float8e4m3fn",
            "float8e4m3fnuz",
            "float8e5m2",
            "float8e5m2fnuz",
            "float8e8m0",
            "int16",
            "int2",
            "int32",
            "int4",
            "int64",
            "int8",
            "string",
            "uint16",
            "uint2",
            "uint32",
            "uint4",
            "uint64",
            "uint8",
        ],
        modes: &["constant", "reflect", "edge", "wrap"],
    },
];

/// The spec's Pad version a model of `opset` uses: the newest at or below it.
fn spec_of(opset: i64) -> &'static SpecVersion {
    SPEC.iter()
        .rev()
        .find(|v| v.version <= opset)
        .unwrap_or_else(|| panic!("opset {opset} is below every Pad version"))
}

/// True for a case of ONNX's own domain (not padkit's `ai.padkit`).
fn onnx_domain(c: &Case) -> bool {
    c.domain.is_empty()
}

/// Whether the spec admits the case's element type and mode at its version.
fn admits(c: &Case) -> (bool, bool) {
    let spec = spec_of(c.opset);
    let ty = c.input.dtype().name();
    let mode = c.mode.to_string();
    (
        spec.types.contains(&ty),
        spec.modes.iter().any(|m| *m == mode),
    )
}

#[test]
fn names_are_unique_and_the_small_catalogue_is_inside_the_full_one() {
    let full = cases(Size::Full);
    let names: HashSet<&str> = full.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), full.len(), "case names repeat");
    assert!(full.len() > 3000, "{} cases", full.len());
    let small = cases(Size::Small);
    assert!(small.iter().all(|c| names.contains(c.name.as_str())));
    assert!(full.iter().all(|c| {
        c.name.starts_with("test_padkit_")
            && c.name
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
    }));
}

#[test]
fn the_catalogue_has_every_pad_version_of_the_spec() {
    assert!(
        SPEC.windows(2).all(|w| w[0].version < w[1].version),
        "the table lists versions oldest first"
    );
    let full = cases(Size::Full);
    let versions: BTreeSet<i64> = full
        .iter()
        .filter(|c| onnx_domain(c))
        .map(|c| c.opset)
        .collect();
    let spec: BTreeSet<i64> = SPEC.iter().map(|v| v.version).collect();
    assert_eq!(
        versions, spec,
        "the catalogue's ONNX opsets against the spec's Pad versions"
    );
}

#[test]
fn every_type_and_mode_the_spec_admits_has_a_valid_case() {
    let full = cases(Size::Full);
    let valid: HashSet<(i64, String, &str)> = full
        .iter()
        .filter(|c| onnx_domain(c) && matches!(c.expected, Expected::Output(_)))
        .map(|c| (c.opset, c.mode.to_string(), c.input.dtype().name()))
        .collect();
    let mut missing = vec![];
    for spec in SPEC {
        for &mode in spec.modes {
            for &ty in spec.types {
                if !valid.contains(&(spec.version, mode.to_string(), ty)) {
                    missing.push(format!("Pad-{} {mode} {ty}", spec.version));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} (version, mode, type) the spec admits have no case with an output: {missing:?}",
        missing.len()
    );
}

#[test]
fn no_case_expects_an_output_for_what_the_spec_does_not_admit() {
    let full = cases(Size::Full);
    let wrong: Vec<&str> = full
        .iter()
        .filter(|c| onnx_domain(c) && matches!(c.expected, Expected::Output(_)))
        .filter(|c| admits(c) != (true, true))
        .map(|c| c.name.as_str())
        .collect();
    assert!(
        wrong.is_empty(),
        "{} cases expect an output for a type or mode their Pad version does not admit: \
         {wrong:?}",
        wrong.len()
    );
}

#[test]
fn what_the_spec_does_not_admit_is_a_signature_error() {
    let full = cases(Size::Full);
    let (mut types, mut modes) = (0, 0);
    let mut wrong = vec![];
    for c in full.iter().filter(|c| onnx_domain(c)) {
        let (type_ok, mode_ok) = admits(c);
        if type_ok && mode_ok {
            continue;
        }
        types += usize::from(!type_ok);
        modes += usize::from(!mode_ok);
        let signature = matches!(c.expected, Expected::Error(Refusal::Signature(_)));
        let tagged = c.tags.iter().any(|t| t == "onnx-signature");
        if !(signature && tagged) {
            wrong.push(c.name.as_str());
        }
    }
    assert!(
        wrong.is_empty(),
        "{} cases break their version's types or modes but are not tagged `onnx-signature` \
         signature errors: {wrong:?}",
        wrong.len()
    );
    // The catalogue does test refusals: a type and a mode before their version.
    assert!(types > 0, "no case with a type its version does not admit");
    assert!(modes > 0, "no case with a mode its version does not admit");
}

#[test]
fn expectations_follow_the_rules_stated_without_the_reference() {
    let full = cases(Size::Full);
    let class = |name: &str| {
        full.iter()
            .find(|c| c.name == name)
            .map(|c| c.expected.clone())
            .unwrap_or_else(|| panic!("no case {name}"))
    };
    let err = |c| Expected::Error(Refusal::Pad(c));
    assert_eq!(
        class("test_padkit_opset19_edge_float_axes_repeated"),
        err(ErrClass::DuplicateAxis)
    );
    assert_eq!(
        class("test_padkit_opset25_wrap_int64_axes_out_of_range"),
        err(ErrClass::AxisRange)
    );
    assert_eq!(
        class("test_padkit_opset11_reflect_float_over_crop"),
        err(ErrClass::NegativeOutput)
    );
    assert_eq!(
        class("test_padkit_opset2_edge_float_pads_int64_max"),
        err(ErrClass::Overflow)
    );
    assert_eq!(
        class("test_padkit_opset13_reflect_float_empty_axis_padded"),
        err(ErrClass::EmptyWindow)
    );
    assert!(matches!(
        class("test_padkit_opset18_wrap_float_mode_before_its_opset"),
        Expected::Error(Refusal::Signature(_))
    ));
    // Reflect 4 and 5 wide on an axis of 3: numpy's answer, from
    // np.pad([[.5, 1, 1.5], [2, 2.5, 3]], ((0, 1), (4, 5)), "reflect")[0].
    let Expected::Output(y) = class("test_padkit_opset19_reflect_float_wider_than_axis") else {
        panic!("reflect wider than the axis has an output");
    };
    assert_eq!(y.shape(), &[3, 12]);
    let row: Vec<f32> = y.to_vec::<f32>().unwrap()[..12].to_vec();
    assert_eq!(
        row,
        [0.5, 1.0, 1.5, 1.0, 0.5, 1.0, 1.5, 1.0, 0.5, 1.0, 1.5, 1.0]
    );
    // A crop to nothing is an empty output, in every mode.
    for mode in [PadMode::Constant, PadMode::Edge, PadMode::Wrap] {
        let Expected::Output(y) = class(&format!("test_padkit_opset19_{mode}_int8_crop_to_empty"))
        else {
            panic!("{mode}: a crop to nothing has an output");
        };
        assert_eq!(y.shape(), &[2, 0]);
    }
}

#[test]
fn special_fills_are_tagged_and_reach_the_output() {
    let full = cases(Size::Full);
    let nan = full
        .iter()
        .find(|c| c.name == "test_padkit_opset13_constant_bfloat16_value_nan")
        .expect("a NaN fill case");
    assert!(nan.has_tag("feature:value-nan"));
    let Expected::Output(y) = &nan.expected else {
        panic!("a fill has an output")
    };
    let v = y.to_vec::<padkit::half::bf16>().unwrap();
    // [2, 2] padded to [3, 3]: five new elements.
    assert_eq!(v.iter().filter(|x| x.is_nan()).count(), 5);
}

#[test]
fn every_case_that_must_fail_follows_its_valid_twin() {
    for size in [Size::Small, Size::Full] {
        let all = cases(size);
        let mut twins = 0;
        for (i, c) in all.iter().enumerate() {
            let must_fail = matches!(c.expected, Expected::Error(_));
            assert_eq!(must_fail, c.twin.is_some(), "{}: twin {:?}", c.name, c.twin);
            let Some(twin) = &c.twin else { continue };
            let before = i.checked_sub(1).map(|j| &all[j]);
            let before = before.unwrap_or_else(|| panic!("{} is first", c.name));
            assert_eq!(
                &before.name, twin,
                "{}'s twin must come just before it",
                c.name
            );
            assert!(
                matches!(before.expected, Expected::Output(_)),
                "{twin} must be valid"
            );
            // The twin differs from its case: another expectation, the same element type.
            assert_eq!(before.input.dtype(), c.input.dtype(), "{twin}");
            twins += 1;
        }
        assert!(twins > 20, "{twins} twins");
    }
}
