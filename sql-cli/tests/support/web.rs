//! The `web.Hit` records the SQL tests query (`rcc sql`, `rcc sql --cluster`): their DDL,
//! values computed here, written framed or plain, and the answers they should give.

use std::cell::OnceCell;
use std::path::PathBuf;
use std::process::Command;

use hadoop_record::framing::paddle::{PaddleWriteOptions, PaddleWriter};
use hadoop_record::framing::v1::{FileHeader, V1FrameWriter, V1WriteOptions};
use hadoop_record::framing::FrameWrite;
use hadoop_record::schema::Schema;
use hadoop_record::{Format, RecordWriter, Value};
use hadoop_record_compiler::{load, LoadOptions};

use super::{fresh_dir, rcc_sql_in, words, RCC_SQL};

pub const DDL: &str = "module web {
    class Place { ustring city; int zip; }
    class Hit {
        int id;
        long bytes;
        boolean ok;
        ustring url;
        vector<ustring> tags;
        map<ustring, long> counts;
        Place origin;
        double score;
    }
}
";

/// A scratch directory holding the DDL, and the records of `web.Hit`.
pub struct Work {
    pub dir: PathBuf,
    pub schema: Schema,
    pub values: Vec<Value>,
    /// The path of `hits.paddle`, once written ([`Work::hits`]).
    hits: OnceCell<String>,
}

/// A fresh directory `group/name` under the target directory with the DDL, and `n`
/// records.
pub fn work_in(group: &str, name: &str, n: i64) -> Work {
    let dir = fresh_dir(group, name);
    std::fs::write(dir.join("web.jr"), DDL).unwrap();
    let model = load(&[dir.join("web.jr")], &LoadOptions::default()).unwrap();
    let schema = model.to_schema().into_schema();
    let urls = ["a.com", "b.org", "c.net", "é,'%}"];
    let cities = ["Paris", "Oslo", "Lima"];
    let values = (0..n)
        .map(|i| {
            let tags = (0..i % 4).map(|t| Value::String(format!("t{t}"))).collect();
            let counts = (0..i % 3)
                .map(|k| (Value::String(format!("k{k}")), Value::Long(i * 10 + k)))
                .collect();
            Value::Record(vec![
                Value::Int(i as i32),
                Value::Long((i * 7919) % 100_003 - 50_000),
                Value::Bool(i % 5 == 0),
                Value::String(urls[(i % 4) as usize].into()),
                Value::Vector(tags),
                Value::Map(counts),
                Value::Record(vec![
                    Value::String(cities[(i % 3) as usize].into()),
                    Value::Int((i * 31 % 1000) as i32),
                ]),
                Value::Double(i as f64 / 8.0),
            ])
        })
        .collect();
    Work {
        dir,
        schema,
        values,
        hits: OnceCell::new(),
    }
}

impl Work {
    pub fn payloads(&self, format: Format) -> Vec<Vec<u8>> {
        let id = self.schema.find("web.Hit").unwrap();
        self.values
            .iter()
            .map(|v| {
                let mut w = RecordWriter::new(Vec::new(), format);
                w.write_value(&self.schema, id, v).unwrap();
                w.into_inner().unwrap()
            })
            .collect()
    }

    /// Writes the records as `name`, binary in small Paddle chunks.
    pub fn paddle(&self, name: &str) -> PathBuf {
        let options = PaddleWriteOptions::default().with_max_chunk_size(2000);
        let w = PaddleWriter::with_options(Vec::new(), options);
        self.framed(name, w, |w| w.into_inner().unwrap())
    }

    /// The directory `name` in the work directory, and its path as an output directory
    /// (with a trailing `/`), as `-o` takes a dataset or a table.
    pub fn out_dir(&self, name: &str) -> (PathBuf, String) {
        let dir = self.dir.join(name);
        let target = format!("{}/", dir.display());
        (dir, target)
    }

    /// The path of the records as `hits.paddle` ([`Work::paddle`]), written on the first
    /// call.
    pub fn hits(&self) -> &str {
        self.hits.get_or_init(|| {
            let path = self.paddle("hits.paddle");
            path.to_str().unwrap().to_owned()
        })
    }

    /// Writes the records as the Paddle file `name` ([`Work::paddle`]) with the byte in its
    /// middle damaged (xor 0x55), and answers its path.
    pub fn damaged_paddle(&self, name: &str) -> PathBuf {
        let path = self.paddle(name);
        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x55;
        std::fs::write(&path, &bytes).unwrap();
        path
    }

    /// Writes the records as `name`, binary in RecordIO v1 frames.
    pub fn v1(&self, name: &str) -> PathBuf {
        let header = FileHeader::new();
        let w = V1FrameWriter::new(Vec::new(), "Hit", header, V1WriteOptions::default()).unwrap();
        self.framed(name, w, |w| w.into_inner().unwrap())
    }

    /// Writes the records' binary payloads through the framing writer `w` as `name`;
    /// `bytes` takes the framed file out of the finished writer.
    fn framed<W: FrameWrite>(
        &self,
        name: &str,
        mut w: W,
        bytes: impl FnOnce(W) -> Vec<u8>,
    ) -> PathBuf {
        for p in self.payloads(Format::Binary) {
            w.write_payload(&p).unwrap();
        }
        w.finish().unwrap();
        let path = self.dir.join(name);
        std::fs::write(&path, bytes(w)).unwrap();
        path
    }

    /// `rcc sql` (`rcc-sql`) with the DDL and type, then `args`.
    pub fn sql(&self, args: &[&str]) -> std::process::Output {
        let ddl = self.dir.join("web.jr");
        let mut all = vec!["--schema", ddl.to_str().unwrap(), "--type", "web.Hit"];
        all.extend_from_slice(args);
        rcc_sql_in(&self.dir, &all, b"")
    }

    /// `rcc sql` with the DDL and type, then `flags` as typed on a command line (words
    /// split at spaces), then `args` (the query, the files, whatever may hold a space).
    pub fn sql_flags(&self, flags: &str, args: &[&str]) -> std::process::Output {
        self.sql(&[&words(flags), args].concat())
    }

    /// `rcc sql --in-framing paddle FLAGS ARGS FILE` ([`Work::sql_flags`]) over the Paddle
    /// file `file` ([`Work::paddle`]'s).
    pub fn sql_paddle(&self, flags: &str, args: &[&str], file: &str) -> std::process::Output {
        let mut all = args.to_vec();
        all.push(file);
        self.sql_flags(&format!("--in-framing paddle {flags}"), &all)
    }

    /// `rcc-sql` to run in the directory over its Paddle files of records (`--schema web.jr
    /// --type web.Hit --in-framing paddle`), for a test that starts it itself: to kill it,
    /// to measure it, to give it another environment.
    pub fn paddle_sql_command(&self) -> Command {
        let mut command = Command::new(RCC_SQL);
        command.current_dir(&self.dir).args([
            "--schema",
            "web.jr",
            "--type",
            "web.Hit",
            "--in-framing",
            "paddle",
        ]);
        command
    }

    pub fn field(&self, i: usize, f: usize) -> &Value {
        match &self.values[i] {
            Value::Record(fields) => &fields[f],
            _ => unreachable!(),
        }
    }

    /// Per url: count, sum of bytes, count of ok, sum of tags: the group-by query's rows.
    pub fn by_url(&self) -> Vec<(String, i64, i64, i64, u64)> {
        let mut rows: std::collections::BTreeMap<String, (i64, i64, i64, u64)> = Default::default();
        for i in 0..self.values.len() {
            let (Value::String(url), Value::Long(bytes), Value::Bool(ok), Value::Vector(tags)) = (
                self.field(i, 3),
                self.field(i, 1),
                self.field(i, 2),
                self.field(i, 4),
            ) else {
                unreachable!()
            };
            let row = rows.entry(url.clone()).or_default();
            row.0 += 1;
            row.1 += bytes;
            row.2 += i64::from(*ok);
            row.3 += tags.len() as u64;
        }
        rows.into_iter()
            .map(|(url, (n, b, o, t))| (url, n, b, o, t))
            .collect()
    }
}

pub const BY_URL: &str = "SELECT url, count(*) AS n, sum(bytes) AS bytes, \
    sum(CASE WHEN ok THEN 1 ELSE 0 END) AS oks, sum(cardinality(tags)) AS tags \
    FROM records GROUP BY url ORDER BY url";

/// The CSV text of `by_url`, quoted as arrow's CSV writer quotes.
pub fn by_url_csv(rows: &[(String, i64, i64, i64, u64)]) -> String {
    let mut out = String::from("url,n,bytes,oks,tags\n");
    for (url, n, b, o, t) in rows {
        let url = if url.contains(',') || url.contains('"') {
            format!("\"{}\"", url.replace('"', "\"\""))
        } else {
            url.clone()
        };
        out.push_str(&format!("{url},{n},{b},{o},{t}\n"));
    }
    out
}
