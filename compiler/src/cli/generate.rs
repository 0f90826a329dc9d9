//! `rcc [-l LANG] [-d DIR | -o FILE] [-I DIR]… [--hadoop-compat] FILE…`: Hadoop's invocation, generating
//! code for the records of the files named and of the files they include.
//!
//! For Rust: `-o FILE` writes one self-contained file, `-d DIR` a `mod.rs` plus one file
//! per module, and with neither the one-file form goes to standard output. Files whose
//! content would not change are not rewritten.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use hadoop_record_compiler::backend::{remove_stale, rust, write_if_changed};
use hadoop_record_compiler::Model;

use super::{Context, LoadArgs};

/// Languages code can be generated for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Language {
    /// Rust, for the hadoop-record crate
    #[value(name = "rust", alias = "rs")]
    Rust,
    /// C++, for Hadoop's librecordio
    #[value(name = "c++", alias = "cpp")]
    Cpp,
    /// Java, for org.apache.hadoop.record
    #[value(name = "java")]
    Java,
}

impl Language {
    fn name(self) -> &'static str {
        match self {
            Language::Rust => "Rust",
            Language::Cpp => "C++",
            Language::Java => "Java",
        }
    }
}

/// Arguments of the bare `rcc` invocation.
#[derive(Debug, Args)]
pub(crate) struct GenerateArgs {
    /// Language to generate (case-insensitive)
    #[arg(
        short,
        long,
        value_enum,
        ignore_case = true,
        value_name = "LANG",
        default_value = "rust"
    )]
    language: Language,

    /// Directory to write generated files into (Rust: a mod.rs and one file per module;
    /// files an earlier run generated there for modules that are gone are removed)
    #[arg(short, long = "destdir", value_name = "DIR")]
    destdir: Option<PathBuf>,

    /// Rust only: write one self-contained file (for `include!`); with neither -o nor -d
    /// the code goes to standard output
    #[arg(short, long, value_name = "FILE", conflicts_with = "destdir")]
    output: Option<PathBuf>,

    #[command(flatten)]
    load: LoadArgs,

    /// DDL files to compile
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
}

/// Checks the files, then generates code; true on success.
pub(crate) fn run(context: &Context, args: GenerateArgs) -> bool {
    let GenerateArgs {
        language,
        destdir,
        output,
        load,
        files,
    } = args;
    let Some(model) = load.load(context, &files) else {
        return false;
    };
    match language {
        Language::Rust => generate_rust(context, &model, destdir, output),
        Language::Cpp | Language::Java => {
            context.error(&format!(
                "the {} back end is not built yet; `rcc check` checks DDL files without generating code",
                language.name()
            ));
            false
        }
    }
}

fn generate_rust(
    context: &Context,
    model: &Model,
    destdir: Option<PathBuf>,
    output: Option<PathBuf>,
) -> bool {
    let options = rust::Options {
        source_root: std::env::current_dir().ok(),
        ..rust::Options::default()
    };
    let result = match (&destdir, &output) {
        (Some(dir), _) => rust::generate_tree(model, &options).map(|files| {
            files
                .into_iter()
                .map(|f| (dir.join(f.path), f.contents))
                .collect()
        }),
        (None, Some(file)) => {
            rust::generate_file(model, &options).map(|code| vec![(file.clone(), code)])
        }
        (None, None) => {
            rust::generate_file(model, &options).map(|code| vec![(PathBuf::new(), code)])
        }
    };
    let files: Vec<(PathBuf, String)> = match result {
        Ok(files) => files,
        Err(diagnostics) => {
            context.report(&diagnostics);
            return false;
        }
    };
    if destdir.is_none() && output.is_none() {
        let mut stdout = std::io::stdout().lock();
        return match stdout
            .write_all(files[0].1.as_bytes())
            .and_then(|()| stdout.flush())
        {
            Ok(()) => true,
            // A closed pipe (`rcc … | head`) is the reader's choice, not a failure to report.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => true,
            Err(e) => {
                context.error(&format!("cannot write to standard output: {e}"));
                false
            }
        };
    }
    let written = files
        .iter()
        .all(|(path, contents)| write(context, path, contents));
    match destdir {
        // Files an earlier run wrote for modules that are gone would linger (and one left
        // as `x.rs` beside a new `x/` could even be picked up): remove them.
        Some(dir) if written => {
            let keep: Vec<PathBuf> = files
                .iter()
                .filter_map(|(path, _)| path.strip_prefix(&dir).ok().map(Path::to_path_buf))
                .collect();
            match remove_stale(&dir, &keep) {
                Ok(_) => true,
                Err(e) => {
                    context.error(&format!(
                        "cannot remove stale generated files in `{}`: {e}",
                        dir.display()
                    ));
                    false
                }
            }
        }
        _ => written,
    }
}

fn write(context: &Context, path: &Path, contents: &str) -> bool {
    match write_if_changed(path, contents.as_bytes()) {
        Ok(_) => true,
        Err(e) => {
            context.error(&format!("cannot write `{}`: {e}", path.display()));
            false
        }
    }
}
