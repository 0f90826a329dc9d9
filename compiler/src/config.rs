//! Generating Rust from DDL in a build script, in the manner of prost-build.
//!
//! ```no_run
//! // build.rs, in `fn main`
//! hadoop_record_compiler::Config::new()
//!     .include_dir("schema/common")
//!     .type_attribute(".links", "#[derive(serde::Serialize)]")
//!     .field_attribute("Link.URL", "#[serde(rename = \"url\")]")
//!     .compile(&["schema/links.jr"])
//!     .unwrap();
//! ```
//!
//! ```text
//! // src/lib.rs: the file is `$OUT_DIR/links.rs`, named after the first schema.
//! pub mod links {
//!     hadoop_record::include_records!("links");
//! }
//! ```

use std::collections::BTreeSet;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::backend::{rust, write_if_changed};
use crate::diagnostics::{Diagnostics, RenderOptions};
use crate::{load, LoadOptions};

/// Compiles DDL files into one Rust file in Cargo's `OUT_DIR`, for
/// `hadoop_record::include_records!`. Every file read (includes too) is reported to Cargo
/// with `cargo:rerun-if-changed`, so the build script runs again when any of them changes.
#[derive(Debug, Clone)]
pub struct Config {
    load: LoadOptions,
    out_dir: Option<PathBuf>,
    file_name: Option<String>,
    options: rust::Options,
    rerun_if_changed: bool,
    warnings: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config::new()
    }
}

impl Config {
    /// A configuration with no include directories, writing to `OUT_DIR`.
    pub fn new() -> Self {
        Config {
            load: LoadOptions::default(),
            out_dir: None,
            file_name: None,
            options: rust::Options::default(),
            rerun_if_changed: true,
            warnings: true,
        }
    }

    /// Also looks for included files in `dir` (after the including file's directory, and
    /// after the directories added before).
    pub fn include_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.load = std::mem::take(&mut self.load).with_include_dir(dir);
        self
    }

    /// Whether what Hadoop's own rcc rejects (`};`, records named before their
    /// declaration, ...) fails the build (default: no; each is then a `cargo:warning`).
    pub fn hadoop_compat(&mut self, on: bool) -> &mut Self {
        self.load = std::mem::take(&mut self.load).with_hadoop_compat(on);
        self
    }

    /// Writes into `dir` instead of Cargo's `OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Names the output `NAME.rs` (and the `include_records!("NAME")` argument). The
    /// default is the first schema's file stem: `schema/links.jr` gives `links.rs`.
    pub fn file_name(&mut self, name: impl Into<String>) -> &mut Self {
        self.file_name = Some(name.into());
        self
    }

    /// Adds the outer attribute(s) `attribute` (e.g. `#[derive(serde::Serialize)]`) to the
    /// records that `path` selects: `.` all of them, `.links` those of module `links` and
    /// below, `links.Link` or just `Link` by name (see [`rust::path_matches`]).
    ///
    /// A trait the records already derive (see [`Config::minimal_derives`]) cannot be derived
    /// twice: to choose `Eq` and `Hash` yourself, turn the default derives off first.
    ///
    /// ```no_run
    /// // build.rs: `Link` (no float inside) as a `HashSet` element.
    /// hadoop_record_compiler::Config::new()
    ///     .minimal_derives(true)
    ///     .type_attribute("links.Link", "#[derive(Eq, Hash)]")
    ///     .compile(&["schema/links.jr"])
    ///     .unwrap();
    /// ```
    pub fn type_attribute(
        &mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.rust(|o| o.with_type_attribute(path, attribute))
    }

    /// Adds the outer attribute(s) `attribute` to the fields that `path` selects, by DDL
    /// names: `links.Link.URL`, `Link.URL`, or `.links.Link` for every field of the record.
    pub fn field_attribute(
        &mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.rust(|o| o.with_field_attribute(path, attribute))
    }

    /// The path of the `hadoop-record` crate in the generated code, when it is not
    /// `::hadoop_record` (e.g. a re-export: `::my_crate::hadoop_record`).
    pub fn runtime_crate(&mut self, path: impl Into<String>) -> &mut Self {
        self.rust(|o| o.with_runtime_crate(Some(path.into())))
    }

    /// Whether to print a `cargo:warning` line for each construct Hadoop's own rcc would
    /// reject (default: yes; see [`Config::hadoop_compat`]). Turn it off for schemas that
    /// use such extensions on purpose and are never compiled by Hadoop.
    pub fn emit_warnings(&mut self, emit: bool) -> &mut Self {
        self.warnings = emit;
        self
    }

    /// Generates `Option` for every `ustring`, `buffer` and `vector`, whose `None` is jute's
    /// null (see [`rust::Options::nullable`]): for ZooKeeper's `zookeeper.jute`.
    pub fn nullable(&mut self, nullable: bool) -> &mut Self {
        self.rust(|o| o.with_nullable(nullable))
    }

    /// Derive only `Debug`, `Clone` and `PartialEq` on every record, besides `Record` (and
    /// the `Display` that comes with it), and no order (default: off). Add what you want
    /// with [`Config::type_attribute`].
    ///
    /// By default every record gets `Debug`, `Clone`, `Default`, `PartialEq` and
    /// `PartialOrd`; a record with no `float` or `double` inside (through vectors, maps and
    /// other records) also gets `Eq`, `Hash` and `Ord`. `PartialOrd` and `Ord` are Hadoop's
    /// order, that of the Java class's `compareTo` (`hadoop_record::compare::partial_cmp`):
    /// strings by UTF-16 code unit and maps by their keys, where Rust's derived order would
    /// compare strings by code point and maps by their values too.
    pub fn minimal_derives(&mut self, minimal: bool) -> &mut Self {
        self.rust(|o| o.with_minimal_derives(minimal))
    }

    /// Whether to print `cargo:rerun-if-changed` lines (default: yes).
    pub fn emit_rerun_if_changed(&mut self, emit: bool) -> &mut Self {
        self.rerun_if_changed = emit;
        self
    }

    /// Applies `set` to the Rust back end's options.
    fn rust(&mut self, set: impl FnOnce(rust::Options) -> rust::Options) -> &mut Self {
        self.options = set(std::mem::take(&mut self.options));
        self
    }

    /// Reads and checks `files` (and what they include), and writes the Rust code for all
    /// their records into one file, rewritten only when its content changes. Returns the
    /// file's path.
    ///
    /// DDL paths in the generated doc comments are shown relative to the crate
    /// (`CARGO_MANIFEST_DIR`), so the output does not depend on the checkout's location.
    ///
    /// # Errors
    /// Problems in the DDL ([`Error::Ddl`], which displays them exactly as `rcc` does), no
    /// `OUT_DIR`, or a failure to write.
    pub fn compile<P: AsRef<Path>>(&mut self, files: &[P]) -> Result<PathBuf, Error> {
        self.compile_reporting(files, &mut io::stdout().lock())
    }

    /// [`Config::compile`], writing the `cargo:` lines to `cargo`.
    fn compile_reporting<P: AsRef<Path>>(
        &mut self,
        files: &[P],
        cargo: &mut dyn Write,
    ) -> Result<PathBuf, Error> {
        let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
        let source_root = manifest_dir.or_else(|| std::env::current_dir().ok());
        let options = self.options.clone().with_source_root(source_root);
        let loaded = load(files, &self.load);
        if self.rerun_if_changed {
            let read: Vec<&Path> = match &loaded {
                Ok(model) => model.files_read().collect(),
                Err(diagnostics) => diagnostics.files_read().collect(),
            };
            rerun_if_changed(files.iter().map(AsRef::as_ref).chain(read), cargo);
        }
        match &loaded {
            Ok(model) if self.warnings => cargo_warnings(&model.warnings(), cargo),
            _ => {}
        }
        let code = loaded
            .and_then(|model| rust::generate_file(&model, &options))
            .map_err(Error::Ddl)?;

        let dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        let name = match &self.file_name {
            Some(name) => name.clone(),
            None => files
                .first()
                .and_then(|f| f.as_ref().file_stem())
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "records".to_owned()),
        };
        let path = dir.join(format!("{name}.rs"));
        write_if_changed(&path, code.as_bytes()).map_err(|source| Error::Write {
            path: path.clone(),
            source,
        })?;
        Ok(path)
    }
}

/// Prints `cargo:warning=path:line:col: message` for each warning (Cargo shows one line
/// per warning).
fn cargo_warnings(warnings: &Diagnostics, cargo: &mut dyn Write) {
    for warning in warnings {
        let place = warning
            .primary_label()
            .and_then(|l| warnings.location_of(l))
            .map(|l| format!("{l}: "))
            .unwrap_or_default();
        // As for rerun-if-changed: without Cargo there is no one to tell.
        let _ = writeln!(
            cargo,
            "cargo:warning={place}{}: Hadoop's rcc rejects this (`rcc check` shows more)",
            warning.message()
        );
    }
}

/// Prints `cargo:rerun-if-changed` once for each path.
fn rerun_if_changed<'a>(paths: impl Iterator<Item = &'a Path>, cargo: &mut dyn Write) {
    let mut seen = BTreeSet::new();
    for path in paths {
        if seen.insert(path) {
            // Cargo reads these lines from standard output; if it is gone, so is Cargo.
            let _ = writeln!(cargo, "cargo:rerun-if-changed={}", path.display());
        }
    }
}

/// Why [`Config::compile`] failed.
#[non_exhaustive]
pub enum Error {
    /// The DDL has errors.
    Ddl(Diagnostics),
    /// Neither [`Config::out_dir`] nor the `OUT_DIR` environment variable (set by Cargo
    /// for build scripts) says where to write.
    NoOutDir,
    /// The output could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Ddl(diagnostics) => {
                let n = diagnostics.error_count();
                write!(
                    f,
                    "{}error: rcc could not compile the DDL: found {n} error{}",
                    diagnostics.render(&RenderOptions::default()),
                    if n == 1 { "" } else { "s" }
                )
            }
            Error::NoOutDir => f.write_str(
                "rcc: OUT_DIR is not set; call Config::compile from a build script, or set Config::out_dir",
            ),
            Error::Write { path, source } => {
                write!(f, "rcc: cannot write `{}`: {source}", path.display())
            }
        }
    }
}

/// The same as `Display`, so that `.unwrap()` and `fn main() -> Result<…>` in a build
/// script show the diagnostics as `rcc` prints them.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Ddl(d) => Some(d),
            Error::NoOutDir => None,
            Error::Write { source, .. } => Some(source),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ddl(path: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/ddl")
            .join(path)
    }

    /// Compiles `files` with `config` into a new directory: the result, the `cargo:` lines
    /// written, and the directory.
    fn compile(
        mut config: Config,
        files: &[&Path],
    ) -> (Result<PathBuf, Error>, Vec<String>, tempfile::TempDir) {
        let out = tempfile::tempdir().unwrap();
        let mut cargo = Vec::new();
        let result = config
            .out_dir(out.path())
            .compile_reporting(files, &mut cargo);
        let lines = String::from_utf8(cargo)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        (result, lines, out)
    }

    #[test]
    fn every_file_read_is_watched_once() {
        let root = ddl("docs/outlinks.jr");
        let (path, cargo, out) = compile(Config::new(), &[&root, &root]);
        assert_eq!(path.unwrap(), out.path().join("outlinks.rs"));
        let warning = |file: &str, at: &str, class: &str| {
            format!(
                "cargo:warning={}:{at}: `;` after the `}}` of class `{class}`: Hadoop's rcc \
                 rejects this (`rcc check` shows more)",
                ddl(file).display()
            )
        };
        assert_eq!(
            cargo,
            [
                format!("cargo:rerun-if-changed={}", root.display()),
                format!("cargo:rerun-if-changed={}", ddl("docs/links.jr").display()),
                // The documentation's `};`, which Hadoop's rcc rejects.
                warning("docs/outlinks.jr", "9:6", "OutLinks"),
                warning("docs/links.jr", "8:6", "Link"),
            ]
        );
    }

    #[test]
    fn files_are_watched_when_the_ddl_has_errors_too() {
        let root = ddl("bad/include_cycle.jr");
        let (err, watched, out) = compile(Config::new(), &[&root]);
        assert!(matches!(err, Err(Error::Ddl(_))));
        assert!(watched.len() > 1, "{watched:?}");
        assert_eq!(
            watched[0],
            format!("cargo:rerun-if-changed={}", root.display())
        );
        assert!(std::fs::read_dir(out.path()).unwrap().next().is_none());
    }

    #[test]
    fn watching_and_warnings_can_be_turned_off() {
        let mut config = Config::new();
        config.emit_rerun_if_changed(false).emit_warnings(false);
        let (path, cargo, _out) = compile(config, &[&ddl("docs/links.jr")]);
        path.unwrap();
        assert!(cargo.is_empty());
    }
}
