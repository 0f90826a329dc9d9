//! XML archive throughput: 1,000,000 records of the small shape {int, long, boolean,
//! double} written to and read from memory, through a typed record and the public stream
//! API (`RecordWriter` / `RecordReader` with `Format::Xml`).
//!
//! `cargo bench -p hadoop-record --bench xml`; with `ARCHIVE_BENCH_CLOCK=cpu` (as for the
//! `archives` bench) it measures the benchmark thread's CPU time instead of wall-clock time,
//! which leaves out time spent waiting for a core on a shared machine.

mod support;

use std::cmp::Ordering;
use std::hint::black_box;

use criterion::measurement::Measurement;
use criterion::{Criterion, Throughput};
use hadoop_record::field::Field;
use hadoop_record::schema::{FieldDef, RecordId, SchemaBuilder};
use hadoop_record::{
    Format, Record, RecordInput, RecordOutput, RecordReader, RecordWriter, Result,
};
use support::ThreadCpu;

const RECORDS: usize = 1_000_000;

/// `class Small { int i; long l; boolean b; double d; }`, written out as the derive would.
#[derive(Debug, Clone, PartialEq)]
struct Small {
    i: i32,
    l: i64,
    b: bool,
    d: f64,
}

impl Record for Small {
    fn type_name() -> &'static str {
        "Small"
    }
    fn write_to<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
        out.start_record(tag)?;
        out.write_int(self.i, "i")?;
        out.write_long(self.l, "l")?;
        out.write_bool(self.b, "b")?;
        out.write_double(self.d, "d")?;
        out.end_record(tag)
    }
    fn read_from<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
        input.start_record(tag)?;
        let i = input.read_int("i")?;
        let l = input.read_long("l")?;
        let b = input.read_bool("b")?;
        let d = input.read_double("d")?;
        input.end_record(tag)?;
        Ok(Small { i, l, b, d })
    }
    fn compare_hadoop(&self, other: &Self) -> Ordering {
        self.i
            .cmp_hadoop(&other.i)
            .then_with(|| self.l.cmp_hadoop(&other.l))
            .then_with(|| self.b.cmp_hadoop(&other.b))
            .then_with(|| self.d.cmp_hadoop(&other.d))
    }
    fn describe(schema: &mut SchemaBuilder) -> RecordId {
        schema.record::<Self>("Small", |s| {
            vec![
                FieldDef::new("i", i32::field_type(s)),
                FieldDef::new("l", i64::field_type(s)),
                FieldDef::new("b", bool::field_type(s)),
                FieldDef::new("d", f64::field_type(s)),
            ]
        })
    }
}

/// Varied values: ints of every width, longs past 32 bits, doubles with 1 to 17 digits.
fn records() -> Vec<Small> {
    (0..RECORDS)
        .map(|k| Small {
            i: (k as i32).wrapping_mul(7919) - 3_000_000,
            l: (k as i64) * 1_000_003 - 17,
            b: k % 3 == 0,
            d: k as f64 * 0.37 + 1.0 / (k as f64 + 1.0),
        })
        .collect()
}

/// Writes every record into `out` (cleared first, so that its pages are already mapped).
fn write_all(records: &[Small], out: &mut Vec<u8>) {
    out.clear();
    let mut writer = RecordWriter::new(out, Format::Xml);
    for r in records {
        writer.write(r).unwrap();
    }
    writer.flush().unwrap();
}

fn bench<M: Measurement>(c: &mut Criterion<M>) {
    let records = records();
    let mut xml = Vec::new();
    write_all(&records, &mut xml);
    let mut out = Vec::with_capacity(xml.len());
    let mut group = c.benchmark_group("xml_small");
    group.sample_size(10);
    group.throughput(Throughput::Elements(RECORDS as u64));
    group.bench_function("write", |b| {
        b.iter(|| write_all(black_box(&records), black_box(&mut out)))
    });
    group.bench_function("read", |b| {
        b.iter(|| {
            let mut reader = RecordReader::new(black_box(&xml[..]), Format::Xml);
            let mut n = 0usize;
            while let Some(r) = reader.read::<Small>().unwrap() {
                black_box(r);
                n += 1;
            }
            assert_eq!(n, RECORDS);
        })
    });
    group.finish();
    eprintln!(
        "xml_small: {} bytes for {RECORDS} records ({:.0} bytes/record)",
        xml.len(),
        xml.len() as f64 / RECORDS as f64
    );
}

fn main() {
    if std::env::var("ARCHIVE_BENCH_CLOCK").as_deref() == Ok("cpu") {
        let mut c = Criterion::default()
            .with_measurement(ThreadCpu)
            .configure_from_args();
        bench(&mut c);
        c.final_summary();
    } else {
        let mut c = Criterion::default().configure_from_args();
        bench(&mut c);
        c.final_summary();
    }
}
