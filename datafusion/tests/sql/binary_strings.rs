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
        .with_encoding(Format::Jute)
        .with_nullable(true);
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

    /// Each of `exprs`, for each row in the order of `i`, gives a `ty` column of `want`
    /// (`|` between rows).
    async fn gives(&self, exprs: &[&str], ty: DataType, want: &str) {
        let want: Vec<String> = want.split('|').map(str::to_owned).collect();
        for expr in exprs {
            assert_eq!(self.each(expr).await, (ty.clone(), want.clone()), "{expr}");
        }
    }

    async fn error(&self, sql: &str) -> String {
        match self.ctx.sql(sql).await {
            Ok(frame) => frame.collect().await.unwrap_err().to_string(),
            Err(e) => e.to_string(),
        }
    }
}

/// Every length of a binary string counts bytes; of text, `octet_length` counts bytes and
/// the others characters.
#[tokio::test]
async fn lengths_of_a_binary_string_count_bytes_and_of_text_characters() {
    let t = blobs().await;
    // DuckDB: octet_length(b) (it has no length(BLOB)).
    let lengths = [
        "octet_length(b)",
        "length(b)",
        "char_length(b)",
        "character_length(b)",
    ];
    t.gives(&lengths, DataType::Int32, "7|0|NULL|3|2|1|1|3")
        .await;
    // Text: the bytes of its UTF-8, as before.
    t.gives(&["octet_length(s)"], DataType::Int32, "5|0|NULL|3|2|1|1|1")
        .await;
    // A ustring still counts characters: é€ is 2, not 5.
    t.gives(&["length(s)"], DataType::Int32, "2|0|NULL|3|1|1|1|1")
        .await;
}

#[tokio::test]
async fn substring_counts_bytes_and_gives_binary() {
    let t = blobs().await;
    let binary = DataType::Binary;
    // DuckDB: b[2:4].
    let exprs = [
        "substring(b FROM 2 FOR 3)",
        "substring(b, 2, 3)",
        "substr(b, 2, 3)",
    ];
    t.gives(&exprs, binary.clone(), "01ff80||NULL|6263|a9|||ff00")
        .await;
    // DuckDB: b[2:].
    let exprs = ["substring(b FROM 2)", "substr(b, 2)"];
    t.gives(&exprs, binary.clone(), "01ff80616263||NULL|6263|a9|||ff00")
        .await;
    // Positions before the first byte count, as standard SQL says; DuckDB: b[1:1].
    let exprs = ["substring(b FROM 0 FOR 2)", "substring(b, -1, 3)"];
    t.gives(&exprs, binary.clone(), "00||NULL|61|c3|7f|80|ff")
        .await;
    // Nothing, past the end or none asked for; DuckDB: b[3:2], b[9:10].
    let exprs = ["substring(b, 3, 0)", "substring(b, 9, 2)"];
    t.gives(&exprs, binary.clone(), "||NULL|||||").await;
    // Start and length from columns; a null one gives null.
    let exprs = ["substring(b FROM i - 6 FOR octet_length(x))"];
    t.gives(&exprs, binary, "||NULL|||NULL|80|ff00").await;
    // Text is still cut by characters.
    t.gives(
        &["substring(s FROM 2 FOR 1)"],
        DataType::Utf8View,
        "€||NULL|b||||",
    )
    .await;
    let e = t.error("SELECT substring(b, 1, -1) FROM blobs").await;
    assert!(
        e.contains("negative substring length not allowed: -1"),
        "{e}"
    );
}

#[tokio::test]
async fn position_finds_bytes() {
    let t = blobs().await;
    let int = DataType::Int32;
    // DuckDB: the least k with b[k : k + octet_length(x) - 1] = x, else 0.
    let exprs = ["position(x IN b)", "strpos(b, x)", "instr(b, x)"];
    t.gives(&exprs, int.clone(), "4|1|NULL|2|2|NULL|0|2").await;
    t.gives(&["position(X'80' IN b)"], int.clone(), "4|0|NULL|0|0|0|1|0")
        .await;
    // Text beside a binary string stands for its UTF-8 bytes.
    t.gives(&["position('bc' IN b)"], int.clone(), "6|0|NULL|2|0|0|0|0")
        .await;
    // In text, characters: € is the second character of é€, at byte 3.
    t.gives(&["position('€' IN s)"], int, "2|0|NULL|0|0|0|0|0")
        .await;
}

#[tokio::test]
async fn concatenation_gives_binary() {
    let t = blobs().await;
    // DuckDB: b || x, a BLOB.
    let want = "0001ff8061626380||NULL|6162636263|c3a9a9|NULL|808080|ffff00ff00";
    t.gives(&["b || x"], DataType::Binary, want).await;
    // DuckDB: b || '\xFF'::BLOB.
    let want = "0001ff80616263ff|ff|NULL|616263ff|c3a9ff|7fff|80ff|ffff00ff";
    t.gives(&["b || X'FF'"], DataType::Binary, want).await;
}

#[tokio::test]
async fn comparisons_are_bytewise_unsigned() {
    let t = blobs().await;
    let boolean = DataType::Boolean;
    // DuckDB: b = 'abc'::BLOB, b < '\x80'::BLOB, b > '\x7F'::BLOB, b <= x.
    let abc = "false|false|NULL|true|false|false|false|false";
    t.gives(&["b = X'616263'", "b = 'abc'"], boolean.clone(), abc)
        .await;
    let below = "true|true|NULL|true|false|true|false|false";
    t.gives(&["b < X'80'"], boolean.clone(), below).await;
    let above = "false|false|NULL|false|true|false|true|true";
    t.gives(&["b > X'7F'"], boolean.clone(), above).await;
    let at_most = "true|true|NULL|true|false|NULL|true|false";
    t.gives(&["b <= x"], boolean, at_most).await;
    // DuckDB: ORDER BY b NULLS LAST, i and ORDER BY b DESC NULLS LAST, i.
    for (order, want) in [
        ("b NULLS LAST, i", "2|1|4|6|7|5|8|3"),
        ("b DESC NULLS LAST, i", "8|5|7|6|4|1|2|3"),
    ] {
        let (_, got) = t
            .column(&format!("SELECT i FROM blobs ORDER BY {order}"))
            .await;
        assert_eq!(got.join("|"), want, "{order}");
    }
    // DuckDB: min(b), max(b), min(x), max(x).
    for (aggregate, want) in [
        ("min(b)", ""),
        ("max(b)", "ffff00"),
        ("min(x)", ""),
        ("max(x)", "ff00"),
    ] {
        let got = t.column(&format!("SELECT {aggregate} FROM blobs")).await;
        assert_eq!(
            got,
            (DataType::Binary, vec![want.to_owned()]),
            "{aggregate}"
        );
    }
}

#[tokio::test]
async fn encode_hex_is_lower_case() {
    let t = blobs().await;
    // DuckDB: lower(hex(b)) (its hex is upper-case; encode(b, 'hex') is PostgreSQL's).
    let want = "0001ff80616263||NULL|616263|c3a9|7f|80|ffff00";
    t.gives(&["encode(b, 'hex')"], DataType::Utf8, want).await;
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
    let options = RecordTableOptions::new(&ddl, "bin.Blob").with_encoding(Format::Jute);
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
