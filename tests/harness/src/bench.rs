//! What the hand-rolled benchmarks (`harness = false`, not criterion) share: whether this
//! run measures, their settings from the environment, the load they ran under, and the
//! `web.Hit` records of the Delta and Avro benchmarks.

use std::str::FromStr;
use std::time::Duration;

use hadoop_record::schema::{FieldType, RecordId, Schema};
use hadoop_record::Value;

use crate::add_record;

/// Whether this run measures: `cargo bench` passes `--bench`; `cargo test --benches` runs
/// the same binary without it, and then it should only have been built.
pub fn measuring() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// The setting `name` from the environment, `default` when it is unset or does not parse.
pub fn env_or<T: FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Wall and CPU time (a thread's, the process's or a child's: each bench says which) of one
/// run, or the best of several.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    pub wall: Duration,
    pub cpu: Duration,
}

impl Timing {
    /// What any run's timing is at least as good as: the start of a best.
    pub const MAX: Timing = Timing {
        wall: Duration::MAX,
        cpu: Duration::MAX,
    };

    /// The shorter wall time and the shorter CPU time of the two.
    pub fn best(self, other: Timing) -> Timing {
        Timing {
            wall: self.wall.min(other.wall),
            cpu: self.cpu.min(other.cpu),
        }
    }

    /// This time over `base`'s: CPU, then wall.
    pub fn ratio(&self, base: &Timing) -> (f64, f64) {
        (
            self.cpu.as_secs_f64() / base.cpu.as_secs_f64(),
            self.wall.as_secs_f64() / base.wall.as_secs_f64(),
        )
    }
}

/// This thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`).
pub fn thread_cpu() -> Duration {
    cpu_time(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// This process's CPU time, all threads (`CLOCK_PROCESS_CPUTIME_ID`).
pub fn process_cpu() -> Duration {
    cpu_time(libc::CLOCK_PROCESS_CPUTIME_ID)
}

fn cpu_time(clock: libc::clockid_t) -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The load averages of `/proc/loadavg`, printed with a benchmark's results; `?` where
/// there is none.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// The schema of `web.Hit` (`examples/sql/web.jr`, the README's SQL walk-through), built as
/// its DDL declares it, and the id of `web.Hit`.
pub fn web_hit_schema() -> (Schema, RecordId) {
    use FieldType::{Int, Long, String};
    let mut schema = Schema::new();
    let place = add_record(
        &mut schema,
        "web",
        "Place",
        vec![("city", String), ("country", String)],
    );
    let hit = add_record(
        &mut schema,
        "web",
        "Hit",
        vec![
            ("time", Long),
            ("url", String),
            ("status", Int),
            ("bytes", Long),
            ("tags", FieldType::Vector(Box::new(String))),
            ("origin", FieldType::Record(place)),
        ],
    );
    (schema, hit)
}

/// The `k`-th of `n` `web.Hit` records the Delta and Avro benchmarks time, from the random
/// bits `x`: a day of hits in order, URLs of five sections, sixteen statuses (mostly 200),
/// 0–3 of twelve tags, twelve places.
pub fn web_hit(k: u64, n: u64, x: u64) -> Value {
    const STATUS: [i32; 16] = [
        200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 304, 304, 301, 302, 404, 500,
    ];
    const TAGS: [&str; 12] = [
        "mobile", "desktop", "bot", "search", "ad", "social", "mail", "api", "cached", "slow",
        "tls", "ipv6",
    ];
    const PLACES: [(&str, &str); 12] = [
        ("Oslo", "NO"),
        ("Lima", "PE"),
        ("Pau", "FR"),
        ("Paris", "FR"),
        ("Osaka", "JP"),
        ("Tokyo", "JP"),
        ("Austin", "US"),
        ("Boston", "US"),
        ("Cork", "IE"),
        ("Porto", "PT"),
        ("Quito", "EC"),
        ("Perth", "AU"),
    ];
    let pick = |bits: u32, len: usize| ((x >> bits) as usize) % len;
    let tags = (0..pick(0, 4))
        .map(|t| Value::String(TAGS[pick(8 + 4 * t as u32, TAGS.len())].to_owned()))
        .collect();
    let (city, country) = PLACES[pick(24, PLACES.len())];
    Value::Record(vec![
        // A day of hits, in order, milliseconds since the epoch.
        Value::Long(1_700_000_000_000 + (k * 86_400_000 / n.max(1)) as i64),
        Value::String(format!(
            "https://example.com/{}/{}?page={}",
            ["shop", "blog", "docs", "news", "api/v2"][pick(28, 5)],
            x >> 48,
            pick(32, 100)
        )),
        Value::Int(STATUS[pick(40, STATUS.len())]),
        Value::Long((x >> 44) as i64 % 2_000_000),
        Value::Vector(tags),
        Value::Record(vec![
            Value::String(city.to_owned()),
            Value::String(country.to_owned()),
        ]),
    ])
}
