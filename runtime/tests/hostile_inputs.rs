//! Hostile input for the binary and CSV readers: each is a clear error (kind, position, path)
//! with bounded memory, measured by a counting allocator, and never a panic or a hang.

mod fixture_records;
mod support;

use std::io::Read;

use fixture_harness::{record_id, schema};
use fixture_records::{BufferRec, IntVec, StrVec, StringRec};
use hadoop_record::schema::Schema;
use hadoop_record::{Error, ErrorKind, Format, Position, Record, RecordReader, Value};
use support::alloc::{peak_during, Counting};
use support::values::recursive_schema;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The reader's buffer plus room for the error: anything near a claimed length is a bug.
const BOUND: usize = 256 * 1024;

fn read_err<T: Record + std::fmt::Debug>(data: impl Read, format: Format) -> Error {
    let (result, peak) = peak_during(|| RecordReader::new(data, format).read::<T>());
    assert!(peak < BOUND, "{peak} bytes held");
    result.expect_err("hostile input must not decode")
}

fn read_value_err(data: impl Read, format: Format, schema: &Schema, name: &str) -> Error {
    let id = schema.find(name).unwrap();
    let (result, peak) = peak_during(|| {
        let mut reader = RecordReader::new(data, format);
        reader.read_value(schema, id)
    });
    assert!(peak < BOUND, "{peak} bytes held");
    result.expect_err("hostile input must not decode")
}

/// [`read_value_err`] of binary `data` as the fixture record type `name`.
fn binary_value_err(data: &[u8], name: &str) -> Error {
    read_value_err(data, Format::Binary, schema(), name)
}

#[test]
fn five_bytes_claiming_a_2_gib_buffer() {
    let data = [0x8c, 0x7f, 0xff, 0xff, 0xff];
    let e = read_err::<BufferRec>(&data[..], Format::Binary);
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(e.position(), Some(Position::Byte(5)));
    assert_eq!(e.path(), "BufferRec.v");
    assert_eq!(e.record(), Some(0));
    let e = read_err::<StringRec>(&data[..], Format::Binary);
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    let e = binary_value_err(&data, "oracle.prims.BufferRec");
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
}

/// Claims `claim` bytes, then delivers `real` bytes and ends.
struct Claims {
    header: Vec<u8>,
    real: usize,
}

impl Read for Claims {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.header.is_empty() {
            let n = self.header.len().min(buf.len());
            buf[..n].copy_from_slice(&self.header[..n]);
            self.header.drain(..n);
            return Ok(n);
        }
        let n = self.real.min(buf.len());
        buf[..n].fill(b'x');
        self.real -= n;
        Ok(n)
    }
}

#[test]
fn a_claimed_length_grows_memory_only_as_bytes_arrive() {
    // 2 GiB claimed, 3 MiB delivered: memory follows the 3 MiB.
    let reader = Claims {
        header: vec![0x8c, 0x7f, 0xff, 0xff, 0xff],
        real: 3 << 20,
    };
    let (result, peak) =
        peak_during(|| RecordReader::new(reader, Format::Binary).read::<BufferRec>());
    let e = result.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(e.position(), Some(Position::Byte(5 + (3 << 20))));
    assert!(peak < 4 * (3 << 20), "{peak} bytes held for 3 MiB of input");
    // The allocator does count: the delivered bytes were held.
    assert!(peak >= 3 << 20, "{peak}");
}

#[test]
fn vector_count_of_2_pow_31_in_ten_bytes() {
    // 2^31 does not fit Java's int count.
    let data = [0x8c, 0x80, 0x00, 0x00, 0x00, 1, 2, 3, 4, 5];
    let e = read_err::<IntVec>(&data[..], Format::Binary);
    assert_eq!(e.kind(), ErrorKind::Overflow);
    assert_eq!(e.position(), Some(Position::Byte(0)));
    assert_eq!(e.path(), "IntVec.v");
    // 2^31 - 1 fits: the elements run out after five.
    let data = [0x8c, 0x7f, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5];
    let e = read_err::<IntVec>(&data[..], Format::Binary);
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(e.position(), Some(Position::Byte(10)));
    assert_eq!(e.path(), "IntVec.v[5]");
    let e = read_err::<StrVec>(&data[..], Format::Binary);
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    let e = binary_value_err(&data, "oracle.composite.IntVec");
    assert_eq!(e.path(), "IntVec.v[5]");
    // A map claiming 2^31 - 1 entries of Containers.msi.
    let e = binary_value_err(&data, "oracle.composite.Containers");
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
}

record!(ManyOuter {
    v: Vec<fixture_records::Outer> = "v"
});

#[test]
fn a_huge_count_of_large_structs_preallocates_little() {
    // 2^31 - 1 Outers claimed, then 64 KiB of zeros (each Outer of zeros is 22 bytes).
    let mut data = vec![0x8c, 0x7f, 0xff, 0xff, 0xff];
    data.resize(5 + 64 * 1024, 0);
    let (result, peak) =
        peak_during(|| RecordReader::new(&data[..], Format::Binary).read::<ManyOuter>());
    let e = result.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert!(e.path().starts_with("ManyOuter.v["), "{e}");
    let outers = (64 * 1024) / 22;
    let size = std::mem::size_of::<fixture_records::Outer>();
    // What the decoded elements need (the vector doubles as it grows), not what was claimed.
    assert!(peak < 4 * (outers + 4096) * size, "{peak} bytes held");
}

#[test]
fn negative_lengths_are_errors() {
    for data in [&[0xff][..], &[0x84, 0x7f, 0xff, 0xff, 0xff]] {
        let e = read_err::<BufferRec>(data, Format::Binary);
        assert_eq!(e.kind(), ErrorKind::Syntax);
        assert!(e.to_string().contains("negative length"), "{e}");
        let e = read_err::<IntVec>(data, Format::Binary);
        assert_eq!(e.kind(), ErrorKind::Syntax);
    }
}

record!(Node {
    kids: Vec<Box<Node>> = "kids"
});

#[test]
fn deep_nesting_is_a_limit_error_not_a_stack_overflow() {
    let binary = vec![0x01; 1_000_000];
    let mut csv = Vec::new();
    for _ in 0..100_000 {
        csv.extend_from_slice(b"v{s{");
    }
    for (data, format) in [(&binary, Format::Binary), (&csv, Format::Csv)] {
        let e = read_value_err(&data[..], format, &recursive_schema().0, "Node");
        assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
        assert!(e.path().starts_with("Node.kids[0].kids[0]"), "{e}");
        let e = read_err::<Node>(&data[..], format);
        assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    }
    // Within the limit, deep nesting reads back.
    let mut ok = vec![0x01; 50];
    ok.push(0x00);
    let node: Node = RecordReader::new(&ok[..], Format::Binary)
        .read()
        .unwrap()
        .unwrap();
    let mut depth = 0;
    let mut n = &node;
    while let Some(kid) = n.kids.first() {
        depth += 1;
        n = kid;
    }
    assert_eq!(depth, 50);
}

#[test]
fn invalid_utf8_is_an_encoding_error_at_its_byte() {
    let e = read_err::<StringRec>(&[0x03, b'a', 0xc3, 0x28][..], Format::Binary);
    assert_eq!(e.kind(), ErrorKind::Encoding);
    assert_eq!(e.position(), Some(Position::Byte(2)));
    assert_eq!(e.path(), "StringRec.v");
    let e = read_err::<StringRec>(&b"'a\xc3(\n"[..], Format::Csv);
    assert_eq!(e.kind(), ErrorKind::Encoding);
    assert_eq!(e.position(), Some(Position::LineCol { line: 1, col: 3 }));
    let e = read_err::<StrVec>(&b"v{'ok,'\xff}\n"[..], Format::Csv);
    assert_eq!(e.kind(), ErrorKind::Encoding);
    assert_eq!(e.path(), "StrVec.v[1]");
    assert_eq!(e.position(), Some(Position::LineCol { line: 1, col: 8 }));
}

#[test]
fn csv_with_a_missing_closing_brace() {
    let e = read_err::<IntVec>(&b"v{1,2\n"[..], Format::Csv);
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert_eq!(e.position(), Some(Position::LineCol { line: 1, col: 6 }));
    assert_eq!(e.path(), "IntVec.v");
    assert!(e.to_string().contains("missing `}`"), "{e}");
    let e = read_err::<IntVec>(&b"v{1,2"[..], Format::Csv);
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    // A nested record left open inside Outer: `s{'x,7` then the next field.
    let id = record_id("oracle.composite.Outer");
    let text =
        b"s{'x,7,s{v{},v{},v{},m{},m{},v{},m{},s{0,0},s{',0},v{},m{},v{},v{}},s{'n,s{1,2}},T\n";
    let mut reader = RecordReader::new(&text[..], Format::Csv);
    let e = reader.read_value(schema(), id).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert_eq!(e.path(), "Outer.a");
    assert_eq!(e.position(), Some(Position::LineCol { line: 1, col: 7 }));
}

#[test]
fn csv_never_loops_at_the_end_of_input() {
    // Java's reader spins forever on each of these.
    for text in [&b"5"[..], b"v{", b"v{1", b"'abc", b"#ab"] {
        let (result, _) = peak_during(|| {
            let mut reader = RecordReader::new(text, Format::Csv);
            reader.read_value(schema(), record_id("oracle.composite.IntVec"))
        });
        assert!(result.is_err(), "{:?}", String::from_utf8_lossy(text));
    }
    let e = read_err::<StringRec>(&b"'abc"[..], Format::Csv);
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(e.position(), Some(Position::LineCol { line: 1, col: 5 }));
}

#[test]
fn a_huge_csv_field_costs_memory_in_proportion_to_its_bytes() {
    let reader = Claims {
        header: b"'".to_vec(),
        real: 3 << 20,
    };
    let (result, peak) = peak_during(|| RecordReader::new(reader, Format::Csv).read::<StringRec>());
    assert_eq!(result.unwrap_err().kind(), ErrorKind::UnexpectedEof);
    assert!(peak < 4 * (3 << 20), "{peak} bytes held for 3 MiB of input");
}

#[test]
fn values_of_the_wrong_shape_are_schema_errors_on_write() {
    let mut writer = hadoop_record::RecordWriter::new(Vec::new(), Format::Binary);
    let id = record_id("oracle.composite.IntVec");
    let bad = Value::Record(vec![Value::Vector(vec![Value::Int(1), Value::Long(2)])]);
    let e = writer.write_value(schema(), id, &bad).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Schema);
    assert_eq!(e.path(), "IntVec.v[1]");
    assert_eq!(writer.into_inner().unwrap(), b"");
}
