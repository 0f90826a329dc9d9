//! The data of the scan benchmarks (this crate's and `hadoop-record-cluster`'s): records
//! of the small shape {int, long, boolean, double} (and of any shape, [`files`]) as a
//! Paddle-framed binary file and as Parquet, made once under `target/sql-bench/` and kept.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use datafusion::dataframe::DataFrameWriteOptions;
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};
use hadoop_record::framing::paddle::PaddleWriter;
use hadoop_record::framing::FrameWrite;
use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
use hadoop_record::{Format, RecordWriter, Value};
use hadoop_record_datafusion::{RecordTableOptions, SessionContextExt};
use tokio::runtime::Runtime;

pub const DDL: &str = "module bench { class Small { int i; long l; boolean b; double d; } }\n";
pub const QUERY: &str = "SELECT count(*), sum(l), sum(d) FROM t";

/// The runtime both benches run their queries on: two worker threads, one per core of the
/// machine the figures are taken on.
pub fn runtime() -> Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// The file a table is over.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Source {
    Paddle,
    Parquet,
}

/// A session of `partitions` partitions that splits files above 1 MiB, with the table `t`
/// over the Paddle file (records of `ddl`'s `bench.Small`) or the Parquet file.
pub fn table(
    rt: &Runtime,
    partitions: usize,
    source: Source,
    ddl: &Path,
    paddle: &Path,
    parquet: &Path,
) -> SessionContext {
    let ctx = SessionContext::new_with_config(
        SessionConfig::new()
            .with_target_partitions(partitions)
            .with_repartition_file_min_size(1 << 20),
    );
    rt.block_on(async {
        match source {
            Source::Paddle => {
                let options = RecordTableOptions::new(ddl, "bench.Small").with_framing("paddle");
                ctx.register_records("t", options, &[paddle.to_str().unwrap()])
                    .await
                    .unwrap();
            }
            Source::Parquet => {
                let options = ParquetReadOptions::default();
                ctx.register_parquet("t", parquet.to_str().unwrap(), options)
                    .await
                    .unwrap();
            }
        }
    });
    ctx
}

/// `SQL_BENCH_RECORDS`, or 10 000 000.
pub fn records() -> u64 {
    records_or(10_000_000)
}

/// `SQL_BENCH_RECORDS`, or `default`.
pub fn records_or(default: u64) -> u64 {
    std::env::var("SQL_BENCH_RECORDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// The DDL, the Paddle file and the Parquet file of `n` records, made once.
pub fn data(rt: &Runtime, n: u64) -> (PathBuf, PathBuf, PathBuf) {
    let fields = [
        ("i", FieldType::Int),
        ("l", FieldType::Long),
        ("b", FieldType::Bool),
        ("d", FieldType::Double),
    ];
    files(rt, "small", DDL, &fields, n, |k, x| {
        vec![
            Value::Int((x >> 40) as i32 - (1 << 23)),
            Value::Long((x >> 8) as i64 - (1 << 55)),
            Value::Bool(k % 3 == 0),
            Value::Double((x >> 11) as f64 / (1u64 << 53) as f64),
        ]
    })
}

/// The directory of the benches' files, `target/sql-bench/`.
pub fn bench_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/sql-bench");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The DDL (`ddl`, whose one class is `bench.<Name>` with `fields`), the Paddle-framed
/// binary file and the Parquet file (DataFusion's default writer) of `n` records, made once
/// under [`bench_dir`] as `<name>.jr`, `<name>-<n>.paddle` and `<name>-<n>.parquet`. Record
/// `k`'s fields are `row(k, x)`, `x` a xorshift sequence.
pub fn files(
    rt: &Runtime,
    name: &str,
    ddl: &str,
    fields: &[(&str, FieldType)],
    n: u64,
    mut row: impl FnMut(u64, u64) -> Vec<Value>,
) -> (PathBuf, PathBuf, PathBuf) {
    let dir = bench_dir();
    let ddl_path = dir.join(format!("{name}.jr"));
    std::fs::write(&ddl_path, ddl).unwrap();
    let paddle = dir.join(format!("{name}-{n}.paddle"));
    let parquet = dir.join(format!("{name}-{n}.parquet"));
    let mut schema = Schema::new();
    let id = schema
        .add(RecordType {
            module: "bench".into(),
            name: class_name(ddl).into(),
            fields: fields
                .iter()
                .map(|(f, ty)| FieldDef::new(*f, ty.clone()))
                .collect(),
        })
        .unwrap();
    let type_name = schema.record(id).unwrap().full_name();
    if !paddle.exists() {
        let tmp = paddle.with_extension("tmp");
        let file = std::io::BufWriter::new(std::fs::File::create(&tmp).unwrap());
        let mut frames = PaddleWriter::new(file);
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        for k in 0..n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut w = RecordWriter::new(Vec::with_capacity(64), Format::Binary);
            w.write_value(&schema, id, &Value::Record(row(k, x)))
                .unwrap();
            frames.write_payload(&w.into_inner().unwrap()).unwrap();
        }
        frames.finish().unwrap();
        drop(frames);
        std::fs::rename(&tmp, &paddle).unwrap();
    }
    if !parquet.exists() {
        rt.block_on(async {
            let ctx = SessionContext::new();
            let options = RecordTableOptions::new(&ddl_path, &type_name).with_framing("paddle");
            ctx.register_records("t", options, &[paddle.to_str().unwrap()])
                .await
                .unwrap();
            let tmp = parquet.with_extension("tmp.parquet");
            ctx.sql("SELECT * FROM t")
                .await
                .unwrap()
                .write_parquet(
                    tmp.to_str().unwrap(),
                    DataFrameWriteOptions::new().with_single_file_output(true),
                    None,
                )
                .await
                .unwrap();
            std::fs::rename(&tmp, &parquet).unwrap();
        });
    }
    (ddl_path, paddle, parquet)
}

/// The name of the one class of a bench's DDL (`module bench { class Name { … } }`).
fn class_name(ddl: &str) -> &str {
    let after = &ddl[ddl.find("class ").unwrap() + 6..];
    after[..after.find(' ').unwrap()].trim()
}
