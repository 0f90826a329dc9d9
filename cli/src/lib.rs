//! The `rcc` command line. One file per subcommand; the bare invocation
//! `rcc [-l LANG] [-d DIR] FILE…` is Hadoop's and generates code (`generate`).
//!
//! A new subcommand is a new file with an `Args` struct and a `run` function, plus one
//! variant in `Command`. `rcc sql` and `rcc cluster` run companion commands (`rcc-sql`,
//! `rcc-cluster`, package `hadoop-record-sql-cli`), as `cargo` and `git` run theirs
//! ([`companion`]): the query engine they need is hundreds of crates that code generation
//! must not wait for.
//!
//! The library is the plumbing the companions share with `rcc` (`--color`, `--schema` and
//! `--type`, framing options, how a run ends), not an API with stability promises: programs
//! use `hadoop-record`, `hadoop-record-compiler` and the other library crates.

mod check;
pub mod companion;
mod compat;
pub mod convert;
mod describe;
pub mod float_text;
mod fmt;
pub mod frame;
pub mod framing;
mod generate;
pub mod lsp;
pub mod output_guard;
pub mod parquet_out;
pub mod record_sink;
pub mod schema_type;
pub mod storage;
mod store_url;
mod type_info;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use hadoop_record_compiler::{load, Diagnostics, LoadOptions, Model, RenderOptions, Severity};

const EXAMPLES: &str = "\
Examples: data (in a clone's examples/sql; rcc sql needs hadoop-record-sql-cli)
  rcc convert --schema web.jr --type web.Hit --from binary --to json hits.seq
      Decode a SequenceFile of web.Hit records to JSON lines (--to csv, xml, binary, parquet)
  rcc frame info hits.seq
      Say what a framed file holds: framing, records, codec, damage
  rcc sql --schema web.jr --type web.Hit \"SELECT status, count(*) FROM records GROUP BY status\" hits.seq
      Query record files with SQL
  rcc sql --schema web.jr --type web.Hit --to parquet -o hits.parquet \"SELECT * FROM records\" hits.seq
      Keep the result as Parquet (or --to delta -o TABLE/, a Delta Lake table)

Examples: DDL and code
  rcc check links.jr                 Check a DDL file and every file it includes
  rcc check -I ddl/common a.jr b.jr  Also look for includes in ddl/common
  rcc fmt schema/                    Format every DDL file below schema/ (--check in CI)
  rcc describe links.jr              Print the checked model as JSON, for generators
  rcc links.jr                       Print the Rust code for links.jr and its includes
  rcc -o src/records.rs links.jr     Write it to one file (for include!)
  rcc -l rust -d src/gen links.jr    Write a mod.rs and a file per module (Hadoop's invocation)
  rcc lsp                            Serve editors (LSP on stdin/stdout; see rcc lsp --help)
  rcc -l c++ -d gen links.jr         Write gen/links.jr.hh and gen/links.jr.cc (and those of
                                     the files links.jr includes) plus the C++ runtime; then
                                     g++ -std=c++17 -I gen gen/*.cc app.cc builds

The user guide: docs/guide/ in the repository, a chapter per task.";

/// rcc: Hadoop Record I/O. Decodes, converts and queries record data (rcc convert, frame,
/// sql); checks DDL (.jr) files and generates Rust, Java and C++ for them.
#[derive(Debug, Parser)]
#[command(
    name = "rcc",
    version,
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    generate: generate::GenerateArgs,

    #[command(flatten)]
    color: ColorArg,
}

/// `--color WHEN`, of rcc and its companions.
#[derive(Debug, Args)]
pub struct ColorArg {
    /// When to colour diagnostics (auto: on a terminal, unless NO_COLOR is set)
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto, global = true)]
    pub color: ColorWhen,
}

#[derive(Debug, Subcommand)]
enum Command {
    // Data first, then DDL and code. (The descriptions of `convert` and `frame` are their
    // arguments' doc comments, which the companions rcc-convert and rcc-frame show too.)
    Convert(Box<convert::ConvertArgs>),
    Frame(Box<frame::FrameArgs>),
    /// Query record files with SQL (DataFusion): files, directories and globs as one table,
    /// the result as a table, CSV, JSON lines, Parquet, records or a Delta Lake table (runs
    /// the companion `rcc-sql`)
    #[command(disable_help_flag = true)]
    Sql(companion::Forward),
    /// Run a Ballista scheduler or executor that knows record files, for
    /// `rcc sql --cluster` (runs the companion `rcc-cluster`)
    #[command(disable_help_flag = true)]
    Cluster(companion::Forward),
    /// Maintain the Delta Lake tables `rcc sql --to delta` writes: `rcc delta vacuum TABLE/`
    /// deletes the files no recent version needs (runs the companion `rcc-delta`)
    #[command(disable_help_flag = true)]
    Delta(companion::Forward),
    /// Parse and check DDL files and the files they include, reporting every problem
    Check(check::CheckArgs),
    /// Format DDL files in the canonical layout, comments kept (--check: list the files
    /// that are not, --diff: show the changes)
    Fmt(fmt::FmtArgs),
    /// Print the checked model of DDL files as JSON (modules, records, fields, types,
    /// positions, comments), for code generators of your own
    Describe(describe::DescribeArgs),
    /// Report what data written with an old version of a record becomes when a new version
    /// reads it; exit 1 when anything is lost or misread
    Compat(compat::CompatArgs),
    /// Write a record type's type information (Hadoop's RecordTypeInfo), to keep next to data
    TypeInfo(type_info::TypeInfoArgs),
    /// Run a language server (LSP, on standard input and output) for editors: diagnostics,
    /// hover, definition, references, rename, completion, symbols
    Lsp(lsp::LspArgs),
}

/// The `--color` choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// How `rcc check` and code generation read DDL.
#[derive(Debug, Args)]
pub(crate) struct LoadArgs {
    /// Also look for included files in DIR (repeatable; searched in order, after the
    /// including file's directory)
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    include_dirs: Vec<PathBuf>,

    /// Make what Hadoop's own rcc rejects errors, not warnings: `;` after `}`, records
    /// named before their declaration or from a file not included, a simple name for
    /// another module's record, a byte order mark, a final `//` comment without a line
    /// break, an include found only through -I
    #[arg(long)]
    hadoop_compat: bool,
}

impl LoadArgs {
    /// The options as the compiler takes them.
    pub(crate) fn into_options(self) -> LoadOptions {
        LoadOptions::default()
            .with_include_dirs(self.include_dirs)
            .with_hadoop_compat(self.hadoop_compat)
    }

    /// Loads and checks `files`, printing the errors, or the warnings of a good load.
    pub(crate) fn load(self, context: &Context, files: &[PathBuf]) -> Option<Model> {
        match load(files, &self.into_options()) {
            Ok(model) => {
                context.report_warnings(&model.warnings());
                Some(model)
            }
            Err(diagnostics) => {
                context.report(&diagnostics);
                None
            }
        }
    }
}

/// What every subcommand needs from the top level: how to print diagnostics and errors.
pub struct Context {
    color: bool,
}

impl Context {
    /// Colours on standard error as `when` says.
    pub fn new(when: ColorWhen) -> Self {
        Context {
            color: color_enabled(when),
        }
    }

    /// Prints `diagnostics` to stderr, then a count.
    pub fn report(&self, diagnostics: &Diagnostics) {
        self.report_all(std::slice::from_ref(diagnostics));
    }

    /// Prints the diagnostics of several loads (`rcc fmt`'s, one per file; `rcc check`'s)
    /// to stderr, each once however many loads found it, then one count.
    pub fn report_all(&self, all: &[Diagnostics]) {
        let options = RenderOptions::default().with_color(self.color);
        let mut printed = std::collections::HashSet::new();
        let mut errors = 0;
        for diagnostics in all {
            for diagnostic in diagnostics.iter() {
                let text = diagnostics.render_one(diagnostic, &options);
                if printed.insert(text.clone()) {
                    eprint!("{text}");
                    errors += usize::from(diagnostic.severity() == Severity::Error);
                }
            }
        }
        self.error(&format!(
            "found {errors} error{}",
            if errors == 1 { "" } else { "s" }
        ));
    }

    /// Prints `warnings` (of a load that succeeded) to stderr, then a count; nothing when
    /// there are none.
    pub fn report_warnings(&self, warnings: &Diagnostics) {
        if warnings.is_empty() {
            return;
        }
        let options = RenderOptions::default().with_color(self.color);
        eprint!("{}", warnings.render(&options));
        let n = warnings.len();
        self.warning(&format!(
            "found {n} warning{}: Hadoop's rcc would reject {}",
            if n == 1 { "" } else { "s" },
            if n == 1 {
                "this DDL"
            } else {
                "these DDL files"
            }
        ));
    }

    /// Writes `text` to standard output; false (after saying so) when that fails. A closed
    /// pipe (`rcc … | head`) is the reader's choice, not a failure.
    pub fn print(&self, text: &str) -> bool {
        let mut stdout = std::io::stdout().lock();
        match stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush())
        {
            Ok(()) => true,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => true,
            Err(e) => {
                self.error(&format!("cannot write to standard output: {e}"));
                false
            }
        }
    }

    /// Prints `warning: message` to stderr.
    pub fn warning(&self, message: &str) {
        if self.color {
            eprintln!("\x1b[1;33mwarning\x1b[0m\x1b[1m: {message}\x1b[0m");
        } else {
            eprintln!("warning: {message}");
        }
    }

    /// Prints `error: message` to stderr.
    pub fn error(&self, message: &str) {
        if self.color {
            eprintln!("\x1b[1;31merror\x1b[0m\x1b[1m: {message}\x1b[0m");
        } else {
            eprintln!("error: {message}");
        }
    }
}

fn color_enabled(when: ColorWhen) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal()
        }
    }
}

/// `rcc`: parses the command line and runs it (a companion's subcommand by running the
/// companion).
pub fn rcc() -> ExitCode {
    if let Some((name, args)) = companion::requested(std::env::args_os().skip(1)) {
        return companion::run(name, args);
    }
    let cli = Cli::parse();
    let context = Context::new(cli.color.color);
    let ok = match cli.command {
        Some(Command::Check(args)) => check::run(&context, args),
        Some(Command::Fmt(args)) => fmt::run(&context, args),
        Some(Command::Describe(args)) => describe::run(&context, args),
        // HDFS and S3 are the companions' when this rcc was built without them.
        Some(Command::Frame(args)) if args.names_url() && !cfg!(feature = "storage") => {
            return companion::run_subcommand("frame");
        }
        Some(Command::Frame(args)) => frame::run(&context, *args),
        // So are Parquet and Arrow, when this rcc was built without them.
        Some(Command::Convert(args))
            if (args.is_columnar() && !cfg!(feature = "columnar"))
                || (args.names_url() && !cfg!(feature = "storage")) =>
        {
            return companion::run_subcommand("convert");
        }
        Some(Command::Convert(args)) => convert::run(&context, *args),
        Some(Command::Sql(forward)) => return companion::run("sql", forward.args),
        Some(Command::Cluster(forward)) => return companion::run("cluster", forward.args),
        Some(Command::Delta(forward)) => return companion::run("delta", forward.args),
        Some(Command::TypeInfo(args)) => type_info::run(&context, args),
        // Its own exit statuses: 1 means incompatible, 2 an error.
        Some(Command::Compat(args)) => return compat::run(&context, args),
        Some(Command::Lsp(args)) => lsp::run(&context, args),
        None => generate::run(&context, cli.generate),
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
