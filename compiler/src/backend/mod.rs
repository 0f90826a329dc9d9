//! Back ends: code generated from a checked [`crate::Model`]. [`rust`] is the primary one;
//! [`avro`] writes Avro schemas rather than code.
//!
//! Every back end produces [`OutputFile`]s; [`write_if_changed`] writes them so that an
//! unchanged file keeps its modification time (and Cargo does not rebuild for nothing), and
//! [`remove_stale`] clears out what an earlier run wrote for modules that are gone.

pub mod avro;
#[cfg(feature = "cpp")]
#[cfg_attr(docsrs, doc(cfg(feature = "cpp")))]
pub mod cpp;
#[cfg(feature = "java")]
#[cfg_attr(docsrs, doc(cfg(feature = "java")))]
pub mod java;
pub mod rust;

use std::io;
use std::path::{Component, Path, PathBuf};

use crate::model::{Model, RecordIndex, Type};
use crate::source::Location;

/// How each back end's generated code names records and fields and spells field types
/// (what an editor shows on hover), from the same name and type mappings as code
/// generation. Building it names the whole model; asking it about one record is quick.
///
/// ```
/// use hadoop_record_compiler::{backend::Api, load_with, LoadOptions, MemoryFileSystem};
/// let mut fs = MemoryFileSystem::new();
/// fs.insert("x.jr", "module a.b { class Link { buffer type; vector<int> isNext; } }");
/// let model = load_with(&fs, &["x.jr"], &LoadOptions::default()).unwrap();
/// let (api, link) = (Api::new(&model), model.find("a.b.Link").unwrap());
/// let rust = api.rust(&model, link);
/// assert_eq!(rust.path, "a::b::Link");
/// assert_eq!((rust.fields[0].member.as_str(), rust.fields[0].ty.as_str()), ("r#type", "Vec<u8>"));
/// assert_eq!((rust.fields[1].member.as_str(), rust.fields[1].ty.as_str()), ("is_next", "Vec<i32>"));
/// let java = api.java(&model, link);
/// assert_eq!(java.path, "a.b.Link");
/// assert_eq!(java.fields[1].ty, "java.util.ArrayList<java.lang.Integer>");
/// assert_eq!(java.fields[1].accessors, ["getIsNext", "setIsNext"]);
/// let cpp = api.cpp(&model, link);
/// assert_eq!(cpp.path, "::a::b::Link");
/// assert_eq!(cpp.fields[0].ty, "::std::string");
/// assert_eq!(cpp.fields[0].accessors, ["getType"]);
/// ```
#[derive(Debug)]
pub struct Api {
    rust: rust::Api,
    #[cfg(feature = "java")]
    java: Vec<java::names::RecordNames>,
    #[cfg(feature = "cpp")]
    cpp: Vec<cpp::RecordNames>,
}

impl Api {
    /// Names every record and field of `model` as each back end does.
    pub fn new(model: &Model) -> Self {
        Api {
            rust: rust::Api::new(model),
            #[cfg(feature = "java")]
            java: java::names::assign(model),
            #[cfg(feature = "cpp")]
            cpp: cpp::names::assign(model),
        }
    }

    /// Record `r` of `model` (the model given to [`Api::new`]) in the Rust of
    /// [`rust::generate_file`] with default options: its path from where the tree is
    /// mounted, and its fields as the struct declares them.
    pub fn rust(&self, model: &Model, r: RecordIndex) -> RecordApi {
        self.rust.record(model, r)
    }

    /// Record `r` as the Java class [`java::generate`] writes.
    #[cfg(feature = "java")]
    #[cfg_attr(docsrs, doc(cfg(feature = "java")))]
    pub fn java(&self, model: &Model, r: RecordIndex) -> RecordApi {
        java::record_api(&self.java, model, r)
    }

    /// Record `r` as the C++ class [`cpp::generate`] writes.
    #[cfg(feature = "cpp")]
    #[cfg_attr(docsrs, doc(cfg(feature = "cpp")))]
    pub fn cpp(&self, model: &Model, r: RecordIndex) -> RecordApi {
        cpp::record_api(&self.cpp, model, r)
    }
}

/// A record in one back end's generated code: see [`Api`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordApi {
    /// The generated type, e.g. `links::Link` (Rust, from where the tree is mounted),
    /// `links.Link` (Java), `::links::Link` (C++).
    pub path: String,
    /// One per field, in declaration order.
    pub fields: Vec<FieldApi>,
}

/// A field in generated code: see [`RecordApi`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldApi {
    /// The member holding it, e.g. `is_relative` (Rust), `isRelative` (Java, C++).
    pub member: String,
    /// The member's type, e.g. `Vec<u8>`, `org.apache.hadoop.record.Buffer`, `::std::string`.
    pub ty: String,
    /// The accessors, where the back end generates them (`getIsRelative`, `setIsRelative`).
    pub accessors: Vec<String>,
}

/// A generated file: where it goes (relative to the output directory) and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// Relative to the output directory, e.g. `a/b.rs`.
    pub path: PathBuf,
    /// The file's text.
    pub contents: String,
}

/// The [`RecordApi`] of record `r`, named `path`, whose field `i` has the names `names[i]`,
/// which `field` turns into a [`FieldApi`] with the field's type.
pub(crate) fn record_api<N>(
    model: &Model,
    r: RecordIndex,
    path: String,
    names: &[N],
    field: impl Fn(&Type, &N) -> FieldApi,
) -> RecordApi {
    let fields = model
        .record(r)
        .fields()
        .iter()
        .zip(names)
        .map(|(f, n)| field(f.ty(), n))
        .collect();
    RecordApi { path, fields }
}

/// Writes `contents` to `path` unless the file already holds exactly that, creating parent
/// directories as needed. Returns whether the file was written. The file is replaced whole
/// ([`crate::atomic_file`]), keeping its permissions: a failure midway leaves it as it was.
pub fn write_if_changed(path: &Path, contents: &[u8]) -> io::Result<bool> {
    match std::fs::read(path) {
        Ok(existing) if existing == contents => return Ok(false),
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    crate::atomic_file::write_atomic(path, contents)?;
    Ok(true)
}

/// How every file `rcc` generates begins; [`remove_stale`] deletes only files that do.
pub const GENERATED_MARK: &str = "// @generated by rcc";

/// Deletes the `.rs` files below `dir` that `rcc` generated (they begin with
/// [`GENERATED_MARK`]) but that are not in `keep` (paths relative to `dir`), then the
/// directories this leaves empty. Files written by hand are never touched. Returns the
/// deleted files.
pub fn remove_stale(dir: &Path, keep: &[PathBuf]) -> io::Result<Vec<PathBuf>> {
    let keep: std::collections::HashSet<PathBuf> = keep.iter().map(|p| dir.join(p)).collect();
    let mut removed = Vec::new();
    remove_stale_in(dir, &keep, &mut removed)?;
    Ok(removed)
}

fn remove_stale_in(
    dir: &Path,
    keep: &std::collections::HashSet<PathBuf>,
    removed: &mut Vec<PathBuf>,
) -> io::Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            let before = removed.len();
            remove_stale_in(&path, keep, removed)?;
            // Only a directory this run emptied goes; an empty one the user made stays.
            if removed.len() > before && std::fs::read_dir(&path)?.next().is_none() {
                std::fs::remove_dir(&path)?;
            }
        } else if kind.is_file()
            && path.extension().is_some_and(|e| e == "rs")
            && !keep.contains(&path)
            && is_generated(&path)?
        {
            std::fs::remove_file(&path)?;
            removed.push(path);
        }
    }
    Ok(())
}

fn is_generated(path: &Path) -> io::Result<bool> {
    use io::Read;
    let mut head = [0u8; GENERATED_MARK.len()];
    let mut file = std::fs::File::open(path)?;
    let mut filled = 0;
    while filled < head.len() {
        match file.read(&mut head[filled..])? {
            0 => return Ok(false),
            n => filled += n,
        }
    }
    Ok(head == GENERATED_MARK.as_bytes())
}

/// `path:line:col` with a machine-independent path ([`show_path`]).
pub(crate) fn locate(location: &Location, root: Option<&Path>) -> String {
    format!(
        "{}:{}:{}",
        show_path(&location.path, root),
        location.line,
        location.column
    )
}

/// `path` as shown in generated code: relative paths as given, absolute ones relative to
/// `root` (or by file name when outside it); always with `/` separators.
pub(crate) fn show_path(path: &Path, root: Option<&Path>) -> String {
    let shown = if path.is_absolute() {
        match root.and_then(|root| path.strip_prefix(root).ok()) {
            Some(relative) => relative,
            None => Path::new(path.file_name().unwrap_or(path.as_os_str())),
        }
    } else {
        path
    };
    let parts: Vec<String> = shown
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            Component::ParentDir => Some("..".to_owned()),
            Component::CurDir | Component::RootDir | Component::Prefix(_) => None,
        })
        .collect();
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_generated_files_go_and_hand_written_ones_stay() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let put = |rel: &str, text: &str| {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        let generated = format!("{GENERATED_MARK}, the Hadoop Record I/O compiler\n");
        put("mod.rs", &generated);
        put("a.rs", &generated);
        put("old/gone.rs", &generated);
        put("old/deeper/gone.rs", &generated);
        put("mine.rs", "// written by hand\n");
        put("keep/mine.rs", "// written by hand\n");
        put("notes.txt", &generated);
        put("short.rs", "//");
        std::fs::create_dir(root.join("empty")).unwrap();

        let mut removed =
            remove_stale(root, &[PathBuf::from("mod.rs"), PathBuf::from("a.rs")]).unwrap();
        removed.sort();
        assert_eq!(
            removed,
            [root.join("old/deeper/gone.rs"), root.join("old/gone.rs")]
        );
        for kept in [
            "mod.rs",
            "a.rs",
            "mine.rs",
            "keep/mine.rs",
            "notes.txt",
            "short.rs",
        ] {
            assert!(root.join(kept).is_file(), "{kept}");
        }
        assert!(!root.join("old").exists());
        assert!(root.join("empty").is_dir());
        assert_eq!(
            remove_stale(&root.join("missing"), &[]).unwrap(),
            Vec::<PathBuf>::new()
        );
    }

    #[test]
    fn paths_are_machine_independent() {
        assert_eq!(show_path(Path::new("schema/a.jr"), None), "schema/a.jr");
        assert_eq!(show_path(Path::new("../x/./a.jr"), None), "../x/a.jr");
        assert_eq!(
            show_path(
                Path::new("/home/u/p/schema/a.jr"),
                Some(Path::new("/home/u/p"))
            ),
            "schema/a.jr"
        );
        assert_eq!(
            show_path(Path::new("/elsewhere/a.jr"), Some(Path::new("/home/u/p"))),
            "a.jr"
        );
        assert_eq!(show_path(Path::new("/elsewhere/a.jr"), None), "a.jr");
    }
}
