//! SQL's binary-string functions on `buffer` columns answer as DuckDB does over the same
//! bytes: one test per function, over a jute file with bytes ≥ 0x80, empty buffers and
//! nulls (jute's nullable types).
//!
//! The expected answers are DuckDB 1.5.6's, for a table `t(i INT, b BLOB, x BLOB)` of the
//! same rows, in the order of `i`. DuckDB lacks some of the functions on BLOB; there the
//! answer is DuckDB's for what standard SQL defines the function as:
//!
//! - `length(b)`: `octet_length(b)`;
//! - `substring(b FROM s FOR n)`: the slice `b[max(s, 1) : s + n - 1]`;
//! - `position(x IN b)`: the least `k` with `b[k : k + octet_length(x) - 1] = x`, else 0;
//! - `encode(b, 'hex')`: `lower(hex(b))`.
//!
//! `rcc sql`'s test (cli/tests/cli_sql.rs) asks a live DuckDB the same.

use datafusion::arrow::array::Array;
use datafusion::arrow::datatypes::DataType;
use datafusion::arrow::util::display::array_value_to_string;
use datafusion::prelude::SessionContext;
use hadoop_record::{Format, RecordWriter, Value};
use hadoop_record_compiler::{load, LoadOptions};
use hadoop_record_datafusion::{RecordTableOptions, SessionContextExt};

const DDL: &str = "module bin { class Blob { int i; buffer b; buffer x; ustring s; } }";

/// A row `(i, b, x, s)`; `None` is null.
type Row = (
    i32,
    Option<&'static [u8]>,
    Option<&'static [u8]>,
    Option<&'static str>,
);

const ROWS: [Row; 8] = [
    (1, Some(b"\x00\x01\xff\x80abc"), Some(b"\x80"), Some("é€")),
    (2, Some(b""), Some(b""), Some("")),
    (3, None, Some(b"a"), None),
    (4, Some(b"abc"), Some(b"bc"), Some("abc")),
    (5, Some("é".as_bytes()), Some(b"\xa9"), Some("é")),
    (6, Some(b"\x7f"), None, Some("x")),
    (7, Some(b"\x80"), Some(b"\x80\x80"), Some("y")),
    (8, Some(b"\xff\xff\x00"), Some(b"\xff\x00"), Some("z")),
];

/// A table `blobs` of [`ROWS`] in a jute file, with nullable buffers; the directory lives
/// as long as the context.
struct Blobs {
    _dir: tempfile::TempDir,
    ctx: SessionContext,
}

async fn blobs() -> Blobs {
    let dir = tempfile::tempdir().unwrap();
    let ddl = dir.path().join("bin.jr");
    std::fs::write(&ddl, DDL).unwrap();
    let schema = load(&[&ddl], &LoadOptions::default())
        .unwrap()
        .to_schema()
        .into_schema();
    let id = schema.find("bin.Blob").unwrap();
    let bytes = |b: Option<&[u8]>| b.map_or(Value::Null, |b| Value::Buffer(b.to_vec()));
    let mut w = RecordWriter::new(Vec::new(), Format::Jute);
    for (i, b, x, s) in ROWS {
        let s = s.map_or(Value::Null, |s| Value::String(s.into()));
        let row = Value::Record(vec![Value::Int(i), bytes(b), bytes(x), s]);
        w.write_value(&schema, id, &row).unwrap();
    }
    let file = dir.path().join("blobs.jute");
    std::fs::write(&file, w.into_inner().unwrap()).unwrap();
    let ctx = SessionContext::new();
    let options = RecordTableOptions::new(&ddl, "bin.Blob")
        .encoding(Format::Jute)
        .nullable(true);
    ctx.register_records("blobs", options, &[file.to_str().unwrap()])
        .await
        .unwrap();
    Blobs { _dir: dir, ctx }
}

impl Blobs {
    /// The one column `sql` gives: its type, and each value as text (bytes in lower-case
    /// hex, `NULL` for null).
    async fn column(&self, sql: &str) -> (DataType, Vec<String>) {
        let batches = self.ctx.sql(sql).await.unwrap().collect().await.unwrap();
        let mut values = Vec::new();
        for b in &batches {
            assert_eq!(b.num_columns(), 1, "{sql}");
            let c = b.column(0);
            for row in 0..c.len() {
                values.push(if c.is_null(row) {
                    "NULL".to_owned()
                } else {
                    array_value_to_string(c, row).unwrap()
                });
            }
        }
        (batches[0].schema().field(0).data_type().clone(), values)
    }

    /// `expr` for each row, in the order of `i`.
    async fn each(&self, expr: &str) -> (DataType, Vec<String>) {
        self.column(&format!("SELECT {expr} FROM blobs ORDER BY i"))
            .await
    }

    async fn error(&self, sql: &str) -> String {
        match self.ctx.sql(sql).await {
            Ok(frame) => frame.collect().await.unwrap_err().to_string(),
            Err(e) => e.to_string(),
        }
    }
}

fn texts(values: &[&str]) -> Vec<String> {
    values.iter().map(|v| v.to_string()).collect()
}

#[tokio::test]
async fn octet_length_counts_bytes() {
    let t = blobs().await;
    // DuckDB: octet_length(b).
    let duckdb = texts(&["7", "0", "NULL", "3", "2", "1", "1", "3"]);
    assert_eq!(t.each("octet_length(b)").await, (DataType::Int32, duckdb));
    // Text: the bytes of its UTF-8, as before.
    let (_, octets) = t.each("octet_length(s)").await;
    assert_eq!(octets, texts(&["5", "0", "NULL", "3", "2", "1", "1", "1"]));
}

#[tokio::test]
async fn length_of_a_binary_string_counts_bytes_and_of_text_characters() {
    let t = blobs().await;
    // DuckDB: octet_length(b) (it has no length(BLOB)).
    let duckdb = texts(&["7", "0", "NULL", "3", "2", "1", "1", "3"]);
    for f in ["length", "char_length", "character_length"] {
        assert_eq!(
            t.each(&format!("{f}(b)")).await,
            (DataType::Int32, duckdb.clone()),
            "{f}"
        );
    }
    // A ustring still counts characters: é€ is 2, not 5.
    let (_, chars) = t.each("length(s)").await;
    assert_eq!(chars, texts(&["2", "0", "NULL", "3", "1", "1", "1", "1"]));
}

#[tokio::test]
async fn substring_counts_bytes_and_gives_binary() {
    let t = blobs().await;
    // DuckDB: b[2:4].
    let two_for_three = texts(&["01ff80", "", "NULL", "6263", "a9", "", "", "ff00"]);
    for expr in [
        "substring(b FROM 2 FOR 3)",
        "substring(b, 2, 3)",
        "substr(b, 2, 3)",
    ] {
        assert_eq!(
            t.each(expr).await,
            (DataType::Binary, two_for_three.clone()),
            "{expr}"
        );
    }
    // DuckDB: b[2:].
    let from_two = texts(&["01ff80616263", "", "NULL", "6263", "a9", "", "", "ff00"]);
    assert_eq!(t.each("substring(b FROM 2)").await.1, from_two);
    assert_eq!(t.each("substr(b, 2)").await.1, from_two);
    // Positions before the first byte count, as standard SQL says; DuckDB: b[1:1].
    let first = texts(&["00", "", "NULL", "61", "c3", "7f", "80", "ff"]);
    assert_eq!(t.each("substring(b FROM 0 FOR 2)").await.1, first);
    assert_eq!(t.each("substring(b, -1, 3)").await.1, first);
    // Nothing, past the end or none asked for; DuckDB: b[3:2], b[9:10].
    let empty = texts(&["", "", "NULL", "", "", "", "", ""]);
    assert_eq!(t.each("substring(b, 3, 0)").await.1, empty);
    assert_eq!(t.each("substring(b, 9, 2)").await.1, empty);
    // Start and length from columns; a null one gives null.
    assert_eq!(
        t.each("substring(b FROM i - 6 FOR octet_length(x))")
            .await
            .1,
        texts(&["", "", "NULL", "", "", "NULL", "80", "ff00"])
    );
    // Text is still cut by characters.
    let (ty, text) = t.each("substring(s FROM 2 FOR 1)").await;
    assert_eq!(ty, DataType::Utf8);
    assert_eq!(text, texts(&["€", "", "NULL", "b", "", "", "", ""]));
    let e = t.error("SELECT substring(b, 1, -1) FROM blobs").await;
    assert!(
        e.contains("negative substring length not allowed: -1"),
        "{e}"
    );
}

#[tokio::test]
async fn position_finds_bytes() {
    let t = blobs().await;
    // DuckDB: the least k with b[k : k + octet_length(x) - 1] = x, else 0.
    let duckdb = texts(&["4", "1", "NULL", "2", "2", "NULL", "0", "2"]);
    for expr in ["position(x IN b)", "strpos(b, x)", "instr(b, x)"] {
        assert_eq!(
            t.each(expr).await,
            (DataType::Int32, duckdb.clone()),
            "{expr}"
        );
    }
    assert_eq!(
        t.each("position(X'80' IN b)").await.1,
        texts(&["4", "0", "NULL", "0", "0", "0", "1", "0"])
    );
    // Text beside a binary string stands for its UTF-8 bytes.
    assert_eq!(
        t.each("position('bc' IN b)").await.1,
        texts(&["6", "0", "NULL", "2", "0", "0", "0", "0"])
    );
    // In text, characters: € is the second character of é€, at byte 3.
    assert_eq!(t.each("position('€' IN s)").await.1[0], "2");
}

#[tokio::test]
async fn concatenation_gives_binary() {
    let t = blobs().await;
    // DuckDB: b || x, a BLOB.
    let duckdb = texts(&[
        "0001ff8061626380",
        "",
        "NULL",
        "6162636263",
        "c3a9a9",
        "NULL",
        "808080",
        "ffff00ff00",
    ]);
    assert_eq!(t.each("b || x").await, (DataType::Binary, duckdb));
    // DuckDB: b || '\xFF'::BLOB.
    assert_eq!(
        t.each("b || X'FF'").await.1,
        texts(&[
            "0001ff80616263ff",
            "ff",
            "NULL",
            "616263ff",
            "c3a9ff",
            "7fff",
            "80ff",
            "ffff00ff"
        ])
    );
}

#[tokio::test]
async fn comparisons_are_bytewise_unsigned() {
    let t = blobs().await;
    // DuckDB: b = 'abc'::BLOB, b < '\x80'::BLOB, b > '\x7F'::BLOB, b <= x.
    let cases = [
        (
            "b = X'616263'",
            [
                "false", "false", "NULL", "true", "false", "false", "false", "false",
            ],
        ),
        (
            "b = 'abc'",
            [
                "false", "false", "NULL", "true", "false", "false", "false", "false",
            ],
        ),
        (
            "b < X'80'",
            [
                "true", "true", "NULL", "true", "false", "true", "false", "false",
            ],
        ),
        (
            "b > X'7F'",
            [
                "false", "false", "NULL", "false", "true", "false", "true", "true",
            ],
        ),
        (
            "b <= x",
            [
                "true", "true", "NULL", "true", "false", "NULL", "true", "false",
            ],
        ),
    ];
    for (expr, duckdb) in cases {
        assert_eq!(
            t.each(expr).await,
            (DataType::Boolean, texts(&duckdb)),
            "{expr}"
        );
    }
    // DuckDB: ORDER BY b NULLS LAST, i and ORDER BY b DESC NULLS LAST, i.
    let (_, up) = t
        .column("SELECT i FROM blobs ORDER BY b NULLS LAST, i")
        .await;
    assert_eq!(up, texts(&["2", "1", "4", "6", "7", "5", "8", "3"]));
    let (_, down) = t
        .column("SELECT i FROM blobs ORDER BY b DESC NULLS LAST, i")
        .await;
    assert_eq!(down, texts(&["8", "5", "7", "6", "4", "1", "2", "3"]));
    // DuckDB: min(b), max(b), min(x), max(x).
    for (expr, duckdb) in [
        ("min(b)", ""),
        ("max(b)", "ffff00"),
        ("min(x)", ""),
        ("max(x)", "ff00"),
    ] {
        let (ty, got) = t.column(&format!("SELECT {expr} FROM blobs")).await;
        assert_eq!((ty, got), (DataType::Binary, texts(&[duckdb])), "{expr}");
    }
}

#[tokio::test]
async fn encode_hex_is_lower_case() {
    let t = blobs().await;
    // DuckDB: lower(hex(b)) (its hex is upper-case; encode(b, 'hex') is PostgreSQL's).
    let duckdb = texts(&[
        "0001ff80616263",
        "",
        "NULL",
        "616263",
        "c3a9",
        "7f",
        "80",
        "ffff00",
    ]);
    assert_eq!(t.each("encode(b, 'hex')").await, (DataType::Utf8, duckdb));
}

/// The session keeps all else: every other function name means what it meant, its id and
/// its tables stay, and a second table does not install the functions again.
#[tokio::test]
async fn the_session_keeps_everything_else() {
    let before = SessionContext::new().state();
    let t = blobs().await;
    let state = t.ctx.state();
    assert_eq!(state.session_id(), t.ctx.session_id());
    let ours = ["character_length", "length", "char_length", "octet_length"]
        .into_iter()
        .chain(["substr", "substring", "strpos", "instr", "position"])
        .collect::<Vec<_>>();
    for (name, f) in before.scalar_functions() {
        let now = &state.scalar_functions()[name];
        if ours.contains(&name.as_str()) {
            assert_ne!(now, f, "{name}");
            assert_eq!(now.name(), f.name(), "{name}");
        } else {
            assert_eq!(now, f, "{name}");
        }
    }
    assert_eq!(
        state.scalar_functions().len(),
        before.scalar_functions().len()
    );
    assert_eq!(
        state.expr_planners().len(),
        before.expr_planners().len() + 1
    );

    let dir = tempfile::tempdir().unwrap();
    let (ddl, path) = (dir.path().join("bin.jr"), dir.path().join("more.jute"));
    std::fs::write(&ddl, DDL).unwrap();
    std::fs::write(&path, []).unwrap();
    let options = RecordTableOptions::new(&ddl, "bin.Blob").encoding(Format::Jute);
    t.ctx
        .register_records("more", options, &[path.to_str().unwrap()])
        .await
        .unwrap();
    let state = t.ctx.state();
    assert_eq!(
        state.expr_planners().len(),
        before.expr_planners().len() + 1
    );
    assert!(t.ctx.table_exist("blobs").unwrap() && t.ctx.table_exist("more").unwrap());
}
