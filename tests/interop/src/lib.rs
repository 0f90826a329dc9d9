//! Differential tests against the real implementations, run by `cargo test --workspace`.
//!
//! - [`java::JavaPeer`]: Apache Hadoop 2.10.2's `org.apache.hadoop.record` (from Maven
//!   Central): its rcc generates Java classes for the test schemas, and a driver of ours
//!   (`java/`) reads and writes batches of records with Hadoop's own readers and writers,
//!   and SequenceFiles with its `SequenceFile.Writer` and `Reader` (2.10.2 and 3.4.2).
//! - [`zookeeper::ZkPeer`]: Apache ZooKeeper 3.9.5 (from Maven Central): a real server, its
//!   tools, and a driver of ours (`java/zookeeper/`) on its jute runtime.
//! - [`go::GoPeer`]: a Go program (`go/`) built on mesos-go's RecordIO reader and writer and
//!   on Go's snappy and gzip, from the Go module proxy.
//!
//! The peers are fetched by Maven and Go, cached (`~/.m2`, Go's module cache, and
//! `<target>/interop`), and fail loudly with the fix when a tool is missing; set
//! [`tools::SKIP_VAR`] to skip them. See `tests/interop/README.md`.

pub mod batch;
pub mod bench_records;
pub mod differential;
pub mod go;
pub mod hdfs;
pub mod java;
pub mod report;
pub mod tools;
mod wire;
pub mod zookeeper;

use hadoop_record::archive::FloatText;
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::{Format, RecordReader, RecordWriter, Value};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use crate::batch::Written;

/// The runtime formats in the driver's order: binary, CSV, XML.
pub const FORMATS: [Format; 3] = [Format::Binary, Format::Csv, Format::Xml];

/// `value` as hadoop-record writes it in binary, CSV and XML (or why it refused), floats in
/// text as `float_text` says.
pub fn encode_all(
    schema: &Schema,
    id: RecordId,
    value: &Value,
    float_text: FloatText,
) -> [Written; 3] {
    FORMATS.map(|format| encode_text(schema, id, value, format, float_text))
}

/// `value` as hadoop-record writes it in `format` (floats in text as by default).
pub fn encode(schema: &Schema, id: RecordId, value: &Value, format: Format) -> Written {
    encode_text(schema, id, value, format, FloatText::default())
}

/// `value` as hadoop-record writes it in `format`, floats in text as `float_text` says.
pub fn encode_text(
    schema: &Schema,
    id: RecordId,
    value: &Value,
    format: Format,
    float_text: FloatText,
) -> Written {
    let mut w = RecordWriter::new(Vec::new(), format).with_float_text(float_text);
    w.write_value(schema, id, value)
        .and_then(|()| Ok(w.into_inner()?))
        .map_err(|e| e.to_string())
}

/// The one record in `bytes`, read by hadoop-record; an error if there is not exactly one.
pub fn decode(
    schema: &Schema,
    id: RecordId,
    bytes: &[u8],
    format: Format,
) -> Result<Value, String> {
    let mut r = RecordReader::from_slice(bytes, format);
    let value = r
        .read_value(schema, id)
        .map_err(|e| e.to_string())?
        .ok_or("no record")?;
    match r.read_value(schema, id) {
        Ok(None) => Ok(value),
        Ok(Some(_)) => Err("more than one record".into()),
        Err(e) => Err(format!("after the record: {e}")),
    }
}

/// `n` values of `strategy` from a generator seeded with `seed` (no shrinking: the values
/// go to a peer in one batch).
pub fn sample<S: Strategy>(strategy: &S, n: usize, seed: u64) -> Vec<S::Value> {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    (0..n)
        .map(|_| {
            strategy
                .new_tree(&mut runner)
                .expect("a value from the strategy")
                .current()
        })
        .collect()
}

/// The seed of this run: `HADOOP_RECORD_INTEROP_SEED`, else a new one each run (printed
/// with the results, so a failure can be repeated).
pub fn seed() -> u64 {
    std::env::var("HADOOP_RECORD_INTEROP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            let t = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            t.as_nanos() as u64 ^ u64::from(std::process::id())
        })
}

/// How many random values per record type: `HADOOP_RECORD_INTEROP_CASES`, else `default`.
pub fn cases(default: usize) -> usize {
    std::env::var("HADOOP_RECORD_INTEROP_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}
