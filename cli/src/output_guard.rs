//! Outputs that cannot destroy inputs. A single file is replaced whole and a dataset
//! written with `--overwrite` loses what its directory held: an output that is, or
//! contains, an input of the command, the working directory, the home directory, `/` or
//! the root of a bucket (or of an HDFS namespace) is refused before anything runs, naming
//! both.
//!
//! Local paths are compared with symbolic links resolved (an output that does not exist
//! yet through its nearest existing ancestor); URLs by scheme (`s3a` is `s3`), host (without
//! its port) and path. A directory input is contained in an output at or above it; a glob
//! is compared by its directory before the first pattern.

use std::path::{Component, Path, PathBuf};

use crate::store_url::url_of;

/// What an output is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// One file.
    File,
    /// A directory of part files (`rcc sql -o DIR/`, `COPY … TO 'DIR/'`).
    Dataset,
}

/// Refuses to write `output` as `kind` when it is, or contains, one of `inputs` (files,
/// directories, globs, URLs; `-` is standard input and skipped), the working directory,
/// the home directory, `/` or a bucket's root. Standard output (`-`) is never refused.
pub fn check_output(output: &Path, kind: OutputKind, inputs: &[&Path]) -> Result<(), String> {
    let home = std::env::home_dir().filter(|h| !h.as_os_str().is_empty());
    let cwd = std::env::current_dir().ok();
    check_among(output, kind, inputs, home.as_deref(), cwd.as_deref())
}

/// [`check_output`] with the home and working directories given.
fn check_among(
    output: &Path,
    kind: OutputKind,
    inputs: &[&Path],
    home: Option<&Path>,
    cwd: Option<&Path>,
) -> Result<(), String> {
    if output == Path::new("-") {
        return Ok(());
    }
    let out = Place::of(output, false);
    let refuse = |why: String| {
        let (what, fix) = match kind {
            OutputKind::File => ("", "name another file"),
            OutputKind::Dataset => ("the dataset ", "name a new directory for it"),
        };
        Err(format!(
            "refusing to write {what}{}: {why}; {fix}",
            out.show(kind)
        ))
    };
    if out.is_root() {
        return refuse(match &out {
            Place::Local { .. } => "it is the root directory".into(),
            Place::Remote { .. } => "it is the root of its store".into(),
        });
    }
    let protected = home
        .map(|h| ("your home directory", Place::of(h, false)))
        .into_iter()
        .chain(cwd.map(|c| ("the working directory", Place::of(c, false))))
        .chain(
            inputs
                .iter()
                .filter(|i| **i != Path::new("-"))
                .map(|i| ("the input", Place::of(i, true))),
        );
    let protected: Vec<(&str, Place)> = protected.collect();
    // What the output is, before what it contains: the most precise reason.
    let is = protected.iter().find(|(_, p)| out.same(p));
    let contains = || protected.iter().find(|(_, p)| out.contains(p));
    match is
        .map(|found| ("is", found))
        .or_else(|| contains().map(|found| ("contains", found)))
    {
        Some((verb, (name, place))) => {
            refuse(format!("it {verb} {name} {}", place.show(OutputKind::File)))
        }
        None => Ok(()),
    }
}

/// Where a path or URL points, for comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    /// An absolute path with symbolic links resolved; `pattern` is a glob's rest (shown,
    /// not compared).
    Local { path: PathBuf, pattern: PathBuf },
    /// A store's URL: `scheme://host` (lower case, without port), the path's components,
    /// and a glob's rest.
    Remote {
        store: String,
        shown: String,
        path: Vec<String>,
    },
}

/// Whether a path component is a glob pattern (DataFusion's listing reads `*`, `?`, `[`).
fn is_pattern(component: &str) -> bool {
    component.contains(['*', '?', '['])
}

impl Place {
    /// `path` (an input if `input`: globs are cut at their first pattern).
    fn of(path: &Path, input: bool) -> Place {
        match url_of(path) {
            Some(url) => Place::of_url(url, input),
            None => Place::of_local(path, input),
        }
    }

    fn of_local(path: &Path, input: bool) -> Place {
        let mut components: Vec<Component> = path.components().collect();
        let mut pattern = PathBuf::new();
        if input {
            if let Some(at) = components
                .iter()
                .position(|c| is_pattern(&c.as_os_str().to_string_lossy()))
            {
                pattern = components[at..].iter().collect();
                components.truncate(at);
            }
        }
        Place::Local {
            path: resolve(&components),
            pattern,
        }
    }

    fn of_url(url: &str, input: bool) -> Place {
        let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
        let scheme = scheme.to_ascii_lowercase();
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        if scheme == "file" {
            // file:///x and file://localhost/x are the local /x.
            return Place::of_local(Path::new(&format!("/{path}")), input);
        }
        let host = authority.rsplit('@').next().unwrap_or_default();
        let host = host
            .split(':')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let scheme = if scheme == "s3a" { "s3".into() } else { scheme };
        let mut parts: Vec<String> = Vec::new();
        for part in path.split('/') {
            match part {
                "" | "." => {}
                ".." => drop(parts.pop()),
                _ if input && is_pattern(part) => break,
                part => parts.push(part.to_owned()),
            }
        }
        Place::Remote {
            store: format!("{scheme}://{host}"),
            shown: url.to_owned(),
            path: parts,
        }
    }

    /// Whether `other` is this place or inside it.
    fn contains(&self, other: &Place) -> bool {
        match (self, other) {
            (Place::Local { path: a, .. }, Place::Local { path: b, .. }) => b.starts_with(a),
            (
                Place::Remote {
                    store: a, path: p, ..
                },
                Place::Remote {
                    store: b, path: q, ..
                },
            ) => a == b && q.starts_with(p),
            _ => false,
        }
    }

    /// Whether `other` is this very place.
    fn same(&self, other: &Place) -> bool {
        self.contains(other) && other.contains(self)
    }

    /// Whether this is `/` (a drive's root) or a store's root.
    fn is_root(&self) -> bool {
        match self {
            Place::Local { path, .. } => path.parent().is_none(),
            Place::Remote { path, .. } => path.is_empty(),
        }
    }

    /// As shown in messages: a dataset's directory ends in `/`.
    fn show(&self, kind: OutputKind) -> String {
        let (mut text, dir) = match self {
            Place::Local { path, pattern } => {
                // (Joining an empty path would add a `/`.)
                let text = match pattern.as_os_str().is_empty() {
                    true => path.display().to_string(),
                    false => path.join(pattern).display().to_string(),
                };
                let dir = kind == OutputKind::Dataset && path.parent().is_some();
                (text, dir)
            }
            Place::Remote { shown, .. } => (shown.clone(), kind == OutputKind::Dataset),
        };
        if dir && !text.ends_with('/') {
            text.push('/');
        }
        text
    }
}

/// `components` as an absolute path with symbolic links resolved: the nearest existing
/// ancestor canonicalized, the rest (which cannot hold links) appended.
fn resolve(components: &[Component]) -> PathBuf {
    for n in (0..=components.len()).rev() {
        let head: PathBuf = components[..n].iter().collect();
        let probe = if head.as_os_str().is_empty() {
            Path::new(".")
        } else {
            &head
        };
        if let Ok(mut path) = probe.canonicalize() {
            for c in &components[n..] {
                match c {
                    Component::Normal(name) => path.push(name),
                    Component::ParentDir => drop(path.pop()),
                    _ => {}
                }
            }
            return path;
        }
    }
    // Not even the working directory resolves: compare as written.
    let path: PathBuf = components.iter().collect();
    std::path::absolute(&path).unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`check_among`] without home and working directories.
    fn check(output: &Path, kind: OutputKind, inputs: &[&Path]) -> Result<(), String> {
        check_among(output, kind, inputs, None, None)
    }

    #[test]
    fn local_outputs_are_compared_resolved() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("logs/2024")).unwrap();
        std::fs::write(root.join("logs/a.seq"), b"a").unwrap();
        std::fs::write(root.join("web.jr"), b"").unwrap();
        let input = root.join("logs/a.seq");
        let logs = root.join("logs");
        let glob = root.join("logs/*/x.seq");
        let (file, dataset) = (OutputKind::File, OutputKind::Dataset);

        // The input itself, also by another spelling of it.
        let err = check(&input, file, &[&input]).unwrap_err();
        let shown = input.display();
        assert_eq!(
            err,
            format!("refusing to write {shown}: it is the input {shown}; name another file")
        );
        let other = root.join("logs/2024/../a.seq");
        assert!(check(&other, file, &[&input]).is_err());
        // A directory above the input, existing or not.
        let err = check(&root, dataset, &[&input]).unwrap_err();
        assert_eq!(
            err,
            format!(
                "refusing to write the dataset {}/: it contains the input {shown}; name a new \
                 directory for it",
                root.display()
            )
        );
        assert!(check(&logs, dataset, &[&logs]).is_err());
        assert!(check(&root, dataset, &[&logs]).is_err());
        // A glob: its directory before the pattern.
        let err = check(&logs, dataset, &[&glob]).unwrap_err();
        assert!(
            err.ends_with(&format!(
                "it is the input {}; name a new directory for it",
                glob.display()
            )),
            "{err}"
        );
        // A symbolic link to the input's directory.
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&logs, root.join("link")).unwrap();
            assert!(check(&root.join("link/a.seq"), file, &[&input]).is_err());
            assert!(check(&root.join("link/"), dataset, &[&input]).is_err());
        }

        // Beside or below the inputs: fine, existing or not.
        for ok in [
            root.join("out.seq"),
            root.join("logs/2024"),
            root.join("new/deeper/"),
            root.join("logs/b.seq"),
            root.join("new/../out"),
        ] {
            check(&ok, dataset, &[&input, &root.join("web.jr")]).unwrap();
        }
        check(&root.join("logs/out/"), dataset, &[&glob]).unwrap();
        check(&root.join("out/"), dataset, &[&glob, Path::new("-")]).unwrap();
        // Standard output is never refused; standard input is no input.
        check(Path::new("-"), file, &[&input]).unwrap();
    }

    #[test]
    fn roots_are_refused() {
        let err = check(Path::new("/"), OutputKind::Dataset, &[]).unwrap_err();
        assert_eq!(
            err,
            "refusing to write the dataset /: it is the root directory; name a new directory for it"
        );
        let err = check(Path::new("/.."), OutputKind::File, &[]).unwrap_err();
        assert_eq!(
            err,
            "refusing to write /: it is the root directory; name another file"
        );
        for url in [
            "s3://bucket/",
            "s3://bucket",
            "s3a://bucket//",
            "hdfs://nn:8020/",
            "hdfs://nn:8020",
            "hdfs://nn/x/..",
            "file:///",
        ] {
            let err = check(Path::new(url), OutputKind::Dataset, &[]).unwrap_err();
            assert!(err.contains(": it is the root "), "{url}: {err}");
        }
        let err = check(Path::new("s3://bucket"), OutputKind::Dataset, &[]).unwrap_err();
        assert_eq!(
            err,
            "refusing to write the dataset s3://bucket/: it is the root of its store; name a \
             new directory for it"
        );
        check(Path::new("s3://bucket/x/"), OutputKind::Dataset, &[]).unwrap();
    }

    #[test]
    fn urls_compare_by_store_and_path() {
        let p = Path::new;
        let dataset = OutputKind::Dataset;
        let inputs = [
            p("hdfs://NN:8020/logs/2024/*.seq"),
            p("s3a://lake/raw/a.csv"),
        ];
        for refused in [
            "hdfs://nn/logs/",
            "hdfs://nn:9000/logs/2024",
            "s3://lake/raw/",
            "s3://lake/raw/a.csv",
            "s3://lake/raw/x/../",
        ] {
            let err = check(p(refused), dataset, &inputs).unwrap_err();
            assert!(err.contains("the input"), "{refused}: {err}");
        }
        for fine in [
            "hdfs://other:8020/logs/",
            "viewfs://nn/logs/",
            "hdfs://nn/logs/2024/out/",
            "s3://lake/raw-out/",
            "s3://other/raw/",
            "/logs/",
        ] {
            check(p(fine), dataset, &inputs).unwrap();
        }
        // file:// URLs are local paths.
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let input = root.join("a.seq");
        let url = format!("file://{}", root.display());
        assert!(check(p(&url), dataset, &[&input]).is_err());
        assert!(check(&root, dataset, &[p(&format!("file://{}", input.display()))]).is_err());
    }

    #[test]
    fn the_working_and_home_directories_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let home = root.join("home");
        let work = home.join("work");
        std::fs::create_dir_all(&work).unwrap();
        let check =
            |output: &Path| check_among(output, OutputKind::Dataset, &[], Some(&home), Some(&work));
        let cwd = format!("the working directory {}", work.display());
        assert_eq!(
            check(&work).unwrap_err(),
            format!(
                "refusing to write the dataset {}/: it is {cwd}; name a new directory for it",
                work.display()
            )
        );
        assert!(check(&work.join("./"))
            .unwrap_err()
            .contains(&format!("it is {cwd}")));
        let is_home = format!("it is your home directory {}", home.display());
        assert!(check(&work.join("..")).unwrap_err().contains(&is_home));
        assert!(check(&home).unwrap_err().contains(&is_home));
        assert!(check(&root).unwrap_err().contains(&format!(
            "it contains your home directory {}",
            home.display()
        )));
        check(&work.join("out/")).unwrap();
        // A home inside the working directory: the output is the working directory.
        let inside = check_among(&home, OutputKind::Dataset, &[], Some(&work), Some(&home));
        assert!(inside
            .unwrap_err()
            .contains(": it is the working directory "));
        check(&home.join("elsewhere/")).unwrap();
        // The process's own, as `check_output` takes them: `.` is the working directory.
        let err = check_output(Path::new("."), OutputKind::Dataset, &[]).unwrap_err();
        assert!(err.contains(": it is the working directory "), "{err}");
    }
}
