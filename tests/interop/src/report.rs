//! Collecting the outcome of thousands of differential checks: counts for the log, and for
//! each failure the value, the encoding and both byte strings.

use crate::batch::Written;
use crate::tools::say;

/// The encodings, in the order the driver uses.
pub const ENCODINGS: [&str; 3] = ["binary", "CSV", "XML"];

/// How many failures are shown in full.
const SHOWN: usize = 8;

/// The outcome of one differential test.
pub struct Report {
    title: String,
    reproduce: String,
    checks: usize,
    failed: usize,
    shown: Vec<String>,
}

impl Report {
    /// A report titled `title`; `reproduce` says how to repeat the run (seed, files).
    pub fn new(title: impl Into<String>, reproduce: impl Into<String>) -> Self {
        Report {
            title: title.into(),
            reproduce: reproduce.into(),
            checks: 0,
            failed: 0,
            shown: Vec::new(),
        }
    }

    /// Counts one check; records `detail()` when it failed.
    pub fn check(&mut self, ok: bool, detail: impl FnOnce() -> String) {
        self.checks += 1;
        if !ok {
            self.failed += 1;
            if self.shown.len() < SHOWN {
                self.shown.push(detail());
            }
        }
    }

    /// Logs the counts (`what` says what was compared); panics with the failures shown.
    pub fn finish(self, what: &str) {
        say(&format!(
            "{}: {what}; {} checks, {} failed",
            self.title, self.checks, self.failed
        ));
        if self.failed > 0 {
            panic!(
                "{}: {} of {} checks failed ({what}). {}\n\n{}",
                self.title,
                self.failed,
                self.checks,
                self.reproduce,
                self.shown.join("\n\n")
            );
        }
    }
}

/// Whether Hadoop's output `theirs` is `ours`, byte for byte (ours written with the float
/// text of the peer's JDK), or both refused.
pub fn same_output(ours: &Written, theirs: &Written) -> bool {
    match (ours, theirs) {
        (Ok(a), Ok(b)) => a == b,
        (Err(_), Err(_)) => true,
        _ => false,
    }
}

/// A failure's description: what, the value, and both outputs with the first difference.
pub fn mismatch(
    what: &str,
    value: &dyn std::fmt::Debug,
    encoding: usize,
    ours: &Written,
    theirs: &Written,
) -> String {
    let at = match (ours, theirs) {
        (Ok(a), Ok(b)) => a
            .iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .or(Some(a.len().min(b.len()))),
        _ => None,
    };
    format!(
        "{what} ({} encoding)\n  value: {}\n  ours:   {}\n  Hadoop: {}",
        ENCODINGS[encoding],
        clip(&format!("{value:?}"), 1500),
        show(encoding, ours, at),
        show(encoding, theirs, at)
    )
}

/// Bytes as escaped text (CSV, XML) or hex (binary), around `at` when long.
pub fn show(encoding: usize, written: &Written, at: Option<usize>) -> String {
    let bytes = match written {
        Ok(b) => b,
        Err(e) => return format!("refused: {}", clip(e, 300)),
    };
    let from = at.map_or(0, |a| a.saturating_sub(200));
    let to = bytes.len().min(from + 600);
    let window = &bytes[from..to];
    let body = if encoding == 0 {
        window
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        format!("{:?}", String::from_utf8_lossy(window))
    };
    let diff = at.map_or(String::new(), |a| format!(", first difference at byte {a}"));
    format!("{} bytes{diff}, bytes {from}..{to}: {body}", bytes.len())
}

/// `s` cut to `max` characters.
pub fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}… ({} bytes in all)", &s[..i], s.len()),
        None => s.to_string(),
    }
}
