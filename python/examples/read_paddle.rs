//! The Rust side of `benches/read_table.py`: a Paddle-framed file of binary records decoded
//! into Arrow batches of 8192 rows, as `rcc convert --in-framing paddle --to arrow` reads
//! them (the runtime's `PaddleReader`, `hadoop-record-arrow`'s `BatchDecoder`), without the
//! Python package in between. Prints `rows thread_cpu_seconds wall_seconds`.
//!
//! `cargo run --release -p hadoop-record-python --example read_paddle -- DDL TYPE FILE`

use std::fs::File;
use std::io::BufReader;
use std::sync::Arc;
use std::time::Instant;

use hadoop_record::framing::paddle::PaddleReader;
use hadoop_record::Format;
use hadoop_record_arrow::decode::{BatchDecoder, DecodeOptions};

fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [ddl, type_name, file] = &args[..] else {
        return Err("usage: read_paddle DDL TYPE FILE".into());
    };
    let model =
        hadoop_record_compiler::load(&[ddl], &Default::default()).map_err(|d| d.to_string())?;
    let schema = model.to_schema().into_schema();
    let id = schema.find(type_name).ok_or("unknown type")?;
    let (cpu, wall) = (thread_cpu_seconds(), Instant::now());
    let mut decoder = BatchDecoder::new(Arc::new(schema), id, DecodeOptions::default())?;
    let mut reader = PaddleReader::new(BufReader::with_capacity(1 << 20, File::open(file)?));
    let mut rows = 0;
    while let Some(payload) = reader.next_ref() {
        decoder.decode_payload(payload?, Format::Binary)?;
        if decoder.is_full() {
            rows += decoder.flush()?.map_or(0, |b| b.num_rows());
        }
    }
    rows += decoder.flush()?.map_or(0, |b| b.num_rows());
    let (cpu, wall) = (thread_cpu_seconds() - cpu, wall.elapsed().as_secs_f64());
    println!("{rows} {cpu:.4} {wall:.4}");
    Ok(())
}
