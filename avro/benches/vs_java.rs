//! `rcc convert --to avro` and `--from avro` against Java Avro 1.12.2's `DataFileWriter` and
//! `DataFileReader` (`GenericRecord`s, the same codec and block size), and `--to avro`
//! against `--to parquet`, side by side in one run. Targets (issue 56): `--to avro` and
//! `--from avro` at least 3× Java's throughput; `--to avro` at most 1.25× the CPU of `--to
//! parquet`.
//!
//! The records: `bench.Click` (`cli/benches/click/click.jr`, the `--to parquet` benchmark's:
//! a long, a URL, a country, an int, a double, a boolean, made as `gen.py` makes them) and
//! `web.Hit` (`examples/sql/web.jr`, the Delta bench's: a vector of strings and a nested
//! record too), made the same every run and written once as Hadoop binary.
//!
//! Ours is `rcc convert` itself, run in this process (`hadoop_record_cli::convert::run` on
//! arguments parsed as the command line parses them): the binary file → `--to avro` (deflate,
//! the default, null, snappy and zstandard) → a file; that file → `--from avro --to binary` →
//! a file, checked byte for byte equal to the input; the binary file → `--to parquet` (zstd,
//! the default, and none), read back with `--from parquet` and checked too. Java: one JVM per
//! pass and shape (`tests/interop/java/avro`, `Bench.java`) reads our null-codec file into
//! memory once, untimed, then each round writes those `GenericRecord`s to a file with
//! `DataFileWriter` (blocks of 256 KiB, as ours) and reads the file back with
//! `DataFileReader` and one reused record, counting them. So Java's write starts from
//! records already in memory where ours reads and decodes the Hadoop binary, and Java's read
//! makes no output where ours writes the Hadoop binary; both read and write files (page
//! cache). Java's files are read back by ours to the input's bytes. For scale, deflate alone
//! is timed too (zlib, as Java, and libdeflate, as ours): the null file's bytes compressed
//! in 256 KiB blocks, memory to memory; and ours by part, memory to memory, to show where the
//! time goes: the direct way `rcc convert` takes here (`AvroRecordWriter`,
//! `AvroRecordReader`: Hadoop binary to Avro and back value by value, no Arrow), and the way
//! through Arrow it takes for other encodings, schema resolution and maps.
//!
//! Each figure is the fastest of its rounds, by three clocks: wall time, the timing thread's
//! CPU time (for Java it leaves out the JIT's and the collector's threads, which favours
//! Java), and the process's CPU time (every thread's). Two passes, each Java then ours per
//! shape, so both see the same load; the load average is printed with the results.
//!
//! ```sh
//! cargo bench -p hadoop-record-avro --bench vs_java
//! ```
//!
//! `AVRO_BENCH_RECORDS` sets the records per shape (default 1,000,000), `AVRO_BENCH_ROUNDS`
//! the rounds per pass, JVM and step (default 5). With `HADOOP_RECORD_SKIP_PEERS=1` only ours
//! is timed.

use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::Parser;
use fixture_harness::bench::{env_or, load_average, measuring, process_cpu, thread_cpu, web_hit};
use hadoop_record::archive::binary::RawInput;
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::{Format, RecordWriter, Value};
use hadoop_record_arrow::decode::DEFAULT_BATCH_SIZE;
use hadoop_record_arrow::{BatchEncoder, BatchReader, DecodeOptions, EncodeOptions};
use hadoop_record_avro::{
    AvroCodec, AvroReader, AvroRecordReader, AvroRecordWriter, AvroWriter, Transcoder,
};
use hadoop_record_cli::convert::ConvertArgs;
use hadoop_record_cli::{ColorWhen, Context};
use hadoop_record_compiler::LoadOptions;
use interop_tests::bench_records::Rng;
use interop_tests::java::Jdk;

/// Throughput targets: ours at least this many times Java's.
const JAVA_TARGET: f64 = 3.0;
/// `--to avro` at most this many times `--to parquet`'s CPU.
const PARQUET_TARGET: f64 = 1.25;
/// Java's blocks, as ours (`BLOCK_BYTES` in `src/writer.rs`).
const SYNC_INTERVAL: u32 = 256 * 1024;
/// The Avro codecs timed, the default first (each at its default level, ours as Java's:
/// deflate 6, zstandard 3).
const CODECS: [&str; 4] = ["deflate", "null", "snappy", "zstandard"];
/// `--parquet-compression`s timed, the default first.
const PARQUET: [&str; 2] = ["zstd", "none"];
/// The steps that time deflate alone: zlib (through flate2), which Java's `Deflater` is,
/// and libdeflate, which `--to avro` compresses its blocks with.
const DEFLATE_ALONE: [&str; 2] = [
    "deflate alone (zlib, level 6)",
    "deflate alone (libdeflate, level 6)",
];

/// `rcc convert`'s arguments, as the command line parses them.
#[derive(Parser)]
#[command(name = "convert")]
struct Convert {
    #[command(flatten)]
    args: ConvertArgs,
}

/// Wall, thread CPU and process CPU time, in nanoseconds.
#[derive(Debug, Clone, Copy)]
struct Time {
    wall: u64,
    thread: u64,
    process: u64,
}

impl Time {
    const NONE: Time = Time {
        wall: u64::MAX,
        thread: u64::MAX,
        process: u64::MAX,
    };

    /// The fastest of both, clock by clock.
    fn min(self, other: Time) -> Time {
        Time {
            wall: self.wall.min(other.wall),
            thread: self.thread.min(other.thread),
            process: self.process.min(other.process),
        }
    }

    fn clocks(self) -> [u64; 3] {
        [self.wall, self.thread, self.process]
    }
}

/// The fastest of `rounds` runs of `f`, clock by clock.
fn best(rounds: usize, mut f: impl FnMut()) -> Time {
    (0..rounds)
        .map(|_| timed(&mut f))
        .fold(Time::NONE, Time::min)
}

/// The time `f` takes.
fn timed(f: impl FnOnce()) -> Time {
    let start = (Instant::now(), thread_cpu(), process_cpu());
    f();
    Time {
        wall: start.0.elapsed().as_nanos() as u64,
        thread: (thread_cpu() - start.1).as_nanos() as u64,
        process: (process_cpu() - start.2).as_nanos() as u64,
    }
}

/// A record type timed: its DDL, its name, and how its `k`-th record of `n` is made.
struct Shape {
    ddl: PathBuf,
    type_name: &'static str,
    make: fn(u64, u64, &mut Gen) -> Value,
}

/// The records' random source, and the last timestamp made (they ascend).
struct Gen {
    rng: Rng,
    ts: i64,
}

/// `bench.Click` as `cli/benches/click/gen.py` makes it: timestamps ascending, URLs of ~40
/// characters from 8 paths and 100,000 ids, 10 countries, 6 statuses, latencies of 3
/// decimals, 30% cached.
fn click(_k: u64, _n: u64, gen: &mut Gen) -> Value {
    const PATHS: [&str; 8] = [
        "home", "cart", "search", "item", "checkout", "account", "help", "deals",
    ];
    const COUNTRIES: [&str; 10] = ["DE", "FR", "US", "GB", "JP", "BR", "IN", "NL", "SE", "ES"];
    const STATUSES: [i32; 6] = [200, 200, 200, 301, 404, 500];
    gen.ts += (gen.rng.next_u64() % 100) as i64;
    let ts = gen.ts;
    let mut pick = |len: usize| (gen.rng.next_u64() % len as u64) as usize;
    Value::Record(vec![
        Value::Long(ts),
        Value::String(format!(
            "https://shop.example.com/{}/{}",
            PATHS[pick(PATHS.len())],
            pick(100_000)
        )),
        Value::String(COUNTRIES[pick(COUNTRIES.len())].to_owned()),
        Value::Int(STATUSES[pick(STATUSES.len())]),
        Value::Double((1 + pick(499_999)) as f64 / 1000.0),
        Value::Bool(pick(10) < 3),
    ])
}

/// `web.Hit` as the Delta benchmarks make it (`fixture_harness::bench::web_hit`).
fn hit(k: u64, n: u64, gen: &mut Gen) -> Value {
    web_hit(k, n, gen.rng.next_u64())
}

/// One shape's files and what was measured.
struct Case {
    shape: Shape,
    /// The Hadoop binary input.
    input: PathBuf,
    input_bytes: usize,
    /// Ours, by step name (`to avro deflate`, `from avro null`, `to parquet zstd`, …).
    ours: HashMap<String, Time>,
    /// Output bytes, by step name.
    out_bytes: HashMap<String, u64>,
    /// Java's, by step name (`write deflate`, `read null`).
    java: HashMap<String, Time>,
    java_bytes: HashMap<String, u64>,
    /// The parts of ours, in memory, by name (`binary → batches`, …), in order.
    parts: Vec<(String, Time)>,
    /// The record type, and `rcc -l avro`'s schema for it.
    schema: Arc<Schema>,
    id: RecordId,
    avsc: String,
}

impl Case {
    /// Makes `n` records of `shape` as Hadoop binary in `dir`.
    fn new(shape: Shape, n: u64, dir: &Path) -> Case {
        let model = hadoop_record_compiler::load(&[&shape.ddl], &LoadOptions::default())
            .unwrap_or_else(|_| panic!("{} loads", shape.ddl.display()));
        let ids = model.to_schema();
        let schema = Arc::new(ids.schema().clone());
        let id: RecordId = ids.find(shape.type_name).expect("the bench's record type");
        let index = model
            .find(shape.type_name)
            .expect("the bench's record type");
        let avsc = hadoop_record_compiler::backend::avro::schema(&model, index);
        let input = dir.join(format!("{}.bin", shape.type_name));
        let file = BufWriter::new(std::fs::File::create(&input).unwrap());
        let mut w = RecordWriter::new(file, Format::Binary);
        let mut gen = Gen {
            rng: Rng::seeded(),
            ts: 1_700_000_000_000,
        };
        for k in 0..n {
            w.write_value(&schema, id, &(shape.make)(k, n, &mut gen))
                .expect("a bench record");
        }
        w.into_inner().unwrap().flush().unwrap();
        let input_bytes = std::fs::metadata(&input).unwrap().len() as usize;
        Case {
            shape,
            input,
            input_bytes,
            ours: HashMap::new(),
            out_bytes: HashMap::new(),
            java: HashMap::new(),
            java_bytes: HashMap::new(),
            parts: Vec::new(),
            schema,
            id,
            avsc,
        }
    }

    fn path(&self, what: &str) -> PathBuf {
        self.input.with_extension(what)
    }

    /// `rcc convert --schema DDL --type TYPE` with `words` after, parsed (untimed).
    fn args(&self, words: &[&str]) -> ConvertArgs {
        let ddl = self.shape.ddl.to_str().unwrap();
        let head = ["convert", "--schema", ddl, "--type", self.shape.type_name];
        Convert::try_parse_from(head.iter().chain(words))
            .unwrap_or_else(|e| panic!("rcc convert {words:?}: {e}"))
            .args
    }

    /// Runs `rcc convert` with `words`, in this process.
    fn convert(&self, words: &[&str]) -> Time {
        let args = self.args(words);
        let context = Context::new(ColorWhen::Never);
        let mut ok = false;
        let time = timed(|| ok = hadoop_record_cli::convert::run(&context, args));
        assert!(ok, "rcc convert {words:?} failed");
        time
    }

    /// The `--to`/`--from` steps: a name and the conversion's words.
    fn steps(&self) -> Vec<(String, Vec<String>)> {
        let input = self.input.display().to_string();
        let mut steps = Vec::new();
        for codec in CODECS {
            let avro = self.path(&format!("{codec}.avro")).display().to_string();
            let words = ["--to", "avro", "--avro-codec", codec, &input, &avro];
            steps.push((format!("to avro {codec}"), words.map(String::from).to_vec()));
            let back = self.path(&format!("{codec}.back")).display().to_string();
            let words = ["--from", "avro", "--to", "binary", &avro, &back];
            steps.push((
                format!("from avro {codec}"),
                words.map(String::from).to_vec(),
            ));
        }
        for compression in PARQUET {
            let parquet = self.path(&format!("{compression}.parquet"));
            let parquet = parquet.display().to_string();
            let words = [
                "--to",
                "parquet",
                "--parquet-compression",
                compression,
                &input,
                &parquet,
            ];
            steps.push((
                format!("to parquet {compression}"),
                words.map(String::from).to_vec(),
            ));
        }
        steps
    }

    /// Times ours, `rounds` times each step; on the first pass checks what they wrote.
    fn run_ours(&mut self, rounds: usize, check: bool) {
        for (name, words) in self.steps() {
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            let best = (0..rounds)
                .map(|_| self.convert(&words))
                .fold(Time::NONE, Time::min);
            let best = self.ours.get(&name).map_or(best, |t| t.min(best));
            self.ours.insert(name.clone(), best);
            let out = Path::new(words[words.len() - 1]);
            self.out_bytes
                .insert(name.clone(), std::fs::metadata(out).unwrap().len());
            if check && name.starts_with("from avro") {
                self.assert_input(out, &name);
            }
            if check && name.starts_with("to parquet") {
                let back = self.path("parquet.back");
                let back_str = back.display().to_string();
                let out_str = out.display().to_string();
                self.convert(&["--from", "parquet", "--to", "binary", &out_str, &back_str]);
                self.assert_input(&back, &name);
            }
        }
    }

    /// Times the deflate codec alone, for scale: the null-codec file's bytes compressed
    /// 256 KiB at a time, as `to avro deflate` compresses its blocks, from memory into
    /// memory, by zlib (as Java) and by libdeflate (as ours), each at level 6.
    fn run_deflate_alone(&mut self, rounds: usize) {
        use std::io::Write as _;
        let data = std::fs::read(self.path("null.avro")).unwrap();
        let zlib = |block: &[u8]| {
            let mut e = flate2::write::DeflateEncoder::new(
                Vec::with_capacity(block.len() / 2),
                flate2::Compression::new(6),
            );
            e.write_all(block).unwrap();
            e.finish().unwrap().len()
        };
        let libdeflate = |block: &[u8]| {
            let level = libdeflater::CompressionLvl::new(6).unwrap();
            let mut compressor = libdeflater::Compressor::new(level);
            let mut out = vec![0; compressor.deflate_compress_bound(block.len())];
            compressor.deflate_compress(block, &mut out).unwrap()
        };
        let compressors: [fn(&[u8]) -> usize; 2] = [zlib, libdeflate];
        for (name, compress) in DEFLATE_ALONE.into_iter().zip(compressors) {
            let mut bytes = 0;
            let best = (0..rounds)
                .map(|_| {
                    timed(|| {
                        bytes = data
                            .chunks(SYNC_INTERVAL as usize)
                            .map(|block| compress(block) as u64)
                            .sum();
                    })
                })
                .fold(Time::NONE, Time::min);
            let name = name.to_owned();
            let best = self.ours.get(&name).map_or(best, |t| t.min(best));
            self.ours.insert(name.clone(), best);
            self.out_bytes.insert(name, bytes);
        }
    }

    /// Times the parts of ours, memory to memory, with this crate's types as `rcc convert`
    /// uses them: the binary records to an Avro file in each codec (`AvroRecordWriter`) and
    /// back (`AvroRecordReader`), checked equal to the input; and, for scale, the way through
    /// Arrow that `rcc convert` takes for what the direct way does not (`BatchReader`,
    /// `AvroWriter`, `AvroReader`, `BatchEncoder`), in the default codec.
    fn run_parts(&mut self, rounds: usize) {
        let binary = std::fs::read(&self.input).unwrap();
        let (schema, id) = (&self.schema, self.id);
        let transcoder = Transcoder::new(&self.avsc, schema, id).expect("a direct way");
        let mut parts = Vec::new();
        for codec in CODECS {
            let codec: AvroCodec = codec.parse().unwrap();
            let mut file = Vec::new();
            let time = best(rounds, || {
                let mut w = AvroRecordWriter::new(Vec::new(), &transcoder, codec).unwrap();
                let mut input = RawInput::new(&binary);
                while !input.remaining().is_empty() {
                    w.write_record(&mut input).unwrap();
                }
                file = w.finish().unwrap();
            });
            parts.push((format!("binary → avro {codec} (AvroRecordWriter)"), time));
            let mut back = Vec::with_capacity(binary.len());
            let time = best(rounds, || {
                back.clear();
                let mut r = AvroRecordReader::new(&file[..], schema, id).unwrap();
                while r.read_record(&mut back).unwrap() {}
            });
            assert!(back == binary, "{codec}: AvroRecordReader's records differ");
            parts.push((format!("avro {codec} → binary (AvroRecordReader)"), time));
        }
        let mut batches = Vec::new();
        let time = best(rounds, || {
            batches = BatchReader::new(
                &binary[..],
                Format::Binary,
                schema.clone(),
                id,
                DecodeOptions::default(),
            )
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        });
        parts.push(("Arrow way: binary → batches (BatchReader)".to_owned(), time));
        let arrow = batches[0].schema();
        let mut file = Vec::new();
        let time = best(rounds, || {
            let mut w =
                AvroWriter::new(Vec::new(), &self.avsc, arrow.clone(), AvroCodec::Deflate).unwrap();
            for b in &batches {
                w.write(b).unwrap();
            }
            file = w.finish().unwrap();
        });
        parts.push((
            "Arrow way: batches → avro deflate (AvroWriter)".to_owned(),
            time,
        ));
        let mut read = Vec::new();
        let time = best(rounds, || {
            read = AvroReader::new(&file[..], arrow.clone(), DEFAULT_BATCH_SIZE)
                .unwrap()
                .collect::<Result<Vec<_>, _>>()
                .unwrap();
        });
        parts.push((
            "Arrow way: avro deflate → batches (AvroReader)".to_owned(),
            time,
        ));
        let mut out = Vec::with_capacity(binary.len());
        let mut encoder = BatchEncoder::new(schema.clone(), id, EncodeOptions::default()).unwrap();
        let time = best(rounds, || {
            out.clear();
            let mut w = RecordWriter::new(&mut out, Format::Binary);
            for b in &read {
                encoder.write_batch(b, &mut w).unwrap();
            }
            w.flush().unwrap();
        });
        assert!(
            out == binary,
            "the Arrow way's records differ from the input"
        );
        parts.push((
            "Arrow way: batches → binary (BatchEncoder)".to_owned(),
            time,
        ));
        for (name, time) in parts {
            match self.parts.iter_mut().find(|(n, _)| *n == name) {
                Some((_, t)) => *t = t.min(time),
                None => self.parts.push((name, time)),
            }
        }
    }

    /// Checks that `file` holds the input's bytes.
    fn assert_input(&self, file: &Path, what: &str) {
        let input = std::fs::read(&self.input).unwrap();
        let got = std::fs::read(file).unwrap();
        assert!(
            got == input,
            "{} {what}: the records read back differ from the input ({} bytes, not {})",
            self.shape.type_name,
            got.len(),
            input.len()
        );
    }

    /// Times Java in one JVM, `rounds` rounds per codec, on our null-codec file; on the
    /// first pass reads Java's files back with ours.
    fn run_java(&mut self, java: &(Jdk, String), n: u64, rounds: usize, check: bool) {
        let (jdk, classpath) = java;
        let source = self.path("null.avro");
        if !source.exists() {
            let input = self.input.display().to_string();
            let source = source.display().to_string();
            let words = ["--to", "avro", "--avro-codec", "null", &input, &source];
            self.convert(&words);
        }
        let dir = self.input.parent().unwrap().join(self.shape.type_name);
        std::fs::create_dir_all(&dir).unwrap();
        let out = jdk
            .command(classpath)
            .arg("hadooprecord.avro.Bench")
            .arg(&source)
            .arg(&dir)
            .arg(rounds.to_string())
            .arg(SYNC_INTERVAL.to_string())
            .args(CODECS)
            .output()
            .expect("running Java");
        assert!(
            out.status.success(),
            "Java Avro's bench: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for line in String::from_utf8(out.stdout).unwrap().lines() {
            let f: Vec<&str> = line.split(' ').collect();
            let num = |i: usize| f[i].parse::<u64>().unwrap_or_else(|_| panic!("{line}"));
            assert_eq!(num(6), n, "Java's record count: {line}");
            let time = Time {
                wall: num(3),
                thread: num(4),
                process: num(5),
            };
            let name = format!("{} {}", f[0], f[1]);
            let best = self.java.get(&name).map_or(time, |t| t.min(time));
            self.java.insert(name.clone(), best);
            self.java_bytes.insert(name, num(7));
        }
        if check {
            for codec in CODECS {
                let file = dir.join(format!("java.{codec}.avro")).display().to_string();
                let back = self.path("java.back");
                let back_str = back.display().to_string();
                self.convert(&["--from", "avro", "--to", "binary", &file, &back_str]);
                self.assert_input(&back, &format!("Java's {codec} file, read by ours"));
            }
        }
    }
}

fn main() {
    if !measuring() {
        return;
    }
    let n: u64 = env_or("AVRO_BENCH_RECORDS", 1_000_000);
    let rounds: usize = env_or("AVRO_BENCH_ROUNDS", 5);
    let root = interop_tests::tools::repo_root();
    let java = (!interop_tests::tools::skipped("Java Avro in the vs_java bench")).then(|| {
        let jdk = interop_tests::java::jdk();
        let (_, classpath) =
            interop_tests::java::driver_classpath(&jdk, "avro", "the Avro drivers (Avro 1.12.2)");
        (jdk, classpath)
    });
    let dir = tempfile::Builder::new()
        .prefix("avro-vs-java")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    let shapes = [
        Shape {
            ddl: root.join("cli/benches/click/click.jr"),
            type_name: "bench.Click",
            make: click,
        },
        Shape {
            ddl: root.join("examples/sql/web.jr"),
            type_name: "web.Hit",
            make: hit,
        },
    ];
    let mut cases: Vec<Case> = shapes
        .into_iter()
        .map(|shape| Case::new(shape, n, dir.path()))
        .collect();
    let mut loads = vec![load_average()];
    for pass in 0..2 {
        for case in &mut cases {
            if let Some(java) = &java {
                case.run_java(java, n, rounds, pass == 0);
            }
            case.run_ours(rounds, pass == 0);
            case.run_deflate_alone(rounds);
            case.run_parts(rounds);
        }
        loads.push(load_average());
    }
    report(&cases, java.as_ref().map(|(jdk, _)| jdk), n, rounds, &loads);
}

/// Prints the results as Markdown tables.
fn report(cases: &[Case], jdk: Option<&Jdk>, n: u64, rounds: usize, loads: &[String]) {
    let secs = |ns: u64| format!("{:.3}", ns as f64 / 1e9);
    let triple = |t: Time| {
        let [w, th, p] = t.clocks();
        format!("{} / {} / {}", secs(w), secs(th), secs(p))
    };
    let java_name = jdk.map_or("Java: not run".to_owned(), |j| {
        format!("Java Avro 1.12.2, JDK {}", j.feature)
    });
    println!(
        "{n} records per shape; fastest of 2 × {rounds} rounds; times in s as wall / thread \
         CPU / process CPU; {java_name}; load average (1, 5, 15 min) before and after each \
         pass: {}",
        loads.join(" → ")
    );
    let mut verdicts = Vec::new();
    for c in cases {
        let mb = c.input_bytes as f64 / 1e6;
        println!(
            "\n### {} ({:.1} MB of Hadoop binary)\n",
            c.shape.type_name, mb
        );
        println!(
            "| step | output MB | ours | M rec/s (process CPU) | Java step | Java | Java's / ours: wall, thread, process |"
        );
        println!("| --- | --- | --- | --- | --- | --- | --- |");
        let rate = |ns: u64| n as f64 / (ns as f64 / 1e9) / 1e6;
        let mut names: Vec<&String> = c.ours.keys().collect();
        names.sort_by_key(|name| {
            let order: Vec<String> = ["to avro", "from avro"]
                .iter()
                .flat_map(|step| CODECS.map(|codec| format!("{step} {codec}")))
                .chain(PARQUET.map(|c| format!("to parquet {c}")))
                .collect();
            (
                order.iter().position(|o| o == *name).unwrap_or(order.len()),
                *name,
            )
        });
        for name in names {
            let ours = c.ours[name];
            let java_step = name
                .strip_prefix("to avro ")
                .map(|codec| format!("write {codec}"))
                .or_else(|| {
                    name.strip_prefix("from avro ")
                        .map(|codec| format!("read {codec}"))
                });
            let java = java_step.as_ref().and_then(|s| c.java.get(s).copied());
            let (java_cell, ratio_cell) = match (&java_step, java) {
                (Some(step), Some(j)) => {
                    let r = |a: u64, b: u64| a as f64 / b as f64;
                    let ratios = [
                        r(j.wall, ours.wall),
                        r(j.thread, ours.thread),
                        r(j.process, ours.process),
                    ];
                    let met = |x: f64| {
                        if x >= JAVA_TARGET {
                            format!("**{x:.2}**")
                        } else {
                            format!("{x:.2}")
                        }
                    };
                    verdicts.push(format!(
                        "{} `{name}` vs Java `{step}`: {:.2}× by process CPU, {:.2}× by wall, \
                         {:.2}× by Java's thread CPU (target ≥ {JAVA_TARGET}× by process CPU): {}",
                        c.shape.type_name,
                        ratios[2],
                        ratios[0],
                        ratios[1],
                        if ratios[2] >= JAVA_TARGET {
                            "met"
                        } else {
                            "not met"
                        }
                    ));
                    (
                        format!(
                            "{} ({:.1} MB)",
                            triple(j),
                            c.java_bytes.get(step).copied().unwrap_or(0) as f64 / 1e6
                        ),
                        ratios.map(met).join(", "),
                    )
                }
                _ => ("—".to_owned(), "—".to_owned()),
            };
            println!(
                "| `{name}` | {:.1} | {} | {:.2} | {} | {} | {} |",
                c.out_bytes[name] as f64 / 1e6,
                triple(ours),
                rate(ours.process),
                java_step.as_deref().unwrap_or("—"),
                java_cell,
                ratio_cell
            );
        }
        println!("\nIn memory, by part (ours):\n");
        println!("| part | time | M rec/s (process CPU) |");
        println!("| --- | --- | --- |");
        for (name, time) in &c.parts {
            println!("| {name} | {} | {:.2} |", triple(*time), rate(time.process));
        }
        for (avro, parquet) in [("deflate", "zstd"), ("null", "none"), ("zstandard", "zstd")] {
            let a = c.ours[&format!("to avro {avro}")];
            let p = c.ours[&format!("to parquet {parquet}")];
            let cpu = a.process as f64 / p.process as f64;
            let wall = a.wall as f64 / p.wall as f64;
            verdicts.push(format!(
                "{} `to avro {avro}` / `to parquet {parquet}`: {cpu:.2}× the process CPU, \
                 {wall:.2}× the wall time (target ≤ {PARQUET_TARGET}×): {}",
                c.shape.type_name,
                if cpu <= PARQUET_TARGET {
                    "met"
                } else {
                    "not met"
                }
            ));
        }
    }
    println!();
    for v in verdicts {
        println!("- {v}");
    }
}
