//! The formatter over every DDL file of the repository: the `.jr` and `.jute` files
//! anywhere (the shared reference DDL is copied into `tests/fixtures`, see its README) and
//! the fuzzer's DDL seeds. Each file that parses formats idempotently, to the same syntax
//! tree with the same comments in the same order, and to DDL that Hadoop's rcc can lex and
//! parse; each set of files that checks generates the same Rust, Java and C++ once
//! formatted, and each that does not gives the same diagnostics. A file that does not
//! parse gives the error `rcc check` gives.

use std::path::{Path, PathBuf};

use hadoop_record_compiler::backend::{cpp, java, rust, OutputFile};
use hadoop_record_compiler::format::{format_bytes, format_source};
use hadoop_record_compiler::syntax::{self, ast};
use hadoop_record_compiler::{
    load, load_with, Diagnostics, LoadOptions, MemoryFileSystem, Model, RenderOptions,
};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// Every `.jr` and `.jute` file below `dir` (hidden folders and build output aside), and
/// every file of the fuzzer's DDL seeds, sorted.
fn ddl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" {
                ddl_files(&path, out);
            }
        } else if name.ends_with(".jr")
            || name.ends_with(".jute")
            || path.parent().unwrap().ends_with("fuzz/seeds/ddl_parse")
        {
            out.push(path);
        }
    }
}

fn corpus() -> Vec<PathBuf> {
    let mut files = Vec::new();
    ddl_files(&repository(), &mut files);
    files.sort();
    files
}

/// A comment's kind and lines without their indentation, which formatting may change.
fn comment_lines(file: &ast::File) -> Vec<(ast::CommentKind, Vec<String>)> {
    file.comments
        .iter()
        .map(|c| {
            (
                c.kind,
                c.text.lines().map(|l| l.trim().to_owned()).collect(),
            )
        })
        .collect()
}

/// `text` with every `FILE:LINE:COL` made `FILE:L:C`, for the file names `names`:
/// generated code names where each record is declared, and formatting moves declarations
/// to other lines.
fn without_positions(text: &str, names: &[String]) -> String {
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(':') {
        let (before, after) = rest.split_at(at);
        out.push_str(before);
        let line = digits(&after[1..]);
        let column = if line > 0 && after[1 + line..].starts_with(':') {
            digits(&after[2 + line..])
        } else {
            0
        };
        if column > 0 && names.iter().any(|name| before.ends_with(name.as_str())) {
            out.push_str(":L:C");
            rest = &after[2 + line + column..];
        } else {
            out.push(':');
            rest = &after[1..];
        }
    }
    out.push_str(rest);
    out
}

/// One generated file: its path and text, positions erased.
type Generated = (PathBuf, String);

/// What every back end makes of `model`, positions erased (or why it failed).
fn generated(model: &Model) -> Vec<Result<Vec<Generated>, String>> {
    let names: Vec<String> = model
        .files()
        .iter()
        .map(|f| f.path().file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let files = |result: Result<Vec<OutputFile>, Diagnostics>| {
        result
            .map(|files| {
                files
                    .into_iter()
                    .map(|f| (f.path, without_positions(&f.contents, &names)))
                    .collect()
            })
            .map_err(|d| messages(&d).join("\n"))
    };
    vec![
        files(
            rust::generate_file(model, &rust::Options::default()).map(|contents| {
                vec![OutputFile {
                    path: "lib.rs".into(),
                    contents,
                }]
            }),
        ),
        files(rust::generate_tree(
            model,
            &rust::Options::default().with_nullable(true),
        )),
        files(java::generate(model, &java::Options::default())),
        files(cpp::generate(model, &cpp::Options::default())),
    ]
}

/// Asserts that two back ends' outputs are the same, showing the first line that differs.
fn assert_same_code(
    shown: &str,
    after: &[Result<Vec<Generated>, String>],
    before: &[Result<Vec<Generated>, String>],
) {
    for (after, before) in after.iter().zip(before) {
        let (Ok(after), Ok(before)) = (after, before) else {
            assert_eq!(after, before, "{shown}");
            continue;
        };
        assert_eq!(after.len(), before.len(), "{shown}: files generated");
        for ((path, a), (_, b)) in after.iter().zip(before) {
            if let Some((line, (a, b))) = a
                .lines()
                .zip(b.lines())
                .enumerate()
                .find(|(_, (a, b))| a != b)
            {
                panic!(
                    "{shown}: {} line {}:\n  before: {b}\n  after:  {a}",
                    path.display(),
                    line + 1
                );
            }
            assert_eq!(a, b, "{shown}: {}", path.display());
        }
    }
}

/// The diagnostics' messages, label texts and notes, without positions.
fn messages(diagnostics: &Diagnostics) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| {
            let labels: Vec<&str> = d.labels().iter().map(|l| l.message()).collect();
            format!(
                "{} [{}] {}",
                d.message(),
                labels.join("|"),
                d.notes().join("|")
            )
        })
        .collect()
}

/// `files` (those a load read) in memory, formatted when `format` says and they parse, so
/// that the load can be repeated on exactly these texts.
fn in_memory(files: &[hadoop_record_compiler::SourceFile], format: bool) -> MemoryFileSystem {
    let mut fs = MemoryFileSystem::new();
    for file in files {
        let formatted = format.then(|| format_source(file.text()).ok()).flatten();
        fs.insert(
            file.path(),
            formatted.unwrap_or_else(|| file.text().to_owned()),
        );
    }
    fs
}

/// How many `}` a `;` follows.
fn semicolons_after_braces(file: &ast::File) -> usize {
    file.items
        .iter()
        .filter_map(|item| match item {
            ast::Item::Module(m) => Some(m),
            ast::Item::Include(_) => None,
        })
        .map(|m| {
            usize::from(m.semicolon.is_some())
                + m.classes.iter().filter(|c| c.semicolon.is_some()).count()
        })
        .sum()
}

#[derive(Default)]
struct Counts {
    formatted: usize,
    changed: usize,
    not_parsed: usize,
    generated: usize,
    diagnosed: usize,
    unchanged: usize,
}

#[test]
fn every_ddl_file_formats_without_changing_meaning() {
    let mut counts = Counts::default();
    let files = corpus();
    for path in &files {
        let shown = path
            .strip_prefix(repository())
            .unwrap()
            .display()
            .to_string();
        let bytes = std::fs::read(path).unwrap();
        let parsed = match std::str::from_utf8(&bytes) {
            Ok(text) => syntax::parse(text).map(|tree| (text, tree)).map_err(Some),
            Err(_) => Err(None),
        };
        let (text, tree) = match parsed {
            Ok(parsed) => parsed,
            Err(error) => {
                // Not UTF-8, or not DDL: formatting reports what `rcc check` reports.
                let formatting = format_bytes(path, bytes.clone()).unwrap_err();
                let checking = load(&[path], &LoadOptions::default()).unwrap_err();
                assert_eq!(
                    formatting.render(&RenderOptions::default()),
                    checking.render(&RenderOptions::default()),
                    "{shown}"
                );
                if let Some(error) = error {
                    let text = std::str::from_utf8(&bytes).unwrap();
                    assert_eq!(format_source(text).unwrap_err(), error, "{shown}");
                }
                counts.not_parsed += 1;
                continue;
            }
        };
        let formatted = format_source(text).unwrap();
        counts.formatted += 1;
        counts.changed += usize::from(formatted != text);
        assert_eq!(
            format_source(&formatted).unwrap(),
            formatted,
            "{shown}: not idempotent"
        );
        let again = syntax::parse(&formatted)
            .unwrap_or_else(|e| panic!("{shown}: formatted text does not parse: {e:?}"));
        assert_eq!(
            comment_lines(&again),
            comment_lines(&tree),
            "{shown}: comments"
        );
        // What Hadoop's rcc rejects for no reason of meaning is gone.
        assert_eq!(again.bom, None, "{shown}");
        assert_eq!(again.unterminated_comment, None, "{shown}");
        assert!(formatted.ends_with('\n'), "{shown}");
        assert_eq!(semicolons_after_braces(&again), 0, "{shown}");
        assert_eq!(
            again.without_spans(),
            tree.without_spans(),
            "{shown}: the syntax tree changed"
        );

        // The files the load reads (includes too), loaded again from memory as they are
        // and formatted.
        let read = match load(&[path], &LoadOptions::default()) {
            Ok(model) => model.files().to_vec(),
            Err(diagnostics) => diagnostics.files().to_vec(),
        };
        let unchanged = read
            .iter()
            .all(|f| format_source(f.text()).is_ok_and(|t| t == f.text()));
        if unchanged {
            // Formatting changes none of the files: the same texts check the same way.
            counts.unchanged += 1;
            continue;
        }
        let options = LoadOptions::default();
        let before = load_with(&in_memory(&read, false), &[path], &options);
        let after = load_with(&in_memory(&read, true), &[path], &options);
        match (before, after) {
            (Ok(before), Ok(after)) => {
                assert_same_code(&shown, &generated(&after), &generated(&before));
                counts.generated += 1;
            }
            (Err(before), Err(after)) => {
                assert_eq!(messages(&after), messages(&before), "{shown}: diagnostics");
                counts.diagnosed += 1;
            }
            (before, after) => panic!(
                "{shown}: checks before formatting: {}, after: {}",
                before.is_ok(),
                after.is_ok()
            ),
        }
    }
    // Nothing is skipped: every file is in one of the counts, and each count is as large
    // as the repository's DDL makes it.
    assert_eq!(counts.formatted + counts.not_parsed, files.len());
    assert_eq!(
        counts.generated + counts.diagnosed + counts.unchanged,
        counts.formatted
    );
    eprintln!(
        "{} files: {} formatted ({} changed), {} not parsed; loads: {} generated, {} diagnosed, {} unchanged",
        files.len(),
        counts.formatted,
        counts.changed,
        counts.not_parsed,
        counts.generated,
        counts.diagnosed,
        counts.unchanged,
    );
    assert!(files.len() >= 350, "only {} files", files.len());
    assert!(counts.generated >= 45, "{}", counts.generated);
    assert!(counts.diagnosed >= 50, "{}", counts.diagnosed);
    assert!(counts.not_parsed >= 100, "{}", counts.not_parsed);
    assert!(counts.changed >= 100, "{}", counts.changed);
}

#[test]
fn the_corpus_holds_the_shared_and_zookeeper_ddl() {
    let files = corpus();
    for wanted in [
        "tests/fixtures/hadoop-java/prims.jr",
        "tests/fixtures/hadoop-java/composite.jr",
        "tests/fixtures/hadoop-java/common.jr",
        "tests/fixtures/bench/large.jr",
        "examples/zookeeper-client/schema/zookeeper.jute",
        "compiler/tests/ddl/hadoop/test.jr",
        "compiler/tests/ddl/format/comments.jr",
    ] {
        assert!(files.contains(&repository().join(wanted)), "{wanted}");
    }
}

#[test]
fn positions_are_erased_only_after_ddl_paths() {
    let names = ["b.jr".to_owned(), "c.jute".to_owned()];
    assert_eq!(
        without_positions(
            "declared at `a/b.jr:12:5`, see x.rs:3:4 and c.jute:1:1.",
            &names
        ),
        "declared at `a/b.jr:L:C`, see x.rs:3:4 and c.jute:L:C."
    );
    assert_eq!(
        without_positions("b.jr:12 b.jr::", &names),
        "b.jr:12 b.jr::"
    );
}
