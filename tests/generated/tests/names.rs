//! The stress corpus of names compiles (with warnings denied, in `src/lib.rs`), and every
//! record of it keeps its DDL names on the wire: the derive's schema of the record that
//! reaches all others equals the front end's, record for record and field for field.

use generated_records::stress;
use hadoop_record::schema::Schema;
use hadoop_record::{Format, Record, RecordReader, RecordWriter};
use hadoop_record_compiler::{load, LoadOptions};

/// `module.Name`, then `(field, type)` for each field, for every record of `schema`, sorted.
fn shape(schema: &Schema) -> Vec<(String, Vec<(String, String)>)> {
    let mut out: Vec<_> = schema
        .records()
        .iter()
        .map(|r| {
            let fields = r
                .fields
                .iter()
                .map(|f| (f.name.clone(), schema.type_name(&f.ty).unwrap()))
                .collect();
            (r.full_name(), fields)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_record_keeps_its_ddl_names() {
    let ddl = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../compiler/tests/ddl/names/stress.jr"
    );
    let model = load(&[ddl], &LoadOptions::default()).unwrap_or_else(|d| panic!("{d}"));
    let front_end = model.to_schema();
    let (derived, id) = stress::names::all::All::schema();
    assert_eq!(derived.record(id).unwrap().full_name(), "names.all.All");
    let expected = shape(front_end.schema());
    let actual = shape(&derived);
    assert_eq!(actual.len(), expected.len());
    for (a, e) in actual.iter().zip(&expected) {
        assert_eq!(a, e);
    }
    assert_eq!(
        stress::names::all::All::signature(),
        front_end.signature("names.all.All").unwrap()
    );
}

#[test]
fn colliding_names_get_their_documented_rust_names() {
    use stress::names::{fields, mates0, mates1, mates2, records};
    // Fields `b` and `B` of one record, both kept (docs/naming.md).
    let m = fields::Mates0 {
        b: -1,
        B: vec![1, 2],
    };
    // Records `link`, `Link`, `LINK`, `link_`; `self`, `Self`, `Self_`, `Self2`.
    let _ = (
        mates0::link::default(),
        mates0::Link::default(),
        mates0::LINK::default(),
    );
    let _ = (
        mates1::self_::default(),
        mates1::Self3::default(),
        mates1::Self_::default(),
    );
    // `u8` cannot keep its spelling: it would shadow the primitive.
    let _ = (
        mates2::U8::default(),
        mates2::U8_2::default(),
        mates2::Bool2::default(),
    );
    let _ = (records::Self_::default(), records::self_::default());
    // The wire has the DDL names: CSV and XML of the record read back as the same record.
    for format in [Format::Binary, Format::Csv, Format::Xml] {
        let mut writer = RecordWriter::new(Vec::new(), format);
        writer.write(&m).unwrap();
        let bytes = writer.into_inner().unwrap();
        let mut reader = RecordReader::new(&bytes[..], format);
        assert_eq!(reader.read::<fields::Mates0>().unwrap(), Some(m.clone()));
    }
    let mut writer = RecordWriter::new(Vec::new(), Format::Xml);
    writer.write(&m).unwrap();
    let xml = String::from_utf8(writer.into_inner().unwrap()).unwrap();
    assert!(
        xml.contains("<name>b</name>") && xml.contains("<name>B</name>"),
        "{xml}"
    );
}
