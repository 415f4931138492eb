//! What every reader of a model needs before it runs or rewrites one: the checks ONNX
//! Runtime makes at load time (versions, names, tensors), so that no engine, ours or
//! tract, meets a malformed graph; what is read of a graph (its opset, its fed inputs, a
//! node's description in errors); and the IR version and value infos a written model
//! declares.

use std::collections::{HashMap, HashSet};

use crate::error::{Context, Result, bail, ensure};
use crate::pb::tensor_shape_proto::{Dimension, dimension};
use crate::pb::{
    GraphProto, ModelProto, NodeProto, TensorShapeProto, TypeProto, ValueInfoProto, type_proto,
};
use crate::proto::check_proto;

/// The newest ONNX opset of the default domain padkit knows: onnx 1.23's. Pad-25 is the
/// Pad of opsets 25 to 28, so a model that `onnx.helper.make_model` stamps with the newest
/// opset loads.
pub const NEWEST_OPSET: i64 = 28;

/// The newest ONNX IR version padkit reads: onnx 1.23's. 14 adds the float6 types, which
/// Pad does not take, and opaque types outside ONNX-ML; the rest of the format is 13's.
pub const NEWEST_IR_VERSION: i64 = 14;

/// The model's version of the default ONNX domain.
///
/// # Errors
///
/// The model imports ONNX's default domain not exactly once, or at a version padkit does
/// not know (1 to [`NEWEST_OPSET`]).
///
/// ```
/// use padkit_onnx::pb::{ModelProto, OperatorSetIdProto};
/// let m = ModelProto { opset_import: vec![OperatorSetIdProto { domain: "".into(), version: 19 }], ..Default::default() };
/// assert_eq!(padkit_onnx::graph::opset(&m).unwrap(), 19);
/// assert!(padkit_onnx::graph::opset(&ModelProto::default()).is_err());
/// ```
pub fn opset(model: &ModelProto) -> Result<i64> {
    let default: Vec<i64> = model
        .opset_import
        .iter()
        .filter(|o| padkit::onnx::is_default_domain(&o.domain))
        .map(|o| o.version)
        .collect();
    match default[..] {
        [v] if (1..=NEWEST_OPSET).contains(&v) => Ok(v),
        [v] => bail!(
            "the model imports opset {v} of the default ONNX domain; padkit knows opsets 1 to {NEWEST_OPSET}"
        ),
        [] => bail!(
            "the model imports no opset of the default ONNX domain (its opset_import lists none)"
        ),
        _ => bail!(
            "the model imports the default ONNX domain {} times ({default:?})",
            default.len()
        ),
    }
}

/// Checks what ONNX Runtime checks when it loads a model: the IR version and opset, that
/// every name a node or the graph reads is produced once, that Constant nodes have their
/// one output and one value, and that every stored tensor matches its type and shape.
/// Subgraphs (If, Loop, Scan bodies) are checked too, with the names of the graphs
/// around them in scope.
///
/// # Errors
///
/// The first check that fails, naming the graph, node, value or tensor and the numbers: an
/// IR version or opset out of range, no graph, a name produced twice or read before
/// anything produces it, a graph output nothing produces, a Constant node without exactly
/// one output and one value, a stored tensor whose data does not match its type and shape
/// ([`check_proto`]).
pub fn check_model(model: &ModelProto) -> Result<()> {
    let ir = model.ir_version;
    ensure!(
        (1..=NEWEST_IR_VERSION).contains(&ir),
        "the model declares IR version {ir}; padkit reads IR versions 1 to {NEWEST_IR_VERSION}"
    );
    let graph = model.graph.as_ref().context("the model has no graph")?;
    // ONNX Runtime loads a model that imports no opset of the default domain (a model of
    // `ai.onnx.ml` nodes alone, say); a node of the default domain needs its version.
    let imports_default = model
        .opset_import
        .iter()
        .any(|o| padkit::onnx::is_default_domain(&o.domain));
    if imports_default || uses_default_domain(graph) {
        opset(model)?;
    }
    check_graph(graph, &HashSet::new())
}

/// True when a node of `g` or of its subgraphs (If, Loop, Scan bodies) is of the default
/// ONNX domain.
fn uses_default_domain(g: &GraphProto) -> bool {
    g.node.iter().any(|n| {
        is_default_domain(n)
            || n.attribute
                .iter()
                .flat_map(|a| a.g.iter().chain(&a.graphs))
                .any(uses_default_domain)
    })
}

fn check_graph(g: &GraphProto, outer: &HashSet<&str>) -> Result<()> {
    let mut defined: HashSet<&str> = outer.clone();
    let mut producer: HashMap<&str, String> = HashMap::new();
    for t in &g.initializer {
        check_proto(t).context("initializer")?;
        defined.insert(&t.name);
    }
    for sp in &g.sparse_initializer {
        let (name, _, _) =
            crate::proto::sparse_dtype_and_shape(sp).context("sparse initializer")?;
        defined.insert(name);
    }
    for i in &g.input {
        defined.insert(&i.name);
    }
    for node in &g.node {
        for out in node.output.iter().filter(|o| !o.is_empty()) {
            if let Some(first) = producer.insert(out, describe(node)) {
                bail!(
                    "{} and {first} both produce {out:?}; ONNX names each value once",
                    describe(node)
                );
            }
            ensure!(
                !g.input.iter().any(|i| &i.name == out),
                "{} produces {out:?}, which is already a graph input",
                describe(node)
            );
        }
    }
    let produced = |name: &str| defined.contains(name) || producer.contains_key(name);
    for node in &g.node {
        for input in node.input.iter().filter(|i| !i.is_empty()) {
            ensure!(
                produced(input),
                "{} reads {input:?}, which nothing in the graph produces",
                describe(node)
            );
        }
        if node.op_type == "Constant" && is_default_domain(node) {
            check_constant(node)?;
        }
        for a in &node.attribute {
            let inner: HashSet<&str> = defined
                .iter()
                .copied()
                .chain(producer.keys().copied())
                .collect();
            for sub in a.g.iter().chain(&a.graphs) {
                check_graph(sub, &inner)
                    .with_context(|| format!("in attribute {:?} of {}", a.name, describe(node)))?;
            }
            if let Some(t) = &a.t {
                check_proto(t)
                    .with_context(|| format!("attribute {:?} of {}", a.name, describe(node)))?;
            }
        }
    }
    for out in &g.output {
        ensure!(
            produced(&out.name),
            "graph output {:?} is produced by no node, input or initializer",
            out.name
        );
    }
    Ok(())
}

fn is_default_domain(node: &NodeProto) -> bool {
    padkit::onnx::is_default_domain(&node.domain)
}

/// `Pad node "p"` or `Pad node #3` for an unnamed one.
pub fn describe(node: &NodeProto) -> String {
    if node.name.is_empty() {
        format!("{} node with outputs {:?}", node.op_type, node.output)
    } else {
        format!("{} node {:?}", node.op_type, node.name)
    }
}

/// A Constant node: one output, one value attribute.
fn check_constant(node: &NodeProto) -> Result<()> {
    ensure!(
        node.output.len() == 1,
        "{} has {} outputs; Constant has exactly 1",
        describe(node),
        node.output.len()
    );
    ensure!(
        node.attribute.len() == 1,
        "{} has {} attributes; Constant takes exactly one value",
        describe(node),
        node.attribute.len()
    );
    Ok(())
}

/// The graph inputs a caller feeds (those without an initializer), in order.
///
/// # Errors
///
/// The model has no graph.
pub fn graph_inputs(model: &ModelProto) -> Result<Vec<String>> {
    let g = model.graph.as_ref().context("the model has no graph")?;
    let inits: HashSet<&str> = g.initializer.iter().map(|t| t.name.as_str()).collect();
    Ok(g.input
        .iter()
        .map(|i| i.name.clone())
        .filter(|n| !inits.contains(n.as_str()))
        .collect())
}

/// The IR version a model of `opset` declares: 8 up to opset 18, then the one onnx's
/// `VERSION_TABLE` released with the opset, which is the first to hold the element types
/// that opset's Pad adds (float8 at 19's IR 9, int4 at 21's IR 10, …).
///
/// ```
/// assert_eq!(padkit_onnx::graph::ir_version(11), 8);
/// assert_eq!(padkit_onnx::graph::ir_version(25), 13);
/// ```
#[must_use]
pub fn ir_version(opset: i64) -> i64 {
    match opset {
        ..=18 => 8,
        19..=20 => 9,
        21..=22 => 10,
        23 => 11,
        24 => 12,
        _ => 13,
    }
}

/// Declared extents: each number as itself, a negative one as the symbol `N` (an extent
/// known only at run time).
///
/// ```
/// let d = padkit_onnx::graph::dims(&[-1, 5]);
/// assert_eq!(d.len(), 2);
/// ```
#[must_use]
pub fn dims(extents: &[i64]) -> Vec<Dimension> {
    extents
        .iter()
        .map(|&d| Dimension {
            value: Some(match d {
                d if d < 0 => dimension::Value::DimParam("N".into()),
                d => dimension::Value::DimValue(d),
            }),
            ..Default::default()
        })
        .collect()
}

/// A graph value `name` declared as a tensor of ONNX type `elem_type` and, when given, of
/// the extents `dims` ([`dims`]).
///
/// ```
/// use padkit_onnx::graph::{dims, value_info};
/// let x = value_info("x", 1, Some(dims(&[-1, 5])));
/// assert_eq!(x.name, "x");
/// ```
#[must_use]
pub fn value_info(name: &str, elem_type: i32, dims: Option<Vec<Dimension>>) -> ValueInfoProto {
    ValueInfoProto {
        name: name.into(),
        r#type: Some(TypeProto {
            value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                elem_type,
                shape: dims.map(|dim| TensorShapeProto { dim }),
            })),
            ..Default::default()
        }),
        ..Default::default()
    }
}
