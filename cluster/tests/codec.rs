//! The record-file scan survives Ballista's plan serialization: a logical plan over a
//! record table (client → scheduler) and a physical plan with its file byte ranges and
//! projection (scheduler → executor) encode and decode through the record codecs, display
//! the same and give the same rows. Plans of other tables still go through Ballista's and
//! DataFusion's own codecs.

use std::path::Path;
use std::sync::Arc;

use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::physical_plan::{collect, displayable, ExecutionPlan};
use datafusion::prelude::{SessionConfig, SessionContext};
use datafusion_proto::bytes::{
    logical_plan_from_bytes_with_extension_codec, logical_plan_to_bytes_with_extension_codec,
    physical_plan_from_bytes_with_extension_codec, physical_plan_to_bytes_with_extension_codec,
};
use hadoop_record::Format;
use hadoop_record_cluster::{register_records, task_line, RecordLogicalCodec, RecordPhysicalCodec};
use hadoop_record_datafusion::RecordTableOptions;

const DDL: &str = "module m { class Hit { ustring url; long n; vector<int> tags; } }";

/// A DDL file and three CSV files of `m.Hit`, one large enough to split.
fn data(dir: &Path) {
    std::fs::write(dir.join("m.jr"), DDL).unwrap();
    let urls = ["a.com", "b.org", "c.net"];
    for (name, rows) in [("small.csv", 10), ("big.csv", 20_000), ("other.csv", 7)] {
        let mut text = String::new();
        for i in 0..rows {
            let tags = (0..i % 3)
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(",");
            text.push_str(&format!("'{},{},v{{{tags}}}\n", urls[i % 3], i * 7 % 101));
        }
        std::fs::write(dir.join(name), text).unwrap();
    }
}

/// A context of four partitions with the table `hits` over [`data`] in a new directory,
/// which lives as long as the caller keeps it.
async fn context() -> (tempfile::TempDir, SessionContext) {
    let dir = tempfile::tempdir().unwrap();
    data(dir.path());
    let config = SessionConfig::new()
        .with_target_partitions(4)
        .with_repartition_file_min_size(1 << 10);
    let ctx = SessionContext::new_with_config(config);
    let ddl = dir.path().join("m.jr");
    let options = RecordTableOptions::new(ddl, "m.Hit").with_encoding(Format::Csv);
    let glob = dir.path().join("*.csv");
    register_records(&ctx, "hits", options, &[glob.to_str().unwrap()])
        .await
        .unwrap();
    (dir, ctx)
}

const QUERIES: [&str; 3] = [
    "SELECT url, count(*) AS n, sum(n) AS total, sum(cardinality(tags)) AS tags \
     FROM hits GROUP BY url ORDER BY url",
    "SELECT n FROM hits WHERE url = 'b.org' AND n > 50 ORDER BY n LIMIT 20",
    "SELECT count(*) FROM hits",
];

#[tokio::test]
async fn a_logical_plan_over_a_record_table_round_trips() {
    let (_dir, ctx) = context().await;
    let codec = RecordLogicalCodec::default();
    for query in QUERIES {
        let plan = ctx.sql(query).await.unwrap().into_unoptimized_plan();
        let bytes = logical_plan_to_bytes_with_extension_codec(&plan, &codec).unwrap();
        // Decoded in a fresh context, which knows no table: as on a scheduler.
        let other = SessionContext::new_with_config(SessionConfig::new().with_target_partitions(4));
        let decoded =
            logical_plan_from_bytes_with_extension_codec(&bytes, &other.task_ctx(), &codec)
                .unwrap();
        assert_eq!(
            decoded.display_indent().to_string(),
            plan.display_indent().to_string(),
            "{query}"
        );
        let want = rows(&ctx, plan).await;
        assert_eq!(rows(&other, decoded).await, want, "{query}");
        assert!(want.lines().count() > 4, "{query}: {want}");
    }
}

/// The rows `plan` gives in `ctx`, as a table.
async fn rows(ctx: &SessionContext, plan: datafusion::logical_expr::LogicalPlan) -> String {
    let batches = ctx.execute_logical_plan(plan).await.unwrap().collect();
    pretty_format_batches(&batches.await.unwrap())
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn a_physical_plan_with_file_ranges_round_trips() {
    let (_dir, ctx) = context().await;
    let codec = RecordPhysicalCodec::default();
    for query in QUERIES {
        let plan = ctx
            .sql(query)
            .await
            .unwrap()
            .create_physical_plan()
            .await
            .unwrap();
        let shown = displayable(plan.as_ref()).indent(true).to_string();
        assert!(shown.contains("file_type=hadoop-record"), "{shown}");
        let bytes = physical_plan_to_bytes_with_extension_codec(plan.clone(), &codec).unwrap();
        let other = SessionContext::new();
        let decoded =
            physical_plan_from_bytes_with_extension_codec(&bytes, &other.task_ctx(), &codec)
                .unwrap();
        assert_eq!(
            displayable(decoded.as_ref()).indent(true).to_string(),
            shown,
            "{query}"
        );
        let want = collect(plan.clone(), ctx.task_ctx()).await.unwrap();
        let got = collect(decoded, other.task_ctx()).await.unwrap();
        assert_eq!(
            pretty_format_batches(&got).unwrap().to_string(),
            pretty_format_batches(&want).unwrap().to_string(),
            "{query}"
        );
    }
    // The big file is split into byte ranges, and the ranges travel.
    let plan = ctx
        .sql(QUERIES[0])
        .await
        .unwrap()
        .create_physical_plan()
        .await
        .unwrap();
    let bytes = physical_plan_to_bytes_with_extension_codec(plan.clone(), &codec).unwrap();
    let decoded = physical_plan_from_bytes_with_extension_codec(
        &bytes,
        &SessionContext::new().task_ctx(),
        &codec,
    )
    .unwrap();
    let line = task_line(&"job".into(), 1, 7, &[0, 1, 2, 3], &decoded);
    assert_eq!(line, task_line(&"job".into(), 1, 7, &[0, 1, 2, 3], &plan));
    let big = line.matches("big.csv ").count();
    assert!(big >= 2, "big.csv is read in ranges: {line}");
    assert!(
        line.starts_with("task 7: job job, stage 1, input partitions ["),
        "{line}"
    );
    assert!(line.ends_with("], output partitions 0,1,2,3"), "{line}");
    assert_eq!(
        line.matches('[').count(),
        4,
        "four input partitions: {line}"
    );
}

#[tokio::test]
async fn other_plans_still_use_the_default_codecs() {
    let ctx = SessionContext::new();
    let plan = ctx
        .sql("SELECT a, count(*) FROM (VALUES (1), (2), (1)) AS t(a) GROUP BY a ORDER BY a")
        .await
        .unwrap()
        .create_physical_plan()
        .await
        .unwrap();
    let codec = RecordPhysicalCodec::default();
    let bytes = physical_plan_to_bytes_with_extension_codec(plan.clone(), &codec).unwrap();
    let decoded: Arc<dyn ExecutionPlan> =
        physical_plan_from_bytes_with_extension_codec(&bytes, &ctx.task_ctx(), &codec).unwrap();
    let got = collect(decoded, ctx.task_ctx()).await.unwrap();
    let got = pretty_format_batches(&got).unwrap().to_string();
    assert!(got.contains("| 1 | 2        |"), "{got}");
    // A damaged record-scan node is an error, not a panic.
    let mut bad = bytes.to_vec();
    let tag = b"\0hadoop-record-scan/1\0";
    bad.clear();
    bad.extend_from_slice(tag);
    bad.extend_from_slice(&[9, 0, 0, 0, b'{']);
    let err = codec_decode_error(&codec, &bad);
    assert!(err.contains("record-file scan"), "{err}");
}

fn codec_decode_error(codec: &RecordPhysicalCodec, buf: &[u8]) -> String {
    use datafusion_proto::physical_plan::{DefaultPhysicalProtoConverter, PhysicalExtensionCodec};
    let ctx = SessionContext::new();
    codec
        .try_decode(buf, &[], &ctx.task_ctx(), &DefaultPhysicalProtoConverter {})
        .unwrap_err()
        .to_string()
}
