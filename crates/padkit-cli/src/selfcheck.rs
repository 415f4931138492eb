//! The built-in self-check: ONNX Pad models built in code, every version × mode ×
//! representative types and the corners, through every engine, each compared with the
//! naive reference (the same independent oracle padkit's own tests use).

use padkit::{DType, Data, Layout, PadMode, Tensor};
use padkit_testkit::Case as Reference;

use crate::engine::{self, Engine};
use crate::model::{Feed, PadModel};
use crate::verdict::{Tally, Verdict, judge};

/// The types each Pad version introduced or is checked with here.
fn types_for(opset: i64) -> &'static [DType] {
    match opset {
        1 | 2 => &[DType::Float32, DType::Float64],
        11 => &[DType::Float32, DType::Int64, DType::UInt8],
        13 | 18 => &[DType::Float32, DType::Bool, DType::String, DType::BFloat16],
        19 => &[DType::Float32, DType::Int32, DType::Float16],
        21 => &[
            DType::Float8E4M3FN,
            DType::Float8E5M2FNUZ,
            DType::Int4,
            DType::UInt4,
        ],
        23 => &[DType::Float4E2M1, DType::Complex64],
        24 => &[DType::Float8E8M0, DType::Complex128],
        _ => &[DType::Int2, DType::UInt2, DType::Float32],
    }
}

/// Distinct element values for `n` elements of `dtype`, one `Vec<u8>` (or string) each.
fn elements(dtype: DType, n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| match dtype.layout() {
            Layout::Bytes(w) if dtype == DType::Float32 => {
                (i as f32 * 0.5).to_le_bytes()[..w].to_vec()
            }
            Layout::Bytes(_) if dtype == DType::Bool => vec![(i % 3 != 0) as u8],
            Layout::Bytes(w) => (0..w)
                .map(|b| (i as u8).wrapping_mul(7).wrapping_add(b as u8 + 1))
                .collect(),
            Layout::Packed(bits) => vec![(i as u8 + 1) % (1 << bits)],
            Layout::Strings => format!("s{i}").into_bytes(),
        })
        .collect()
}

fn tensor(dtype: DType, shape: &[usize], elems: &[Vec<u8>]) -> Tensor {
    let made = match dtype.layout() {
        Layout::Strings => {
            let strings = elems
                .iter()
                .map(|e| String::from_utf8_lossy(e).into_owned());
            Tensor::new(dtype, shape.to_vec(), Data::Strings(strings.collect()))
        }
        Layout::Packed(_) => Tensor::from_codes(dtype, shape, &elems.concat()),
        Layout::Bytes(_) => Tensor::new(dtype, shape.to_vec(), Data::Bytes(elems.concat())),
    };
    made.expect("self-check tensors are well formed")
}

struct Case {
    name: String,
    model: PadModel,
    /// Element values of the data, and of the fill.
    elems: Vec<Vec<u8>>,
    fill: Vec<u8>,
}

impl Case {
    fn new(
        name: String,
        opset: i64,
        mode: PadMode,
        dtype: DType,
        shape: &[usize],
        pads: Vec<i64>,
    ) -> Case {
        let elems = elements(dtype, shape.iter().product());
        let x = tensor(dtype, shape, &elems);
        let feed = if opset < 11 {
            Feed::Attribute
        } else {
            Feed::Initializer
        };
        let mut model = PadModel::new(opset, mode.name(), x, pads, feed);
        let mut fill = tensor_elem_zero(dtype);
        if opset >= 11 && mode == PadMode::Constant {
            fill = elements(dtype, 3).pop().unwrap_or_default();
            model = model.with_value(
                tensor(dtype, &[], std::slice::from_ref(&fill)),
                Feed::Initializer,
            );
        }
        Case {
            name,
            model,
            elems,
            fill,
        }
    }

    fn expected(&self) -> Result<Tensor, String> {
        let m = &self.model;
        let mode = m
            .mode
            .as_deref()
            .unwrap_or("constant")
            .parse()
            .unwrap_or_default();
        let reference = Reference {
            shape: m.data.shape().to_vec(),
            pads: m.pads.0.clone(),
            axes: m.axes.as_ref().map(|a| a.0.clone()),
            interior: None,
            mode,
        };
        let (shape, out) = reference
            .reference(&self.elems, self.fill.clone(), 1 << 24)
            .map_err(|e| format!("{e:?}"))?;
        Ok(tensor(m.data.dtype(), &shape, &out))
    }
}

fn tensor_elem_zero(dtype: DType) -> Vec<u8> {
    match dtype.layout() {
        Layout::Bytes(w) => vec![0; w],
        _ => vec![0],
    }
}

fn suite() -> Vec<Case> {
    let mut cases = vec![];
    for opset in padkit::onnx::PAD_VERSIONS {
        for mode in padkit::onnx::modes_for(opset) {
            for &dtype in types_for(opset) {
                // crop on one side, pad wider than the axis on another
                let pads = vec![0, -1, 5, 1, 2, -1];
                cases.push(Case::new(
                    format!("opset{opset}-{mode}-{dtype}"),
                    opset,
                    mode,
                    dtype,
                    &[2, 3, 4],
                    pads,
                ));
            }
        }
    }
    let corner = |name: &str, mode: PadMode, shape: &[usize], pads: Vec<i64>| {
        Case::new(name.into(), 19, mode, DType::Float32, shape, pads)
    };
    #[rustfmt::skip]
    let corners: [(&str, PadMode, &[usize], &[i64]); 7] = [
        ("seed-reflect-wider-than-axis", PadMode::Reflect, &[3, 2], &[0, 2, 0, 0]),
        ("seed-wrap", PadMode::Wrap, &[3, 2], &[2, 1, 1, 1]),
        ("constant-crop-past-axis", PadMode::Constant, &[3], &[-4, 2]),
        ("wrap-crops-first", PadMode::Wrap, &[4], &[1, -1]),
        ("reflect-size-1-axis", PadMode::Reflect, &[2, 1], &[0, 3, 0, 2]),
        ("edge-empty-axis-unpadded", PadMode::Edge, &[0, 3], &[0, 1, 0, 1]),
        ("constant-empty-axis-padded", PadMode::Constant, &[0, 3], &[1, 0, 1, 0]),
    ];
    cases.extend(
        corners
            .iter()
            .map(|&(name, mode, shape, pads)| corner(name, mode, shape, pads.to_vec())),
    );
    let mut axes = corner(
        "wrap-negative-axes-subset",
        PadMode::Wrap,
        &[2, 3, 4],
        vec![1, 2, 3, 1],
    );
    axes.model = axes.model.with_axes(vec![-1, 0], Feed::Initializer);
    cases.push(axes);
    for feed in [Feed::Input, Feed::ConstantNode] {
        let mut c = corner(
            &format!("reflect-pads-{feed:?}"),
            PadMode::Reflect,
            &[2, 5],
            vec![1, 2, 0, 4],
        );
        c.model.pads.1 = feed;
        cases.push(c);
    }
    cases
}

/// Runs the suite; prints progress, then one table and the total line.
pub fn run(engines: &[Engine]) -> Tally {
    let cases = suite();
    let mut rows = vec![];
    let mut tally = Tally::default();
    for (i, case) in cases.iter().enumerate() {
        eprint!("\r[{}/{}] {:<44}", i + 1, cases.len(), case.name);
        let want = case.expected();
        let proto = case.model.proto();
        let cells: Vec<String> = engines
            .iter()
            .map(|&e| {
                let run = engine::run(e, &proto, &case.model.inputs(), u64::MAX);
                let verdict = match &want {
                    Ok(w) => judge(run, std::slice::from_ref(w), None),
                    Err(e) => Verdict::Fail(format!("reference refused ({e})")),
                };
                tally.record(&verdict);
                match verdict {
                    Verdict::Pass => "pass".to_string(),
                    Verdict::Fail(why) => format!("FAIL: {why}"),
                    Verdict::Skip(why) => format!("skip ({why})"),
                }
            })
            .collect();
        rows.push((case.name.clone(), cells));
    }
    eprintln!();
    let header: Vec<&str> = engines.iter().map(|e| e.name()).collect();
    println!(
        "{:<44} {}",
        "case",
        header.iter().map(|h| format!("{h:<8}")).collect::<String>()
    );
    for (name, cells) in rows {
        println!(
            "{name:<44} {}",
            cells.iter().map(|c| format!("{c:<8} ")).collect::<String>()
        );
    }
    tally
}
