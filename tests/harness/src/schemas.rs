//! The fixture schemas (`tests/fixtures/hadoop-java/*.jr`), built by hand so that runtime
//! tests do not depend on the compiler. The compiler's tests check that its own conversion
//! of the `.jr` files gives the same schema.

use std::sync::OnceLock;

use hadoop_record::schema::{FieldDef, FieldType, RecordId, RecordType, Schema};

/// All record types of `common.jr`, `prims.jr` and `composite.jr`.
pub fn fixture_schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(build)
}

/// Adds `module.name` with `fields` (name, type) to `s`.
///
/// # Panics
/// When a field refers to a record not yet in `s`.
pub fn add_record(
    s: &mut Schema,
    module: &str,
    name: &str,
    fields: Vec<(&str, FieldType)>,
) -> RecordId {
    let fields = fields
        .into_iter()
        .map(|(n, t)| FieldDef::new(n, t))
        .collect();
    s.add(RecordType::new(module, name, fields))
        .unwrap_or_else(|e| panic!("{module}.{name}: {e}"))
}

fn build() -> Schema {
    use FieldType::*;
    let mut s = Schema::new();
    let mut add = |module: &str, name: &str, fields| add_record(&mut s, module, name, fields);
    let b = Box::new;

    let common = "oracle.common.types";
    let point = add(common, "Point", vec![("x", Int), ("y", Int)]);
    add(
        common,
        "Named",
        vec![("name", String), ("where", Record(point))],
    );

    let prims = "oracle.prims";
    for (name, ty) in [
        ("ByteRec", Byte),
        ("BoolRec", Bool),
        ("IntRec", Int),
        ("LongRec", Long),
        ("FloatRec", Float),
        ("DoubleRec", Double),
        ("StringRec", String),
        ("BufferRec", Buffer),
    ] {
        add(prims, name, vec![("v", ty)]);
    }
    add(
        prims,
        "AllPrims",
        vec![
            ("b", Byte),
            ("z", Bool),
            ("i", Int),
            ("l", Long),
            ("f", Float),
            ("d", Double),
            ("s", String),
            ("buf", Buffer),
        ],
    );

    let composite = "oracle.composite";
    let inner = add(composite, "Inner", vec![("tag", String), ("n", Long)]);
    add(composite, "IntVec", vec![("v", Vector(b(Int)))]);
    add(composite, "StrVec", vec![("v", Vector(b(String)))]);
    let containers = add(
        composite,
        "Containers",
        vec![
            ("vi", Vector(b(Int))),
            ("vs", Vector(b(String))),
            ("vvi", Vector(b(Vector(b(Int))))),
            ("msi", Map(b(String), b(Int))),
            ("mis", Map(b(Int), b(String))),
            ("vrec", Vector(b(Record(inner)))),
            ("mrec", Map(b(String), b(Record(inner)))),
            ("pt", Record(point)),
            ("inner", Record(inner)),
            ("vb", Vector(b(Buffer))),
            ("mlvd", Map(b(Long), b(Vector(b(Double))))),
            ("vz", Vector(b(Bool))),
            ("vf", Vector(b(Float))),
        ],
    );
    let named = s.find("oracle.common.types.Named").expect("Named");
    s.add(RecordType {
        module: composite.into(),
        name: "Outer".into(),
        fields: vec![
            FieldDef::new("a", Record(inner)),
            FieldDef::new("c", Record(containers)),
            FieldDef::new("n", Record(named)),
            FieldDef::new("flag", Bool),
        ],
    })
    .expect("Outer refers to records added before it");
    s
}
