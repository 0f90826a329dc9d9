//! Derived records against the `java_shapes` set (`runtime/tests/data/java_shapes`): map keys
//! of every type (floats through `MapKey`, records, buffers, booleans, bytes) in `BTreeMap`s
//! and `HashMap`s, deep nesting, every escape class, float text at the notation boundaries.
//! Each file is read by the derived type and written back byte for byte in its encoding,
//! and re-encoded in binary to the binary file of the same values (typed, dynamic and the
//! files agree); signatures, `compare_hadoop`, `compare_raw` and `Display` are checked too.
//! The files hold the modern JDK's float text: they are written with `FloatText::Shortest`.

mod support;

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

use fixture_harness::canon;
use fixture_harness::{java_shapes, shapes_id, shapes_schema, Case, Encoding};
use hadoop_record::archive::FloatText;
use hadoop_record::field::MapKey;
use hadoop_record::{Format, Record, RecordReader, RecordWriter, Value};
use support::{assert_compares_as_java, read_all, write_all, write_all_as};

#[derive(Record, Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[record(module = "shapes.keys")]
struct K {
    a: i32,
    s: String,
}

#[derive(Record, Debug, Clone)]
#[record(module = "shapes.keys")]
struct FloatKeys {
    mf: BTreeMap<MapKey<f32>, String>,
    md: BTreeMap<MapKey<f64>, i32>,
}

#[derive(Record, Debug, Clone)]
#[record(module = "shapes.keys")]
struct OtherKeys {
    mz: BTreeMap<bool, i32>,
    mb: HashMap<i8, String>,
    mbuf: BTreeMap<Vec<u8>, i64>,
    ml: HashMap<i64, bool>,
    ms: HashMap<String, i8>,
    mk: BTreeMap<K, i32>,
}

#[derive(Record, Debug, Clone, PartialEq)]
#[record(module = "shapes.nest")]
struct Leaf {
    s: String,
    b: bytes::Bytes,
}

#[derive(Record, Debug, Clone)]
#[record(module = "shapes.nest")]
struct Nest {
    vm: Vec<HashMap<String, i32>>,
    mvl: BTreeMap<i32, Vec<Leaf>>,
    vvv: Vec<Vec<Vec<String>>>,
    mm: HashMap<String, BTreeMap<i32, Vec<u8>>>,
    vl: Vec<Leaf>,
    deep: BTreeMap<K, Vec<BTreeMap<i8, Leaf>>>,
    leaf: Box<Leaf>,
}

#[derive(Record, Debug, Clone)]
#[record(module = "shapes.nest")]
struct Texts {
    s: String,
    vs: Vec<String>,
    mss: HashMap<String, String>,
}

#[derive(Record, Debug, Clone)]
#[record(module = "shapes.nest")]
struct Nums {
    f: f32,
    d: f64,
    vf: Vec<f32>,
    vd: Vec<f64>,
    l: i64,
    i: i32,
    b: i8,
}

#[derive(Record, Debug, Clone)]
#[record(module = "shapes.nest")]
struct Top {
    n: Nest,
    o: OtherKeys,
    fk: FloatKeys,
    nums: Nums,
    z: bool,
}

/// Runs `$body` with `$t` the derived type of a `java_shapes` record type.
macro_rules! with_type {
    ($name:expr, $t:ident => $body:expr) => {
        // Each type is named for its record class: the table lists each name once.
        with_type!(@match $name, $t => $body;
            "shapes.keys" [K, FloatKeys, OtherKeys],
            "shapes.nest" [Leaf, Nest, Texts, Nums, Top])
    };
    (@match $name:expr, $t:ident => $body:expr; $($module:literal [$($ty:ident),+]),+) => {
        match $name {
            $($(concat!($module, ".", stringify!($ty)) => { type $t = $ty; $body })+)+
            other => panic!("no derived type for {other}"),
        }
    };
}

fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).escape_debug().to_string()
}

/// The binary file of the same stem as `case`, if Hadoop writes one.
fn binary_twin(case: &Case) -> Option<Vec<u8>> {
    let stem = case.name.rsplit_once('.').unwrap().0;
    let shapes = java_shapes();
    shapes
        .cases
        .iter()
        .find(|c| c.name == format!("{stem}.binary"))
        .map(|c| shapes.bytes(c))
}

fn check_case<T: Record + Debug>(case: &Case) {
    let shapes = java_shapes();
    let bytes = shapes.bytes(case);
    let format = case.encoding.format();
    let records: Vec<T> = read_all(&bytes, format).unwrap();
    assert_eq!(records.len(), case.values.len(), "{}", case.name);
    // Written back byte for byte, whatever the Rust maps' own order.
    let out = write_all_as(&records, format, FloatText::Shortest).unwrap();
    assert!(
        out == bytes,
        "{} (typed):\n got {}\nwant {}",
        case.name,
        show(&out),
        show(&bytes)
    );
    // In binary: the binary file of the same values, and, read by the dynamic codec with
    // the hand-built schema, the manifest's values.
    // (Hadoop's binary writer refuses U+FFFE in `texts_nonchars`: no binary file.)
    let Some(twin) = binary_twin(case) else {
        return;
    };
    let binary = write_all(&records, Format::Binary).unwrap();
    assert!(binary == twin, "{}: binary of the typed records", case.name);
    let mut reader = RecordReader::new(&binary[..], Format::Binary);
    let id = shapes_id(&case.record_type);
    let values: Vec<Value> = reader
        .values(shapes_schema(), id)
        .collect::<Result<_, _>>()
        .unwrap();
    let want = shapes.values(&case.record_type, &case.values);
    for (got, want) in values.iter().zip(&want) {
        assert!(
            got.bitwise_eq(&canon(want)),
            "{}:\n got {got:?}\nwant {want:?}",
            case.name
        );
    }
}

#[test]
fn every_file_reads_and_writes_byte_for_byte() {
    let shapes = java_shapes();
    for case in &shapes.cases {
        with_type!(case.record_type.as_str(), T => check_case::<T>(case));
    }
    assert_eq!(shapes.cases.len(), 50);
}

#[test]
fn signatures_and_schemas_equal_hadoops() {
    for (name, signature) in &java_shapes().signatures {
        with_type!(name.as_str(), T => {
            assert_eq!(T::signature().to_string(), *signature, "{name}");
            let (schema, id) = T::schema();
            assert_eq!(schema.record(id).unwrap().full_name(), *name);
            assert_eq!(
                schema.signature(id).unwrap(),
                shapes_schema().signature(shapes_id(name)).unwrap()
            );
        });
    }
}

#[test]
fn hadoops_binary_writer_refusals_are_errors() {
    let shapes = java_shapes();
    for refused in &shapes.refused {
        // The CSV file of the same stem holds the values.
        let stem = refused.name.rsplit_once('.').unwrap().0;
        let csv = shapes
            .cases
            .iter()
            .find(|c| c.name == format!("{stem}.csv"))
            .unwrap();
        let records: Vec<Texts> = read_all(&shapes.bytes(csv), Format::Csv).unwrap();
        let mut writer = RecordWriter::new(Vec::new(), Format::Binary);
        let e = writer.write(&records[0]).unwrap_err();
        assert_eq!(e.path(), "Texts.s", "{e}");
        assert!(
            e.to_string().contains("Illegal Unicode Codepoint fffe"),
            "{e}"
        );
    }
}

fn check_comparison<T: Record>(c: &fixture_harness::Comparison) {
    let encode = |json| {
        let value = fixture_harness::shapes_value(&c.record_type, json);
        let mut writer = RecordWriter::new(Vec::new(), Format::Binary);
        writer
            .write_value(shapes_schema(), shapes_id(&c.record_type), &value)
            .unwrap();
        writer.into_inner().unwrap()
    };
    assert_compares_as_java::<T>(c, &encode(&c.a), &encode(&c.b));
}

#[test]
fn compare_hadoop_and_compare_raw_reproduce_compare_to() {
    let shapes = java_shapes();
    for c in &shapes.comparisons {
        with_type!(c.record_type.as_str(), T => check_comparison::<T>(c));
    }
}

/// Every pair of records of one type in the set: the raw comparator agrees with
/// `compare_hadoop` both ways.
fn raw_agrees_on_all_pairs<T: Record>(record_type: &str) -> usize {
    let shapes = java_shapes();
    let mut encoded: Vec<Vec<u8>> = Vec::new();
    for case in shapes
        .cases
        .iter()
        .filter(|c| c.record_type == record_type && c.encoding == Encoding::Binary)
    {
        let records: Vec<T> = read_all(&shapes.bytes(case), Format::Binary).unwrap();
        encoded.extend(
            records
                .iter()
                .map(|r| write_all(std::slice::from_ref(r), Format::Binary).unwrap()),
        );
    }
    let decoded: Vec<T> = encoded
        .iter()
        .map(|b| read_all::<T>(b, Format::Binary).unwrap().remove(0))
        .collect();
    for (i, a) in decoded.iter().enumerate() {
        for (j, b) in decoded.iter().enumerate() {
            assert_eq!(
                T::compare_raw(&encoded[i], &encoded[j]).unwrap(),
                a.compare_hadoop(b),
                "{record_type} #{i} vs #{j}"
            );
        }
    }
    decoded.len()
}

#[test]
fn compare_raw_agrees_with_compare_hadoop_on_every_pair() {
    assert!(raw_agrees_on_all_pairs::<Nums>("shapes.nest.Nums") > 30);
    assert!(raw_agrees_on_all_pairs::<Nest>("shapes.nest.Nest") >= 6);
    assert!(raw_agrees_on_all_pairs::<OtherKeys>("shapes.keys.OtherKeys") >= 3);
    assert!(raw_agrees_on_all_pairs::<FloatKeys>("shapes.keys.FloatKeys") >= 2);
    assert!(raw_agrees_on_all_pairs::<Texts>("shapes.nest.Texts") >= 3);
    assert!(raw_agrees_on_all_pairs::<Top>("shapes.nest.Top") >= 3);
}

/// `Display` is Java 8–18's `toString()`: the default CSV text, which is the file's wherever
/// no float prints differently on JDK 19+ (the files hold the modern text).
#[test]
fn display_is_the_csv_line() {
    let shapes = java_shapes();
    let mut same_as_file = 0;
    for case in shapes.cases.iter().filter(|c| c.encoding == Encoding::Csv) {
        let bytes = shapes.bytes(case);
        let text = String::from_utf8(bytes.clone()).unwrap();
        with_type!(case.record_type.as_str(), T => {
            let records = read_all::<T>(&bytes, Format::Csv).unwrap();
            let shown: String = records.iter().map(|r| r.to_string()).collect();
            let legacy = write_all(&records, Format::Csv).unwrap();
            assert_eq!(shown.as_bytes(), legacy, "{}", case.name);
            if write_all_as(&records, Format::Csv, FloatText::Shortest).unwrap() == legacy {
                assert_eq!(shown, text, "{}", case.name);
                same_as_file += 1;
            }
        });
    }
    assert!(same_as_file >= 10, "{same_as_file}");
}

#[test]
fn record_keys_holding_nan_do_not_panic() {
    // Java's compareTo is no order once NaN is in a record key; writing such a map must
    // still not panic (slice::sort_by may), in a BTreeMap or a HashMap.
    #[derive(Record, Debug, Clone)]
    struct R {
        f: f32,
        i: i32,
    }
    impl PartialEq for R {
        fn eq(&self, o: &Self) -> bool {
            self.f.to_bits() == o.f.to_bits() && self.i == o.i
        }
    }
    impl Eq for R {}
    impl std::hash::Hash for R {
        fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
            (self.f.to_bits(), self.i).hash(h)
        }
    }
    #[derive(Record, Debug)]
    struct Maps {
        tree: BTreeMap<MapKey<R>, i32>,
        hash: HashMap<R, i32>,
    }
    let mut maps = Maps {
        tree: BTreeMap::new(),
        hash: HashMap::new(),
    };
    for (n, x) in (0..600).zip(fixture_harness::arb::lcg(7)) {
        let f = match (x >> 33) % 4 {
            0 => f32::NAN,
            1 => -0.0,
            2 => 0.0,
            _ => ((x >> 40) % 5) as f32,
        };
        let r = R {
            f,
            i: ((x >> 20) % 3) as i32,
        };
        maps.tree.insert(MapKey(r.clone()), n);
        maps.hash.insert(r, n);
    }
    for format in [Format::Binary, Format::Csv, Format::Xml] {
        let bytes = write_all(std::slice::from_ref(&maps), format).unwrap();
        let back: Vec<Maps> = read_all(&bytes, format).unwrap();
        assert_eq!(back.len(), 1);
    }
}

/// Every prefix of a file, read by the derived type: the records before the cut, then a
/// clean end exactly at a record boundary or an error with a position and a field path.
fn truncations<T: Record>(case: &Case) -> usize {
    let shapes = java_shapes();
    let bytes = shapes.bytes(case);
    let format = case.encoding.format();
    let records: Vec<T> = read_all(&bytes, format).unwrap();
    let ends: Vec<usize> = (1..=records.len())
        .map(|n| {
            write_all_as(&records[..n], format, FloatText::Shortest)
                .unwrap()
                .len()
        })
        .collect();
    let type_name = case.record_type.rsplit('.').next().unwrap();
    // Every prefix of small files; of large ones (reading a prefix costs its length) every
    // 7th. The runtime's test of the dynamic reader takes every prefix of every file.
    let step = if bytes.len() > 4096 { 7 } else { 1 };
    let mut checked = 0;
    for len in (0..bytes.len()).step_by(step) {
        checked += 1;
        let mut reader = RecordReader::new(&bytes[..len], format);
        let mut complete = 0;
        let error = loop {
            match reader.read::<T>() {
                Ok(Some(_)) => complete += 1,
                Ok(None) => break None,
                Err(e) => break Some(e),
            }
        };
        // XML may stop short of the line feed after the last `</value>`.
        let whole = |e: usize| e <= len || (format == Format::Xml && e == len + 1);
        assert_eq!(
            complete,
            ends.iter().filter(|&&e| whole(e)).count(),
            "{}[..{len}]",
            case.name
        );
        match error {
            None => assert!(
                len == 0
                    || ends
                        .iter()
                        .any(|&e| e == len || (format == Format::Xml && e == len + 1))
            ),
            Some(e) => {
                assert!(e.position().is_some(), "{}[..{len}]: {e}", case.name);
                assert!(
                    e.path().starts_with(type_name),
                    "{}[..{len}]: {e}",
                    case.name
                );
            }
        }
    }
    checked
}

#[test]
fn typed_reading_of_every_truncation_is_clean() {
    let mut checked = 0;
    for case in &java_shapes().cases {
        checked += with_type!(case.record_type.as_str(), T => truncations::<T>(case));
    }
    assert_eq!(checked, 36_502);
}
