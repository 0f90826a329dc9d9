//! `rcc check [-I DIR]… [--hadoop-compat] FILE…`: parse and check, print every problem,
//! and warn about what Hadoop's own rcc would reject.

use std::path::PathBuf;

use clap::Args;

use super::{Context, LoadArgs};

/// Arguments of `rcc check`.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    #[command(flatten)]
    load: LoadArgs,

    /// Print nothing when the files are fine (warnings are still printed)
    #[arg(short, long)]
    quiet: bool,

    /// DDL files to check
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
}

/// Checks the files; true when they are fine (warnings do not count).
pub(crate) fn run(context: &Context, args: CheckArgs) -> bool {
    let Some(model) = args.load.load(context, &args.files) else {
        return false;
    };
    if !args.quiet {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        println!(
            "ok: {} in {}, {} read",
            plural(model.records().len(), "record"),
            plural(model.modules().len(), "module"),
            plural(model.files().len(), "file"),
        );
    }
    true
}
