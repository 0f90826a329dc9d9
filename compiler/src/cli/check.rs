//! `rcc check [-I DIR]… FILE…`: parse and check, print every problem.

use std::path::PathBuf;

use clap::Args;
use hadoop_record_compiler::{load, LoadOptions};

use super::Context;

/// Arguments of `rcc check`.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Also look for included files in DIR (repeatable; searched in order, after the
    /// including file's directory)
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    include_dirs: Vec<PathBuf>,

    /// Print nothing when the files are fine
    #[arg(short, long)]
    quiet: bool,

    /// DDL files to check
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
}

/// Checks the files; true when they are fine.
pub(crate) fn run(context: &Context, args: CheckArgs) -> bool {
    let options = LoadOptions {
        include_dirs: args.include_dirs,
    };
    match load(&args.files, &options) {
        Ok(model) => {
            if !args.quiet {
                let plural =
                    |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
                println!(
                    "ok: {} in {}, {} read",
                    plural(model.records().len(), "record"),
                    plural(model.modules().len(), "module"),
                    plural(model.files().len(), "file"),
                );
            }
            true
        }
        Err(diagnostics) => {
            context.report(&diagnostics);
            false
        }
    }
}
