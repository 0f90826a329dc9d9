//! Delta tables written and read back on a local disk, through the library: new tables,
//! appends, overwrites (the old files kept for time travel), refusals that write nothing,
//! partitions and statistics in the log, two writers at once, vacuum.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, Int32Array, Int64Array, RecordBatch, StringArray};
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::execution::SessionStateBuilder;
use datafusion::prelude::{SessionConfig, SessionContext};
use hadoop_record_datafusion::write::with_dataset_writes;
use hadoop_record_delta::{
    vacuum, write_delta, DeltaMode, DeltaTableProvider, DeltaWriteOptions, TimeTravel,
};

fn session() -> SessionContext {
    let config = SessionConfig::new().with_target_partitions(2);
    let state = SessionStateBuilder::new()
        .with_config(config)
        .with_default_features();
    SessionContext::new_with_state(with_dataset_writes(state).build())
}

/// Rows (id, city, n) with `n` from `from`.
fn rows(ctx: &SessionContext, from: i64, count: usize) -> datafusion::dataframe::DataFrame {
    let ids: Vec<i32> = (0..count as i32).collect();
    let cities: Vec<&str> = (0..count).map(|i| ["Oslo", "Lima", "Pau"][i % 3]).collect();
    let ns: Vec<i64> = (0..count as i64).map(|i| from + i).collect();
    let batch = RecordBatch::try_from_iter([
        ("id", Arc::new(Int32Array::from(ids)) as ArrayRef),
        ("city", Arc::new(StringArray::from(cities)) as ArrayRef),
        ("n", Arc::new(Int64Array::from(ns)) as ArrayRef),
    ])
    .unwrap();
    ctx.read_batch(batch).unwrap()
}

async fn read(ctx: &SessionContext, url: &str, at: TimeTravel, query: &str) -> String {
    let table = DeltaTableProvider::open(&ctx.runtime_env(), url, at)
        .await
        .unwrap();
    let _ = ctx.deregister_table("t");
    ctx.register_table("t", Arc::new(table)).unwrap();
    let batches = ctx.sql(query).await.unwrap().collect().await.unwrap();
    pretty_format_batches(&batches).unwrap().to_string()
}

/// `query` over the latest version of the table at `url`, which must give the row `row`
/// (`| a | b |`); its answer.
async fn latest_gives(ctx: &SessionContext, url: &str, query: &str, row: &str) -> String {
    let answer = read(ctx, url, TimeTravel::Latest, query).await;
    assert!(answer.contains(row), "{query}: no {row} in\n{answer}");
    answer
}

fn log(dir: &std::path::Path, version: u64) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join(format!("_delta_log/{version:020}.json"))).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_are_made_appended_overwritten_and_read_at_every_version() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("t");
    let url = dir.to_str().unwrap().to_owned();
    let ctx = session();
    let create = DeltaWriteOptions::default().with_partition_by(vec!["city".into()]);
    let made = write_delta(rows(&ctx, 0, 30), &url, &create).await.unwrap();
    assert_eq!((made.version, made.rows), (0, 30));

    // Version 0: protocol, metadata, an add per file with its partition and statistics.
    let entries = log(&dir, 0);
    let protocol = entries.iter().find_map(|e| e.get("protocol")).unwrap();
    assert_eq!(protocol["minReaderVersion"], 1);
    assert_eq!(protocol["minWriterVersion"], 2);
    let metadata = entries.iter().find_map(|e| e.get("metaData")).unwrap();
    assert_eq!(metadata["partitionColumns"], serde_json::json!(["city"]));
    let adds: Vec<&serde_json::Value> = entries.iter().filter_map(|e| e.get("add")).collect();
    assert!(!adds.is_empty());
    let mut counted = 0;
    for add in &adds {
        let path = add["path"].as_str().unwrap();
        assert!(path.starts_with("city="), "{path}");
        let city = add["partitionValues"]["city"].as_str().unwrap();
        assert!(path.starts_with(&format!("city={city}/part-")), "{path}");
        assert!(dir.join(path).is_file(), "{path}");
        let stats: serde_json::Value =
            serde_json::from_str(add["stats"].as_str().unwrap()).unwrap();
        counted += stats["numRecords"].as_u64().unwrap();
        assert!(
            stats["minValues"]["n"].as_i64().unwrap() <= stats["maxValues"]["n"].as_i64().unwrap()
        );
        assert_eq!(stats["nullCount"]["id"], 0);
    }
    assert_eq!(counted, 30);
    let query = "SELECT city, count(*) AS c, sum(n) AS s FROM t GROUP BY city ORDER BY city";
    let first = latest_gives(&ctx, &url, query, "| Lima | 10 | 145 |").await;

    // The mode is asked for: an existing table is refused, nothing written.
    let e = write_delta(rows(&ctx, 100, 3), &url, &create)
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("exists (version 0): give --mode append"),
        "{e}"
    );
    assert!(!dir.join("_delta_log/00000000000000000001.json").exists());

    // Append: version 1 with both writes' rows.
    let append = create.clone().with_mode(DeltaMode::Append);
    let added = write_delta(rows(&ctx, 100, 3), &url, &append)
        .await
        .unwrap();
    assert_eq!(added.version, 1);
    latest_gives(&ctx, &url, "SELECT count(*) AS c FROM t", "| 33 |").await;

    // A result that does not fit: refused before anything is written.
    let other = ctx.sql("SELECT 1 AS id, 'x' AS city").await.unwrap();
    let e = write_delta(other, &url, &append)
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("column `id` is integer in the table and"), "{e}");
    let e = write_delta(
        rows(&ctx, 0, 3),
        &url,
        &DeltaWriteOptions::default()
            .with_mode(DeltaMode::Append)
            .with_partition_by(vec!["id".into()]),
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(e.contains("is partitioned by (city), not (id)"), "{e}");

    // Overwrite: version 2 holds the new rows only; the old files stay for time travel.
    let files_before = DeltaTableProvider::open(&ctx.runtime_env(), &url, TimeTravel::Latest)
        .await
        .unwrap()
        .files()
        .map(str::to_owned)
        .collect::<Vec<_>>();
    let overwrite = create.clone().with_mode(DeltaMode::Overwrite);
    let replaced = write_delta(rows(&ctx, 1000, 6), &url, &overwrite)
        .await
        .unwrap();
    assert_eq!(replaced.version, 2);
    let removes = log(&dir, 2)
        .iter()
        .filter(|e| e.get("remove").is_some())
        .count();
    assert_eq!(removes, files_before.len());
    latest_gives(
        &ctx,
        &url,
        "SELECT count(*) AS c, min(n) AS m FROM t",
        "| 6 | 1000 |",
    )
    .await;
    let then = read(&ctx, &url, TimeTravel::Version(0), query).await;
    assert_eq!(then, first);
    for file in &files_before {
        assert!(
            std::path::Path::new(&format!("/{file}")).is_file(),
            "{file}"
        );
    }

    // Vacuum: the removed files go, once the retention allows it.
    let e = vacuum(&ctx.runtime_env(), &url, 0, false, false)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("--no-retention-check"), "{e}");
    let dry = vacuum(&ctx.runtime_env(), &url, 0, true, true)
        .await
        .unwrap();
    assert!(
        dry.dry_run && dry.files.len() >= files_before.len(),
        "{dry:?}"
    );
    let done = vacuum(&ctx.runtime_env(), &url, 0, false, true)
        .await
        .unwrap();
    assert_eq!(done.files.len(), dry.files.len());
    for file in &files_before {
        assert!(
            !std::path::Path::new(&format!("/{file}")).exists(),
            "{file}"
        );
    }
    latest_gives(&ctx, &url, "SELECT count(*) AS c FROM t", "| 6 |").await;
    // No staging, lease or temporary left.
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('_') && n != "_delta_log")
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_appends_at_once_both_land_and_a_directory_that_is_no_table_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let url = temp.path().join("t").to_str().unwrap().to_owned();
    let ctx = session();
    write_delta(rows(&ctx, 0, 10), &url, &DeltaWriteOptions::default())
        .await
        .unwrap();
    let append = DeltaWriteOptions::default().with_mode(DeltaMode::Append);
    let (a, b) = tokio::join!(
        write_delta(rows(&ctx, 100, 5), &url, &append),
        write_delta(rows(&ctx, 200, 7), &url, &append)
    );
    let mut versions = vec![a.unwrap().version, b.unwrap().version];
    versions.sort_unstable();
    assert_eq!(versions, [1, 2]);
    latest_gives(&ctx, &url, "SELECT count(*) AS c FROM t", "| 22 |").await;

    let other = temp.path().join("notes");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("web.jr"), "module m {}").unwrap();
    let e = write_delta(
        rows(&ctx, 0, 1),
        other.to_str().unwrap(),
        &DeltaWriteOptions::default(),
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("is not a Delta table (no _delta_log/) and is not empty (web.jr)"),
        "{e}"
    );
    let names: Vec<_> = std::fs::read_dir(&other).unwrap().collect();
    assert_eq!(names.len(), 1);
}
