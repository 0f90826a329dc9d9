//! The records the Java benchmarks (`benches/java_classes.rs`, `benches/writers_vs_java.rs`)
//! time: the small, text and bulk shapes of `ddl/bench.jr` (BENCHMARKS.md), the same every
//! run.

use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::{Format, RecordWriter, Value};

/// xorshift64*: the same records every run.
pub struct Rng(pub u64);

impl Rng {
    /// The generator the benchmarks start from.
    pub fn seeded() -> Self {
        Rng(0x9e37_79b9_7f4a_7c15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A value with a random number of significant bytes, so every vint length occurs.
    pub fn varied(&mut self) -> u64 {
        let bytes = self.next_u64() % 9;
        if bytes == 0 {
            0
        } else {
            self.next_u64() >> (64 - 8 * bytes)
        }
    }

    fn ascii(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'a' + (self.next_u64() % 26) as u8))
            .collect()
    }
}

/// `n` records of the shape `shape` (`Small`, `Text`, or else `Bulk`) as values of
/// `bench.<shape>`: small {int, long of every vint length, boolean, double of 16–17
/// digits below 10⁶}, text {two 40-letter ustrings, int}, bulk {4096 random bytes, long}.
pub fn values(shape: &str, n: usize, rng: &mut Rng) -> Vec<Value> {
    (0..n)
        .map(|_| match shape {
            "Small" => Value::Record(vec![
                Value::Int(rng.varied() as i32),
                Value::Long(rng.varied() as i64),
                Value::Bool(rng.next_u64() & 1 == 1),
                Value::Double((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 1e6),
            ]),
            "Text" => Value::Record(vec![
                Value::String(rng.ascii(40)),
                Value::String(rng.ascii(40)),
                Value::Int(rng.varied() as i32),
            ]),
            _ => Value::Record(vec![
                Value::Buffer((0..4096).map(|_| rng.next_u64() as u8).collect()),
                Value::Long(rng.varied() as i64),
            ]),
        })
        .collect()
}

/// `values`, records of type `id`, written one after another in `format`.
pub fn encode(schema: &Schema, id: RecordId, values: &[Value], format: Format) -> Vec<u8> {
    let mut w = RecordWriter::new(Vec::new(), format);
    for v in values {
        w.write_value(schema, id, v).expect("a bench value");
    }
    w.into_inner().expect("writing to memory")
}
