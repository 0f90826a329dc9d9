//! Reading DDL files and resolving their includes: each file is read and parsed once, an
//! include is looked up next to the including file and then in each include directory in
//! order, and an include cycle is an error naming the chain.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::diagnostics::{listing, Diagnostic};
use crate::source::{FileId, SourceFile};
use crate::syntax::{self, ast, SyntaxError};

/// Files larger than this are refused (no DDL comes close; it guards against reading a
/// device or a huge file by mistake).
pub const MAX_FILE_SIZE: u64 = 64 << 20;

/// Where the loader finds includes, and how strictly it reads.
///
/// ```
/// use hadoop_record_compiler::LoadOptions;
/// let options = LoadOptions::default().with_include_dir("ddl/common").with_hadoop_compat(true);
/// assert_eq!(options.include_dirs().len(), 1);
/// assert!(options.hadoop_compat());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadOptions {
    include_dirs: Vec<PathBuf>,
    hadoop_compat: bool,
}

impl LoadOptions {
    /// Directories searched, in order, for an include not found next to the including file
    /// (`rcc -I DIR`).
    pub fn include_dirs(&self) -> &[PathBuf] {
        &self.include_dirs
    }

    /// Whether what Hadoop's own rcc rejects is an error rather than a warning
    /// (`--hadoop-compat`; see [`crate::Model::warnings`]).
    pub fn hadoop_compat(&self) -> bool {
        self.hadoop_compat
    }

    /// Adds an include directory after the existing ones.
    #[must_use]
    pub fn with_include_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.include_dirs.push(dir.into());
        self
    }

    /// Adds include directories after the existing ones.
    #[must_use]
    pub fn with_include_dirs<P: Into<PathBuf>>(
        mut self,
        dirs: impl IntoIterator<Item = P>,
    ) -> Self {
        self.include_dirs.extend(dirs.into_iter().map(Into::into));
        self
    }

    /// Sets [`LoadOptions::hadoop_compat`].
    #[must_use]
    pub fn with_hadoop_compat(mut self, on: bool) -> Self {
        self.hadoop_compat = on;
        self
    }
}

/// Where DDL files come from: the real file system ([`RealFileSystem`]) or memory
/// ([`MemoryFileSystem`], for tests, fuzzing and tools that hold DDL as strings).
pub trait FileSystem {
    /// The file's bytes.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// A path naming the file uniquely, so that each file is read once; fails with
    /// [`io::ErrorKind::NotFound`] when there is no such file.
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf>;
}

/// The real file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct RealFileSystem;

impl FileSystem for RealFileSystem {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        std::fs::File::open(path)?
            .take(MAX_FILE_SIZE + 1)
            .read_to_end(&mut bytes)?;
        if bytes.len() as u64 > MAX_FILE_SIZE {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("larger than {} MiB", MAX_FILE_SIZE >> 20),
            ));
        }
        Ok(bytes)
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        std::fs::canonicalize(path)
    }
}

/// DDL files held in memory, named by path. Paths are compared after removing `.` and
/// resolving `..` lexically.
#[derive(Debug, Clone, Default)]
pub struct MemoryFileSystem {
    files: BTreeMap<PathBuf, Vec<u8>>,
}

impl MemoryFileSystem {
    /// No files.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) the file at `path`.
    pub fn insert(&mut self, path: impl AsRef<Path>, contents: impl Into<Vec<u8>>) {
        self.files.insert(normalize(path.as_ref()), contents.into());
    }
}

impl FileSystem for MemoryFileSystem {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.files
            .get(&normalize(path))
            .cloned()
            .ok_or_else(|| io::ErrorKind::NotFound.into())
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        let path = normalize(path);
        if self.files.contains_key(&path) {
            Ok(path)
        } else {
            Err(io::ErrorKind::NotFound.into())
        }
    }
}

/// `path` with `.` removed and `..` applied lexically.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// `path` with `.` components removed, for showing to people.
pub(crate) fn tidy(path: &Path) -> PathBuf {
    path.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

/// Syntax trees kept from one load to the next, so that a tool that loads again after a
/// change (a language server) parses only the files whose text changed. Keyed by canonical
/// path; an entry is used only when the file's text is the same.
#[derive(Debug, Default)]
pub struct ParseCache {
    files: HashMap<PathBuf, (String, Result<Arc<ast::File>, SyntaxError>)>,
}

impl ParseCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The parse of `text`, the file at `canonical`: from the cache when its text is the
    /// same, else parsed now and kept.
    pub fn parse(&mut self, canonical: &Path, text: &str) -> Result<Arc<ast::File>, SyntaxError> {
        if let Some((cached, result)) = self.files.get(canonical) {
            if cached == text {
                return result.clone();
            }
        }
        let result = syntax::parse(text).map(Arc::new);
        self.files
            .insert(canonical.to_owned(), (text.to_owned(), result.clone()));
        result
    }
}

/// Where an include led.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IncludeTarget {
    /// The included file.
    pub file: FileId,
    /// Found in an include directory (`-I`) rather than next to the including file.
    pub via_include_dir: bool,
}

/// The outcome of reading every file: the files, their syntax trees (for those that
/// parsed) in include order, where their includes led, and the problems found.
pub(crate) struct Loaded {
    pub files: Vec<SourceFile>,
    /// Parsed files, each after the files it includes.
    pub parsed: Vec<(FileId, Arc<ast::File>)>,
    /// `(file, n)` → where the `n`th include of `file` (counting from 0) led.
    pub includes: HashMap<(FileId, usize), IncludeTarget>,
    pub diagnostics: Vec<Diagnostic>,
}

struct Loader<'a> {
    fs: &'a dyn FileSystem,
    options: &'a LoadOptions,
    cache: Option<&'a mut ParseCache>,
    files: Vec<SourceFile>,
    trees: Vec<Option<Arc<ast::File>>>,
    by_canonical: HashMap<PathBuf, FileId>,
    includes: HashMap<(FileId, usize), IncludeTarget>,
    diagnostics: Vec<Diagnostic>,
}

/// Reads `roots` and everything they include, taking unchanged files' trees from `cache`.
pub(crate) fn load_files<'a>(
    fs: &'a dyn FileSystem,
    roots: &[&Path],
    options: &'a LoadOptions,
    cache: Option<&'a mut ParseCache>,
) -> Loaded {
    let mut loader = Loader {
        fs,
        options,
        cache,
        files: Vec::new(),
        trees: Vec::new(),
        by_canonical: HashMap::new(),
        includes: HashMap::new(),
        diagnostics: Vec::new(),
    };
    let mut order = Vec::new();
    for root in roots {
        let canonical = match fs.canonicalize(root) {
            Ok(c) => c,
            Err(e) => {
                loader.diagnostics.push(unreadable(root, &e));
                continue;
            }
        };
        if let Some(&id) = loader.by_canonical.get(&canonical) {
            loader.files[id.index()].mark_root();
            continue;
        }
        match loader.read(tidy(root), canonical, true) {
            Ok(id) => loader.walk(id, &mut order),
            Err(e) => loader.diagnostics.push(unreadable(root, &e)),
        }
    }
    let mut trees = std::mem::take(&mut loader.trees);
    let parsed = order
        .into_iter()
        .filter_map(|id: FileId| trees[id.index()].take().map(|t| (id, t)))
        .collect();
    Loaded {
        files: loader.files,
        parsed,
        includes: loader.includes,
        diagnostics: loader.diagnostics,
    }
}

/// The error for a file named by the caller that cannot be read.
pub(crate) fn unreadable(path: &Path, e: &io::Error) -> Diagnostic {
    Diagnostic::error(format!(
        "cannot read `{}`: {}",
        path.display(),
        describe_io(e)
    ))
}

/// Parses `bytes`, read from `path`, as the file `id`. The file is kept also when it is not
/// UTF-8 or does not parse, to show its text; the diagnostic then says why there is no tree.
pub(crate) fn parse_file(
    id: FileId,
    path: PathBuf,
    canonical: PathBuf,
    bytes: Vec<u8>,
    is_root: bool,
    cache: Option<&mut ParseCache>,
) -> (SourceFile, Result<Arc<ast::File>, Diagnostic>) {
    let (text, tree) = match String::from_utf8(bytes) {
        Ok(text) => {
            let parsed = match cache {
                Some(cache) => cache.parse(&canonical, &text),
                None => syntax::parse(&text).map(Arc::new),
            };
            let tree = parsed.map_err(|e| {
                let d = Diagnostic::error(e.message).primary(id, e.span, e.label);
                match e.help {
                    Some(help) => d.help(help),
                    None => d,
                }
            });
            (text, tree)
        }
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let byte = e.as_bytes()[at];
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
            let d = Diagnostic::error(format!("`{}` is not UTF-8 text", path.display()))
                .primary(
                    id,
                    (at..end).into(),
                    format!("byte 0x{byte:02X} is not valid UTF-8"),
                )
                .help("DDL files are UTF-8 text; is this the right file?");
            (text, Err(d))
        }
    };
    (SourceFile::new(id, path, canonical, text, is_root), tree)
}

fn describe_io(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file".into(),
        _ => e.to_string(),
    }
}

impl Loader<'_> {
    /// Reads and parses one file; a file that is not UTF-8 or does not parse is kept (to
    /// show its text) with a diagnostic, and no tree.
    fn read(&mut self, path: PathBuf, canonical: PathBuf, is_root: bool) -> io::Result<FileId> {
        let bytes = self.fs.read(&canonical)?;
        let id = FileId::new(self.files.len());
        self.by_canonical.insert(canonical.clone(), id);
        let (file, tree) = parse_file(
            id,
            path,
            canonical,
            bytes,
            is_root,
            self.cache.as_deref_mut(),
        );
        let tree = tree.map_err(|d| self.diagnostics.push(d)).ok();
        self.files.push(file);
        self.trees.push(tree);
        Ok(id)
    }

    /// Loads everything `root` includes, depth first, and appends files to `order` after
    /// the files they include. Iterative, so long include chains cannot overflow the stack.
    fn walk(&mut self, root: FileId, order: &mut Vec<FileId>) {
        // (file, index of the next include to follow)
        let mut stack: Vec<(FileId, usize)> = vec![(root, 0)];
        while let Some(&mut (file, ref mut next)) = stack.last_mut() {
            let include = self.trees[file.index()].as_ref().and_then(|tree| {
                tree.items
                    .iter()
                    .filter_map(|item| match item {
                        ast::Item::Include(i) => Some(i),
                        ast::Item::Module(_) => None,
                    })
                    .nth(*next)
                    .cloned()
            });
            let Some(include) = include else {
                stack.pop();
                order.push(file);
                continue;
            };
            let ordinal = *next;
            *next += 1;
            let Some((path, canonical, via_include_dir)) = self.resolve(file, &include) else {
                continue;
            };
            let id = match self.by_canonical.get(&canonical) {
                Some(&id) => {
                    if let Some(pos) = stack.iter().position(|&(f, _)| f == id) {
                        self.report_cycle(&stack[pos..], id, file, &include);
                    }
                    id
                }
                None => match self.read(path.clone(), canonical, false) {
                    Ok(id) => {
                        stack.push((id, 0));
                        id
                    }
                    Err(e) => {
                        self.diagnostics.push(
                            Diagnostic::error(format!(
                                "cannot read included file `{}`: {}",
                                path.display(),
                                describe_io(&e)
                            ))
                            .primary(
                                file,
                                include.path_span,
                                "included here",
                            ),
                        );
                        continue;
                    }
                },
            };
            self.files[file.index()].add_include(id);
            let target = IncludeTarget {
                file: id,
                via_include_dir,
            };
            self.includes.insert((file, ordinal), target);
        }
    }

    /// The path (as shown) and canonical path of `include` in `file`, and whether it was
    /// found in an include directory; or a diagnostic.
    fn resolve(
        &mut self,
        file: FileId,
        include: &ast::Include,
    ) -> Option<(PathBuf, PathBuf, bool)> {
        let including = self.files[file.index()].path();
        let here = including.parent().unwrap_or(Path::new(""));
        let candidates: Vec<PathBuf> = std::iter::once(here)
            .chain(self.options.include_dirs().iter().map(PathBuf::as_path))
            .map(|dir| tidy(&dir.join(&include.path)))
            .collect();
        for (i, candidate) in candidates.iter().enumerate() {
            match self.fs.canonicalize(candidate) {
                Ok(canonical) => return Some((candidate.clone(), canonical, i > 0)),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => {
                    self.diagnostics.push(
                        Diagnostic::error(format!(
                            "cannot read included file `{}`: {e}",
                            candidate.display()
                        ))
                        .primary(file, include.path_span, "included here"),
                    );
                    return None;
                }
            }
        }
        let looked: Vec<String> = candidates
            .iter()
            .map(|c| format!("`{}`", c.display()))
            .collect();
        let mut d = Diagnostic::error(format!("cannot find included file `{}`", include.path))
            .primary(file, include.path_span, "not found")
            .note(format!("looked for {}", listing(&looked, ", ")));
        if self.options.include_dirs().is_empty() {
            d = d.help("add a directory to search with `-I DIR`");
        }
        self.diagnostics.push(d);
        None
    }

    /// Reports that `file`'s `include` of `target` closes the cycle `chain`.
    fn report_cycle(
        &mut self,
        chain: &[(FileId, usize)],
        target: FileId,
        file: FileId,
        include: &ast::Include,
    ) {
        let names: Vec<String> = chain
            .iter()
            .map(|&(f, _)| f)
            .chain([target])
            .map(|f| format!("`{}`", self.files[f.index()].path().display()))
            .collect();
        self.diagnostics.push(
            Diagnostic::error(format!("include cycle: {}", listing(&names, " -> ")))
                .primary(file, include.path_span, "this include closes the cycle")
                .help("a file cannot include itself, directly or through other files"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_resolves_dots_lexically() {
        assert_eq!(
            normalize(Path::new("a/./b/../c.jr")),
            PathBuf::from("a/c.jr")
        );
        assert_eq!(normalize(Path::new("../x.jr")), PathBuf::from("../x.jr"));
        assert_eq!(tidy(Path::new("./a/./b.jr")), PathBuf::from("a/b.jr"));
    }
}
