//! The `java_shapes` test set (`runtime/tests/data/java_shapes`): shapes the Hadoop Java
//! fixtures do not cover — map keys of every type (float and double in `Float.compare`
//! order, boolean, byte, buffer, long, ustring, records), deep nesting of vectors and maps,
//! every CSV and XML escape class, float text at each notation boundary, long streams. Made
//! on JDK 17 by `runtime/tests/data/java_shapes.java.txt`, which runs Hadoop's writer logic
//! re-typed from the format spec: the JDK supplies key order, float text (modern-JDK text
//! where the two JDKs differ) and UTF-16 iteration. Same manifest layout as `hadoop-java`.

use std::path::PathBuf;
use std::sync::OnceLock;

use hadoop_record::schema::{FieldType, RecordId, Schema};
use hadoop_record::value::json::from_json;
use hadoop_record::Value;
use serde::Deserialize;

use crate::schemas::add_record;
use crate::{read_manifest, Case, Comparison};

/// `runtime/tests/data/java_shapes`.
pub fn java_shapes_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../runtime/tests/data/java_shapes")
}

/// The `java_shapes` manifest.
#[derive(Debug, Deserialize)]
pub struct Shapes {
    /// Fully qualified record type → the signature Hadoop's generated Java returns.
    pub signatures: std::collections::BTreeMap<String, String>,
    pub cases: Vec<Case>,
    pub comparisons: Vec<Comparison>,
    /// Files Hadoop's writer refuses to write (binary strings with U+FFFE/U+FFFF), with the
    /// values and Java's error.
    pub refused: Vec<Refused>,
}

/// Values Hadoop's writer refuses in one encoding.
#[derive(Debug, Deserialize)]
pub struct Refused {
    pub name: String,
    pub record_type: String,
    pub encoding: crate::Encoding,
    pub values: Vec<serde_json::Value>,
    /// Java's exception message.
    pub error: String,
}

/// The manifest, parsed once.
pub fn java_shapes() -> &'static Shapes {
    static MANIFEST: OnceLock<Shapes> = OnceLock::new();
    MANIFEST.get_or_init(|| read_manifest(java_shapes_dir().join("manifest.json")))
}

impl Shapes {
    /// A case's file.
    pub fn bytes(&self, case: &Case) -> Vec<u8> {
        std::fs::read(java_shapes_dir().join(&case.file)).expect("java_shapes file")
    }

    /// The values of a case (or of a refused case, or a comparison side) as [`Value`]s.
    pub fn values(&self, record_type: &str, values: &[serde_json::Value]) -> Vec<Value> {
        values
            .iter()
            .map(|json| shapes_value(record_type, json))
            .collect()
    }
}

/// Converts a manifest JSON value of `record_type` with [`shapes_schema`].
pub fn shapes_value(record_type: &str, json: &serde_json::Value) -> Value {
    let ty = FieldType::Record(shapes_id(record_type));
    from_json(shapes_schema(), &ty, json)
        .unwrap_or_else(|e| panic!("manifest value of {record_type}: {e}"))
}

/// Id of `module.Class` in [`shapes_schema`].
pub fn shapes_id(record_type: &str) -> RecordId {
    shapes_schema()
        .find(record_type)
        .unwrap_or_else(|| panic!("no java_shapes record type {record_type}"))
}

/// `shapes.jr`, built by hand.
pub fn shapes_schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(build)
}

fn build() -> Schema {
    use FieldType::*;
    let mut s = Schema::new();
    let mut add = |module: &str, name: &str, fields| add_record(&mut s, module, name, fields);
    let b = Box::new;
    let keys = "shapes.keys";
    let k = add(keys, "K", vec![("a", Int), ("s", String)]);
    let float_keys = add(
        keys,
        "FloatKeys",
        vec![
            ("mf", Map(b(Float), b(String))),
            ("md", Map(b(Double), b(Int))),
        ],
    );
    let other_keys = add(
        keys,
        "OtherKeys",
        vec![
            ("mz", Map(b(Bool), b(Int))),
            ("mb", Map(b(Byte), b(String))),
            ("mbuf", Map(b(Buffer), b(Long))),
            ("ml", Map(b(Long), b(Bool))),
            ("ms", Map(b(String), b(Byte))),
            ("mk", Map(b(Record(k)), b(Int))),
        ],
    );
    let nest_module = "shapes.nest";
    let leaf = add(nest_module, "Leaf", vec![("s", String), ("b", Buffer)]);
    let nest = add(
        nest_module,
        "Nest",
        vec![
            ("vm", Vector(b(Map(b(String), b(Int))))),
            ("mvl", Map(b(Int), b(Vector(b(Record(leaf)))))),
            ("vvv", Vector(b(Vector(b(Vector(b(String))))))),
            ("mm", Map(b(String), b(Map(b(Int), b(Buffer))))),
            ("vl", Vector(b(Record(leaf)))),
            (
                "deep",
                Map(b(Record(k)), b(Vector(b(Map(b(Byte), b(Record(leaf))))))),
            ),
            ("leaf", Record(leaf)),
        ],
    );
    add(
        nest_module,
        "Texts",
        vec![
            ("s", String),
            ("vs", Vector(b(String))),
            ("mss", Map(b(String), b(String))),
        ],
    );
    let nums = add(
        nest_module,
        "Nums",
        vec![
            ("f", Float),
            ("d", Double),
            ("vf", Vector(b(Float))),
            ("vd", Vector(b(Double))),
            ("l", Long),
            ("i", Int),
            ("b", Byte),
        ],
    );
    add(
        nest_module,
        "Top",
        vec![
            ("n", Record(nest)),
            ("o", Record(other_keys)),
            ("fk", Record(float_keys)),
            ("nums", Record(nums)),
            ("z", Bool),
        ],
    );
    s
}
