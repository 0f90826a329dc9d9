//! `rcc check [-I DIR]… [--hadoop-compat] FILE…`: parse and check, print every problem,
//! and warn about what Hadoop's own rcc would reject.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use clap::Args;

use hadoop_record_compiler::{load, Severity};

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
    let options = args.load.into_options();
    let model = match load(&args.files, &options) {
        Ok(model) => {
            context.report_warnings(&model.warnings());
            model
        }
        Err(together) => {
            // A file that does not parse stops the load before any type is checked: the
            // files without errors are then checked again together, so that one run
            // reports their type errors too (each error once), not only the parse errors.
            let broken: HashSet<&Path> = together
                .iter()
                .filter(|d| d.severity() == Severity::Error)
                .filter_map(|d| d.primary_label())
                .filter_map(|label| together.files().get(label.file().index()))
                .map(|file| file.path())
                .collect();
            let sound: Vec<PathBuf> = args
                .files
                .iter()
                .filter(|file| !broken.contains(file.as_path()))
                .cloned()
                .collect();
            let again = (!sound.is_empty() && sound.len() < args.files.len())
                .then(|| load(&sound, &options).err())
                .flatten();
            context.report_all(
                &[Some(together), again]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>(),
            );
            return false;
        }
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
