//! SQL over record files: the same records in every encoding and framing give the answers
//! computed directly from the records (Rust, from the schema-driven `Value`s, not through
//! DataFusion), read whole or split into byte ranges; projection pushdown skips what a
//! query does not ask for; bad records and bad paths are named; tables over directories,
//! globs and a non-local object store; SQL's binary-string functions on `buffer` columns
//! ([`binary_strings`]); dataset writes against stores that fail at every
//! request, and with more values than files they may keep open ([`dataset_writes`]).

#[path = "sql/binary_strings.rs"]
mod binary_strings;
#[path = "sql/dataset_writes.rs"]
mod dataset_writes;

use std::path::PathBuf;
use std::sync::Arc;

use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Float64Type, Int64Type, UInt64Type};
use datafusion::arrow::util::display::array_value_to_string;
use datafusion::datasource::physical_plan::FileScanConfig;
use datafusion::datasource::source::DataSourceExec;
use datafusion::physical_plan::{displayable, ExecutionPlan};
use datafusion::prelude::{SessionConfig, SessionContext};
use hadoop_record::framing::mesos::MesosWriter;
use hadoop_record::framing::paddle::{Compressor, PaddleWriteOptions, PaddleWriter};
use hadoop_record::framing::plasma::{FixedWriter, TextWriter, VarWriteOptions, VarWriter};
use hadoop_record::framing::seqfile::{
    Codec, Compression as SeqCompression, SeqWriteOptions, SeqWriter,
};
use hadoop_record::framing::v1::{FileHeader, V1FrameWriter, V1WriteOptions};
use hadoop_record::framing::FrameWrite;
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::{Format, RecordWriter, Value};
use hadoop_record_compiler::{load, LoadOptions};
use hadoop_record_datafusion::{RecordError, RecordSource, RecordTableOptions, SessionContextExt};

const DDL: &str = r#"
module web {
    class Place {
        ustring city;
        int zip;
    }
    class Hit {
        int id;
        long bytes;
        boolean ok;
        double score;
        ustring url;
        buffer tag;
        vector<ustring> tags;
        map<ustring, long> counts;
        Place origin;
        float ratio;
        byte level;
    }
    class Small {
        int i;
        long l;
        boolean b;
        double d;
    }
}
"#;

/// A directory with the DDL, and the schema it declares.
struct Setup {
    dir: tempfile::TempDir,
    ddl: PathBuf,
    schema: Schema,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let ddl = dir.path().join("web.jr");
    std::fs::write(&ddl, DDL).unwrap();
    let model = load(&[&ddl], &LoadOptions::default()).unwrap();
    let schema = model.to_schema().into_schema();
    Setup { dir, ddl, schema }
}

impl Setup {
    fn id(&self, name: &str) -> RecordId {
        self.schema.find(name).unwrap()
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

/// A small deterministic generator (the answers must not depend on luck).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn text(&mut self) -> String {
        const PIECES: [&str; 8] = ["a", "b", "é", "<&>", ",}%", "😀", "q z", "'"];
        (0..self.below(5))
            .map(|_| PIECES[self.below(8) as usize])
            .collect()
    }
}

/// `n` records of `web.Hit`.
fn hits(n: usize, seed: u64) -> Vec<Value> {
    let mut g = Lcg(seed);
    (0..n)
        .map(|i| {
            let tags = (0..g.below(4)).map(|_| Value::String(g.text())).collect();
            let counts = (0..g.below(3))
                .map(|k| {
                    (
                        Value::String(format!("k{k}")),
                        Value::Long(g.below(1000) as i64 - 500),
                    )
                })
                .collect();
            Value::Record(vec![
                Value::Int(i as i32 - 7),
                Value::Long(g.below(1 << 40) as i64 * if i % 3 == 0 { -1 } else { 1 }),
                Value::Bool(g.below(3) == 0),
                Value::Double(g.below(1 << 20) as f64 / 64.0 - 1000.0),
                Value::String(g.text()),
                Value::Buffer((0..g.below(6)).map(|_| g.below(256) as u8).collect()),
                Value::Vector(tags),
                Value::Map(counts),
                Value::Record(vec![
                    Value::String(g.text()),
                    Value::Int(g.below(99999) as i32),
                ]),
                Value::Float(g.below(100) as f32 / 8.0),
                Value::Byte(g.below(256) as u8 as i8),
            ])
        })
        .collect()
}

/// The answers the summary query must give, computed from the values.
#[derive(Debug, PartialEq)]
struct Summary {
    n: i64,
    ids: i64,
    bytes: i64,
    oks: i64,
    score: f64,
    url: String,
    zips: i64,
    tags: u64,
    counts: u64,
}

const SUMMARY: &str = "SELECT count(*), sum(id), sum(bytes), sum(CASE WHEN ok THEN 1 ELSE 0 END), \
    max(score), min(url), sum(origin['zip']), sum(cardinality(tags)), sum(cardinality(counts)) \
    FROM hits";

fn expected_summary(values: &[Value]) -> Summary {
    let field = |v: &Value, i: usize| match v {
        Value::Record(f) => f[i].clone(),
        _ => unreachable!(),
    };
    let mut s = Summary {
        n: values.len() as i64,
        ids: 0,
        bytes: 0,
        oks: 0,
        score: f64::MIN,
        url: String::from("\u{10ffff}"),
        zips: 0,
        tags: 0,
        counts: 0,
    };
    for v in values {
        let (
            Value::Int(id),
            Value::Long(bytes),
            Value::Bool(ok),
            Value::Double(score),
            Value::String(url),
            Value::Vector(tags),
            Value::Map(counts),
            Value::Int(zip),
        ) = (
            field(v, 0),
            field(v, 1),
            field(v, 2),
            field(v, 3),
            field(v, 4),
            field(v, 6),
            field(v, 7),
            field(&field(v, 8), 1),
        )
        else {
            unreachable!("a Hit of the wrong shape: {v:?}")
        };
        s.ids += i64::from(id);
        s.bytes += bytes;
        s.oks += i64::from(ok);
        s.score = s.score.max(score);
        s.url = s.url.min(url);
        s.zips += i64::from(zip);
        s.tags += tags.len() as u64;
        s.counts += counts.len() as u64;
    }
    s
}

fn summary_of(batches: &[RecordBatch]) -> Summary {
    assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), 1);
    let b = batches.iter().find(|b| b.num_rows() == 1).unwrap();
    let i64_at = |c: usize| b.column(c).as_primitive::<Int64Type>().value(0);
    let u64_at = |c: usize| b.column(c).as_primitive::<UInt64Type>().value(0);
    Summary {
        n: i64_at(0),
        ids: i64_at(1),
        bytes: i64_at(2),
        oks: i64_at(3),
        score: b.column(4).as_primitive::<Float64Type>().value(0),
        // `Utf8View` or `Utf8`, as the table maps strings.
        url: array_value_to_string(b.column(5), 0).unwrap(),
        zips: i64_at(6),
        tags: u64_at(7),
        counts: u64_at(8),
    }
}

/// Each record's bytes in `format`.
fn encode(schema: &Schema, id: RecordId, values: &[Value], format: Format) -> Vec<Vec<u8>> {
    values
        .iter()
        .map(|v| {
            let mut w = RecordWriter::new(Vec::new(), format);
            w.write_value(schema, id, v).unwrap();
            w.into_inner().unwrap()
        })
        .collect()
}

fn framed<W: FrameWrite>(mut writer: W, payloads: &[Vec<u8>]) -> W {
    for p in payloads {
        writer.write_payload(p).unwrap();
    }
    writer.finish().unwrap();
    writer
}

/// The records as a file in `framing` (by name), `encoding`.
fn record_file(setup: &Setup, values: &[Value], encoding: Format, framing: &str) -> Vec<u8> {
    let payloads = encode(&setup.schema, setup.id("web.Hit"), values, encoding);
    match framing {
        "none" => payloads.concat(),
        "paddle" => framed(
            PaddleWriter::with_options(
                Vec::new(),
                PaddleWriteOptions::default().with_max_chunk_size(3000),
            ),
            &payloads,
        )
        .into_inner()
        .unwrap(),
        "paddle-cpp" => framed(
            PaddleWriter::with_options(
                Vec::new(),
                PaddleWriteOptions::cpp()
                    .with_compressor(Compressor::Gzip)
                    .with_max_chunk_records(Some(50)),
            ),
            &payloads,
        )
        .into_inner()
        .unwrap(),
        "v1" => {
            let writer = V1FrameWriter::new(
                Vec::new(),
                "Hit",
                FileHeader::new(),
                V1WriteOptions::default(),
            )
            .unwrap();
            framed(writer, &payloads).into_inner().unwrap()
        }
        "plasma-var" => framed(
            VarWriter::new(Vec::new(), VarWriteOptions::default().with_chunk_size(4096)).unwrap(),
            &payloads,
        )
        .into_inner()
        .unwrap(),
        "plasma-text" => {
            // The framing adds the line end back.
            let lines: Vec<Vec<u8>> = payloads
                .iter()
                .map(|p| p.strip_suffix(b"\n").unwrap().to_vec())
                .collect();
            framed(TextWriter::new(Vec::new()), &lines)
                .into_inner()
                .unwrap()
        }
        "mesos" => framed(MesosWriter::new(Vec::new()), &payloads)
            .into_inner()
            .unwrap(),
        // Block-compressed, with sync entries every few records so that ranges find them.
        "seqfile" => framed(
            SeqWriter::new(
                Vec::new(),
                SeqWriteOptions::new("web.Hit")
                    .with_compression(SeqCompression::Block)
                    .with_codec(Codec::Gzip)
                    .with_sync_interval(2000)
                    .with_block_size(3000),
            ),
            &payloads,
        )
        .into_inner()
        .unwrap(),
        _ => unreachable!("{framing}"),
    }
}

/// A session with `partitions` target partitions that splits any file larger than a few
/// bytes.
fn session(partitions: usize) -> SessionContext {
    let config = SessionConfig::new()
        .with_target_partitions(partitions)
        .with_repartition_file_min_size(64)
        .with_batch_size(100);
    SessionContext::new_with_config(config)
}

async fn run(ctx: &SessionContext, sql: &str) -> datafusion::common::Result<Vec<RecordBatch>> {
    ctx.sql(sql).await?.collect().await
}

/// The scan's file groups (each a list of files or ranges).
fn scan_of(plan: &Arc<dyn ExecutionPlan>) -> Option<(FileScanConfig, Vec<usize>)> {
    if let Some(exec) = plan.downcast_ref::<DataSourceExec>() {
        let config = exec.data_source().downcast_ref::<FileScanConfig>()?.clone();
        let source = config.file_source().downcast_ref::<RecordSource>()?;
        let fields = source.decoded_fields().to_vec();
        return Some((config, fields));
    }
    plan.children().into_iter().find_map(scan_of)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_encoding_and_framing_gives_the_records_answers() {
    let setup = setup();
    let values = hits(700, 1);
    let expected = expected_summary(&values);
    let cases = [
        (Format::Binary, "paddle"),
        (Format::Binary, "paddle-cpp"),
        (Format::Binary, "v1"),
        (Format::Binary, "plasma-var"),
        (Format::Binary, "mesos"),
        (Format::Binary, "none"),
        (Format::Csv, "none"),
        (Format::Csv, "plasma-text"),
        (Format::Xml, "none"),
        (Format::Jute, "none"),
        (Format::Jute, "paddle"),
        (Format::Binary, "seqfile"),
    ];
    for (encoding, framing) in cases {
        let file = setup.path(&format!("hits-{encoding}-{framing}"));
        std::fs::write(&file, record_file(&setup, &values, encoding, framing)).unwrap();
        let len = std::fs::metadata(&file).unwrap().len();
        // Local files are mapped into memory, and strings are views, unless told otherwise.
        for (partitions, map, views) in [(1, true, true), (3, true, false), (3, false, true)] {
            let ctx = session(partitions);
            let options = RecordTableOptions::new(&setup.ddl, "web.Hit")
                .with_encoding(encoding)
                .with_framing(framing)
                .with_memory_map(map)
                .with_string_view(views);
            let format = ctx
                .register_records("hits", options, &[file.to_str().unwrap()])
                .await
                .unwrap();
            let url = format
                .arrow_schema()
                .field_with_name("url")
                .unwrap()
                .clone();
            let string = if views {
                DataType::Utf8View
            } else {
                DataType::Utf8
            };
            assert_eq!(url.data_type(), &string);
            let what = format!(
                "{encoding} in {framing}, {partitions} partition(s), map {map}, views {views}"
            );
            let got = summary_of(&run(&ctx, SUMMARY).await.unwrap());
            assert_eq!(got, expected, "{what}");
            // Progress: every record, and at least every byte (ranges may read before and
            // past their bytes).
            let progress = format.progress();
            assert_eq!(progress.records(), values.len() as u64, "{what}");
            assert!(
                progress.bytes() >= len,
                "{what}: {} of {len}",
                progress.bytes()
            );

            // Ranges where the framing can be split, one reader otherwise.
            let plan = ctx
                .sql(SUMMARY)
                .await
                .unwrap()
                .create_physical_plan()
                .await
                .unwrap();
            let (scan, _) = scan_of(&plan).unwrap();
            let ranges = scan.file_groups.iter().map(|g| g.len()).sum::<usize>();
            let splittable = !matches!(
                (encoding, framing),
                (_, "mesos") | (Format::Binary | Format::Xml | Format::Jute, "none")
            );
            assert_eq!(ranges, if splittable { partitions } else { 1 }, "{what}");

            let by_ok = run(
                &ctx,
                "SELECT ok, count(*), sum(bytes) FROM hits GROUP BY ok ORDER BY ok",
            )
            .await
            .unwrap();
            let mut want = [(0i64, 0i64); 2];
            for v in &values {
                let Value::Record(f) = v else { unreachable!() };
                let (Value::Bool(ok), Value::Long(b)) = (&f[2], &f[1]) else {
                    unreachable!()
                };
                want[*ok as usize].0 += 1;
                want[*ok as usize].1 += b;
            }
            let b = by_ok.iter().find(|b| b.num_rows() > 0).unwrap();
            assert_eq!(b.num_rows(), 2, "{what}");
            for (row, (count, sum)) in want.iter().enumerate() {
                assert_eq!(b.column(0).as_boolean().value(row), row == 1);
                assert_eq!(
                    b.column(1).as_primitive::<Int64Type>().value(row),
                    *count,
                    "{what}"
                );
                assert_eq!(
                    b.column(2).as_primitive::<Int64Type>().value(row),
                    *sum,
                    "{what}"
                );
            }
        }
    }
}

/// One large splittable file read by four partitions gives the answer one partition gives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_file_is_split_and_the_answer_stays() {
    let setup = setup();
    let id = setup.id("web.Small");
    let mut g = Lcg(9);
    let values: Vec<Value> = (0..60_000)
        .map(|i| {
            Value::Record(vec![
                Value::Int(i),
                Value::Long(g.below(1 << 40) as i64 - (1 << 39)),
                Value::Bool(i % 7 == 0),
                Value::Double(f64::from(i % 1000) / 4.0),
            ])
        })
        .collect();
    let payloads = encode(&setup.schema, id, &values, Format::Binary);
    let file = framed(
        PaddleWriter::with_options(
            Vec::new(),
            PaddleWriteOptions::default().with_max_chunk_size(16 << 10),
        ),
        &payloads,
    )
    .into_inner()
    .unwrap();
    let path = setup.path("small.paddle");
    std::fs::write(&path, &file).unwrap();
    let sql = "SELECT count(*), sum(l), sum(i), max(d), count(*) FILTER (WHERE b) FROM small";
    let mut answers = Vec::new();
    for partitions in [1, 4] {
        let config = SessionConfig::new()
            .with_target_partitions(partitions)
            .with_repartition_file_min_size(1 << 16);
        let ctx = SessionContext::new_with_config(config);
        let options = RecordTableOptions::new(&setup.ddl, "web.Small").with_framing("paddle");
        ctx.register_records("small", options, &[path.to_str().unwrap()])
            .await
            .unwrap();
        let plan = ctx
            .sql(sql)
            .await
            .unwrap()
            .create_physical_plan()
            .await
            .unwrap();
        let (scan, fields) = scan_of(&plan).unwrap();
        assert_eq!(fields, [0, 1, 2, 3]);
        let groups: Vec<_> = scan
            .file_groups
            .iter()
            .flat_map(|g| g.files().to_vec())
            .collect();
        assert_eq!(
            groups.len(),
            partitions,
            "{}",
            displayable(plan.as_ref()).indent(true)
        );
        if partitions > 1 {
            assert!(groups.iter().all(|f| f.range.is_some()));
        }
        answers.push(
            datafusion::arrow::util::pretty::pretty_format_batches(&run(&ctx, sql).await.unwrap())
                .unwrap()
                .to_string(),
        );
    }
    assert_eq!(answers[0], answers[1]);
    let sum_l: i64 = values
        .iter()
        .map(|v| match v {
            Value::Record(f) => match f[1] {
                Value::Long(l) => l,
                _ => 0,
            },
            _ => 0,
        })
        .sum();
    assert!(
        answers[0].contains(&format!("| 60000    | {sum_l} |")),
        "{}",
        answers[0]
    );
}

/// A field the query does not use is skipped, not decoded: an invalid UTF-8 string there
/// does not fail the query, and the plan decodes only the fields used. Asking for it names
/// the file, the record, the byte and the field.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unused_fields_are_skipped_and_bad_records_are_named() {
    let setup = setup();
    let mut values = hits(40, 3);
    if let Value::Record(f) = &mut values[17] {
        f[4] = Value::String("MARKER".into());
    }
    // v1 has no checksum to catch the damage first.
    let mut file = record_file(&setup, &values, Format::Binary, "v1");
    let at = file.windows(6).position(|w| w == b"MARKER").unwrap();
    file[at] = 0xff;
    let path = setup.path("bad.v1");
    std::fs::write(&path, &file).unwrap();
    let ctx = session(1);
    let options = RecordTableOptions::new(&setup.ddl, "Hit").with_framing("v1");
    ctx.register_records("hits", options, &[path.to_str().unwrap()])
        .await
        .unwrap();

    let expected = expected_summary(&values);
    let got = run(&ctx, "SELECT sum(id), sum(bytes) FROM hits")
        .await
        .unwrap();
    assert_eq!(
        got[0].column(0).as_primitive::<Int64Type>().value(0),
        expected.ids
    );
    assert_eq!(
        got[0].column(1).as_primitive::<Int64Type>().value(0),
        expected.bytes
    );
    let plan = ctx
        .sql("SELECT sum(bytes) FROM hits WHERE id > 3")
        .await
        .unwrap()
        .create_physical_plan()
        .await
        .unwrap();
    assert_eq!(scan_of(&plan).unwrap().1, [0, 1]);

    let e = run(&ctx, "SELECT min(url) FROM hits").await.unwrap_err();
    let found = find_record_error(&e).expect("a RecordError");
    let record = found.to_string();
    assert_eq!(found.record(), Some(17));
    assert_eq!(found.path(), "Hit.url");
    let file_name = path.to_str().unwrap();
    assert!(
        record.contains(&format!("{file_name}: record 17 (its v1 frame at byte ")),
        "{record}"
    );
    assert!(record.contains("of its payload, in Hit.url: "), "{record}");
}

fn find_record_error(e: &datafusion::common::DataFusionError) -> Option<&RecordError> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if let Some(r) = s.downcast_ref::<RecordError>() {
            return Some(r);
        }
        source = s.source();
    }
    None
}

/// A bad line of a plain CSV file split into ranges: named by its record number and byte
/// offset in the file, whichever range reads it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_csv_line_is_named_by_file_record_and_byte() {
    let setup = setup();
    let path = setup.path("small.csv");
    std::fs::write(&path, "1,2,T,0.5\n3,4,F,1.5\n5,x,T,2.5\n7,8,F,3.5\n").unwrap();
    for partitions in [1, 2] {
        let ctx = session(partitions);
        let options = RecordTableOptions::new(&setup.ddl, "web.Small").with_encoding(Format::Csv);
        ctx.register_records("small", options, &[path.to_str().unwrap()])
            .await
            .unwrap();
        let e = run(&ctx, "SELECT sum(l) FROM small").await.unwrap_err();
        let found = find_record_error(&e).expect("a RecordError").to_string();
        let name = path.to_str().unwrap();
        if partitions == 1 {
            assert_eq!(
                found,
                format!("{name}: record 2, byte 22, in Small.l: expected a long, found `x`")
            );
        } else {
            assert!(
                found.ends_with("byte 22, in Small.l: expected a long, found `x`"),
                "{found}"
            );
        }
        // Text encodings skip a field by reading it: the line fails whatever is asked.
        assert!(run(&ctx, "SELECT sum(i) FROM small").await.is_err());
    }
}

/// Directories (the files directly in them), globs (segment by segment: `*` does not cross
/// a `/`, `s*/*.v1` reaches into a subfolder) and several paths make one table; a
/// path that matches nothing is an error naming it; the table's options serialize with the
/// DDL inline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn directories_globs_and_lists_of_files() {
    let setup = setup();
    let dir = setup.path("data");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let a = hits(30, 11);
    let b = hits(20, 12);
    let c = hits(10, 13);
    std::fs::write(
        dir.join("a.v1"),
        record_file(&setup, &a, Format::Binary, "v1"),
    )
    .unwrap();
    std::fs::write(
        dir.join("b.v1"),
        record_file(&setup, &b, Format::Binary, "v1"),
    )
    .unwrap();
    std::fs::write(
        dir.join("sub/c.v1"),
        record_file(&setup, &c, Format::Binary, "v1"),
    )
    .unwrap();
    let all: Vec<Value> = a.iter().chain(&b).chain(&c).cloned().collect();
    let options = || RecordTableOptions::new(&setup.ddl, "web.Hit").with_framing("v1");
    let dir_s = format!("{}/", dir.display());
    let glob = format!("{}/*.v1", dir.display());
    let c_path = dir.join("sub/c.v1");
    let deep = format!("{}/s*/*.v1", dir.display());
    let top: Vec<Value> = a.iter().chain(&b).cloned().collect();
    for (paths, values) in [
        (vec![dir_s.as_str()], top.clone()),
        (
            vec![glob.as_str()],
            a.iter().chain(&b).cloned().collect::<Vec<_>>(),
        ),
        (vec![glob.as_str(), c_path.to_str().unwrap()], all.clone()),
        (vec![deep.as_str()], c.clone()),
    ] {
        let ctx = session(2);
        ctx.register_records("hits", options(), &paths)
            .await
            .unwrap();
        let got = summary_of(&run(&ctx, SUMMARY).await.unwrap());
        assert_eq!(got, expected_summary(&values), "{paths:?}");
    }
    let ctx = session(1);
    let missing = format!("{}/nothing-*.v1", dir.display());
    let e = ctx
        .register_records("hits", options(), &[missing.as_str()])
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("no such file, or no file matches"),
        "{e}"
    );
    let e = ctx
        .register_records(
            "hits",
            RecordTableOptions::new(&setup.ddl, "web.Nope"),
            &[dir_s.as_str()],
        )
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains(
            "unknown record type `web.Nope` (the DDL declares web.Place, web.Hit, web.Small)"
        ),
        "{e}"
    );

    // The format's options carry the DDL's text: a session that never saw the file reads
    // the table from the options alone.
    let format = ctx
        .register_records("hits", options(), &[dir_s.as_str()])
        .await
        .unwrap();
    let json = serde_json::to_string(format.options()).unwrap();
    assert!(json.contains("class Small"), "{json}");
    std::fs::remove_file(&setup.ddl).unwrap();
    let options = serde_json::from_str(&json).unwrap();
    let ctx = session(2);
    ctx.register_records("again", options, &[dir_s.as_str()])
        .await
        .unwrap();
    let got = summary_of(&run(&ctx, &SUMMARY.replace("hits", "again")).await.unwrap());
    assert_eq!(got, expected_summary(&top));
}

/// Files in an object store that is not the local file system are read through ranged
/// gets, split like local ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_in_another_object_store() {
    use object_store::memory::InMemory;
    use object_store::path::Path as ObjectPath;
    use object_store::ObjectStoreExt;
    let setup = setup();
    let values = hits(500, 21);
    let store = Arc::new(InMemory::new());
    let bytes = record_file(&setup, &values, Format::Binary, "plasma-var");
    store
        .put(&ObjectPath::from("logs/hits.var"), bytes.into())
        .await
        .unwrap();
    let ctx = session(3);
    let url = url::Url::parse("memory://bucket").unwrap();
    ctx.register_object_store(&url, store);
    let options = RecordTableOptions::new(&setup.ddl, "web.Hit").with_framing("plasma-var");
    ctx.register_records("hits", options, &["memory://bucket/logs/"])
        .await
        .unwrap();
    let got = summary_of(&run(&ctx, SUMMARY).await.unwrap());
    assert_eq!(got, expected_summary(&values));
}

/// jute's fixed-size small records in plasma-fixed, split by arithmetic.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fixed_size_jute_records() {
    let setup = setup();
    let id = setup.id("web.Small");
    let values: Vec<Value> = (0..1000)
        .map(|i| {
            Value::Record(vec![
                Value::Int(i),
                Value::Long(i64::from(i) * 1_000_000_007),
                Value::Bool(i % 2 == 0),
                Value::Double(f64::from(i)),
            ])
        })
        .collect();
    let payloads = encode(&setup.schema, id, &values, Format::Jute);
    assert!(payloads.iter().all(|p| p.len() == 21));
    let file = framed(FixedWriter::new(Vec::new(), 21).unwrap(), &payloads)
        .into_inner()
        .unwrap();
    let path = setup.path("small.fixed");
    std::fs::write(&path, file).unwrap();
    let ctx = session(3);
    let options = RecordTableOptions::new(&setup.ddl, "web.Small")
        .with_encoding(Format::Jute)
        .with_framing("plasma-fixed:21");
    ctx.register_records("small", options, &[path.to_str().unwrap()])
        .await
        .unwrap();
    let got = run(
        &ctx,
        "SELECT count(*), sum(l), sum(i) FILTER (WHERE b) FROM small",
    )
    .await
    .unwrap();
    let b = &got[0];
    assert_eq!(b.column(0).as_primitive::<Int64Type>().value(0), 1000);
    assert_eq!(
        b.column(1).as_primitive::<Int64Type>().value(0),
        (0..1000i64).map(|i| i * 1_000_000_007).sum::<i64>()
    );
    assert_eq!(
        b.column(2).as_primitive::<Int64Type>().value(0),
        (0..1000i64).filter(|i| i % 2 == 0).sum::<i64>()
    );
    assert_eq!(b.column(2).null_count(), 0);
}
