//! The records the Java benchmarks (`benches/java_classes.rs`, `benches/writers_vs_java.rs`)
//! time: the small, text and bulk shapes of `ddl/bench.jr` (BENCHMARKS.md), the small one
//! also with each class of double Java prints its own way ([`Doubles`]); the same every run.

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

/// The doubles of a small record, by the way Java's `Double.toString` lays them out. All but
/// subnormals have 16–17 significant digits, as most computed values do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doubles {
    /// In [0, 10⁶): plain text, `123456.78901234567`.
    Plain,
    /// In [10⁷, 10²³), each decade alike: `1.2345678901234567E15`.
    Large,
    /// In [10⁻²³, 10⁻³), each decade alike: `1.2345678901234567E-15`.
    Small,
    /// Plain, large and small in turn, negated: `-1.2345678901234567E15`.
    Negative,
    /// Subnormals, of every bit length: `1.2345678901234567E-310`, `4.9E-324`.
    Subnormal,
}

impl Doubles {
    /// Every class, plain first.
    pub const ALL: [Doubles; 5] = [
        Doubles::Plain,
        Doubles::Large,
        Doubles::Small,
        Doubles::Negative,
        Doubles::Subnormal,
    ];

    /// A short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Doubles::Plain => "plain",
            Doubles::Large => "large ≥ 1e7",
            Doubles::Small => "small < 1e-3",
            Doubles::Negative => "negative",
            Doubles::Subnormal => "subnormal",
        }
    }

    /// The double of the `i`-th record.
    pub fn next(self, i: usize, rng: &mut Rng) -> f64 {
        let unit = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        // 10^k is exact for k ≤ 22, so each value is rounded once.
        let decade = |rng: &mut Rng, from: u64| 10f64.powi((from + rng.next_u64() % 16) as i32);
        match self {
            Doubles::Plain => unit * 1e6,
            Doubles::Large => (1.0 + 9.0 * unit) * decade(rng, 7),
            Doubles::Small => (1.0 + 9.0 * unit) / decade(rng, 4),
            Doubles::Negative => {
                -[Doubles::Plain, Doubles::Large, Doubles::Small][i % 3].next(i, rng)
            }
            Doubles::Subnormal => {
                let bits = rng.next_u64() >> (12 + rng.next_u64() % 52);
                f64::from_bits(bits.max(1))
            }
        }
    }
}

/// `n` records of `bench.Small` whose doubles are of the class `doubles`: {int, long of every
/// vint length, boolean, double}.
pub fn small_values(n: usize, doubles: Doubles, rng: &mut Rng) -> Vec<Value> {
    (0..n)
        .map(|i| {
            Value::Record(vec![
                Value::Int(rng.varied() as i32),
                Value::Long(rng.varied() as i64),
                Value::Bool(rng.next_u64() & 1 == 1),
                Value::Double(doubles.next(i, rng)),
            ])
        })
        .collect()
}

/// `n` records of the shape `shape` (`Small`, `Text`, or else `Bulk`) as values of
/// `bench.<shape>`: small {int, long of every vint length, boolean, double of 16–17
/// digits below 10⁶ ([`Doubles::Plain`])}, text {two 40-letter ustrings, int}, bulk {4096
/// random bytes, long}.
pub fn values(shape: &str, n: usize, rng: &mut Rng) -> Vec<Value> {
    if shape == "Small" {
        return small_values(n, Doubles::Plain, rng);
    }
    (0..n)
        .map(|_| match shape {
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
