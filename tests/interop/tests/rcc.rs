//! Hadoop 2.10.2's own rcc accepts exactly the DDL that our `rcc` loads without an error or
//! a Hadoop compatibility warning (`Model::warnings`, `--hadoop-compat`): every DDL file of the
//! compiler's tests, the fixtures and the examples, each named on its own, and the two
//! cases that need more than one file (two files on the command line, an include only
//! `-I` finds).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use hadoop_record_compiler::{load, LoadOptions};
use interop_tests::java::{jdk, maven_classpath, Jdk};
use interop_tests::tools::{self, locked, repo_root, say, work_dir};

/// Whether Hadoop's rcc compiles `files` (named as given, run in `dir`: it looks for the
/// includes of the files named on its command line in the working directory), writing
/// Java into `out`.
fn hadoop_accepts(jdk: &Jdk, jars: &str, dir: &Path, files: &[&str], out: &Path) -> bool {
    let _ = std::fs::remove_dir_all(out);
    let status = Command::new(jdk.java())
        .arg("-cp")
        .arg(jars)
        .arg("org.apache.hadoop.record.compiler.generated.Rcc")
        .args(["--language", "java", "--destdir"])
        .arg(out)
        .args(files)
        .current_dir(dir)
        .output()
        .expect("java runs");
    status.status.success()
}

/// Whether our `rcc` loads `files` (relative to `dir`) with no compatibility warning (it
/// may also not load them at all).
fn we_accept(dir: &Path, files: &[&str], include_dirs: &[PathBuf]) -> bool {
    let paths: Vec<PathBuf> = files.iter().map(|f| dir.join(f)).collect();
    let options = LoadOptions::default()
        .with_include_dirs(include_dirs.to_vec())
        .with_hadoop_compat(false);
    load(&paths, &options).is_ok_and(|model| model.warnings().is_empty())
}

#[test]
fn hadoops_rcc_accepts_what_we_accept_without_warnings() {
    if tools::skipped("the comparison with Hadoop's rcc") {
        return;
    }
    let root = repo_root();
    let work = work_dir().join("hadoop");
    let project = root.join("tests/interop/java");
    let jars = locked(&work, || maven_classpath(&project, &work));
    let jdk = jdk();
    let out = work_dir().join("rcc-acceptance");

    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [
        "compiler/tests/ddl/hadoop",
        "compiler/tests/ddl/rust",
        "compiler/tests/ddl/docs",
        "compiler/tests/ddl/extensions",
        "compiler/tests/ddl/compat",
        "compiler/tests/ddl/compat/helpers",
        "compiler/tests/ddl/names",
        "tests/fixtures/hadoop-java",
        "runtime/tests/data/java_shapes",
        "examples/weblinks/schema",
    ] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jr"))
            .collect();
        found.sort();
        files.extend(found);
    }
    assert!(files.len() >= 30, "{files:?}");
    // What we accept goes to one run of Hadoop's rcc per folder (it compiles each file
    // named on its own, and stops at the first it rejects); what we reject, one run each.
    // Hadoop's rcc looks for the includes of the files named on its command line in the
    // working directory, so it runs in the files' folder.
    let (ours_ok, ours_not): (Vec<&PathBuf>, Vec<&PathBuf>) = files.iter().partition(|file| {
        let name = file.file_name().unwrap().to_str().unwrap();
        we_accept(file.parent().unwrap(), &[name], &[])
    });
    let mut folders: BTreeMap<&Path, Vec<&str>> = BTreeMap::new();
    for file in &ours_ok {
        let name = file.file_name().unwrap().to_str().unwrap();
        folders
            .entry(file.parent().unwrap())
            .or_default()
            .push(name);
    }
    for (dir, names) in &folders {
        assert!(
            hadoop_accepts(&jdk, &jars, dir, names, &out),
            "Hadoop's rcc rejects one of {names:?} in {}, which we accept without a warning",
            dir.display()
        );
    }
    for file in &ours_not {
        let name = file.file_name().unwrap().to_str().unwrap();
        assert!(
            !hadoop_accepts(&jdk, &jars, file.parent().unwrap(), &[name], &out),
            "{}: Hadoop's rcc accepts it, we warn or fail",
            file.display()
        );
    }
    let (accepted, rejected) = (ours_ok.len(), ours_not.len());

    // Two files on one command line, the second naming a record of the first.
    let compat = root.join("compiler/tests/ddl/compat");
    let two = ["helpers/declares.jr", "uses_a_file_not_included.jr"];
    assert!(!hadoop_accepts(&jdk, &jars, &compat, &two, &out));
    assert!(!we_accept(&compat, &two, &[]));
    // An include that only `-I` finds (Hadoop's rcc has no -I).
    let dir = compat.join("include_dir");
    let one = ["found_with_include_dir.jr"];
    assert!(!hadoop_accepts(&jdk, &jars, &dir, &one, &out));
    assert!(!we_accept(&dir, &one, &[compat.join("helpers")]));
    // The same file and include beside it: both accept.
    let copy = work_dir().join("rcc-acceptance-include");
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["include_dir/found_with_include_dir.jr", "helpers/inc.jr"] {
        let from = compat.join(f);
        std::fs::copy(&from, copy.join(from.file_name().unwrap())).unwrap();
    }
    assert!(hadoop_accepts(&jdk, &jars, &copy, &one, &out));
    assert!(we_accept(&copy, &one, &[]));

    say(&format!(
        "Hadoop's rcc and ours agree on {} DDL files ({accepted} accepted, {rejected} \
         rejected) and 3 multi-file cases",
        files.len()
    ));
    assert!(accepted >= 10 && rejected >= 10, "{accepted} {rejected}");
}
