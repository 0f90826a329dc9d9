//! Derive-generated code against the best hand-written `Record` impl of the same record,
//! through the same `RecordWriter`/`RecordReader`: binary write and read of the small shape
//! {int, long, boolean, double} and of a nested shape, and the raw comparator.
//!
//! `cargo bench -p hadoop-record-derive --bench derive_vs_hand`

use std::cmp::Ordering;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hadoop_record::schema::{FieldDef, FieldType, RecordId, SchemaBuilder};
use hadoop_record::{
    record_field, Format, Record, RecordInput, RecordOutput, RecordReader, RecordWriter, Result,
};

const N: usize = 100_000;

#[derive(Record, Clone)]
struct Small {
    i: i32,
    l: i64,
    z: bool,
    d: f64,
}

/// The same record, written by hand as tightly as the traits allow.
#[derive(Clone)]
struct HandSmall {
    i: i32,
    l: i64,
    z: bool,
    d: f64,
}

impl Record for HandSmall {
    fn type_name() -> &'static str {
        "HandSmall"
    }
    #[inline]
    fn write_to<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
        out.start_record(tag)?;
        out.write_int(self.i, "i")?;
        out.write_long(self.l, "l")?;
        out.write_bool(self.z, "z")?;
        out.write_double(self.d, "d")?;
        out.end_record(tag)
    }
    #[inline]
    fn read_from<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
        input.start_record(tag)?;
        let i = input.read_int("i")?;
        let l = input.read_long("l")?;
        let z = input.read_bool("z")?;
        let d = input.read_double("d")?;
        input.end_record(tag)?;
        Ok(HandSmall { i, l, z, d })
    }
    fn compare_hadoop(&self, other: &Self) -> Ordering {
        use hadoop_record::compare::hadoop_cmp;
        hadoop_cmp(&self.i, &other.i)
            .then_with(|| hadoop_cmp(&self.l, &other.l))
            .then_with(|| self.z.cmp(&other.z))
            .then_with(|| hadoop_cmp(&self.d, &other.d))
    }
    fn describe(schema: &mut SchemaBuilder) -> RecordId {
        schema.record::<Self>("HandSmall", |_| {
            vec![
                FieldDef::new("i", FieldType::Int),
                FieldDef::new("l", FieldType::Long),
                FieldDef::new("z", FieldType::Bool),
                FieldDef::new("d", FieldType::Double),
            ]
        })
    }
}

#[derive(Record, Clone)]
struct Inner {
    tag: String,
    n: i64,
}

#[derive(Record, Clone)]
struct Nested {
    a: Inner,
    v: Vec<Inner>,
    flag: bool,
}

#[derive(Clone)]
struct HandInner {
    tag: String,
    n: i64,
}

impl Record for HandInner {
    fn type_name() -> &'static str {
        "HandInner"
    }
    #[inline]
    fn write_to<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
        out.start_record(tag)?;
        out.write_string(&self.tag, "tag")?;
        out.write_long(self.n, "n")?;
        out.end_record(tag)
    }
    #[inline]
    fn read_from<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
        input.start_record(tag)?;
        let t = input.read_string("tag")?;
        let n = input.read_long("n")?;
        input.end_record(tag)?;
        Ok(HandInner { tag: t, n })
    }
    fn compare_hadoop(&self, other: &Self) -> Ordering {
        hadoop_record::compare::utf16_cmp(&self.tag, &other.tag).then(self.n.cmp(&other.n))
    }
    fn describe(schema: &mut SchemaBuilder) -> RecordId {
        schema.record::<Self>("HandInner", |_| {
            vec![
                FieldDef::new("tag", FieldType::String),
                FieldDef::new("n", FieldType::Long),
            ]
        })
    }
}
record_field!(HandInner);

#[derive(Clone)]
struct HandNested {
    a: HandInner,
    v: Vec<HandInner>,
    flag: bool,
}

impl Record for HandNested {
    fn type_name() -> &'static str {
        "HandNested"
    }
    #[inline]
    fn write_to<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
        out.start_record(tag)?;
        self.a.write_to(out, "a")?;
        out.start_vector(self.v.len(), "v")?;
        for e in &self.v {
            e.write_to(out, "v")?;
        }
        out.end_vector("v")?;
        out.write_bool(self.flag, "flag")?;
        out.end_record(tag)
    }
    #[inline]
    fn read_from<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
        input.start_record(tag)?;
        let a = HandInner::read_from(input, "a")?;
        let mut index = input.start_vector("v")?;
        let mut v = Vec::with_capacity(index.size_hint());
        while input.next_element(&mut index)? {
            v.push(HandInner::read_from(input, "v")?);
        }
        input.end_vector("v")?;
        let flag = input.read_bool("flag")?;
        input.end_record(tag)?;
        Ok(HandNested { a, v, flag })
    }
    fn compare_hadoop(&self, other: &Self) -> Ordering {
        use hadoop_record::field::Field;
        Record::compare_hadoop(&self.a, &other.a)
            .then_with(|| Field::cmp_hadoop(&self.v, &other.v))
            .then_with(|| self.flag.cmp(&other.flag))
    }
    fn describe(schema: &mut SchemaBuilder) -> RecordId {
        schema.record::<Self>("HandNested", |b| {
            vec![
                FieldDef::new(
                    "a",
                    <HandInner as hadoop_record::field::Field>::field_type(b),
                ),
                FieldDef::new(
                    "v",
                    <Vec<HandInner> as hadoop_record::field::Field>::field_type(b),
                ),
                FieldDef::new("flag", FieldType::Bool),
            ]
        })
    }
}

fn smalls(n: usize) -> Vec<Small> {
    (0..n)
        .map(|k| Small {
            i: k as i32 * 7919,
            l: (k as i64) << 20,
            z: k % 2 == 0,
            d: k as f64 * 0.5,
        })
        .collect()
}

fn hand_smalls(n: usize) -> Vec<HandSmall> {
    smalls(n)
        .into_iter()
        .map(|s| HandSmall {
            i: s.i,
            l: s.l,
            z: s.z,
            d: s.d,
        })
        .collect()
}

fn nesteds(n: usize) -> Vec<Nested> {
    (0..n)
        .map(|k| Nested {
            a: Inner {
                tag: format!("tag{k}"),
                n: k as i64,
            },
            v: (0..3)
                .map(|j| Inner {
                    tag: "element".into(),
                    n: j,
                })
                .collect(),
            flag: k % 3 == 0,
        })
        .collect()
}

fn hand_nesteds(n: usize) -> Vec<HandNested> {
    let hand = |i: &Inner| HandInner {
        tag: i.tag.clone(),
        n: i.n,
    };
    nesteds(n)
        .iter()
        .map(|x| HandNested {
            a: hand(&x.a),
            v: x.v.iter().map(hand).collect(),
            flag: x.flag,
        })
        .collect()
}

fn write_all<T: Record>(records: &[T]) -> Vec<u8> {
    let mut writer = RecordWriter::new(Vec::with_capacity(records.len() * 64), Format::Binary);
    for r in records {
        writer.write(r).unwrap();
    }
    writer.into_inner().unwrap()
}

fn read_all<T: Record>(bytes: &[u8]) -> usize {
    let mut reader = RecordReader::new(bytes, Format::Binary);
    let mut n = 0;
    while let Some(r) = reader.read::<T>().unwrap() {
        black_box(&r);
        n += 1;
    }
    n
}

fn bench_pair<D: Record, H: Record>(c: &mut Criterion, shape: &str, derived: Vec<D>, hand: Vec<H>) {
    let mut group = c.benchmark_group(format!("derive/{shape}"));
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function("write/derive", |b| {
        b.iter(|| write_all(black_box(&derived)))
    });
    group.bench_function("write/hand", |b| b.iter(|| write_all(black_box(&hand))));
    let bytes = write_all(&derived);
    assert_eq!(bytes, write_all(&hand), "same bytes");
    group.bench_function("read/derive", |b| {
        b.iter(|| read_all::<D>(black_box(&bytes)))
    });
    group.bench_function("read/hand", |b| b.iter(|| read_all::<H>(black_box(&bytes))));
    group.finish();
}

fn small(c: &mut Criterion) {
    bench_pair(c, "small", smalls(N), hand_smalls(N));
}

fn nested(c: &mut Criterion) {
    bench_pair(c, "nested", nesteds(N), hand_nesteds(N));
}

/// The derived raw comparator against the trait's default, which decodes both records.
fn compare_raw(c: &mut Criterion) {
    let records = nesteds(2);
    let (first, second) = (write_all(&records[..1]), write_all(&records[1..]));
    assert_eq!(first, write_all(&hand_nesteds(1)));
    let mut group = c.benchmark_group("derive/compare_raw");
    for (label, a, b) in [("equal", &first, &first), ("differ", &first, &second)] {
        group.bench_function(format!("{label}/derive"), |bench| {
            bench.iter(|| Nested::compare_raw(black_box(a), black_box(b)).unwrap())
        });
        group.bench_function(format!("{label}/decode"), |bench| {
            bench.iter(|| HandNested::compare_raw(black_box(a), black_box(b)).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, small, nested, compare_raw);
criterion_main!(benches);
