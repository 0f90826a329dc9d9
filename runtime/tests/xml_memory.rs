//! Memory the XML reader holds on large or hostile input, measured with a counting
//! allocator: what lies between elements (whitespace, comments, declarations) is dropped as
//! it is read, nesting is capped, and an element's text costs memory in proportion to its
//! bytes only.

mod support;

use fixture_harness::add_record;
use std::io::Read;

use hadoop_record::schema::{FieldType, Schema};
use hadoop_record::{ErrorKind, Format, RecordReader, Value};
use support::alloc::{peak_during, Counting};
use support::values::recursive_schema;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// `head`, then `filler` repeated to `len` bytes, then `tail`, produced as it is read.
struct Generated {
    parts: [Vec<u8>; 2],
    filler: Vec<u8>,
    left: usize,
    stage: usize,
    at: usize,
}

impl Generated {
    fn new(head: &str, filler: &str, len: usize, tail: &str) -> Self {
        Generated {
            parts: [head.as_bytes().to_vec(), tail.as_bytes().to_vec()],
            filler: filler.as_bytes().to_vec(),
            left: len,
            stage: 0,
            at: 0,
        }
    }
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            match self.stage {
                0 | 2 => {
                    let part = &self.parts[self.stage / 2];
                    if self.at < part.len() {
                        let k = buf.len().min(part.len() - self.at);
                        buf[..k].copy_from_slice(&part[self.at..self.at + k]);
                        self.at += k;
                        return Ok(k);
                    }
                    if self.stage == 2 {
                        return Ok(0);
                    }
                    self.stage = 1;
                    self.at = 0;
                }
                _ => {
                    if self.left == 0 {
                        self.stage = 2;
                        self.at = 0;
                        continue;
                    }
                    let k = buf.len().min(self.left);
                    for (i, b) in buf[..k].iter_mut().enumerate() {
                        *b = self.filler[(self.at + i) % self.filler.len()];
                    }
                    self.at = (self.at + k) % self.filler.len();
                    self.left -= k;
                    return Ok(k);
                }
            }
        }
    }
}

fn int_schema() -> (Schema, hadoop_record::schema::RecordId) {
    let mut s = Schema::new();
    let id = add_record(&mut s, "m", "IntRec", vec![("v", FieldType::Int)]);
    (s, id)
}

const RECORD: &str = "<value><struct>\n  <member>\n    <name>v</name>\n    <value><i4>7</i4></value>\n  </member>\n</struct></value>\n";

/// The reader's window is 64 KiB; twice that is the most it should ever hold here.
const WINDOW_BOUND: usize = 160 * 1024;

#[test]
fn comments_whitespace_and_declarations_between_records_are_not_kept() {
    let (s, id) = int_schema();
    for (head, filler, tail) in [
        ("<!--", "comment text ", "-->"),
        ("", " \n\t\r\n", ""),
        ("<?pi ", "instruction ", "?>"),
    ] {
        let head = format!("{RECORD}{head}");
        let tail = format!("{tail}{RECORD}");
        let input = Generated::new(&head, filler, 16 << 20, &tail);
        let (values, peak) = peak_during(|| {
            let mut reader = RecordReader::new(input, Format::Xml);
            reader.values(&s, id).collect::<Result<Vec<_>, _>>()
        });
        let values = values.unwrap();
        assert_eq!(values, vec![Value::Record(vec![Value::Int(7)]); 2]);
        assert!(peak < WINDOW_BOUND, "{filler:?}: {peak} bytes held");
    }
}

#[test]
fn an_unterminated_comment_is_an_error_after_bounded_memory() {
    let (s, id) = int_schema();
    let input = Generated::new("<!--", "-", 16 << 20, "");
    let (result, peak) = peak_during(|| RecordReader::new(input, Format::Xml).read_value(&s, id));
    let e = result.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(
        e.to_string(),
        "record 0, line 1:1, in IntRec: input ends inside a comment"
    );
    assert!(peak < WINDOW_BOUND, "{peak} bytes held");
}

#[test]
fn deep_nesting_stops_at_the_limit_with_little_memory() {
    let (s, node) = recursive_schema();
    let level = "<value><struct><member><name>kids</name><value><array>";
    let input = Generated::new("", level, level.len() * 200_000, "");
    let (result, peak) = peak_during(|| RecordReader::new(input, Format::Xml).read_value(&s, node));
    assert_eq!(result.unwrap_err().kind(), ErrorKind::Limit);
    assert!(peak < WINDOW_BOUND + 64 * 1024, "{peak} bytes held");
}

#[test]
fn a_long_string_costs_memory_in_proportion_to_its_bytes() {
    let mut s = Schema::new();
    let id = add_record(&mut s, "m", "StringRec", vec![("v", FieldType::String)]);
    let filler = "abc&amp;%0025";
    let len = (8 << 20) / filler.len() * filler.len();
    let head = "<value><struct><member><name>v</name><value><string>";
    let tail = "</string></value></member></struct></value>\n";
    let input = Generated::new(head, filler, len, tail);
    let (result, peak) = peak_during(|| RecordReader::new(input, Format::Xml).read_value(&s, id));
    let Some(Value::Record(fields)) = result.unwrap() else {
        panic!()
    };
    let Value::String(text) = &fields[0] else {
        panic!()
    };
    assert!(text.starts_with("abc&%abc&%"), "{}", &text[..20]);
    // The raw text in the window (grown by doubling), the resolved copy and the string.
    assert!(peak < 6 * len, "{peak} bytes held for {len} bytes of text");
    // The same text cut short: an error, and no more memory.
    let input = Generated::new(head, "abc", len, "");
    let (result, peak) = peak_during(|| RecordReader::new(input, Format::Xml).read_value(&s, id));
    assert_eq!(result.unwrap_err().kind(), ErrorKind::UnexpectedEof);
    // The window doubles to hold the text; while it grows, old and new are both live.
    assert!(peak < 4 * len, "{peak} bytes held for {len} bytes of text");
}
