//! Hadoop 2.10.2's own rcc accepts exactly the DDL that our `rcc` loads without an error or
//! a Hadoop compatibility warning (`Model::warnings`, `--hadoop-compat`): every DDL file of the
//! compiler's tests, the fixtures and the examples, each named on its own, and the two
//! cases that need more than one file (two files on the command line, an include only
//! `-I` finds). And Java Avro 1.12 reads every schema `rcc -l avro` writes for the same
//! files back into their exact DDL.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use hadoop_record_compiler::backend::{avro, write_if_changed};
use hadoop_record_compiler::{load, LoadOptions, Model, RecordIndex};
use interop_tests::java::{driver_classpath, jdk, maven_classpath, Jdk};
use interop_tests::tools::{self, files_below, locked, repo_root, run_batch, say, work_dir};

/// The folders of DDL files the tests take, each file on its own: the compiler's tests,
/// the fixtures and the examples.
const DDL_DIRS: &[&str] = &[
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
];

/// The `.jr` files directly in each of `dirs`, sorted per folder.
fn ddl_files(root: &Path, dirs: &[&str]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jr"))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

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

    let files = ddl_files(&root, DDL_DIRS);
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

/// Java Avro 1.12 (`java/avro/pom.xml`, its `Schema.Parser` with strict names) parses every
/// schema `rcc -l avro` writes for every DDL file shipped in `examples/` and
/// `tests/fixtures` (`.jr` and `.jute`) and for those of the compiler's tests that load
/// ([`DDL_DIRS`], and the DDL of `describe`'s and C++'s tests), and reads
/// back the exact DDL: each schema holds exactly the records its record uses at any depth,
/// each with its doc, and its fields' names, DDL types (from the Avro types and their
/// `hadoop.type` marks) and docs (`Schemas.java` says how it reads them).
#[test]
fn java_avro_reads_back_the_ddl_of_every_schema_rcc_writes() {
    if tools::skipped("the check of rcc -l avro's schemas with Java Avro") {
        return;
    }
    let root = repo_root();
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["examples", "tests/fixtures"] {
        for suffix in [".jr", ".jute"] {
            files.extend(files_below(&root.join(dir), suffix));
        }
    }
    let shipped = files.len();
    assert!(shipped >= 8, "{files:?}");
    // The compiler's test DDL, for more comments and names (what does not load is skipped).
    let more = ["compiler/tests/ddl/describe", "compiler/tests/ddl/cpp"];
    files.extend(ddl_files(&root, DDL_DIRS));
    files.extend(ddl_files(&root, &more));

    let jdk = jdk();
    let (work, classpath) = driver_classpath(&jdk, "avro", "the Avro schema driver (Avro 1.12.2)");
    let runs = work.join("runs");
    std::fs::create_dir_all(&runs).expect("the Avro driver's runs directory");
    // The schemas of each DDL file go to a folder of their own, and what Java must read in
    // each is known from the model. They go to the driver in batches, each deleted once
    // checked: all of them together take over a gigabyte.
    let out = work.join("schemas");
    let _ = std::fs::remove_dir_all(&out);
    let mut batch: BTreeMap<PathBuf, Records> = BTreeMap::new();
    let (mut bytes, mut schemas, mut records, mut loaded) = (0, 0, 0, 0);
    let mut wrong = Vec::new();
    let mut check = |batch: &mut BTreeMap<PathBuf, Records>| {
        wrong.extend(java_avro_differences(&jdk, &classpath, &runs, batch));
        batch.clear();
        std::fs::remove_dir_all(&out).expect("the checked schemas are deleted");
    };
    for (n, file) in files.iter().enumerate() {
        let model = match load(std::slice::from_ref(file), &LoadOptions::default()) {
            Ok(model) => model,
            Err(_) if n >= shipped => continue,
            Err(d) => panic!("{}: shipped DDL does not load:\n{d}", file.display()),
        };
        loaded += 1;
        for schema in avro::generate(&model) {
            let path = out.join(n.to_string()).join(&schema.path);
            write_if_changed(&path, schema.contents.as_bytes())
                .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
            let name = schema.path.to_str().unwrap().trim_end_matches(".avsc");
            let record = model.find(name).expect("a schema per record");
            let want = records_of(&model, record);
            (bytes, schemas, records) = (
                bytes + schema.contents.len(),
                schemas + 1,
                records + want.len(),
            );
            batch.insert(path, want);
            if bytes >= AVRO_BATCH_BYTES {
                check(&mut batch);
                bytes = 0;
            }
        }
    }
    check(&mut batch);
    assert!(
        wrong.is_empty(),
        "{} of {schemas} schemas differ (`rcc -l avro FILE` prints them); the first:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(3)].join("\n\n")
    );
    say(&format!(
        "Java Avro 1.12.2 read back the DDL of the {schemas} schemas rcc -l avro wrote for \
         {loaded} DDL files ({records} record definitions)"
    ));
    assert!(loaded >= 30 && schemas >= 2000, "{loaded} {schemas}");
}

/// The records of one Avro schema, as `Schemas.java` describes them: see [`records_of`].
type Records = BTreeMap<String, Vec<String>>;

/// Schemas up to this size go to one run of the Avro driver.
const AVRO_BATCH_BYTES: usize = 256 << 20;

/// Runs the Avro driver on the schema files of `batch`; where Java refuses one or reads
/// other records than the DDL's (its value), what differs.
fn java_avro_differences(
    jdk: &Jdk,
    classpath: &str,
    runs: &Path,
    batch: &BTreeMap<PathBuf, Records>,
) -> Vec<String> {
    let request: String = batch.keys().map(|p| format!("{}\n", p.display())).collect();
    let mut driver = jdk.command(classpath);
    driver.arg("hadooprecord.avro.Schemas");
    let response = run_batch(&mut driver, runs, "schemas", request.as_bytes());
    let actual = java_descriptions(&String::from_utf8(response).expect("UTF-8 from the driver"));
    let mut wrong = Vec::new();
    for (path, want) in batch {
        let name = path.file_name().unwrap().to_string_lossy();
        match actual.get(path) {
            Some(Ok(got)) if got == want => {}
            Some(Ok(got)) => wrong.push(format!(
                "{name}: Java Avro read\n{got:#?}\nwhere the DDL is\n{want:#?}"
            )),
            Some(Err(e)) => wrong.push(format!("{name}: Java Avro refuses it: {e}")),
            None => wrong.push(format!("{name}: no answer from the driver")),
        }
    }
    wrong
}

/// What `Schemas.java` says for the schema of `top`: by full name, every record it holds
/// (`top` and those its fields use at any depth), as `record NAME\tDOC` and a
/// `field NAME\tTYPE\tDOC` line per field.
fn records_of(model: &Model, top: RecordIndex) -> Records {
    let mut out = BTreeMap::new();
    let mut pending = vec![top];
    while let Some(r) = pending.pop() {
        let record = model.record(r);
        if out.contains_key(record.qualified_name()) {
            continue;
        }
        let mut lines = vec![format!(
            "record {}\t{}",
            record.qualified_name(),
            escape(&record.doc())
        )];
        for field in record.fields() {
            lines.push(format!(
                "field {}\t{}\t{}",
                field.name(),
                model.type_to_string(field.ty()),
                escape(&field.doc())
            ));
            field.ty().for_each_record(&mut |r| pending.push(r));
        }
        out.insert(record.qualified_name().to_owned(), lines);
    }
    out
}

/// `text` escaped as `Schemas.java` escapes it.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('\t', "\\t")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

/// The driver's response: per schema file, its records as [`records_of`] gives them, or
/// Java's error.
fn java_descriptions(response: &str) -> BTreeMap<PathBuf, Result<Records, String>> {
    let mut out: BTreeMap<PathBuf, Result<BTreeMap<String, Vec<String>>, String>> = BTreeMap::new();
    let mut file: Option<PathBuf> = None;
    let mut record = String::new();
    for line in response.lines() {
        if let Some(rest) = line.strip_prefix("error ") {
            let (path, message) = rest.split_once('\t').expect("error PATH\tMESSAGE");
            out.insert(PathBuf::from(path), Err(message.to_owned()));
            file = None;
        } else if let Some(path) = line.strip_prefix("file ") {
            out.insert(PathBuf::from(path), Ok(BTreeMap::new()));
            file = Some(PathBuf::from(path));
        } else {
            let Some(Ok(records)) = file.as_ref().and_then(|f| out.get_mut(f)) else {
                panic!("the driver's line outside a file: {line}");
            };
            if let Some(rest) = line.strip_prefix("record ") {
                record = rest.split('\t').next().unwrap_or_default().to_owned();
            }
            records
                .entry(record.clone())
                .or_default()
                .push(line.to_owned());
        }
    }
    out
}

/// Java Avro 1.12's `SchemaCompatibility` (`Compatibility.java`) and
/// `backend::avro::resolution` agree on whether a reader's schema reads data written with
/// a writer's, and on the kinds of what fails (a name, a type, a missing default): for the
/// schemas `rcc -l avro` writes for every pair of records of the versions in
/// `compiler/tests/ddl/evolution` and `tests/interop/ddl/evolution.jr` (other namespaces
/// there: Avro compares names without them), for DDL changes of one field's type, and for
/// hand-made schemas with what DDL has no words for (unions, enums, fixed, aliases, fields
/// without defaults).
#[test]
fn java_avro_schema_compatibility_agrees_with_resolution() {
    if tools::skipped("the check of Avro's schema resolution with Java Avro") {
        return;
    }
    let root = repo_root();
    // Every record of the versions of each family, against every other of its family.
    let mut families: Vec<Vec<(String, String)>> = Vec::new();
    let records = |files: &[PathBuf]| -> Vec<(String, String)> {
        let mut out = Vec::new();
        for file in files {
            let model = load(std::slice::from_ref(file), &LoadOptions::default())
                .unwrap_or_else(|d| panic!("{}: {d}", file.display()));
            for (i, record) in model.records().iter().enumerate() {
                let label = format!(
                    "{}:{}",
                    file.file_name().unwrap().to_string_lossy(),
                    record.qualified_name()
                );
                let index = model.find(record.qualified_name()).unwrap();
                assert_eq!(index.index(), i);
                out.push((label, avro::schema(&model, index)));
            }
        }
        out
    };
    let shop: Vec<PathBuf> = (1..=5)
        .map(|v| root.join(format!("compiler/tests/ddl/evolution/v{v}.jr")))
        .collect();
    families.push(records(&shop));
    families.push(records(&[root.join("tests/interop/ddl/evolution.jr")]));
    let mut pairs: Vec<(String, String, String)> = Vec::new();
    for family in &families {
        for (w_label, w) in family {
            for (r_label, r) in family {
                pairs.push((format!("{w_label} -> {r_label}"), w.clone(), r.clone()));
            }
        }
    }
    // One field's DDL type changed, beside records `P` and `Q` of the same fields.
    let one_field = [
        ("int", "long"),
        ("int", "double"),
        ("long", "int"),
        ("float", "double"),
        ("double", "float"),
        ("ustring", "buffer"),
        ("buffer", "ustring"),
        ("byte", "int"),
        ("int", "boolean"),
        ("vector<int>", "vector<long>"),
        ("vector<long>", "vector<int>"),
        ("map<ustring, float>", "map<ustring, double>"),
        ("map<ustring, int>", "map<ustring, ustring>"),
        ("map<int, int>", "map<long, int>"),
        ("map<int, int>", "map<ustring, int>"),
        ("P", "Q"),
        ("vector<P>", "vector<Q>"),
        ("map<P, int>", "map<Q, int>"),
        ("vector<vector<P>>", "vector<vector<P>>"),
    ];
    for (old, new) in one_field {
        let schema = |ty: &str| {
            let ddl = format!(
                "module m {{ class P {{ int x; }} class Q {{ int x; }} class R {{ {ty} f; }} }}"
            );
            let mut fs = hadoop_record_compiler::MemoryFileSystem::new();
            fs.insert("r.jr", ddl.as_str());
            let model =
                hadoop_record_compiler::load_with(&fs, &["r.jr"], &LoadOptions::default()).unwrap();
            avro::schema(&model, model.find("m.R").unwrap())
        };
        pairs.push((format!("{old} -> {new}"), schema(old), schema(new)));
    }
    // What DDL has no words for.
    let record = |name: &str, fields: &str| {
        format!(r#"{{"type": "record", "name": "{name}", "namespace": "x", "fields": [{fields}]}}"#)
    };
    let enumeration = |symbols: &str, default: &str| {
        format!(
            r#"{{"name": "e", "type": {{"type": "enum", "name": "E", "symbols": [{symbols}]{default}}}}}"#
        )
    };
    let fixed = |name: &str, size: u32| {
        format!(r#"{{"name": "f", "type": {{"type": "fixed", "name": "{name}", "size": {size}}}}}"#)
    };
    for (label, w, r) in [
        (
            "no default",
            r#"{"name": "a", "type": "int"}"#,
            r#"{"name": "a", "type": "int"}, {"name": "b", "type": "int"}"#.to_string(),
        ),
        (
            "into a union",
            r#"{"name": "a", "type": "int"}"#,
            r#"{"name": "a", "type": ["null", "long"]}"#.into(),
        ),
        (
            "into a union without it",
            r#"{"name": "a", "type": "string"}"#,
            r#"{"name": "a", "type": ["null", "int"]}"#.into(),
        ),
        (
            "from a union",
            r#"{"name": "a", "type": ["null", "int"]}"#,
            r#"{"name": "a", "type": ["null", "long"]}"#.into(),
        ),
        (
            "from a union, a branch lost",
            r#"{"name": "a", "type": ["null", "int"]}"#,
            r#"{"name": "a", "type": "int"}"#.into(),
        ),
        (
            "field alias",
            r#"{"name": "a", "type": "int"}"#,
            r#"{"name": "b", "aliases": ["a"], "type": "long"}"#.into(),
        ),
        (
            "enum symbols added",
            &enumeration(r#""A""#, ""),
            enumeration(r#""A", "B""#, ""),
        ),
        (
            "enum symbols removed",
            &enumeration(r#""A", "B""#, ""),
            enumeration(r#""A""#, ""),
        ),
        (
            "enum default",
            &enumeration(r#""A", "B""#, ""),
            enumeration(r#""A""#, r#", "default": "A""#),
        ),
        ("fixed", &fixed("F", 4), fixed("F", 4)),
        ("fixed resized", &fixed("F", 4), fixed("F", 8)),
        ("fixed renamed", &fixed("F", 4), fixed("G", 4)),
    ] {
        pairs.push((label.into(), record("R", w), record("R", &r)));
    }
    let point = |x: &str| {
        format!(r#"{{"type": "record", "name": "P", "fields": [{{"name": "x", "type": "{x}"}}]}}"#)
    };
    for (label, x) in [
        ("into a union's record", "long"),
        ("into a union's record that does not resolve", "string"),
    ] {
        pairs.push((
            label.into(),
            record(
                "R",
                &format!(r#"{{"name": "p", "type": {}}}"#, point("int")),
            ),
            record(
                "R",
                &format!(r#"{{"name": "p", "type": ["null", {}]}}"#, point(x)),
            ),
        ));
    }
    pairs.push((
        "record alias".into(),
        record("Old", r#"{"name": "a", "type": "int"}"#),
        record("New", r#"{"name": "a", "type": "int"}"#)
            .replace(r#""fields""#, r#""aliases": ["Old"], "fields""#),
    ));

    let jdk = jdk();
    let (work, classpath) = driver_classpath(&jdk, "avro", "the Avro schema driver (Avro 1.12.2)");
    let dir = work.join("compatibility");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the compatibility pairs' directory");
    let mut request = String::new();
    for (i, (_, w, r)) in pairs.iter().enumerate() {
        let (wp, rp) = (
            dir.join(format!("{i}.w.avsc")),
            dir.join(format!("{i}.r.avsc")),
        );
        std::fs::write(&wp, w).unwrap();
        std::fs::write(&rp, r).unwrap();
        request += &format!("{}\t{}\n", wp.display(), rp.display());
    }
    let mut driver = jdk.command(&classpath);
    driver.arg("hadooprecord.avro.Compatibility");
    let response = run_batch(&mut driver, &dir, "pairs", request.as_bytes());
    let response = String::from_utf8(response).expect("UTF-8 from the driver");
    let answers: Vec<&str> = response.lines().collect();
    assert_eq!(answers.len(), pairs.len(), "{response}");
    let (mut wrong, mut incompatible) = (Vec::new(), 0);
    for ((label, w, r), java) in pairs.iter().zip(&answers) {
        let findings = avro::resolution(w, r).unwrap_or_else(|e| panic!("{label}: {e}"));
        let ours: BTreeSet<&str> = findings
            .iter()
            .filter(|f| f.outcome.fails())
            .map(|f| f.outcome.name())
            .collect();
        // Java's kinds in our words.
        let theirs: BTreeSet<&str> = match java.split_once('\t') {
            None if *java == "compatible" => BTreeSet::new(),
            Some(("incompatible", kinds)) => kinds
                .split(',')
                .map(|kind| match kind {
                    "NAME_MISMATCH" => "renamed",
                    "READER_FIELD_MISSING_DEFAULT_VALUE" => "no-default",
                    _ => "mismatch",
                })
                .collect(),
            _ => panic!("{label}: Java Avro: {java}"),
        };
        incompatible += usize::from(!theirs.is_empty());
        if ours != theirs {
            wrong.push(format!("{label}: Java Avro says {java}; we say {ours:?}"));
        }
    }
    std::fs::remove_dir_all(&dir).expect("the checked pairs are deleted");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    say(&format!(
        "Java Avro 1.12.2's SchemaCompatibility agrees with rcc's on {} schema pairs \
         ({incompatible} incompatible)",
        pairs.len()
    ));
    assert!(
        pairs.len() >= 180 && incompatible >= 100,
        "{} {incompatible}",
        pairs.len()
    );
}
