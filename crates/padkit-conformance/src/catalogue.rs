//! The catalogue: every ONNX Pad version × mode × element type × feature, built
//! deterministically, each case's expected output computed by the naive
//! [`reference`](crate::reference).

use padkit::onnx::{
    NEWEST_VERSION, PAD_VERSIONS, PADKIT_DOMAIN, Source, check_type, modes_for, signature,
};
use padkit::{DType, PadMode, Tensor};

use crate::case::{Case, Expected, Feed, Feeds, Refusal};
use crate::reference::Case as Reference;
use crate::standing::Standing;
use crate::values::{Element, elements, from_f32, specials, tensor, zero};

/// How much of the catalogue to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// Every feature on `float` at the versions that changed Pad's signature, on `int64`
    /// at the newest, and the plain pad of every element type at the newest version:
    /// several hundred cases.
    Small,
    /// Every feature, the element-type features on every type each version takes:
    /// several thousand cases.
    Full,
}

/// Outputs the reference computes have at most this many elements; more is
/// [`ErrClass::TooLarge`](crate::ErrClass::TooLarge), which no engine can hold in memory for the cases that reach it.
const LIMIT: usize = 1 << 24;

/// The catalogue, in a fixed order.
///
/// ```
/// use padkit_conformance::{Expected, Size, cases};
/// let small = cases(Size::Small);
/// assert!(small.len() > 200 && small.len() < cases(Size::Full).len());
/// let errors = small.iter().filter(|c| matches!(c.expected, Expected::Error(_))).count();
/// assert!(errors > 20);
/// ```
pub fn cases(size: Size) -> Vec<Case> {
    let mut out = vec![];
    let newest = NEWEST_VERSION;
    for opset in PAD_VERSIONS {
        for mode in modes_for(opset) {
            for &dtype in DType::ALL {
                if check_type(dtype, opset).is_err() {
                    continue;
                }
                let representative = representative(dtype, opset);
                let mut drafts = typed_features(opset, mode, dtype);
                if representative {
                    drafts.extend(shape_features(opset, mode));
                }
                for d in drafts {
                    let small = (dtype == DType::Float32 && SMALL_OPSETS.contains(&opset))
                        || (opset == newest && (representative || d.feature == "pad"));
                    if size == Size::Full || small {
                        push(&mut out, d, opset, mode, dtype);
                    }
                }
            }
        }
        for (mode, dtype, d) in signature_breaks(opset) {
            push(&mut out, d, opset, mode, dtype);
        }
    }
    // padkit's own Pad: symmetric mode with every feature, interior padding.
    for &dtype in DType::ALL {
        let representative = representative(dtype, newest);
        let mut drafts: Vec<(PadMode, Draft)> = typed_features(newest, PadMode::Symmetric, dtype)
            .into_iter()
            .chain(interior_features())
            .map(|d| (d.mode.unwrap_or(PadMode::Symmetric), d))
            .collect();
        if representative {
            let shape = shape_features(newest, PadMode::Symmetric);
            drafts.extend(shape.into_iter().map(|d| (PadMode::Symmetric, d)));
        }
        for (mode, d) in drafts {
            if size == Size::Full || representative || d.feature == "pad" {
                push(&mut out, d.own(), newest, mode, dtype);
            }
        }
    }
    out
}

/// Pushes the case `d` builds; a case that must fail comes after its valid twin
/// ([`Draft::twin`]), which it names.
fn push(out: &mut Vec<Case>, d: Draft, opset: i64, mode: PadMode, dtype: DType) {
    let twin = d.twin(opset, mode, dtype);
    let mut case = d.build(opset, mode, dtype);
    if matches!(case.expected, Expected::Error(_)) {
        let (twin, twin_opset) = twin.unwrap_or_else(|| panic!("{} has no valid twin", case.name));
        let mut twin = twin.build(twin_opset, mode, dtype);
        twin.name = format!("{}_twin", case.name);
        assert!(
            matches!(twin.expected, Expected::Output(_)),
            "{}'s twin must be valid",
            case.name
        );
        // (a refusal of a case beyond ONNX passes: such a twin would credit any error)
        assert!(
            !matches!(twin.onnx, Standing::Beyond(_)),
            "{}'s twin is beyond ONNX",
            case.name
        );
        case.twin = Some(twin.name.clone());
        out.push(twin);
    }
    out.push(case);
}

/// Interior padding, in padkit's domain: constant mode unless the draft says otherwise.
fn interior_features() -> Vec<Draft> {
    let constant = PadMode::Constant;
    vec![
        Draft::new("interior", &[2, 3], &[1, 0, 0, 1])
            .interior(&[1, 2])
            .mode(constant),
        Draft::new("interior-crop", &[3, 4], &[-1, 1, 0, -2])
            .interior(&[1, 1])
            .mode(constant),
        Draft::new("interior-size-1-axis", &[1, 3], &[0, 1, 1, 0])
            .interior(&[3, 1])
            .mode(constant),
        Draft::new("interior-empty-axis", &[0, 3], &[0, 1, 0, 1])
            .interior(&[2, 1])
            .mode(constant),
        Draft::new("interior-axes", &[2, 3, 4], &[1, 2])
            .axes(&[-1])
            .interior(&[2])
            .mode(constant),
        Draft::new("interior-negative", &[2, 3], &[0, 0, 0, 0])
            .interior(&[0, -1])
            .mode(constant),
        Draft::new("interior-length", &[2, 3], &[0, 0, 0, 0])
            .interior(&[1])
            .mode(constant),
        Draft::new("interior-reflect", &[2, 3], &[0, 1, 0, 1])
            .interior(&[0, 1])
            .mode(PadMode::Reflect),
    ]
}

/// The versions the small catalogue runs every feature at: each one that changed Pad's
/// signature (attributes, `pads` renamed, inputs, axes, wrap), and the newest.
const SMALL_OPSETS: [i64; 6] = [1, 2, 11, 18, 19, 25];

/// The types every feature runs on: `float` everywhere, `int64` from Pad-11.
fn representative(dtype: DType, opset: i64) -> bool {
    dtype == DType::Float32 || (dtype == DType::Int64 && opset >= 11)
}

/// What fills the padding.
#[derive(Debug, Clone)]
enum Value {
    /// No value given: zero.
    Omitted,
    /// A value distinct from every input element.
    Plain,
    /// A special constant, by name.
    Special(&'static str, Element),
    /// A value of another type than the data (`float64` for `float`, `float` otherwise).
    OtherType,
}

/// A case before its types are chosen.
#[derive(Debug, Clone)]
struct Draft {
    feature: String,
    shape: Vec<usize>,
    pads: Vec<i64>,
    axes: Option<Vec<i64>>,
    value: Value,
    feeds: Feeds,
    mode_attribute: bool,
    /// Set for models that break their version's signature.
    signature: Option<&'static str>,
    /// Interior padding per padded axis (padkit's domain).
    interior: Option<Vec<i64>>,
    /// The mode, where the draft needs one (the catalogue's loop gives the others theirs).
    mode: Option<PadMode>,
    /// True for padkit's own Pad ([`PADKIT_DOMAIN`]).
    own: bool,
}

impl Draft {
    fn new(feature: &str, shape: &[usize], pads: &[i64]) -> Draft {
        Draft {
            feature: feature.into(),
            shape: shape.to_vec(),
            pads: pads.to_vec(),
            axes: None,
            value: Value::Plain,
            feeds: Feeds {
                pads: Feed::Initializer,
                value: Feed::Initializer,
                axes: Feed::Initializer,
            },
            mode_attribute: true,
            signature: None,
            interior: None,
            mode: None,
            own: false,
        }
    }

    fn interior(mut self, interior: &[i64]) -> Draft {
        self.interior = Some(interior.to_vec());
        self
    }

    fn mode(mut self, mode: PadMode) -> Draft {
        self.mode = Some(mode);
        self
    }

    fn own(mut self) -> Draft {
        self.own = true;
        self
    }

    fn axes(mut self, axes: &[i64]) -> Draft {
        self.axes = Some(axes.to_vec());
        self
    }

    fn value(mut self, value: Value) -> Draft {
        self.value = value;
        self
    }

    fn feeds(mut self, pads: Feed, value: Feed, axes: Feed) -> Draft {
        self.feeds = Feeds { pads, value, axes };
        self
    }

    fn breaks(mut self, why: &'static str) -> Draft {
        self.signature = Some(why);
        self
    }

    /// The case's valid twin where the case must fail: the same model with the one
    /// offending detail corrected (a pad, an axis, the interior, the value's type, the
    /// opset that admits the mode or type), and the opset it is built at. `None` for a
    /// feature whose cases are valid.
    fn twin(&self, opset: i64, mode: PadMode, dtype: DType) -> Option<(Draft, i64)> {
        let mut t = self.clone();
        t.feature = format!("{}-twin", self.feature);
        t.signature = None;
        let mut opset = opset;
        match self.feature.as_str() {
            "over-crop" => t.pads = vec![0, -1, 0, -2],
            "pads-length" => t.pads.push(0),
            "pads-int64-min" => t.pads[0] = -1,
            "pads-int64-max" | "output-too-large" => t.pads[0] = 1,
            "empty-axis-padded" => t.pads = vec![0, 1, 0, 1],
            "axes-repeated" => t.axes = Some(vec![1, -1]),
            "axes-out-of-range" => t.axes = Some(vec![2]),
            "interior-negative" => t.interior = Some(vec![0, 1]),
            "interior-length" => t.interior = Some(vec![1, 1]),
            "interior-reflect" => t.interior = Some(vec![0, 0]),
            "value-other-type" => t.value = Value::Plain,
            "mode-before-its-opset" => {
                opset = PAD_VERSIONS
                    .into_iter()
                    .find(|&v| modes_for(v).contains(&mode))?;
            }
            "type-before-its-opset" => {
                opset = PAD_VERSIONS
                    .into_iter()
                    .find(|&v| check_type(dtype, v).is_ok())?;
            }
            _ => return None,
        }
        Some((t, opset))
    }

    fn build(self, opset: i64, mode: PadMode, dtype: DType) -> Case {
        let attributes = matches!(signature(opset).pads, Source::Attribute(_));
        let mut feeds = self.feeds;
        if attributes {
            feeds.pads = Feed::Attribute;
            feeds.value = Feed::Attribute;
        }
        let constant = mode == PadMode::Constant;
        let (value, fill) = match (&self.value, constant, attributes) {
            (_, false, _) | (Value::Omitted, _, _) => (None, zero(dtype)),
            (Value::Plain, _, true) => (Some(Tensor::scalar(1.5f32)), from_f32(dtype, 1.5)),
            (Value::Special(_, e), _, true) => {
                let x = f32::from_le_bytes(e[..4].try_into().unwrap_or_default());
                (Some(Tensor::scalar(x)), from_f32(dtype, x))
            }
            (Value::Plain, _, false) => {
                let e = distinct(dtype, &self.shape);
                (Some(tensor(dtype, &[], std::slice::from_ref(&e))), e)
            }
            (Value::Special(_, e), _, false) => {
                (Some(tensor(dtype, &[], std::slice::from_ref(e))), e.clone())
            }
            (Value::OtherType, _, _) => {
                let other = if dtype == DType::Float32 {
                    Tensor::scalar(1.5f64)
                } else {
                    Tensor::scalar(1.5f32)
                };
                (Some(other), zero(dtype))
            }
        };
        let elems = elements(dtype, self.shape.iter().product());
        let input = tensor(dtype, &self.shape, &elems);
        let reference = Reference {
            shape: self.shape.clone(),
            pads: self.pads.clone(),
            axes: self.axes.clone(),
            interior: self.interior.clone(),
            mode,
        };
        let expected = match self.signature {
            Some(why) => Expected::Error(Refusal::Signature(why)),
            None => match reference.reference(&elems, fill.clone(), LIMIT) {
                Ok((shape, out)) => Expected::Output(tensor(dtype, &shape, &out)),
                Err(class) => Expected::Error(Refusal::Pad(class)),
            },
        };
        let feature = match &self.value {
            Value::Special(name, _) if constant => format!("{}-{name}", self.feature),
            _ => self.feature.clone(),
        };
        let version = if self.own {
            format!("{PADKIT_DOMAIN}-1")
        } else {
            opset.to_string()
        };
        let mut tags = vec![
            format!("opset:{version}"),
            format!("mode:{mode}"),
            format!("type:{}", dtype.name()),
            format!("feature:{feature}"),
        ];
        for (operand, feed, given) in [
            ("pads", feeds.pads, true),
            ("value", feeds.value, value.is_some()),
            ("axes", feeds.axes, self.axes.is_some()),
        ] {
            if given && matches!(feed, Feed::ConstantNode | Feed::Input) {
                tags.push(format!("feed:{operand}-{}", feed_name(feed)));
            }
        }
        match &expected {
            Expected::Error(Refusal::Signature(_)) => tags.push("onnx-signature".into()),
            Expected::Error(_) => tags.push("must-error".into()),
            Expected::Output(_) => {}
        }
        let prefix = if self.own {
            "padkit_domain".to_string()
        } else {
            format!("opset{opset}")
        };
        let name = format!("test_padkit_{prefix}_{mode}_{}_{feature}", dtype.name())
            .replace(['-', '.'], "_");
        let mut case = Case {
            name,
            tags,
            opset,
            domain: if self.own {
                PADKIT_DOMAIN.into()
            } else {
                String::new()
            },
            mode,
            mode_attribute: self.mode_attribute,
            input,
            pads: self.pads,
            axes: self.axes,
            interior: self.interior,
            value,
            fill: tensor(dtype, &[1], &[fill]),
            feeds,
            expected,
            twin: None,
            onnx: Standing::Required,
        };
        case.onnx = Standing::of(&case);
        case.tags.push(case.onnx.tag());
        case
    }
}

fn feed_name(feed: Feed) -> &'static str {
    match feed {
        Feed::Attribute => "attribute",
        Feed::Initializer => "initializer",
        Feed::ConstantNode => "constant-node",
        Feed::Input => "input",
    }
}

/// The element after the `shape`'s input elements: distinct from them where the type has
/// enough values.
fn distinct(dtype: DType, shape: &[usize]) -> Element {
    let n: usize = shape.iter().product();
    elements(dtype, n + 1).swap_remove(n)
}

/// The features whose answer depends on the element type, run on every type.
fn typed_features(opset: i64, mode: PadMode, dtype: DType) -> Vec<Draft> {
    let mut v = vec![
        Draft::new("pad", &[2, 3], &[1, 2, 0, 1]),
        Draft::new("crop", &[3, 4], &[-1, 1, 0, -2]),
        Draft::new("crop-to-empty", &[2, 3], &[0, -1, 0, -2]),
        Draft::new("wider-than-axis", &[2, 3], &[0, 4, 1, 5]),
        Draft::new("size-1-axis", &[1, 3], &[2, 0, 3, 1]),
        Draft::new("empty-axis", &[0, 3], &[0, 1, 0, 1]),
    ];
    if signature(opset).pads == Source::Input(1) {
        // A crop to nothing with the pads (and a constant value) fed at run time: an
        // engine that works the output's shape out in the graph must keep the empty axis
        // ([1, 4] to [4, 0]).
        v.push(
            Draft::new("runtime-crop-to-empty", &[1, 4], &[3, 0, 0, -4]).feeds(
                Feed::Input,
                Feed::Input,
                Feed::Initializer,
            ),
        );
    }
    if mode == PadMode::Constant {
        v.push(Draft::new("default-value", &[2, 2], &[1, 0, 0, 1]).value(Value::Omitted));
        // Pad-1 and Pad-2 take the value as a float attribute, which the protobuf
        // writers of tract and prost omit when it equals 0.0, as -0.0 does.
        let attribute = matches!(signature(opset).value, Source::Attribute(_));
        let mut specials = specials(if attribute { DType::Float32 } else { dtype });
        if attribute {
            specials.retain(|(name, _)| *name != "negative-zero");
        }
        v.extend(specials.into_iter().map(|(name, e)| {
            Draft::new("value", &[2, 2], &[0, 1, 1, 0]).value(Value::Special(name, e))
        }));
    }
    v
}

/// The features about shapes, operands and errors, run on the representative types.
fn shape_features(opset: i64, mode: PadMode) -> Vec<Draft> {
    use Feed::{ConstantNode, Initializer, Input};
    let mut v = vec![
        Draft::new("scalar", &[], &[]),
        Draft::new("rank-5", &[2, 1, 2, 1, 2], &[1, 0, 1, 0, 1, 0, 1, 0, 2, 0]),
        Draft::new("empty-axis-padded", &[0, 3], &[1, 0, 1, 0]),
        Draft::new("over-crop", &[2, 3], &[0, -2, 0, -2]),
        Draft::new("pads-length", &[2, 3], &[1, 1, 1]),
        Draft::new("pads-int64-min", &[2, 3], &[i64::MIN, 0, 0, 0]),
        Draft::new("pads-int64-max", &[2, 3], &[i64::MAX, 0, 0, 0]),
        Draft::new("output-too-large", &[2, 3], &[1 << 40, 0, 0, 0]),
    ];
    if mode == PadMode::Constant {
        let mut default = Draft::new("default-mode", &[2, 2], &[1, 1, 0, 0]);
        default.mode_attribute = false;
        v.push(default);
    }
    if signature(opset).pads == Source::Input(1) {
        v.push(Draft::new("runtime-pads", &[2, 3], &[1, 0, 0, 2]).feeds(
            Input,
            Initializer,
            Initializer,
        ));
        v.push(
            Draft::new("constant-node-pads", &[2, 3], &[0, 2, 1, 0]).feeds(
                ConstantNode,
                Initializer,
                Initializer,
            ),
        );
        if mode == PadMode::Constant {
            v.push(Draft::new("runtime-value", &[2, 3], &[1, 1, 0, 0]).feeds(
                Initializer,
                Input,
                Initializer,
            ));
            v.push(
                Draft::new("constant-node-value", &[2, 3], &[0, 0, 1, 1]).feeds(
                    Initializer,
                    ConstantNode,
                    Initializer,
                ),
            );
            v.push(
                Draft::new("value-other-type", &[2, 3], &[1, 0, 1, 0])
                    .value(Value::OtherType)
                    .breaks("the constant value's type differs from the data's"),
            );
        }
    }
    if signature(opset).axes.is_some() {
        v.extend([
            Draft::new("axes-subset", &[2, 3, 4], &[1, 2]).axes(&[1]),
            Draft::new("axes-negative", &[2, 3, 4], &[1, 0, 2, 1]).axes(&[-1, 0]),
            Draft::new("axes-empty", &[2, 3], &[]).axes(&[]),
            Draft::new("axes-repeated", &[2, 3, 4], &[1, 1, 1, 1]).axes(&[1, -2]),
            Draft::new("axes-out-of-range", &[2, 3, 4], &[1, 1]).axes(&[3]),
            Draft::new("runtime-axes", &[2, 3], &[2, 1])
                .axes(&[-1])
                .feeds(Initializer, Initializer, Input),
            Draft::new("constant-node-axes", &[2, 3], &[1, 2])
                .axes(&[0])
                .feeds(Initializer, Initializer, ConstantNode),
            Draft::new("runtime-everything", &[2, 3], &[1, 2])
                .axes(&[1])
                .feeds(Input, Input, Input),
        ]);
    }
    v
}

/// Models that break their version's signature: a mode before its opset, an element
/// type before its opset.
fn signature_breaks(opset: i64) -> Vec<(PadMode, DType, Draft)> {
    let mut v = vec![];
    if (11..19).contains(&opset) {
        let d = Draft::new("mode-before-its-opset", &[2, 3], &[1, 0, 0, 1])
            .breaks("mode wrap needs Pad-19");
        v.push((PadMode::Wrap, DType::Float32, d));
    }
    let early_type = match opset {
        2 => Some(DType::Int32),
        11 => Some(DType::Bool),
        19 => Some(DType::Float8E4M3FN),
        24 => Some(DType::Int2),
        _ => None,
    };
    if let Some(dtype) = early_type {
        let d = Draft::new("type-before-its-opset", &[2, 3], &[1, 0, 0, 1])
            .value(Value::Omitted)
            .breaks("the element type needs a later Pad version");
        v.push((PadMode::Constant, dtype, d));
    }
    v
}
