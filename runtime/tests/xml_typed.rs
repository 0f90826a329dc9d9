//! The XML archive through typed records (hand-written `Record` impls, as generated code
//! would be): every fixture of these types decodes, re-encodes to exactly each JDK's bytes
//! (JDK 17's by default, the modern JDK's with `FloatText::Shortest`), and agrees with the
//! schema-driven codec.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use fixture_harness::{hadoop_java, schema, Encoding};
use hadoop_record::archive::xml::{XmlInput, XmlOutput};
use hadoop_record::archive::FloatText;
use hadoop_record::field::Field;
use hadoop_record::schema::{FieldDef, RecordId, SchemaBuilder};
use hadoop_record::value::read_record;
use hadoop_record::{record_field, Record, RecordInput, RecordOutput, Result};

/// The DDL name of a field (`r#where` is `where`).
fn ddl_name(name: &'static str) -> &'static str {
    name.strip_prefix("r#").unwrap_or(name)
}

/// A record type with a `Record` impl written out field by field, the way
/// `#[derive(Record)]` expands.
macro_rules! record {
    ($name:ident { $($field:ident: $ty:ty),+ $(,)? }) => {
        #[derive(Debug, Clone, PartialEq)]
        struct $name {
            $($field: $ty,)+
        }

        impl Record for $name {
            fn type_name() -> &'static str {
                stringify!($name)
            }
            fn write_to<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
                out.start_record(tag)?;
                $(Field::write(&self.$field, out, ddl_name(stringify!($field)))
                    .map_err(|e| e.in_field(ddl_name(stringify!($field))))?;)+
                out.end_record(tag)
            }
            fn read_from<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
                input.start_record(tag)?;
                let value = $name {
                    $($field: <$ty as Field>::read(input, ddl_name(stringify!($field)))
                        .map_err(|e| e.in_field(ddl_name(stringify!($field))))?,)+
                };
                input.end_record(tag)?;
                Ok(value)
            }
            fn compare_hadoop(&self, other: &Self) -> Ordering {
                Ordering::Equal
                    $(.then_with(|| Field::cmp_hadoop(&self.$field, &other.$field)))+
            }
            fn describe(schema: &mut SchemaBuilder) -> RecordId {
                schema.record::<Self>(stringify!($name), |s| {
                    vec![$(FieldDef::new(ddl_name(stringify!($field)), <$ty as Field>::field_type(s)),)+]
                })
            }
        }

        record_field!($name);
    };
}

record!(IntRec { v: i32 });
record!(FloatRec { v: f32 });
record!(DoubleRec { v: f64 });
record!(StringRec { v: String });
record!(BufferRec { v: Vec<u8> });
record!(AllPrims {
    b: i8,
    z: bool,
    i: i32,
    l: i64,
    f: f32,
    d: f64,
    s: String,
    buf: Vec<u8>,
});
record!(Point { x: i32, y: i32 });
record!(Named {
    name: String,
    r#where: Point
});
record!(Inner {
    tag: String,
    n: i64
});
record!(Containers {
    vi: Vec<i32>,
    vs: Vec<String>,
    vvi: Vec<Vec<i32>>,
    msi: BTreeMap<String, i32>,
    mis: BTreeMap<i32, String>,
    vrec: Vec<Inner>,
    mrec: BTreeMap<String, Inner>,
    pt: Point,
    inner: Inner,
    vb: Vec<Vec<u8>>,
    mlvd: BTreeMap<i64, Vec<f64>>,
    vz: Vec<bool>,
    vf: Vec<f32>,
});
record!(Outer {
    a: Inner,
    c: Containers,
    n: Named,
    flag: bool,
});

fn read_typed<T: Record>(bytes: &[u8]) -> Result<Vec<T>> {
    let mut input = XmlInput::new(bytes);
    let mut out = Vec::new();
    while !input.at_end()? {
        out.push(T::read_from(&mut input, "")?);
    }
    Ok(out)
}

/// The records written as `float_text` says (for `Legacy`, by the default output).
fn write_typed<T: Record>(records: &[T], float_text: FloatText) -> Vec<u8> {
    let mut out = XmlOutput::new(Vec::new());
    if float_text != FloatText::Legacy {
        out = out.with_float_text(float_text);
    }
    for r in records {
        r.write_to(&mut out, "").unwrap();
    }
    out.into_inner().unwrap()
}

/// Checks every XML fixture of `record_type` through `T`; returns how many there were.
fn check<T: Record>(record_type: &str) -> usize {
    let mut n = 0;
    for case in hadoop_java()
        .cases_in(Encoding::Xml)
        .filter(|c| c.record_type == record_type)
    {
        let records: Vec<T> =
            read_typed(&case.bytes()).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(records.len(), case.values.len(), "{}", case.name);
        for float_text in FloatText::ALL {
            assert_eq!(
                String::from_utf8_lossy(&write_typed(&records, float_text)),
                String::from_utf8_lossy(&case.bytes_with(float_text)),
                "{} ({float_text})",
                case.name
            );
        }
        let written = write_typed(&records, FloatText::Shortest);
        // What the typed code wrote holds the manifest's values.
        let mut input = XmlInput::new(&written[..]);
        for want in case.expected_values() {
            let got = read_record(&mut input, schema(), case.record_id(), "").unwrap();
            assert!(got.bitwise_eq(&want), "{}: {got:?} != {want:?}", case.name);
        }
        assert!(input.at_end().unwrap());
        n += 1;
    }
    n
}

#[test]
fn typed_records_read_and_write_every_fixture_of_their_type() {
    let counts = [
        check::<IntRec>("oracle.prims.IntRec"),
        check::<FloatRec>("oracle.prims.FloatRec"),
        check::<DoubleRec>("oracle.prims.DoubleRec"),
        check::<StringRec>("oracle.prims.StringRec"),
        check::<BufferRec>("oracle.prims.BufferRec"),
        check::<AllPrims>("oracle.prims.AllPrims"),
        check::<Containers>("oracle.composite.Containers"),
        check::<Outer>("oracle.composite.Outer"),
    ];
    assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
    // The stream fixtures are among them.
    assert_eq!(check::<Outer>("oracle.composite.Outer"), 2);
}

#[test]
fn the_hand_written_schema_matches_the_fixture_schema() {
    let (s, id) = Outer::schema();
    let fixture = fixture_harness::fixture_schema();
    let want = fixture
        .signature(fixture.find("oracle.composite.Outer").unwrap())
        .unwrap();
    assert_eq!(s.signature(id).unwrap().as_str(), want.as_str());
    assert_eq!(
        Outer::signature().as_str(),
        hadoop_java().signatures["oracle.composite.Outer"]
    );
}

#[test]
fn typed_errors_carry_the_field_path_and_position() {
    let case = hadoop_java().case("outer_nested.xml");
    let text = String::from_utf8(case.bytes()).unwrap();
    // The last `<i4>` of `c.vi` cut into a non-number.
    let bad = text.replacen("<i4>-2147483648</i4>", "<i4>-2147483648x</i4>", 1);
    assert_ne!(bad, text);
    let e = read_typed::<Outer>(bad.as_bytes()).unwrap_err();
    assert_eq!(e.path(), "c.vi[3]", "{e}");
    assert!(e.to_string().contains("not a valid int"), "{e}");
}
