//! Gzip chunk writing (`framing/paddle/gozip`, byte-identical to Go's `compress/gzip`)
//! next to flate2's `GzEncoder` at the default level, on the same chunk payloads: 8 MiB of
//! 64 KiB records in 1 MiB chunks, for three kinds of content — JSON-like text (the words
//! of `framing_paddle`), random bytes (stored blocks) and a 4-letter alphabet (short
//! matches everywhere: the longest hash-chain walks, the worst case of Go's level 6).
//!
//! `cargo bench -p hadoop-record --bench paddle_gzip`
//!
//! `GZIP_BENCH_CLOCK=cpu` measures the benchmark thread's CPU time instead of wall-clock
//! time, steadier on a shared machine.

use std::io::Write;
use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{black_box, BenchmarkId, Criterion, Throughput};
use hadoop_record::framing::paddle::{Compressor, PaddleWriteOptions, PaddleWriter};
use hadoop_record::framing::FrameWrite;

const TOTAL: usize = 8 << 20;
const RECORD: usize = 64 << 10;
const CHUNK: usize = 1 << 20;

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// 8 MiB of content of `kind`.
fn content(kind: &str) -> Vec<u8> {
    const WORDS: [&str; 8] = [
        "{\"type\":",
        "\"HEARTBEAT\"",
        "offers",
        "agent_id",
        "12220-3440",
        "value",
        "}",
        " ",
    ];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut out = Vec::with_capacity(TOTAL + 16);
    while out.len() < TOTAL {
        let r = xorshift(&mut state);
        match kind {
            "text" => out.extend_from_slice(WORDS[(r % 8) as usize].as_bytes()),
            "random" => out.extend_from_slice(&r.to_le_bytes()),
            "dna" => out.extend((0..32).map(|i| b"ACGT"[((r >> (2 * i)) & 3) as usize])),
            _ => unreachable!(),
        }
    }
    out.truncate(TOTAL);
    out
}

fn bench<M: Measurement>(c: &mut Criterion<M>) {
    let mut group = c.benchmark_group("paddle-gzip");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(TOTAL as u64));
    for kind in ["text", "random", "dna"] {
        let data = content(kind);
        let records: Vec<&[u8]> = data.chunks(RECORD).collect();
        let options = PaddleWriteOptions::default()
            .compressor(Compressor::Gzip)
            .max_chunk_size(CHUNK as u64);
        let mut out = Vec::with_capacity(TOTAL + (1 << 20));
        group.bench_function(BenchmarkId::new("paddle-write", kind), |b| {
            b.iter(|| {
                out.clear();
                let mut w = PaddleWriter::with_options(&mut out, options);
                for r in &records {
                    w.write_payload(r).unwrap();
                }
                w.finish().unwrap();
                black_box(w.chunks());
            })
        });
        // The same chunk payloads (u32 length + record each) through flate2 alone.
        let mut raw = Vec::with_capacity(TOTAL + 4 * records.len());
        for r in &records {
            raw.extend_from_slice(&(r.len() as u32).to_le_bytes());
            raw.extend_from_slice(r);
        }
        let per_chunk = CHUNK / RECORD * (RECORD + 4);
        group.bench_function(BenchmarkId::new("flate2-gzip", kind), |b| {
            b.iter(|| {
                out.clear();
                for piece in raw.chunks(per_chunk) {
                    let mut enc =
                        flate2::write::GzEncoder::new(&mut out, flate2::Compression::default());
                    enc.write_all(piece).unwrap();
                    enc.finish().unwrap();
                }
                black_box(out.len());
            })
        });
    }
    group.finish();
}

/// The calling thread's CPU time.
struct ThreadCpu;

static WALL: WallTime = WallTime;

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant Linux supports.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Measurement for ThreadCpu {
    type Intermediate = u64;
    type Value = Duration;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> Duration {
        Duration::from_nanos(thread_cpu_ns() - start)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Nanoseconds, like wall-clock time.
        WALL.formatter()
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    if std::env::var("GZIP_BENCH_CLOCK").as_deref() == Ok("cpu") {
        let mut c = c.with_measurement(ThreadCpu);
        bench(&mut c);
        c.final_summary();
    } else {
        bench(&mut c);
        c.final_summary();
    }
}
