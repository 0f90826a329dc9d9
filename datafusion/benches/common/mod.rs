//! The data of the scan benchmarks (this crate's and `hadoop-record-cluster`'s): records
//! of the small shape {int, long, boolean, double} as a Paddle-framed binary file and as
//! Parquet, made once under `target/sql-bench/` and kept.
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
                let options = RecordTableOptions::new(ddl, "bench.Small").framing("paddle");
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

pub fn records() -> u64 {
    std::env::var("SQL_BENCH_RECORDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000_000)
}

/// The DDL, the Paddle file and the Parquet file of `n` records, made once.
pub fn data(rt: &Runtime, n: u64) -> (PathBuf, PathBuf, PathBuf) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/sql-bench");
    std::fs::create_dir_all(&dir).unwrap();
    let ddl = dir.join("small.jr");
    std::fs::write(&ddl, DDL).unwrap();
    let paddle = dir.join(format!("small-{n}.paddle"));
    let parquet = dir.join(format!("small-{n}.parquet"));
    if !paddle.exists() {
        let mut schema = Schema::new();
        let id = schema.add(RecordType {
            module: "bench".into(),
            name: "Small".into(),
            fields: vec![
                FieldDef::new("i", FieldType::Int),
                FieldDef::new("l", FieldType::Long),
                FieldDef::new("b", FieldType::Bool),
                FieldDef::new("d", FieldType::Double),
            ],
        });
        let tmp = paddle.with_extension("tmp");
        let file = std::io::BufWriter::new(std::fs::File::create(&tmp).unwrap());
        let mut frames = PaddleWriter::new(file);
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        for k in 0..n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let value = Value::Record(vec![
                Value::Int((x >> 40) as i32 - (1 << 23)),
                Value::Long((x >> 8) as i64 - (1 << 55)),
                Value::Bool(k % 3 == 0),
                Value::Double((x >> 11) as f64 / (1u64 << 53) as f64),
            ]);
            let mut w = RecordWriter::new(Vec::with_capacity(32), Format::Binary);
            w.write_value(&schema, id, &value).unwrap();
            frames.write_payload(&w.into_inner().unwrap()).unwrap();
        }
        frames.finish().unwrap();
        drop(frames);
        std::fs::rename(&tmp, &paddle).unwrap();
    }
    if !parquet.exists() {
        rt.block_on(async {
            let ctx = SessionContext::new();
            let options = RecordTableOptions::new(&ddl, "bench.Small").framing("paddle");
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
    (ddl, paddle, parquet)
}
