//! `rcc fmt [--check] [--diff] FILE…`: DDL in the canonical layout of `docs/format.md`
//! (the compiler's `format` module), files rewritten in place, `-` from standard input to
//! standard output.

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::Args;
use hadoop_record_compiler::backend::write_if_changed;
use hadoop_record_compiler::format::{format_bytes, format_file, Formatted};
use hadoop_record_compiler::{Diagnostics, RealFileSystem};

use super::Context;

const EXAMPLES: &str = "\
Examples:
  rcc fmt links.jr                   Rewrite links.jr in the canonical layout
  rcc fmt schema/                    ... and every .jr and .jute file below schema/
  rcc fmt --check schema/            List the files that are not formatted (exit 1 if any)
  rcc fmt --diff links.jr            Show what would change as a unified diff
  rcc fmt - < in.jr > out.jr         Format standard input to standard output

The layout is that of Hadoop's own DDL and ZooKeeper's zookeeper.jute (docs/format.md):
four-space indents, one declaration per line, `map<K, V>`, blank lines kept (at most one),
comments where they were. A byte order mark, `;` after `}` and a missing final line break,
which Hadoop's rcc rejects, go; nothing that changes meaning is touched. A file that does
not parse is reported as `rcc check` reports it and left as it is.
Exit status: 1 when a file cannot be read or does not parse, or, with --check or --diff,
when a file would change; otherwise 0.";

/// What standard input is called in messages.
const STDIN: &str = "<stdin>";

/// Arguments of `rcc fmt`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct FmtArgs {
    /// Change no file: print the name of each that would change, and exit 1 if any would
    #[arg(long)]
    check: bool,

    /// Change no file: print a unified diff of each that would change, and exit 1 if any
    /// would
    #[arg(long)]
    diff: bool,

    /// DDL files; directories (their .jr and .jute files, at any depth); `-` for standard
    /// input, formatted to standard output
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
}

/// What became of the files.
#[derive(Default)]
struct Outcome {
    /// Diagnostics of the files that could not be formatted.
    failed: Vec<Diagnostics>,
    /// Files that changed (or would).
    changed: usize,
    /// Files looked at.
    seen: usize,
    /// Other errors (directories, writing), already printed.
    errors: usize,
}

impl Outcome {
    /// Prints `error: message` and counts it.
    fn fail(&mut self, context: &Context, message: &str) {
        context.error(message);
        self.errors += 1;
    }
}

/// Formats the files; true when all went well (and, with --check or --diff, none would
/// change).
pub(crate) fn run(context: &Context, args: FmtArgs) -> bool {
    let mut outcome = Outcome::default();
    for path in &args.files {
        if path.as_os_str() == "-" {
            let mut bytes = Vec::new();
            match std::io::stdin().read_to_end(&mut bytes) {
                Ok(_) => args.one(context, Path::new(STDIN), Input::Stdin(bytes), &mut outcome),
                Err(e) => outcome.fail(context, &format!("cannot read standard input: {e}")),
            }
        } else if path.is_dir() {
            let mut found = Vec::new();
            if let Err(e) = ddl_files(path, &mut found) {
                let message = format!("cannot read directory `{}`: {e}", path.display());
                outcome.fail(context, &message);
            } else if found.is_empty() {
                let message = format!("no .jr or .jute files in `{}`", path.display());
                outcome.fail(context, &message);
            }
            for file in found {
                args.one(context, &file, Input::File, &mut outcome);
            }
        } else {
            args.one(context, path, Input::File, &mut outcome);
        }
    }
    let failed: usize = outcome.failed.iter().map(Diagnostics::error_count).sum();
    if failed > 0 {
        context.report_all(&outcome.failed);
    }
    let stale = (args.check || args.diff) && outcome.changed > 0;
    if stale {
        let n = outcome.changed;
        context.error(&format!(
            "{n} of {} file{} would be reformatted (run `rcc fmt` on {})",
            outcome.seen,
            if outcome.seen == 1 { "" } else { "s" },
            if n == 1 { "it" } else { "them" }
        ));
    }
    failed == 0 && outcome.errors == 0 && !stale
}

/// Where a file's text comes from.
enum Input {
    /// Its path.
    File,
    /// Standard input, read.
    Stdin(Vec<u8>),
}

impl FmtArgs {
    /// Formats one file, and writes, lists or diffs it as asked.
    fn one(&self, context: &Context, path: &Path, input: Input, outcome: &mut Outcome) {
        outcome.seen += 1;
        let stdin = matches!(input, Input::Stdin(_));
        let formatted = match input {
            Input::File => format_file(&RealFileSystem, path),
            Input::Stdin(bytes) => format_bytes(path, bytes),
        };
        let formatted = match formatted {
            Ok(formatted) => formatted,
            Err(diagnostics) => return outcome.failed.push(diagnostics),
        };
        let changed = formatted.is_changed();
        outcome.changed += usize::from(changed);
        let done = if self.diff {
            !changed || context.print(&diff(path, &formatted))
        } else if self.check {
            !changed || context.print(&format!("{}\n", path.display()))
        } else if stdin {
            context.print(&formatted.formatted)
        } else if changed {
            let written = write_if_changed(path, formatted.formatted.as_bytes())
                .map_err(|e| context.error(&format!("cannot write `{}`: {e}", path.display())))
                .is_ok();
            // What changed on disk, as black says it; files left as they were go unsaid.
            if written {
                eprintln!("reformatted {}", path.display());
            }
            written
        } else {
            true
        };
        // Failures are printed already.
        if !done {
            outcome.errors += 1;
        }
    }
}

/// The unified diff from `formatted`'s original to its formatted text.
fn diff(path: &Path, formatted: &Formatted) -> String {
    let name = path.display().to_string();
    similar::TextDiff::from_lines(&formatted.original, &formatted.formatted)
        .unified_diff()
        .context_radius(3)
        .header(&name, &name)
        .to_string()
}

/// The `.jr` and `.jute` files below `dir`, hidden entries aside, in name order.
fn ddl_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        }
        if path.is_dir() {
            ddl_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "jr" || e == "jute") {
            out.push(path);
        }
    }
    Ok(())
}
