//! `rcc -l c++` output compiles with `-Wall -Wextra -Wpedantic -Werror` and links, for every
//! schema of the repository, a schema of names C++ reserves, and random schemas; and the
//! command writes what it should.

mod cpp_support;

use std::path::{Path, PathBuf};

use cpp_support::{generate, generated_sources, scratch, toolchain, Draw, Rng, Unit, STRICT};

/// Schemas compiled together, each group in its own directory (file names repeat across
/// groups).
const GROUPS: &[(&str, &[&str])] = &[
    (
        "hadoop-java",
        &[
            "tests/fixtures/hadoop-java/common.jr",
            "tests/fixtures/hadoop-java/prims.jr",
            "tests/fixtures/hadoop-java/composite.jr",
        ],
    ),
    ("java-shapes", &["runtime/tests/data/java_shapes/shapes.jr"]),
    ("weblinks", &["examples/weblinks/schema/outlinks.jr"]),
    (
        "docs",
        &[
            "compiler/tests/ddl/docs/inclrec.jr",
            "compiler/tests/ddl/docs/links.jr",
            "compiler/tests/ddl/docs/outlinks.jr",
            "compiler/tests/ddl/docs/testrec.jr",
        ],
    ),
    (
        "hadoop",
        &[
            "compiler/tests/ddl/hadoop/links.jr",
            "compiler/tests/ddl/hadoop/location.jr",
            "compiler/tests/ddl/hadoop/signatures.jr",
            "compiler/tests/ddl/hadoop/single.jr",
            "compiler/tests/ddl/hadoop/test.jr",
        ],
    ),
    (
        "extensions",
        &[
            "compiler/tests/ddl/extensions/bom_and_crlf.jr",
            "compiler/tests/ddl/extensions/forward.jr",
            "compiler/tests/ddl/extensions/several.jr",
        ],
    ),
    (
        "rust",
        &[
            "compiler/tests/ddl/rust/all_types.jr",
            "compiler/tests/ddl/rust/containers.jr",
            "compiler/tests/ddl/rust/keywords.jr",
            "compiler/tests/ddl/rust/modules.jr",
            "compiler/tests/ddl/rust/collisions.jr",
        ],
    ),
    ("names", &["compiler/tests/ddl/cpp/names.jr"]),
    // Every word reserved or awkward in Rust, C++ and Java, and colliding names.
    ("stress", &["compiler/tests/ddl/names/stress.jr"]),
    ("evolution", &["compiler/tests/ddl/evolution/v3.jr"]),
];

/// Compiles the runtime and each group's sources strictly and links each group.
fn compile_and_link(groups: &[(String, PathBuf)]) {
    let Some(tc) = toolchain() else {
        return;
    };
    let flags: Vec<&str> = STRICT.iter().copied().chain(["-O0", "-g0"]).collect();
    let first = &groups[0].1;
    let mut units = vec![
        Unit {
            source: first.join("hadoop_record.cc"),
            include_dirs: vec![first.join("hadoop")],
            flags: &flags,
        },
        Unit {
            source: cpp_support::drivers().join("empty_main.cc"),
            include_dirs: vec![],
            flags: &flags,
        },
    ];
    // `hadoop_record.cc` includes "hadoop/…" relative to its directory, as generated sources
    // do: the include directory is the group's directory.
    units[0].include_dirs = vec![first.clone()];
    let mut per_group = Vec::new();
    for (_, dir) in groups {
        let sources = generated_sources(dir);
        per_group.push(sources.len());
        units.extend(sources.into_iter().map(|source| Unit {
            source,
            include_dirs: vec![dir.clone()],
            flags: &flags,
        }));
    }
    let objects = tc.compile(&units);
    let mut next = 2;
    for ((name, dir), n) in groups.iter().zip(per_group) {
        let mut linked = vec![objects[0].clone(), objects[1].clone()];
        linked.extend(objects[next..next + n].iter().cloned());
        next += n;
        tc.link(&linked, &dir.join(format!("{name}-linked")), &[]);
    }
}

#[test]
fn every_schema_compiles_strictly_and_links() {
    let groups: Vec<(String, PathBuf)> = GROUPS
        .iter()
        .map(|(name, files)| {
            let dir = scratch(&format!("compile-{name}"));
            generate(&dir, files);
            ((*name).to_owned(), dir)
        })
        .collect();
    compile_and_link(&groups);
}

/// Names C++ treats specially, and ordinary ones.
const NAMES: &[&str] = &[
    "a",
    "b",
    "x",
    "X",
    "value",
    "type",
    "signature",
    "serialize",
    "validate",
    "compareTo",
    "getX",
    "setX",
    "delete",
    "new",
    "this",
    "operator",
    "private",
    "template",
    "typename",
    "co_yield",
    "requires",
    "and",
    "or",
    "not",
    "xor",
    "errno",
    "EOF",
    "NULL",
    "stdin",
    "assert",
    "time",
    "log",
    "index",
    "main",
    "std",
    "hadoop",
    "Record",
    "string",
    "a__b",
    "x_",
    "tag_",
    "peer_",
    "archive_",
    "c_",
    "HadoopArchive",
    "int8_t",
    "size_t",
    "INT32_MAX",
];

/// A random DDL file that `rcc check` accepts: `modules` modules of records whose fields
/// are every kind of type, referring to earlier records by value and to any record through
/// vectors and maps; names drawn from [`NAMES`].
fn random_schema(rng: &mut Rng, file: usize, modules: usize, records_per_module: usize) -> String {
    let mut records: Vec<String> = Vec::new(); // qualified names, in order
    let mut text = String::new();
    for m in 0..modules {
        let depth = 1 + rng.below(3);
        let module: Vec<String> = (0..depth)
            .map(|d| {
                if d == 0 {
                    // Distinct per file: each file is generated by a run of its own.
                    format!(
                        "{}{file}{m}",
                        rng.pick(&["m", "std", "hadoop", "delete", "time", "main"])
                    )
                } else {
                    rng.pick(NAMES).to_owned()
                }
            })
            .collect();
        let module = module.join(".");
        text.push_str(&format!("module {module} {{\n"));
        let first = records.len();
        let mut classes = Vec::new();
        for r in 0..records_per_module {
            let mut name = rng.pick(NAMES).to_owned();
            while classes.contains(&name) {
                name = format!("{name}{r}");
            }
            classes.push(name.clone());
            records.push(format!("{module}.{name}"));
        }
        for (r, class) in classes.iter().enumerate() {
            let own = first + r;
            text.push_str(&format!("  class {class} {{\n"));
            let mut fields: Vec<String> = Vec::new();
            for f in 0..1 + rng.below(6) {
                let mut name = rng.pick(NAMES).to_owned();
                while fields.contains(&name) {
                    name = format!("{name}{f}");
                }
                fields.push(name.clone());
                let ty = random_type(rng, &records, own, 0);
                text.push_str(&format!("    {ty} {name};\n"));
            }
            text.push_str("  }\n");
        }
        text.push_str("}\n");
    }
    text
}

/// A type for a field of record `own`: records before it by value, any record inside
/// containers.
fn random_type(rng: &mut Rng, records: &[String], own: usize, depth: usize) -> String {
    const PRIMITIVES: &[&str] = &[
        "byte", "boolean", "int", "long", "float", "double", "ustring", "buffer",
    ];
    match rng.below(if depth >= 2 { 2 } else { 5 }) {
        0 => rng.pick(PRIMITIVES).to_owned(),
        1 if own > 0 => records[rng.below(own)].clone(),
        1 => rng.pick(PRIMITIVES).to_owned(),
        2 => format!(
            "vector<{}>",
            random_type(rng, records, records.len(), depth + 1)
        ),
        _ => format!(
            "map<{}, {}>",
            random_type(rng, records, records.len(), depth + 1),
            random_type(rng, records, records.len(), depth + 1)
        ),
    }
}

#[test]
fn random_schemas_compile_strictly_and_link() {
    let dir = scratch("compile-random-ddl");
    let mut rng = Rng(0x5eed_cafe_f00d_1234);
    let mut files = Vec::new();
    for i in 0..2 {
        let path = dir.join(format!("random{i}.jr"));
        std::fs::write(&path, random_schema(&mut rng, i, 3, 4)).unwrap();
        files.push(path);
    }
    let out = dir.join("out");
    for file in &files {
        // One run per file: each is a compilation of its own.
        let path = file.to_string_lossy().into_owned();
        generate(&out, &[&path]);
    }
    compile_and_link(&[("random".to_owned(), out)]);
}

/// C++ generation into a directory writes the headers, sources and runtime; runtime files
/// are rewritten only when they differ (the `rcc -l c++` command itself: `cli/tests/cli.rs`).
#[test]
fn the_command_writes_headers_sources_and_runtime() {
    let dir = scratch("command");
    let out = dir.join("gen");
    generate(&out, &["examples/weblinks/schema/outlinks.jr"]);
    for name in [
        "outlinks.jr.hh",
        "outlinks.jr.cc",
        "links.jr.hh",
        "links.jr.cc",
        "hadoop_record.cc",
        "hadoop/recordio.hh",
    ] {
        assert!(out.join(name).is_file(), "{name}");
    }
    let header = std::fs::read_to_string(out.join("outlinks.jr.hh")).unwrap();
    assert!(header.starts_with(
        "// @generated by rcc, the Hadoop Record I/O compiler, from `examples/weblinks/schema/outlinks.jr`."
    ));
    assert!(header.contains("#include \"links.jr.hh\""));

    // Unchanged files keep their modification time; a changed runtime file is restored.
    let runtime = out.join("hadoop/recordio.hh");
    let stamp = |p: &Path| std::fs::metadata(p).unwrap().modified().unwrap();
    let before = stamp(&runtime);
    std::fs::write(out.join("hadoop/binary.hh"), "changed").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    generate(&out, &["examples/weblinks/schema/outlinks.jr"]);
    assert_eq!(stamp(&runtime), before);
    assert_ne!(
        std::fs::read_to_string(out.join("hadoop/binary.hh")).unwrap(),
        "changed"
    );
}
