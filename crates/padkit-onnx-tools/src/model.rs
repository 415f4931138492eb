//! ONNX Pad models built in code: the conformance suite's cases, the bench's models, and
//! the test models of padkit-tract and the CLI.

use padkit::Tensor;
use padkit::onnx::{Source, node_signature};
use padkit_conformance::Case;
use padkit_onnx::pb::tensor_shape_proto::{Dimension, dimension};
use padkit_onnx::pb::{AttributeProto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto};

use padkit_onnx::graph::{ir_version, value_info};
use padkit_onnx::proto::tensor_to_proto;

pub use padkit_conformance::Feed;

/// One ONNX model holding a single Pad node.
///
/// ```
/// use padkit_onnx_tools::model::{Feed, PadModel};
/// let x = padkit::Tensor::from_slice(&[3], &[1.0f32, 2.0, 3.0]).unwrap();
/// let m = PadModel::new(19, "wrap", x, vec![1, 1], Feed::Initializer);
/// assert_eq!(m.proto().opset_import[0].version, 19);
/// ```
#[derive(Debug, Clone)]
pub struct PadModel {
    /// The default-domain opset.
    pub opset: i64,
    /// The `mode` attribute (omitted when `None`).
    pub mode: Option<String>,
    /// The data (always graph input `x`).
    pub data: Tensor,
    /// Graph-input dims given as symbol names instead of numbers.
    pub symbolic_dims: Vec<Option<String>>,
    /// Pads and how they are fed.
    pub pads: (Vec<i64>, Feed),
    /// Constant value and how it is fed.
    pub value: Option<(Tensor, Feed)>,
    /// Axes and how they are fed.
    pub axes: Option<(Vec<i64>, Feed)>,
    /// The Pad node's domain (empty: ONNX's; [`padkit::onnx::PADKIT_DOMAIN`]: padkit's own Pad).
    pub domain: String,
    /// The `interior` attribute (padkit's domain).
    pub interior: Option<Vec<i64>>,
}

impl PadModel {
    /// A model with pads fed as `feed` (use [`Feed::Attribute`] below opset 11).
    pub fn new(opset: i64, mode: &str, data: Tensor, pads: Vec<i64>, feed: Feed) -> PadModel {
        let rank = data.shape().len();
        PadModel {
            opset,
            mode: Some(mode.to_string()),
            data,
            symbolic_dims: vec![None; rank],
            pads: (pads, feed),
            value: None,
            axes: None,
            domain: String::new(),
            interior: None,
        }
    }

    /// The model of a conformance case: its opset, mode attribute (omitted where the case
    /// relies on the default), data, and pads, value and axes fed as the case says.
    ///
    /// ```
    /// use padkit_onnx_tools::model::PadModel;
    /// use padkit_conformance::{Size, cases};
    /// let case = cases(Size::Small).into_iter().find(|c| c.has_tag("runtime-everything")).unwrap();
    /// let m = PadModel::from_case(&case);
    /// assert_eq!(m.inputs().len(), 4);
    /// assert_eq!(m.proto().graph.unwrap().input.len(), 4);
    /// ```
    pub fn from_case(case: &Case) -> PadModel {
        let mut m = PadModel::new(
            case.opset,
            case.mode.name(),
            case.input.clone(),
            case.pads.clone(),
            case.feeds.pads,
        );
        if !case.mode_attribute {
            m.mode = None;
        }
        m.value = case.value.clone().map(|v| (v, case.feeds.value));
        m.axes = case.axes.clone().map(|a| (a, case.feeds.axes));
        m.domain.clone_from(&case.domain);
        m.interior.clone_from(&case.interior);
        m
    }

    /// Sets the constant value.
    pub fn with_value(mut self, value: Tensor, feed: Feed) -> PadModel {
        self.value = Some((value, feed));
        self
    }

    /// Sets the axes.
    pub fn with_axes(mut self, axes: Vec<i64>, feed: Feed) -> PadModel {
        self.axes = Some((axes, feed));
        self
    }

    /// The tensors to feed, in graph-input order (data first).
    pub fn inputs(&self) -> Vec<Tensor> {
        let mut v = vec![self.data.clone()];
        if self.pads.1 == Feed::Input {
            v.push(ints(&self.pads.0));
        }
        if let Some((t, Feed::Input)) = &self.value {
            v.push(t.clone());
        }
        if let Some((a, Feed::Input)) = &self.axes {
            v.push(ints(a));
        }
        v
    }

    /// The model.
    pub fn proto(&self) -> ModelProto {
        let mut g = GraphProto {
            name: "pad".into(),
            ..Default::default()
        };
        g.input.push(value_info(
            "x",
            self.data.dtype().onnx_code(),
            Some(self.dims()),
        ));
        let mut node = NodeProto {
            name: "the_pad".into(),
            op_type: "Pad".into(),
            domain: self.domain.clone(),
            input: vec!["x".into()],
            output: vec!["y".into()],
            ..Default::default()
        };
        if let Some(m) = &self.mode {
            node.attribute.push(AttributeProto {
                name: "mode".into(),
                r#type: 3,
                s: m.as_bytes().to_vec(),
                ..Default::default()
            });
        }
        if let Some(interior) = &self.interior {
            node.attribute.push(AttributeProto {
                name: "interior".into(),
                r#type: 7,
                ints: interior.clone(),
                ..Default::default()
            });
        }
        let signature = node_signature(&self.domain, self.opset);
        // (an operand fed as an attribute where the version takes an input keeps its name)
        let attr = |source, name| match source {
            Source::Attribute(attr) => attr,
            Source::Input(_) => name,
        };
        self.operand(
            &mut g,
            &mut node,
            attr(signature.pads, "pads"),
            "pads",
            Some(&(ints(&self.pads.0), self.pads.1)),
        );
        let value_attr = attr(signature.value, "value");
        if self.value.is_none() && self.axes.is_some() && signature.value == Source::Input(2) {
            // an omitted optional input before a present one
            node.input.push(String::new());
        }
        self.operand(&mut g, &mut node, value_attr, "value", self.value.as_ref());
        let axes = self.axes.as_ref().map(|(a, f)| (ints(a), *f));
        self.operand(&mut g, &mut node, "axes", "axes", axes.as_ref());
        g.node.push(node);
        g.output
            .push(value_info("y", self.data.dtype().onnx_code(), None));
        ModelProto {
            ir_version: ir_version(self.opset),
            opset_import: self.opset_import(),
            graph: Some(g),
            ..Default::default()
        }
    }

    /// ONNX's domain at the model's opset, and padkit's at version 1 where the node is in it.
    fn opset_import(&self) -> Vec<OperatorSetIdProto> {
        let mut imports = vec![OperatorSetIdProto {
            domain: String::new(),
            version: self.opset,
        }];
        if !self.domain.is_empty() {
            imports.push(OperatorSetIdProto {
                domain: self.domain.clone(),
                version: 1,
            });
        }
        imports
    }

    fn dims(&self) -> Vec<Dimension> {
        self.data
            .shape()
            .iter()
            .zip(&self.symbolic_dims)
            .map(|(&d, s)| Dimension {
                value: Some(match s {
                    Some(s) => dimension::Value::DimParam(s.clone()),
                    None => dimension::Value::DimValue(d as i64),
                }),
                ..Default::default()
            })
            .collect()
    }

    /// Adds one operand, when given, as attribute, initializer, Constant node or graph
    /// input.
    fn operand(
        &self,
        g: &mut GraphProto,
        node: &mut NodeProto,
        attr: &str,
        name: &str,
        op: Option<&(Tensor, Feed)>,
    ) {
        let Some((t, feed)) = op else {
            return;
        };
        match feed {
            Feed::Attribute if name == "value" => node.attribute.push(AttributeProto {
                name: attr.into(),
                r#type: 1,
                f: t.to_vec::<f32>().map(|v| v[0]).unwrap_or(0.0),
                ..Default::default()
            }),
            Feed::Attribute => node.attribute.push(AttributeProto {
                name: attr.into(),
                r#type: 7,
                ints: t.to_vec::<i64>().unwrap_or_default(),
                ..Default::default()
            }),
            Feed::Initializer => {
                g.initializer.push(tensor_to_proto(t, name));
                node.input.push(name.into());
            }
            Feed::ConstantNode => {
                g.node.push(NodeProto {
                    name: format!("{name}_const"),
                    op_type: "Constant".into(),
                    output: vec![name.into()],
                    attribute: vec![AttributeProto {
                        name: "value".into(),
                        r#type: 4,
                        t: Some(tensor_to_proto(t, name)),
                        ..Default::default()
                    }],
                    ..Default::default()
                });
                node.input.push(name.into());
            }
            Feed::Input => {
                let dims = t.shape().iter().map(|&d| Dimension {
                    value: Some(dimension::Value::DimValue(d as i64)),
                    ..Default::default()
                });
                g.input.push(value_info(
                    name,
                    t.dtype().onnx_code(),
                    Some(dims.collect()),
                ));
                node.input.push(name.into());
            }
        }
    }
}

fn ints(v: &[i64]) -> Tensor {
    Tensor::from_slice(&[v.len()], v).unwrap_or_else(|_| Tensor::scalar(0i64))
}
