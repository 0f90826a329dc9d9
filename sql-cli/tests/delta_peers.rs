//! Delta Lake tables against Delta's readers: what `rcc sql --to delta` writes (plain,
//! partitioned by one and by two columns, appended to, overwritten) is read by Spark with
//! delta-spark (the reference implementation), by the `deltalake` Python package and by
//! Polars' `read_delta` as the query's answer, at every version; Spark sees the versions and
//! uses the files' statistics. And a table Spark writes (partitioned, with its statistics,
//! a checkpoint) is read by `rcc sql --from delta` as Spark reads it, at several versions.
//!
//! The peers are pinned and fetched once (`fixture_harness::delta_peers`);
//! `HADOOP_RECORD_SKIP_PEERS=1` skips these tests.

mod support;

use std::path::{Path, PathBuf};

use fixture_harness::delta_peers::{delta_peers, DeltaPeers};
use fixture_harness::peers::target_dir;
use serde_json::{json, Value as Json};
use support::{assert_stderr_contains, rcc_in, stderr, stdout};

/// Every column type of Hadoop records: the numbers, boolean, text, bytes, vectors (of
/// vectors, of records), maps (keyed by text, ints, records) and a nested record.
const LAKE_DDL: &str = "module lake {
    class Place { ustring city; int zip; }
    class Row {
        int id; long l; float f; double d; boolean ok; ustring s; buffer b; byte y;
        ustring region;
        vector<ustring> tags; vector<vector<double>> grid;
        map<ustring, long> counts; map<int, double> by_int; map<Place, int> by_place;
        Place at; vector<Place> path;
    }
}
";

/// `--schema lake.jr --type lake.Row`.
const LAKE: [&str; 4] = ["--schema", "lake.jr", "--type", "lake.Row"];

/// The record files: 48 rows in three files, so that an unpartitioned table has three part
/// files, each with its own range of `id`.
const INPUTS: [&str; 3] = ["rows-0.bin", "rows-1.bin", "rows-2.bin"];

/// How Spark sees the columns of `lake.Row`.
const LAKE_IN_SPARK: &str = "struct<id:int,l:bigint,f:float,d:double,ok:boolean,s:string,\
    b:binary,y:tinyint,region:string,tags:array<string>,grid:array<array<double>>,\
    counts:map<string,bigint>,by_int:map<int,double>,\
    by_place:map<struct<city:string,zip:int>,int>,at:struct<city:string,zip:int>,\
    path:array<struct<city:string,zip:int>>>";

const ALL: &str = "SELECT * FROM records";

/// Computed columns: nullable, some NULL.
const COMPUTED: &str = "SELECT id, region, CASE WHEN id % 4 = 0 THEN NULL ELSE s END AS maybe, \
    l / 2 AS half, CAST(f AS DOUBLE) * 2 AS f2, at['city'] AS city FROM records";

/// Row `i` of the record files, as `rcc convert --from json` reads it: NaN, infinities and
/// -0.0, longs past 2^53 and at both ends, the largest float, text that JSON escapes.
fn lake_row(i: i64) -> Json {
    let cities = ["Paris", "Oslo", "Lima"];
    let (l, f, d) = match i {
        0 => (json!("9007199254740993"), json!("Infinity"), json!("NaN")),
        1 => (
            json!("-9223372036854775808"),
            json!(-0.0),
            json!("-Infinity"),
        ),
        2 => (
            json!("9223372036854775807"),
            json!(3.4028235e38),
            json!(1e-300),
        ),
        _ => (
            json!((i * 7919) % 100_003 - 50_000),
            json!(i as f64 / 4.0 - 3.0),
            json!(i as f64 / 8.0),
        ),
    };
    let mut by_int = vec![json!([i - 24, i as f64 / 3.0])];
    if i == 0 {
        by_int.push(json!([-2, "-Infinity"]));
    }
    let city = cities[(i % 3) as usize];
    let y = [-128, -1, 0, 127][(i % 4) as usize];
    let region = ["eu", "us", "ap"][(i % 3) as usize];
    json!({
        "id": i, "l": l, "f": f, "d": d, "ok": i % 3 == 0,
        "s": if i == 0 { "é\"\n\u{1}".to_owned() } else { format!("s{i}") },
        "b": if i == 1 { String::new() } else { format!("{:02x}{:02x}", i, 255 - i) },
        "y": y,
        "region": region,
        "tags": (0..i % 3).map(|t| format!("t{t}")).collect::<Vec<_>>(),
        "grid": if i % 4 == 0 { json!([[i as f64 * 1.5, -0.0], []]) } else { json!([]) },
        "counts": (0..i % 3).map(|k| json!([format!("k{k}"), i * 10 + k])).collect::<Vec<_>>(),
        "by_int": by_int,
        "by_place": if i % 2 == 0 {
            json!([[{"city": city, "zip": i}, i]])
        } else {
            json!([])
        },
        "at": {"city": city, "zip": i * 31 - 700},
        "path": (0..i % 3).map(|k| json!({"city": format!("c{k}"), "zip": k})).collect::<Vec<_>>(),
    })
}

/// The Python both checks share (after the harness's `spark` and `args`): `canon`, one
/// value as JSON that compares equal across readers, by its Arrow type (floats by their
/// bits' `repr`, bytes as hex, maps as sorted entries, Spark's Rows and dicts as the
/// structs and maps they are); `answer`, a reader's columns and sorted rows.
const CANON: &str = r#"
import json, struct
import pyarrow as pa
import pyarrow.parquet as pq
import deltalake, polars


def canon(v, t):
    if v is None:
        return None
    if pa.types.is_struct(t):
        d = v.asDict() if hasattr(v, "asDict") else v
        return {f.name: canon(d[f.name], f.type) for f in t}
    if pa.types.is_map(t):
        pairs = v.items() if isinstance(v, dict) else v
        entries = [[canon(k, t.key_type), canon(x, t.item_type)] for k, x in pairs]
        return {"map": sorted(entries, key=json.dumps)}
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return [canon(x, t.value_type) for x in v]
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return "b:" + (v.lower() if isinstance(v, str) else bytes(v).hex())
    if pa.types.is_floating(t):
        x = float(v)
        if pa.types.is_float32(t):
            x = struct.unpack("f", struct.pack("f", x))[0]
        return "f:" + repr(x)
    if pa.types.is_integer(t):
        return int(v)
    return v


def answer(columns, rows, schema):
    out = []
    for row in rows:
        d = row.asDict() if hasattr(row, "asDict") else row
        out.append({f.name: canon(d[f.name], f.type) for f in schema})
    return {"columns": list(columns), "rows": sorted(out, key=lambda r: json.dumps(r, sort_keys=True))}
"#;

/// Reads tables as a plan says (`args[0]`, JSON) and prints what each reader saw.
///
/// `reads`: `{name, table, version, timestamp, where, expected}`: the table at its latest
/// version, `version` or `timestamp`, read by Spark (`versionAsOf`, `timestampAsOf`, `where`
/// applied), deltalake and Polars (not for a timestamp or `where`), and `expected`, `rcc sql
/// --to json`'s answer, each as `answer`; their types are those deltalake reads from the log.
/// `tables`: `{name, table, skipping}`: Spark's history (version, operation, mode), DESCRIBE
/// DETAIL's files and partition columns, `count(*), min(id), max(id)` and whether it was
/// answered from the statistics, each file's statistics as deltalake reads them beside what
/// pyarrow counts in the file, and how many files Spark reads for each `skipping` filter.
const READS: &str = r#"
plan = json.load(open(args[0], encoding="utf-8"))
reads = {}
for r in plan["reads"]:
    p, version, at, where = r["table"], r.get("version"), r.get("timestamp"), r.get("where")
    dt = deltalake.DeltaTable(p) if version is None else deltalake.DeltaTable(p, version=version)
    schema = pa.schema(dt.schema().to_arrow())
    with open(r["expected"], encoding="utf-8") as f:
        expected = [json.loads(line) for line in f if line.strip()]
    reader = spark.read.format("delta")
    if version is not None:
        reader = reader.option("versionAsOf", version)
    if at is not None:
        reader = reader.option("timestampAsOf", at)
    df = reader.load(p)
    if where is not None:
        df = df.where(where)
    seen = {
        "expected": answer(expected[0].keys() if expected else schema.names, expected, schema),
        "spark": dict(answer(df.columns, df.collect(), schema), schema=df.schema.simpleString()),
    }
    if at is None and where is None:
        table = dt.to_pyarrow_table()
        seen["deltalake"] = answer(table.column_names, table.to_pylist(), schema)
        pl = polars.read_delta(p, version=version).to_arrow()
        seen["polars"] = answer(pl.column_names, pl.to_pylist(), schema)
    reads[r["name"]] = seen


def files_read(df):
    df.collect()
    leaves = df._jdf.queryExecution().executedPlan().collectLeaves()
    n = 0
    for i in range(leaves.size()):
        metrics = leaves.apply(i).metrics()
        if metrics.contains("numFiles"):
            n += metrics.get("numFiles").get().value()
    return n


tables = {}
for t in plan["tables"]:
    p = t["table"]
    ident = "delta.`" + p.replace("`", "``") + "`"
    history = spark.sql("DESCRIBE HISTORY " + ident).orderBy("version").collect()
    detail = spark.sql("DESCRIBE DETAIL " + ident).collect()[0]
    counted = spark.sql(f"SELECT count(*), min(id), max(id) FROM {ident}")
    files = []
    for add in pa.table(deltalake.DeltaTable(p).get_add_actions(flatten=True)).to_pylist():
        ids = pq.read_table(p + "/" + add["path"], columns=["id"]).column("id").to_pylist()
        files.append({
            "path": add["path"],
            "stats": [add["num_records"], add.get("min.id"), add.get("max.id")],
            "file": [len(ids), min(ids, default=None), max(ids, default=None)],
        })
    tables[t["name"]] = {
        "history": [[h.version, h.operation, h.operationParameters.get("mode")] for h in history],
        "files": detail.numFiles,
        "partition_columns": list(detail.partitionColumns),
        "counted": list(counted.collect()[0]),
        "from_stats": "LocalTableScan" in counted._jdf.queryExecution().executedPlan().toString(),
        "add_actions": sorted(files, key=lambda f: f["path"]),
        "files_read": {w: files_read(spark.read.format("delta").load(p).where(w)) for w in t["skipping"]},
    }
print(json.dumps({"reads": reads, "tables": tables}))
"#;

/// A fresh scratch directory `<target>/delta-peers/name` with the DDL and the record files.
fn work(name: &str) -> PathBuf {
    let dir = target_dir().join("delta-peers").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lake.jr"), LAKE_DDL).unwrap();
    for (n, input) in INPUTS.iter().enumerate() {
        let json_name = format!("rows-{n}.json");
        let lines: String = (n as i64 * 16..(n as i64 + 1) * 16)
            .map(|i| format!("{}\n", lake_row(i)))
            .collect();
        std::fs::write(dir.join(&json_name), lines).unwrap();
        let convert = [
            &["convert"][..],
            &LAKE,
            &["--from", "json", "--to", "binary"],
        ]
        .concat();
        rcc_ok(&dir, &[&convert[..], &[&json_name, input]].concat());
    }
    dir
}

/// Runs `rcc args` in `dir`, which must succeed.
fn rcc_ok(dir: &Path, args: &[&str]) -> std::process::Output {
    let out = rcc_in(dir, args, b"");
    assert!(out.status.success(), "rcc {args:?}: {}", stderr(&out));
    out
}

/// `rcc sql` over the record files with `args` then `query`.
fn sql(dir: &Path, args: &[&str], query: &str) -> std::process::Output {
    rcc_ok(
        dir,
        &[&["sql"][..], &LAKE, args, &[query], &INPUTS].concat(),
    )
}

/// `query`'s answer as `rcc sql --to json` writes it, in `dir/name.json`.
fn answer_file(dir: &Path, name: &str, query: &str) -> PathBuf {
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, stdout(&sql(dir, &["--to", "json"], query))).unwrap();
    path
}

/// `rcc sql --to delta -o TABLE/` with `args`, which says the version it wrote.
fn write_table(dir: &Path, table: &str, args: &[&str], query: &str, version: u64) {
    let target = format!("{table}/");
    let out = sql(
        dir,
        &[&["--to", "delta", "-o", &target][..], args].concat(),
        query,
    );
    assert_stderr_contains(&out, &format!("wrote version {version} of the Delta table"));
}

/// One read of a table for [`READS`].
fn read(name: &str, table: &Path, version: Option<u64>, expected: &Path) -> Json {
    json!({"name": name, "table": table, "version": version, "expected": expected})
}

/// Runs [`READS`] on `plan` in Spark.
fn run_reads(peers: &DeltaPeers, dir: &Path, plan: Json) -> Json {
    let path = dir.join("plan.json");
    std::fs::write(&path, plan.to_string()).unwrap();
    let out = peers.run_spark(&format!("{CANON}{READS}"), &[path.to_str().unwrap()]);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("the readers' answer {out:?}: {e}"))
}

/// Asserts that every reader of each read saw the expected columns and rows (and Spark the
/// columns' types `spark_schema` of the read's name, where given); the number of rows.
fn assert_reads(seen: &Json, spark_schema: &[(&str, &str)]) {
    for (name, read) in seen["reads"].as_object().unwrap() {
        let expected = &read["expected"];
        assert!(
            !expected["rows"].as_array().unwrap().is_empty(),
            "{name}: no rows"
        );
        for peer in ["spark", "deltalake", "polars"] {
            if read.get(peer).is_none() && peer != "spark" {
                continue;
            }
            assert_eq!(
                read[peer]["columns"], expected["columns"],
                "{name}: {peer}'s columns"
            );
            let (got, want) = (&read[peer]["rows"], &expected["rows"]);
            assert_eq!(
                got.as_array().unwrap().len(),
                want.as_array().unwrap().len(),
                "{name}: {peer}'s row count"
            );
            for (g, w) in got.as_array().unwrap().iter().zip(want.as_array().unwrap()) {
                assert_eq!(g, w, "{name}: a row {peer} read");
            }
        }
        if let Some((_, schema)) = spark_schema.iter().find(|(n, _)| n == name) {
            assert_eq!(read["spark"]["schema"], *schema, "{name}: Spark's types");
        }
    }
}

/// The `add` actions of `table`'s current version, replayed from its `_delta_log` JSON
/// commits (the tables `rcc` writes have no checkpoint): path → its parsed `stats`.
fn live_files(table: &Path) -> std::collections::BTreeMap<String, Json> {
    let log = table.join("_delta_log");
    let mut commits: Vec<PathBuf> = std::fs::read_dir(&log)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    commits.sort();
    let mut live = std::collections::BTreeMap::new();
    for commit in commits {
        for line in std::fs::read_to_string(&commit).unwrap().lines() {
            let action: Json = serde_json::from_str(line).unwrap();
            if let Some(add) = action.get("add") {
                let stats = add["stats"].as_str().unwrap_or_else(|| {
                    panic!("{}: an add without stats: {line}", commit.display())
                });
                live.insert(
                    add["path"].as_str().unwrap().to_owned(),
                    serde_json::from_str(stats).unwrap(),
                );
            }
            if let Some(remove) = action.get("remove") {
                live.remove(remove["path"].as_str().unwrap());
            }
        }
    }
    live
}

/// The tables `rcc sql --to delta` writes from records of every column type: plain, by one
/// column, by two, computed nullable columns, and a table appended to then overwritten.
/// Spark, deltalake and Polars read each (the last at each of its versions) as `rcc sql
/// --to json` answers the same query; Spark has its history, answers `count(*)`, `min` and
/// `max` from the files' statistics, and skips the files whose statistics exclude a filter.
#[test]
fn tables_rcc_writes_are_read_by_spark_deltalake_and_polars() {
    let Some(peers) = delta_peers() else { return };
    let dir = work("written");
    let all = answer_file(&dir, "all", ALL);
    let tables: [(&str, &[&str], &str, &Path); 4] = [
        ("plain", &[], ALL, &all),
        ("by_region", &["--partition-by", "region"], ALL, &all),
        ("by_two", &["--partition-by", "ok,y"], ALL, &all),
        (
            "computed",
            &["--partition-by", "region"],
            COMPUTED,
            &answer_file(&dir, "computed", COMPUTED),
        ),
    ];
    let mut reads = Vec::new();
    let mut checks = Vec::new();
    for (name, args, query, expected) in tables {
        write_table(
            &dir,
            name,
            &[&["--partitions", "3"][..], args].concat(),
            query,
            0,
        );
        reads.push(read(name, &dir.join(name), None, expected));
        let mut skipping = vec!["id = 20"];
        if args.contains(&"region") {
            skipping.push("region = 'ap'");
        }
        checks.push(json!({"name": name, "table": dir.join(name), "skipping": skipping}));
    }
    // Versions: 0 written, 1 appended, 2 overwritten; the old files stay for time travel.
    let first = "SELECT * FROM records WHERE id < 20";
    let more = "SELECT * FROM records WHERE id >= 40";
    let last = "SELECT * FROM records WHERE ok";
    let by_region = ["--partition-by", "region"];
    write_table(&dir, "history", &by_region, first, 0);
    write_table(
        &dir,
        "history",
        &[&by_region[..], &["--mode", "append"]].concat(),
        more,
        1,
    );
    write_table(
        &dir,
        "history",
        &[&by_region[..], &["--mode", "overwrite"]].concat(),
        last,
        2,
    );
    let history = dir.join("history");
    let answers = [
        answer_file(&dir, "v0", first),
        answer_file(
            &dir,
            "v1",
            "SELECT * FROM records WHERE id < 20 OR id >= 40",
        ),
        answer_file(&dir, "v2", last),
    ];
    for (version, expected) in answers.iter().enumerate() {
        reads.push(read(
            &format!("history@{version}"),
            &history,
            Some(version as u64),
            expected,
        ));
    }
    reads.push(read("history", &history, None, &answers[2]));
    checks.push(json!({"name": "history", "table": history, "skipping": ["id = 20"]}));

    let seen = run_reads(peers, &dir, json!({"reads": reads, "tables": checks}));
    assert_reads(
        &seen,
        &[
            ("plain", LAKE_IN_SPARK),
            ("by_region", LAKE_IN_SPARK),
            ("by_two", LAKE_IN_SPARK),
            ("history@1", LAKE_IN_SPARK),
            ("history", LAKE_IN_SPARK),
            (
                "computed",
                "struct<id:int,region:string,maybe:string,half:bigint,f2:double,city:string>",
            ),
        ],
    );

    for (name, table) in seen["tables"].as_object().unwrap() {
        let expected = &seen["reads"][name]["expected"]["rows"];
        let ids: Vec<i64> = expected
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_i64().unwrap())
            .collect();
        // count(*), min(id), max(id): answered from the statistics alone.
        assert_eq!(
            table["counted"],
            json!([ids.len(), ids.iter().min(), ids.iter().max()]),
            "{name}"
        );
        assert_eq!(
            table["from_stats"], true,
            "{name}: Spark read the files to count"
        );
        // Each file's statistics are what it holds, as deltalake reads them.
        let adds = table["add_actions"].as_array().unwrap();
        assert_eq!(
            table["files"],
            adds.len(),
            "{name}: DESCRIBE DETAIL's files"
        );
        for add in adds {
            assert_eq!(add["stats"], add["file"], "{name}: {}", add["path"]);
        }
        // Spark reads only the files whose statistics (or partition) admit a filter.
        let admitting = |f: &dyn Fn(&Json) -> bool| adds.iter().filter(|a| f(a)).count();
        let holds_20 = admitting(&|a| {
            a["stats"][1].as_i64() <= Some(20) && a["stats"][2].as_i64() >= Some(20)
        });
        assert_eq!(
            table["files_read"]["id = 20"], holds_20,
            "{name}: files read for id = 20"
        );
        if name == "plain" {
            // Three files, each of its own range of ids: two skipped.
            assert_eq!((holds_20, adds.len()), (1, 3), "{name}: {adds:?}");
        }
        if let Some(read) = table["files_read"].get("region = 'ap'") {
            let in_ap = admitting(&|a| a["path"].as_str().unwrap().starts_with("region=ap/"));
            assert_eq!(*read, in_ap, "{name}: files read for region = 'ap'");
            assert!(in_ap > 0 && in_ap < adds.len(), "{name}: {adds:?}");
        }
        // The log's statistics: every row counted once, the NULLs of `maybe` counted.
        let live = live_files(&dir.join(name));
        assert_eq!(live.len(), adds.len(), "{name}: the log's files");
        let records: u64 = live
            .values()
            .map(|s| s["numRecords"].as_u64().unwrap())
            .sum();
        assert_eq!(records, ids.len() as u64, "{name}: numRecords");
        if name == "computed" {
            let nulls: u64 = live
                .values()
                .map(|s| s["nullCount"]["maybe"].as_u64().unwrap())
                .sum();
            assert_eq!(nulls, ids.iter().filter(|i| *i % 4 == 0).count() as u64);
        }
        let partitions: &[&str] = match name.as_str() {
            "plain" => &[],
            "by_two" => &["ok", "y"],
            _ => &["region"],
        };
        assert_eq!(table["partition_columns"], json!(partitions), "{name}");
    }
    assert_eq!(
        seen["tables"]["history"]["history"],
        json!([
            [0, "WRITE", "ErrorIfExists"],
            [1, "WRITE", "Append"],
            [2, "WRITE", "Overwrite"]
        ])
    );
}

/// Partition values that Hive's directory names escape (`/`, space, `=`, `%`, `#`, non-ASCII)
/// and NULL (`__HIVE_DEFAULT_PARTITION__`): the readers find every file and read the values
/// back from the log.
#[test]
fn partition_values_that_need_escaping_are_read_back() {
    let Some(peers) = delta_peers() else { return };
    let dir = work("escaped");
    let query = "SELECT id, s, CASE WHEN id % 4 = 0 THEN NULL \
                 ELSE concat('a/b c=d%#', region, 'é') END AS place FROM records";
    write_table(&dir, "places", &["--partition-by", "place"], query, 0);
    let expected = answer_file(&dir, "places", query);
    let seen = run_reads(
        peers,
        &dir,
        json!({"reads": [read("places", &dir.join("places"), None, &expected)], "tables": []}),
    );
    assert_reads(&seen, &[("places", "struct<id:int,s:string,place:string>")]);
    // And rcc reads it back as it wrote it.
    let table = format!("{}/", dir.join("places").display());
    let back = rcc_ok(
        &dir,
        &[
            "sql",
            "--from",
            "delta",
            "--to",
            "json",
            "SELECT id, s, place FROM records",
            &table,
        ],
    );
    let sorted = |text: String| {
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        lines.sort();
        lines
    };
    assert_eq!(
        sorted(stdout(&back)),
        sorted(std::fs::read_to_string(&expected).unwrap())
    );
}

/// Spark writes a table: partitioned, with a NULL in a column, eleven commits after the first
/// (appends, an overwrite, a DELETE), so a checkpoint at version 10. `rcc sql --from delta`
/// reads it at versions before and after the checkpoint, at the latest, at a time, and with
/// a filter on the partition column, as Spark reads it.
#[test]
fn tables_spark_writes_are_read_by_rcc_sql_from_delta() {
    let Some(peers) = delta_peers() else { return };
    let dir = target_dir().join("delta-peers").join("from-spark");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("events");
    let out = peers.run_spark(SPARK_WRITES, &[table.to_str().unwrap()]);
    let times: Json = serde_json::from_str(&out).unwrap();
    assert!(
        table
            .join("_delta_log/00000000000000000010.checkpoint.parquet")
            .is_file(),
        "Spark wrote no checkpoint at version 10"
    );
    let table_dir = format!("{}/", table.display());
    let from_delta = |name: &str, at: &[&str], query: &str| {
        let args = [
            &[
                "sql", "--from", "delta", "--table", "events", "--to", "json",
            ][..],
            at,
            &[query, &table_dir],
        ]
        .concat();
        let answer = dir.join(format!("{name}.json"));
        std::fs::write(&answer, stdout(&rcc_ok(&dir, &args))).unwrap();
        answer
    };
    let all = "SELECT * FROM events";
    let mut reads = Vec::new();
    for version in [0u64, 5, 6, 9, 10] {
        let answer = from_delta(
            &format!("v{version}"),
            &["--version", &version.to_string()],
            all,
        );
        reads.push(read(
            &format!("events@{version}"),
            &table,
            Some(version),
            &answer,
        ));
    }
    reads.push(read(
        "events",
        &table,
        None,
        &from_delta("latest", &[], all),
    ));
    let at = times["6"].as_str().unwrap();
    let mut by_time = read(
        "events@time",
        &table,
        None,
        &from_delta("time", &["--timestamp", at], all),
    );
    by_time["timestamp"] = json!(at);
    reads.push(by_time);
    let filtered = from_delta(
        "d1",
        &[],
        "SELECT * FROM events WHERE day = 'd1' AND id > 70",
    );
    let mut where_d1 = read("events-d1", &table, None, &filtered);
    where_d1["where"] = json!("day = 'd1' AND id > 70");
    reads.push(where_d1);
    let seen = run_reads(peers, &dir, json!({"reads": reads, "tables": []}));
    assert_reads(&seen, &[]);
}

/// Writes the table at `args[0]` with Spark, twelve commits: rows 0..10 partitioned by
/// `day`, appends of ten rows each, an overwrite at version 6, a DELETE at version 10, an
/// append at 11. Prints each version's commit time (RFC 3339, UTC, milliseconds).
const SPARK_WRITES: &str = r#"
import json
p = args[0]


def rows(v):
    return spark.range(v * 10, v * 10 + 10).selectExpr(
        "CAST(id AS INT) AS id",
        "id * 1000000007 AS big",
        "CAST(id AS DOUBLE) / 8 AS score",
        "CAST(id AS FLOAT) / 4 AS ratio",
        "id % 2 = 0 AS ok",
        "CASE WHEN id % 7 = 0 THEN NULL ELSE concat('u', id) END AS url",
        "CAST(id % 100 - 50 AS TINYINT) AS small",
        "CAST(concat('b', id) AS BINARY) AS raw",
        "array(concat('t', id), 'x') AS tags",
        "map('k', id, 'j', -id) AS counts",
        "named_struct('city', concat('c', id % 3), 'zip', CAST(id AS INT)) AS origin",
        "concat('d', id % 3) AS day",
    )


rows(0).write.format("delta").partitionBy("day").save(p)
for v in range(1, 12):
    if v == 6:
        rows(v).write.format("delta").mode("overwrite").save(p)
    elif v == 10:
        spark.sql("DELETE FROM delta.`" + p + "` WHERE id % 5 = 0")
    else:
        rows(v).write.format("delta").mode("append").save(p)
history = spark.sql("DESCRIBE HISTORY delta.`" + p + "`").selectExpr(
    "version", "date_format(timestamp, \"yyyy-MM-dd'T'HH:mm:ss.SSS'Z'\") AS at"
)
print(json.dumps({str(h.version): h.at for h in history.collect()}))
"#;
