//! Test support for the Hadoop Java reference fixtures in `tests/fixtures/hadoop-java`:
//! the manifest, the fixture schemas as a runtime [`Schema`], and each case's expected
//! [`Value`]s.
//!
//! ```no_run
//! for case in fixture_harness::hadoop_java().cases_in(fixture_harness::Encoding::Binary) {
//!     let bytes = case.bytes();
//!     let expected = case.expected_values();
//!     # let _ = (bytes, expected);
//! }
//! ```

pub mod arb;
pub mod bench;
pub mod delta_peers;
pub mod peers;
pub mod process;
mod schemas;
mod shapes;
mod trickle;
mod typed;
mod values;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use hadoop_record::archive::FloatText;
use hadoop_record::schema::{FieldType, RecordId, Schema};
use hadoop_record::value::json::from_json;
use hadoop_record::{Format, Value};
use serde::de::DeserializeOwned;
use serde::Deserialize;

pub use schemas::{add_record, fixture_schema};
pub use shapes::{
    java_shapes, java_shapes_dir, shapes_id, shapes_schema, shapes_value, Refused, Shapes,
};
pub use trickle::Trickle;
pub use typed::check_typed_case;
pub use values::{canon, read_back};

/// `tests/fixtures` of the repository.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// `tests/fixtures/hadoop-java`.
pub fn hadoop_java_dir() -> PathBuf {
    fixtures_dir().join("hadoop-java")
}

/// The three Hadoop encodings, as the manifest names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    Binary,
    Csv,
    Xml,
}

impl Encoding {
    /// The runtime [`Format`] that reads and writes this encoding.
    pub fn format(self) -> Format {
        match self {
            Encoding::Binary => Format::Binary,
            Encoding::Csv => Format::Csv,
            Encoding::Xml => Format::Xml,
        }
    }
}

/// `tests/fixtures/hadoop-java/manifest.json`.
#[derive(Debug, Deserialize)]
pub struct Manifest {
    /// Fully qualified record type → Java `signature()`.
    pub signatures: BTreeMap<String, String>,
    pub cases: Vec<Case>,
    pub comparisons: Vec<Comparison>,
}

/// One fixture file and the values it holds.
#[derive(Debug, Deserialize)]
pub struct Case {
    pub name: String,
    pub schema: String,
    /// `module.Class`
    pub record_type: String,
    pub encoding: Encoding,
    /// Relative to `tests/fixtures/hadoop-java`.
    pub file: String,
    pub size: u64,
    /// The records written back-to-back into the file, in the manifest's JSON value form.
    pub values: Vec<serde_json::Value>,
    pub java_readback: Readback,
    #[serde(default)]
    pub note: Option<String>,
}

/// Whether Java's own reader read the file back.
#[derive(Debug, Deserialize)]
pub struct Readback {
    pub ok: bool,
    #[serde(default)]
    pub error: Option<String>,
}

/// Java's `compareTo`/`equals`/`hashCode` on a pair of values.
#[derive(Debug, Deserialize)]
pub struct Comparison {
    pub label: String,
    pub record_type: String,
    pub a: serde_json::Value,
    pub b: serde_json::Value,
    #[serde(rename = "compareTo")]
    pub compare_to: i64,
    #[serde(rename = "compareTo_sign")]
    pub compare_to_sign: i32,
    #[serde(rename = "compareTo_reverse_sign")]
    pub compare_to_reverse_sign: i32,
    pub equals: bool,
    /// Java's `a.hashCode()` (absent from the java_shapes manifest).
    #[serde(rename = "hashCode_a", default)]
    pub hash_code_a: Option<i32>,
    /// Java's `b.hashCode()`.
    #[serde(rename = "hashCode_b", default)]
    pub hash_code_b: Option<i32>,
    pub raw_comparator: Option<i64>,
}

/// The manifest, parsed once.
pub fn hadoop_java() -> &'static Manifest {
    static MANIFEST: OnceLock<Manifest> = OnceLock::new();
    MANIFEST.get_or_init(|| read_manifest(hadoop_java_dir().join("manifest.json")))
}

/// Reads and parses the manifest at `path`.
fn read_manifest<T: DeserializeOwned>(path: PathBuf) -> T {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} parses: {e}", path.display()))
}

impl Manifest {
    /// The cases of one encoding.
    pub fn cases_in(&self, encoding: Encoding) -> impl Iterator<Item = &Case> {
        self.cases.iter().filter(move |c| c.encoding == encoding)
    }

    /// The case of the file named `name` (e.g. `stream_outer_x2.xml`).
    pub fn case(&self, name: &str) -> &Case {
        self.cases
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no fixture case {name}"))
    }
}

impl Case {
    /// The file as Java 17 wrote it (`data/`).
    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(hadoop_java_dir().join(&self.file)).expect("fixture file")
    }

    /// The file as a modern JDK (19+) writes it: `data-jdk-modern/` where the float text
    /// differs, `data/` otherwise. Writers must produce these bytes.
    pub fn modern_bytes(&self) -> Vec<u8> {
        let modern = hadoop_java_dir()
            .join("data-jdk-modern")
            .join(Path::new(&self.file).file_name().expect("file name"));
        std::fs::read(&modern).unwrap_or_else(|_| self.bytes())
    }

    /// The file as a JDK that prints floats as `float_text` does writes it: JDK 17's
    /// ([`Case::bytes`]) for `Legacy`, a modern JDK's ([`Case::modern_bytes`]) for `Shortest`.
    pub fn bytes_with(&self, float_text: FloatText) -> Vec<u8> {
        match float_text {
            FloatText::Legacy => self.bytes(),
            FloatText::Shortest => self.modern_bytes(),
        }
    }

    /// Whether a modern JDK writes different bytes than `data/` holds.
    pub fn differs_on_modern_jdk(&self) -> bool {
        self.modern_bytes() != self.bytes()
    }

    /// The record type's id in [`fixture_schema`].
    pub fn record_id(&self) -> RecordId {
        record_id(&self.record_type)
    }

    /// The values the file holds, converted with the fixture schema.
    pub fn expected_values(&self) -> Vec<Value> {
        self.values
            .iter()
            .map(|json| value_of(&self.record_type, json))
            .collect()
    }

    /// The values the file holds in Hadoop's binary encoding, as the schema-driven codec
    /// writes them: what a binary writer of any of the file's encodings must reproduce.
    pub fn expected_binary(&self) -> Vec<u8> {
        let mut writer =
            hadoop_record::RecordWriter::new(Vec::new(), hadoop_record::Format::Binary);
        for value in self.expected_values() {
            writer
                .write_value(schema(), self.record_id(), &value)
                .unwrap_or_else(|e| panic!("{}: {e}", self.name));
        }
        writer.into_inner().expect("writing to a Vec")
    }
}

impl Comparison {
    /// `a` and `b` as values of the comparison's record type.
    pub fn values(&self) -> (Value, Value) {
        (
            value_of(&self.record_type, &self.a),
            value_of(&self.record_type, &self.b),
        )
    }
}

/// Id of `module.Class` in [`fixture_schema`].
pub fn record_id(record_type: &str) -> RecordId {
    fixture_schema()
        .find(record_type)
        .unwrap_or_else(|| panic!("no fixture record type {record_type}"))
}

/// Converts a JSON value of the manifest into a [`Value`] of the record type.
pub fn value_of(record_type: &str, json: &serde_json::Value) -> Value {
    let ty = FieldType::Record(record_id(record_type));
    from_json(fixture_schema(), &ty, json)
        .unwrap_or_else(|e| panic!("manifest value of {record_type}: {e}"))
}

/// Schema type of [`fixture_schema`] for convenience.
pub fn schema() -> &'static Schema {
    fixture_schema()
}
