//! `rcc [-l LANG] [-d DIR] [-I DIR]… FILE…`: Hadoop's invocation, generating code for the
//! records of the files named.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use hadoop_record_compiler::{load, LoadOptions};

use super::Context;

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

    /// Directory to write generated files into
    #[arg(short, long = "destdir", value_name = "DIR", default_value = ".")]
    destdir: PathBuf,

    /// Also look for included files in DIR (repeatable)
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    include_dirs: Vec<PathBuf>,

    /// DDL files to compile
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
}

/// Checks the files, then generates code; true on success.
pub(crate) fn run(context: &Context, args: GenerateArgs) -> bool {
    let GenerateArgs {
        language,
        destdir: _destdir, // where the back ends will write, once they exist
        include_dirs,
        files,
    } = args;
    if let Err(diagnostics) = load(&files, &LoadOptions { include_dirs }) {
        context.report(&diagnostics);
        return false;
    }
    context.error(&format!(
        "the {} back end is not built yet; `rcc check` checks DDL files without generating code",
        language.name()
    ));
    false
}
