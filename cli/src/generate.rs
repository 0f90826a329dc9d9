//! `rcc [-l LANG] [-d DIR | -o FILE] [-I DIR]… [--hadoop-compat] FILE…`: Hadoop's invocation, generating
//! code for the records of the files named and of the files they include.
//!
//! For Rust: `-o FILE` writes one self-contained file, `-d DIR` a `mod.rs` plus one file
//! per module, and with neither the one-file form goes to standard output. For C++: `x.jr.hh`
//! and `x.jr.cc` for every DDL file, plus the runtime; for Java: `<package>/<Class>.java`
//! for every record of the files named; both into `-d DIR` (default: the current directory,
//! as Hadoop's `rcc`). For Avro: `<namespace>.<Name>.avsc` for every record of the files
//! named into `-d DIR`, or with no `-d` every schema to standard output, one after another.
//! Files whose content would not change are not rewritten.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use hadoop_record_compiler::backend::{
    avro, cpp, java, remove_stale, rust, write_if_changed, OutputFile,
};
use hadoop_record_compiler::Model;

use super::{Context, LoadArgs};
use crate::output_guard::{check_output, OutputKind};

/// Languages code can be generated for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Language {
    /// Rust, for the hadoop-record crate
    #[value(name = "rust", alias = "rs")]
    Rust,
    /// C++17: Hadoop's C++ mapping, with a runtime of our own written alongside
    #[value(name = "c++", alias = "cpp")]
    Cpp,
    /// Java: classes with the API of Hadoop's own rcc (see --java-api)
    #[value(name = "java")]
    Java,
    /// Avro schemas (.avsc), one per record; marks keep the exact DDL types (docs/avro.md)
    #[value(name = "avro")]
    Avro,
}

/// The Hadoop APIs generated Java can compile against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum JavaApiArg {
    /// Hadoop 2.x: org.apache.hadoop:hadoop-common (up to 2.10.2), the whole record package
    #[value(name = "hadoop2")]
    Hadoop2,
    /// Hadoop 3: the record runtime left in org.apache.hadoop:hadoop-streaming (with
    /// hadoop-common 3). It has no meta package, so no getTypeInfo()/setTypeFilter() and no
    /// filtered (versioned) reads; its runtime has binary I/O and a CSV writer only, no CSV
    /// reader and no XML
    #[value(name = "hadoop3")]
    Hadoop3,
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
    /// files an earlier run generated there for modules that are gone are removed. C++:
    /// FILE.hh and FILE.cc per DDL file and the runtime's hadoop/*.hh and hadoop_record.cc.
    /// Java: PACKAGE/CLASS.java for every record of the files named; default: the current
    /// directory. Avro: NAMESPACE.NAME.avsc for every record of the files named; default:
    /// every schema to standard output)
    #[arg(short, long = "destdir", value_name = "DIR")]
    destdir: Option<PathBuf>,

    /// Rust only: write one self-contained file (for `include!`); with neither -o nor -d
    /// the code goes to standard output
    #[arg(short, long, value_name = "FILE", conflicts_with = "destdir")]
    output: Option<PathBuf>,

    /// Java only: the Hadoop API the classes compile against
    #[arg(long, value_enum, value_name = "API", default_value = "hadoop2")]
    java_api: JavaApiArg,

    #[command(flatten)]
    load: LoadArgs,

    /// Rust only: make every ustring, buffer and vector an Option, whose None is jute's
    /// null (for ZooKeeper's zookeeper.jute)
    #[arg(long)]
    nullable: bool,

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
        java_api,
        load,
        nullable,
        files,
    } = args;
    let Some(model) = load.load(context, &files) else {
        return false;
    };
    // `-o` over a DDL file would destroy it.
    if let Some(output) = &output {
        let read: Vec<&Path> = model.files_read().collect();
        if let Err(message) = check_output(output, OutputKind::File, &read) {
            context.error(&message);
            return false;
        }
    }
    match language {
        Language::Rust => generate_rust(context, &model, destdir, output, nullable),
        Language::Cpp => generate_cpp(context, &model, destdir, output),
        Language::Java => generate_java(context, &model, destdir, output, java_api),
        Language::Avro => generate_avro(context, &model, destdir, output),
    }
}

fn generate_rust(
    context: &Context,
    model: &Model,
    destdir: Option<PathBuf>,
    output: Option<PathBuf>,
    nullable: bool,
) -> bool {
    let options = rust::Options::default()
        .with_source_root(std::env::current_dir().ok())
        .with_nullable(nullable);
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
        return context.print(&files[0].1);
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

/// Writes the headers and sources of every DDL file and the runtime into `destdir`.
fn generate_cpp(
    context: &Context,
    model: &Model,
    destdir: Option<PathBuf>,
    output: Option<PathBuf>,
) -> bool {
    if !no_output_file(context, output, "C++ is a header and a source per DDL file") {
        return false;
    }
    let options = cpp::Options::default().with_source_root(std::env::current_dir().ok());
    match cpp::generate(model, &options) {
        Ok(files) => write_all(context, destdir, files.into_iter().chain(cpp::runtime())),
        Err(diagnostics) => {
            context.report(&diagnostics);
            false
        }
    }
}

/// Writes a `.java` file per record of the files named into `destdir`.
fn generate_java(
    context: &Context,
    model: &Model,
    destdir: Option<PathBuf>,
    output: Option<PathBuf>,
    api: JavaApiArg,
) -> bool {
    if !no_output_file(context, output, "Java is a file per class") {
        return false;
    }
    let options = java::Options::default()
        .with_api(match api {
            JavaApiArg::Hadoop2 => java::JavaApi::Hadoop2,
            JavaApiArg::Hadoop3 => java::JavaApi::Hadoop3,
        })
        .with_source_root(std::env::current_dir().ok());
    match java::generate(model, &options) {
        Ok(files) => write_all(context, destdir, files),
        Err(diagnostics) => {
            context.report(&diagnostics);
            false
        }
    }
}

/// Writes a `.avsc` file per record of the files named into `destdir`, or prints them all,
/// one after another, without it.
fn generate_avro(
    context: &Context,
    model: &Model,
    destdir: Option<PathBuf>,
    output: Option<PathBuf>,
) -> bool {
    if !no_output_file(context, output, "Avro is a schema file per record") {
        return false;
    }
    let files = avro::generate(model);
    match destdir {
        Some(_) => write_all(context, destdir, files),
        None => context.print(&files.into_iter().map(|f| f.contents).collect::<String>()),
    }
}

/// False, with the error said, when `-o FILE` was given to a back end of many files.
fn no_output_file(context: &Context, output: Option<PathBuf>, layout: &str) -> bool {
    match output {
        Some(file) => {
            context.error(&format!(
                "`-o {}` is for Rust: {layout}, written into `-d DIR`",
                file.display()
            ));
            false
        }
        None => true,
    }
}

/// Writes `files` under `destdir` (default: the current directory, as Hadoop's rcc).
fn write_all(
    context: &Context,
    destdir: Option<PathBuf>,
    files: impl IntoIterator<Item = OutputFile>,
) -> bool {
    let dir = destdir.unwrap_or_else(|| PathBuf::from("."));
    files
        .into_iter()
        .all(|f| write(context, &dir.join(f.path), &f.contents))
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
