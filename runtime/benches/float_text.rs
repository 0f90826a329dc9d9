//! Java float/double text: formatting and parsing throughput.
//!
//! `cargo bench -p hadoop-record --bench float_text`; with `ARCHIVE_BENCH_CLOCK=cpu` (as for
//! the `archives` bench) it measures the benchmark thread's CPU time, which leaves out time
//! spent waiting for a core on a shared machine.
//!
//! Formatting is timed in both styles: `push_double` / `push_float` are JDK 19+'s text
//! (`FloatText::Shortest`), `legacy_double` / `legacy_float` JDK 8–18's (`FloatText::Legacy`,
//! the CSV and XML writers' default), the latter also for the float widened to double that
//! CSV prints (`legacy_double_widened`).
//!
//! Each iteration handles a batch of 1,024 values, so the figures are per batch; criterion's
//! throughput line gives values per second. "short" values look like record data (`12.5`,
//! `0.25`), "random" ones are uniform bit patterns (16–17 digits, large exponents). Doubles
//! are also timed by the way Java lays them out, each of 16–17 digits: "plain" in [0, 10⁶),
//! "large" in [10⁷, 10²³) and "small" in [10⁻²³, 10⁻³) (Java's `E` form, each decade alike),
//! "negative" (the three in turn, negated) and "subnormal" (of every bit length); these
//! classes once more in `float_text/format_many`, batches of 65,536, which the branch
//! predictor cannot learn as it learns 1,024 values repeated.

mod support;

use std::hint::black_box;

use criterion::measurement::Measurement;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use hadoop_record::archive::text::{parse_double, parse_float, push_double, push_float};
use hadoop_record::archive::FloatText;

const BATCH: usize = 1024;
/// The batch of `float_text/format_many`.
const MANY: usize = 65_536;

/// SplitMix64, so the inputs are the same on every run.
fn bit_patterns(seed: u64) -> impl Iterator<Item = u64> {
    let mut state = seed;
    std::iter::repeat_with(move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    })
}

fn short_doubles() -> Vec<f64> {
    (0..BATCH).map(|i| i as f64 * 0.25 - 100.0).collect()
}

fn random_doubles() -> Vec<f64> {
    bit_patterns(1)
        .map(f64::from_bits)
        .filter(|v| v.is_finite())
        .take(BATCH)
        .collect()
}

/// `count` doubles of the class `class` (see the top).
fn doubles_of(class: &str, count: usize) -> Vec<f64> {
    let mut bits = bit_patterns(3);
    let mut next = move || bits.next().unwrap_or(0);
    (0..count)
        .map(|i| {
            let (class, sign) = match class {
                "negative" => (["plain", "large", "small"][i % 3], -1.0),
                other => (other, 1.0),
            };
            let unit = (next() >> 11) as f64 / (1u64 << 53) as f64;
            // 10^k is exact for k ≤ 22, so each value is rounded once.
            let decade = 10f64.powi((next() % 16) as i32);
            sign * match class {
                "plain" => unit * 1e6,
                "large" => (1.0 + 9.0 * unit) * (1e7 * decade),
                "small" => (1.0 + 9.0 * unit) / (1e4 * decade),
                _ => f64::from_bits((next() >> (12 + next() % 52)).max(1)),
            }
        })
        .collect()
}

fn short_floats() -> Vec<f32> {
    (0..BATCH).map(|i| i as f32 * 0.25 - 100.0).collect()
}

fn random_floats() -> Vec<f32> {
    bit_patterns(2)
        .map(|b| f32::from_bits((b >> 32) as u32))
        .filter(|v| v.is_finite())
        .take(BATCH)
        .collect()
}

/// Times `write` of each of `values` (a batch) into `out`, as `id` of the values `name`.
fn bench_writes<T: Copy, M: Measurement>(
    group: &mut BenchmarkGroup<'_, M>,
    out: &mut Vec<u8>,
    (id, name): (&str, &str),
    values: &[T],
    mut write: impl FnMut(&mut Vec<u8>, T),
) {
    group.bench_with_input(BenchmarkId::new(id, name), values, |b, values| {
        b.iter(|| {
            out.clear();
            for &v in values {
                write(out, black_box(v));
            }
            black_box(out.len())
        })
    });
}

fn format<M: Measurement>(c: &mut Criterion<M>) {
    let mut group = c.benchmark_group("float_text/format");
    group.throughput(Throughput::Elements(BATCH as u64));
    let mut out = Vec::with_capacity(BATCH * 32);
    let classes = ["plain", "large", "small", "negative", "subnormal"];
    let doubles = [("short", short_doubles()), ("random", random_doubles())]
        .into_iter()
        .chain(classes.map(|class| (class, doubles_of(class, BATCH))));
    for (name, values) in doubles {
        let g = &mut group;
        bench_writes(g, &mut out, ("push_double", name), &values, push_double);
        bench_writes(g, &mut out, ("legacy_double", name), &values, |out, v| {
            FloatText::Legacy.push_double(out, v)
        });
        // The shortest-digits core alone, for the cost of Java's layout on top.
        let mut buf = zmij::Buffer::new();
        bench_writes(g, &mut out, ("zmij_only", name), &values, |out, v| {
            out.extend_from_slice(buf.format_finite(v).as_bytes())
        });
    }
    for (name, values) in [("short", short_floats()), ("random", random_floats())] {
        let g = &mut group;
        bench_writes(g, &mut out, ("push_float", name), &values, push_float);
        bench_writes(g, &mut out, ("legacy_float", name), &values, |out, v| {
            FloatText::Legacy.push_float(out, v)
        });
        bench_writes(
            g,
            &mut out,
            ("legacy_double_widened", name),
            &values,
            |out, v| FloatText::Legacy.push_double(out, f64::from(v)),
        );
        // What the CSV writer does with a float.
        bench_writes(
            g,
            &mut out,
            ("push_double_widened", name),
            &values,
            |out, v| push_double(out, f64::from(v)),
        );
    }
    group.finish();

    // The same classes in batches of 65,536: too many for the branch predictor to learn, as
    // in a writer's stream of records (figures per batch of [`MANY`]).
    let mut group = c.benchmark_group("float_text/format_many");
    group.throughput(Throughput::Elements(MANY as u64));
    let mut out = Vec::with_capacity(MANY * 32);
    for class in classes {
        let values = doubles_of(class, MANY);
        let g = &mut group;
        bench_writes(g, &mut out, ("push_double", class), &values, push_double);
        bench_writes(g, &mut out, ("legacy_double", class), &values, |out, v| {
            FloatText::Legacy.push_double(out, v)
        });
    }
    group.finish();
}

fn texts<T>(values: &[T], write: fn(&mut Vec<u8>, T)) -> Vec<Vec<u8>>
where
    T: Copy,
{
    values
        .iter()
        .map(|&v| {
            let mut text = Vec::new();
            write(&mut text, v);
            text
        })
        .collect()
}

/// Times `parse` of each of `texts` (a batch), as `id` of the values `name`.
fn bench_parses<M: Measurement>(
    group: &mut BenchmarkGroup<'_, M>,
    (id, name): (&str, &str),
    texts: &[Vec<u8>],
    parse: impl Fn(&[u8]) -> f64,
) {
    group.bench_with_input(BenchmarkId::new(id, name), texts, |b, texts| {
        b.iter(|| {
            let mut sum = 0.0;
            for text in texts {
                sum += parse(black_box(text));
            }
            black_box(sum)
        })
    });
}

fn parse<M: Measurement>(c: &mut Criterion<M>) {
    let mut group = c.benchmark_group("float_text/parse");
    group.throughput(Throughput::Elements(BATCH as u64));
    for (name, values) in [("short", short_doubles()), ("random", random_doubles())] {
        let texts = texts(&values, push_double);
        bench_parses(&mut group, ("parse_double", name), &texts, |text| {
            parse_double(text).unwrap_or(0.0)
        });
        // The standard library's parser alone, for the cost of checking Java's grammar.
        bench_parses(&mut group, ("std_only", name), &texts, |text| {
            let text = std::str::from_utf8(text).unwrap_or("");
            text.parse::<f64>().unwrap_or(0.0)
        });
    }
    for (name, values) in [("short", short_floats()), ("random", random_floats())] {
        let texts = texts(&values, push_float);
        bench_parses(&mut group, ("parse_float", name), &texts, |text| {
            parse_float(text).map_or(0.0, f64::from)
        });
    }
    group.finish();
}

fn run<M: Measurement>(mut c: Criterion<M>) {
    format(&mut c);
    parse(&mut c);
    c.final_summary();
}

support::bench_main!(run);
