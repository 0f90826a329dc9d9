//! Helpers shared by the benchmarks, included with `mod support;`: the thread CPU clock,
//! the xorshift generator and chunk payload layout of `tests/support/gozip_inputs.rs`, and
//! the JSON-like words of the framing benches. Each bench uses only part of them.
#![allow(dead_code, unused_imports, unused_macros)]

use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{BenchmarkGroup, Criterion};
use hadoop_record::framing::paddle::{PaddleWriteOptions, PaddleWriter};
use hadoop_record::framing::FrameWrite;

#[path = "../../tests/support/gozip_inputs.rs"]
mod gozip_inputs;

pub use gozip_inputs::{chunk_payload, Rng};

pub mod shapes;

/// Words of Mesos-like JSON events, text that compression has work to do on.
pub const WORDS: [&str; 8] = [
    "{\"type\":",
    "\"HEARTBEAT\"",
    "offers",
    "agent_id",
    "12220-3440",
    "value",
    "}",
    " ",
];

/// A group of ten samples after half a second of warm-up, each measured for `measure`:
/// runs short enough for a shared 2-core machine.
pub fn short_group<'a, M: Measurement>(
    c: &'a mut Criterion<M>,
    name: &str,
    measure: Duration,
) -> BenchmarkGroup<'a, M> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(measure);
    group
}

/// The payload sizes the framing benches measure, 100 bytes and 64 KiB: each with the
/// payloads `make` builds of it and their total size in bytes.
pub fn payload_sizes(
    make: fn(usize) -> Vec<Vec<u8>>,
) -> impl Iterator<Item = (usize, Vec<Vec<u8>>, u64)> {
    [100usize, 64 << 10].into_iter().map(move |size| {
        let records = make(size);
        let bytes = records.iter().map(|r| r.len() as u64).sum();
        (size, records, bytes)
    })
}

/// Writes `records` as a PaddlePaddle RecordIO file into `out` and says how many chunks
/// it took.
pub fn write_paddle<R: AsRef<[u8]>>(
    out: &mut Vec<u8>,
    options: PaddleWriteOptions,
    records: &[R],
) -> u64 {
    let mut w = PaddleWriter::with_options(out, options);
    for r in records {
        w.write_payload(r.as_ref()).unwrap();
    }
    w.finish().unwrap();
    w.chunks()
}

/// `fn main` of a bench whose `run` takes a `Criterion` of either measurement: the
/// benchmark thread's CPU time ([`ThreadCpu`]) with `ARCHIVE_BENCH_CLOCK=cpu`, wall-clock
/// time otherwise.
macro_rules! bench_main {
    ($run:path) => {
        fn main() {
            let c = criterion::Criterion::default().configure_from_args();
            if std::env::var("ARCHIVE_BENCH_CLOCK").as_deref() == Ok("cpu") {
                $run(c.with_measurement($crate::support::ThreadCpu));
            } else {
                $run(c);
            }
        }
    };
}
pub(crate) use bench_main;

/// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`): on a shared machine, what one
/// core does, without the time spent waiting for it.
pub struct ThreadCpu;

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

static WALL: WallTime = WallTime;

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
