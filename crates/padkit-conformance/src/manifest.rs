//! `manifest.json`: what an exported suite holds beside the ONNX backend-test layout,
//! which cannot say that a case must fail: each case's tags and its expected result.

use serde::{Deserialize, Serialize};

use crate::case::{Case, Expected, Refusal};

/// The manifest of an exported suite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// What wrote the suite (`padkit-conformance 0.1.0`).
    pub generator: String,
    /// The cases, one directory each, in catalogue order.
    pub cases: Vec<Entry>,
}

/// One case of the manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The case's directory name.
    pub name: String,
    /// The case's tags.
    pub tags: Vec<String>,
    /// What a conforming engine gives.
    pub expected: ExpectedEntry,
    /// For a case that must fail, its valid twin's name ([`Case::twin`]).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub twin: Option<String>,
    /// Why ONNX's reference evaluator does not give the case's answer, where it does not
    /// ([`Standing::why`](crate::Standing::why)); the case's `onnx:` tag names the class.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub onnx: Option<String>,
}

/// A case's expected result as the manifest writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExpectedEntry {
    /// The output stored as `file` (relative to the case's directory).
    Output {
        /// The ONNX element type's name (`float`, `int4`, …).
        dtype: String,
        /// The output's shape.
        shape: Vec<usize>,
        /// Where the output is stored.
        file: String,
    },
    /// An error of this class ([`Refusal::class`]), and why.
    Error {
        /// The class: an [`ErrClass`](crate::ErrClass) name, or `Signature`.
        class: String,
        /// What rule the case breaks, for signature errors.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        reason: Option<String>,
    },
}

/// Where the export stores a case's expected output, relative to its directory.
///
/// ```
/// assert!(padkit_conformance::manifest::OUTPUT_FILE.starts_with("test_data_set_0/"));
/// ```
pub const OUTPUT_FILE: &str = "test_data_set_0/output_0.pb";

impl Manifest {
    /// The manifest of `cases`.
    ///
    /// ```
    /// use padkit_conformance::{Manifest, Size, cases};
    /// let m = Manifest::of(&cases(Size::Small));
    /// assert_eq!(Manifest::from_json(&m.to_json()).unwrap(), m);
    /// assert!(m.to_json().contains(r#""class": "DuplicateAxis""#));
    /// ```
    pub fn of(cases: &[Case]) -> Manifest {
        Manifest {
            generator: concat!("padkit-conformance ", env!("CARGO_PKG_VERSION")).into(),
            cases: cases.iter().map(Entry::of).collect(),
        }
    }

    /// The manifest as JSON.
    ///
    /// ```
    /// let m = padkit_conformance::Manifest::of(&[]);
    /// assert!(m.to_json().starts_with('{'));
    /// ```
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a manifest is plain data")
    }

    /// Reads a manifest written by [`Manifest::to_json`].
    ///
    /// # Errors
    ///
    /// When `text` is not such a manifest, with serde_json's line and column.
    ///
    /// ```
    /// assert!(padkit_conformance::Manifest::from_json("[]").is_err());
    /// ```
    pub fn from_json(text: &str) -> Result<Manifest, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The entry named `name`.
    ///
    /// ```
    /// use padkit_conformance::{Manifest, Size, cases};
    /// let all = cases(Size::Small);
    /// assert!(Manifest::of(&all).entry(&all[3].name).is_some());
    /// ```
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.cases.iter().find(|e| e.name == name)
    }
}

impl Entry {
    fn of(case: &Case) -> Entry {
        let expected = match &case.expected {
            Expected::Output(t) => ExpectedEntry::Output {
                dtype: t.dtype().name().into(),
                shape: t.shape().to_vec(),
                file: OUTPUT_FILE.into(),
            },
            Expected::Error(r) => ExpectedEntry::Error {
                class: r.class(),
                reason: match r {
                    Refusal::Signature(why) => Some((*why).into()),
                    Refusal::Pad(_) => None,
                },
            },
        };
        Entry {
            name: case.name.clone(),
            tags: case.tags.clone(),
            expected,
            twin: case.twin.clone(),
            onnx: Some(case.onnx.why())
                .filter(|why| !why.is_empty())
                .map(str::to_string),
        }
    }
}
