//! What the C++ tests share: finding g++, generating code with `rcc -l c++`, compiling with
//! object files cached under `target/` (keyed by the source, its headers and the flags, so a
//! second run compiles only what changed), linking, and the registry of record types the
//! test drivers (`tests/cpp/*.cc`) look types up in.
//!
//! g++ is required: without it the tests fail and say how to install it. Setting
//! `RCC_SKIP_CPP_TESTS=1` skips them instead (for machines without a C++ compiler; CI never
//! sets it). `CXX` picks another compiler.
#![allow(dead_code)]

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use hadoop_record_compiler::backend::{cpp, write_if_changed};
use hadoop_record_compiler::{load, LoadOptions, Model};

#[path = "../../../runtime/tests/support/gozip_inputs.rs"]
mod gozip_inputs;

pub use gozip_inputs::Rng;

/// Draws from an [`Rng`].
pub trait Draw {
    /// A value below `n` (not zero).
    fn below(&mut self, n: usize) -> usize;
    /// One of `items`.
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

impl Draw for Rng {
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Set to `1` to skip the C++ tests on a machine without g++.
pub const SKIP_VAR: &str = "RCC_SKIP_CPP_TESTS";

/// Strict warnings, as the generated code promises to compile under.
pub const STRICT: &[&str] = &["-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `compiler/tests/cpp`: the test drivers.
pub fn drivers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cpp")
}

/// The C++ compiler, or `None` when the tests are to be skipped.
pub struct Toolchain {
    pub cxx: String,
}

/// The C++ compiler to use, or `None` (after saying so) when `RCC_SKIP_CPP_TESTS` is set.
/// Panics with the fix when there is none.
pub fn toolchain() -> Option<Toolchain> {
    if std::env::var_os(SKIP_VAR).is_some_and(|v| v == "1") {
        eprintln!("{SKIP_VAR}=1: skipping the C++ tests");
        return None;
    }
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".to_owned());
    match Command::new(&cxx).arg("--version").output() {
        Ok(out) if out.status.success() => Some(Toolchain { cxx }),
        _ => panic!(
            "the C++ tests need a C++17 compiler, and `{cxx} --version` does not run.\n\
             Install one (Debian/Ubuntu: `sudo apt-get install g++`; set CXX to use another), \
             or set {SKIP_VAR}=1 to skip these tests."
        ),
    }
}

/// A fresh directory for one test's files, under `target/tmp`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cpp")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Where object files are kept between runs.
fn cache() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cpp-objects");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Generates C++ for `ddl` (paths relative to the repository root) into `out`, as
/// `rcc -l c++ -d out` does: headers, sources and the runtime, each file rewritten only when
/// it changed.
pub fn generate(out: &Path, ddl: &[&str]) {
    let options = cpp::Options::default().with_source_root(Some(repo()));
    let files = cpp::generate(&model(ddl), &options).unwrap_or_else(|d| panic!("{d}"));
    for file in files.into_iter().chain(cpp::runtime()) {
        let path = out.join(&file.path);
        write_if_changed(&path, file.contents.as_bytes())
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
}

/// The checked model of `ddl` (paths relative to the repository root).
pub fn model(ddl: &[&str]) -> Model {
    let paths: Vec<PathBuf> = ddl.iter().map(|p| repo().join(p)).collect();
    load(&paths, &LoadOptions::default()).unwrap_or_else(|d| panic!("{d}"))
}

/// The generated sources in `dir` (not the runtime's).
pub fn generated_sources(dir: &Path) -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "cc")
                && p.file_name()
                    .is_some_and(|n| n != "hadoop_record.cc" && n != "registry.cc")
        })
        .collect();
    sources.sort();
    sources
}

/// Writes `dir/registry.cc`: an entry for every record of `models` (see tests/cpp/registry.hh).
pub fn registry(dir: &Path, models: &[Model]) -> PathBuf {
    let mut includes = String::new();
    let mut entries = String::new();
    let mut seen = std::collections::BTreeSet::new();
    for model in models {
        for file in model.files() {
            let name = file
                .path()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if seen.insert(name.clone()) {
                includes.push_str(&format!("#include \"{name}.hh\"\n"));
            }
        }
        for (record, class) in model.records().iter().zip(cpp::qualified_names(model)) {
            entries.push_str(&format!(
                "    {{\"{}\", makeRecord<{class}>, compareRecords<{class}>, equalRecords<{class}>}},\n",
                record.qualified_name()
            ));
        }
    }
    let text = format!(
        "// Generated by the tests: the record types of the schemas under test.\n\
         {includes}#include \"registry.hh\"\n\n\
         const RecordType kRecordTypes[] = {{\n{entries}}};\n\
         const std::size_t kRecordTypeCount = sizeof kRecordTypes / sizeof kRecordTypes[0];\n"
    );
    let path = dir.join("registry.cc");
    std::fs::write(&path, text).unwrap();
    path
}

/// Hash of the contents of every file under `dir` whose name ends with one of `exts`.
fn hash_tree(dir: &Path, exts: &[&str], h: &mut DefaultHasher) {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if exts.iter().any(|x| p.to_string_lossy().ends_with(x)) {
                files.push(p);
            }
        }
    }
    files.sort();
    for f in files {
        f.strip_prefix(dir).unwrap().hash(h);
        std::fs::read(&f).unwrap().hash(h);
    }
}

/// One compilation: a source, the directories its headers are in, and flags.
pub struct Unit<'a> {
    pub source: PathBuf,
    pub include_dirs: Vec<PathBuf>,
    pub flags: &'a [&'a str],
}

impl Toolchain {
    /// Compiles `units` (two at a time), reusing cached objects whose source, headers and
    /// flags are unchanged; panics with the compiler's output on failure.
    pub fn compile(&self, units: &[Unit<'_>]) -> Vec<PathBuf> {
        let objects: Vec<PathBuf> = units.iter().map(|u| self.object_path(u)).collect();
        let todo: Mutex<Vec<usize>> = Mutex::new(
            (0..units.len())
                .filter(|&i| !objects[i].exists())
                .rev()
                .collect(),
        );
        let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
        std::thread::scope(|s| {
            for _ in 0..workers {
                s.spawn(|| loop {
                    let Some(i) = todo.lock().unwrap().pop() else {
                        return;
                    };
                    let unit = &units[i];
                    let partial = objects[i].with_extension(format!("tmp{}", std::process::id()));
                    let mut command = Command::new(&self.cxx);
                    command.args(unit.flags);
                    for dir in &unit.include_dirs {
                        command.arg("-I").arg(dir);
                    }
                    command.arg("-c").arg(&unit.source).arg("-o").arg(&partial);
                    let out = command.output().expect("the C++ compiler runs");
                    if out.status.success() {
                        std::fs::rename(&partial, &objects[i]).unwrap();
                    } else {
                        failures.lock().unwrap().push(format!(
                            "{} {:?} {}:\n{}",
                            self.cxx,
                            unit.flags,
                            unit.source.display(),
                            String::from_utf8_lossy(&out.stderr)
                        ));
                    }
                });
            }
        });
        let failures = failures.into_inner().unwrap();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        objects
    }

    fn object_path(&self, unit: &Unit<'_>) -> PathBuf {
        let mut h = DefaultHasher::new();
        self.cxx.hash(&mut h);
        unit.flags.hash(&mut h);
        std::fs::read(&unit.source)
            .unwrap_or_else(|e| panic!("{}: {e}", unit.source.display()))
            .hash(&mut h);
        for dir in &unit.include_dirs {
            hash_tree(dir, &[".hh", ".inc", ".h"], &mut h);
        }
        let stem = unit
            .source
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        cache().join(format!("{stem}-{:016x}.o", h.finish()))
    }

    /// Links `objects` into the program `out`.
    pub fn link(&self, objects: &[PathBuf], out: &Path, flags: &[&str]) {
        let result = Command::new(&self.cxx)
            .args(flags)
            .args(objects)
            .arg("-o")
            .arg(out)
            .output()
            .expect("the C++ compiler runs");
        assert!(
            result.status.success(),
            "linking {} failed:\n{}",
            out.display(),
            String::from_utf8_lossy(&result.stderr)
        );
    }
}

/// Runs `program` with `args` in `dir`, with AddressSanitizer and UndefinedBehaviorSanitizer
/// strict (allocations over 64 MiB abort, so nothing is allocated from a claimed length);
/// its standard output, after checking that it succeeded without a sanitizer report.
pub fn run(program: &Path, args: &[&std::ffi::OsStr], dir: &Path) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env(
            "ASAN_OPTIONS",
            "abort_on_error=1:detect_leaks=1:max_allocation_size_mb=64:\
             allocator_may_return_null=0:detect_stack_use_after_return=1",
        )
        .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && !stderr.contains("Sanitizer") && !stderr.contains("runtime error"),
        "{} {args:?} failed ({}):\n{}\n{stderr}",
        program.display(),
        out.status,
        String::from_utf8_lossy(&out.stdout),
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Schemas the test programs know: one `rcc` run each, into one directory.
pub const PROGRAM_SCHEMAS: &[&[&str]] = &[
    &[
        "tests/fixtures/hadoop-java/prims.jr",
        "tests/fixtures/hadoop-java/composite.jr",
    ],
    &["runtime/tests/data/java_shapes/shapes.jr"],
    &["examples/weblinks/schema/outlinks.jr"],
    &["compiler/tests/ddl/extensions/forward.jr"],
    &[
        "compiler/tests/ddl/rust/all_types.jr",
        "compiler/tests/ddl/rust/containers.jr",
    ],
    &["compiler/tests/ddl/cpp/names.jr"],
];

/// The test programs over the generated code of [`PROGRAM_SCHEMAS`], built once with
/// AddressSanitizer and UndefinedBehaviorSanitizer (and edge coverage for the fuzzer):
/// `driver` (tests/cpp/driver.cc), `hostile` (tests/cpp/hostile.cc) and `user_streams`
/// (tests/cpp/user_streams.cc).
pub struct Programs {
    /// Where the generated code is; the programs run here.
    pub dir: PathBuf,
    pub driver: PathBuf,
    pub hostile: PathBuf,
    pub user_streams: PathBuf,
    /// The models of [`PROGRAM_SCHEMAS`].
    pub models: Vec<Model>,
    /// Record types in registry order.
    pub types: Vec<String>,
}

/// Flags of the sanitized build.
const SANITIZE: &[&str] = &[
    "-O1",
    "-g",
    "-fno-omit-frame-pointer",
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
];

/// The test programs; `None` when the C++ tests are skipped.
pub fn programs() -> Option<&'static Programs> {
    static PROGRAMS: OnceLock<Option<Programs>> = OnceLock::new();
    PROGRAMS.get_or_init(build_programs).as_ref()
}

fn build_programs() -> Option<Programs> {
    let tc = toolchain()?;
    let dir = scratch("programs");
    let mut models = Vec::new();
    for files in PROGRAM_SCHEMAS {
        generate(&dir, files);
        models.push(model(files));
    }
    let mut classes = std::collections::HashSet::new();
    for m in &models {
        for name in cpp::qualified_names(m) {
            assert!(
                classes.insert(name.clone()),
                "{name} twice in the test schemas"
            );
        }
    }
    registry(&dir, &models);
    let types = models
        .iter()
        .flat_map(|m| m.records().iter().map(|r| r.qualified_name().to_owned()))
        .collect();
    let base: Vec<&str> = STRICT.iter().chain(SANITIZE).copied().collect();
    let covered: Vec<&str> = base
        .iter()
        .copied()
        .chain(["-fsanitize-coverage=trace-pc"])
        .collect();
    let include_dirs = vec![dir.clone(), drivers()];
    let unit = |source: PathBuf, flags| Unit {
        source,
        include_dirs: include_dirs.clone(),
        flags,
    };
    let mut units: Vec<Unit> = generated_sources(&dir)
        .into_iter()
        .chain([
            dir.join("hadoop_record.cc"),
            dir.join("registry.cc"),
            drivers().join("fuzz_readers.cc"),
        ])
        .map(|source| unit(source, &covered))
        .collect();
    // The programs themselves, and the coverage counter, are not instrumented.
    let programs = ["coverage.cc", "driver.cc", "hostile.cc", "user_streams.cc"];
    for program in programs {
        units.push(unit(drivers().join(program), &base));
    }
    let objects = tc.compile(&units);
    let n = objects.len();
    let (shared, own) = objects.split_at(n - programs.len());
    let link = |name: &str, extra: &[PathBuf]| {
        let program = dir.join(name);
        let objects: Vec<PathBuf> = shared.iter().chain(extra).cloned().collect();
        tc.link(&objects, &program, &["-fsanitize=address,undefined"]);
        program
    };
    let driver = link("driver", &[own[0].clone(), own[1].clone()]);
    let hostile = link("hostile", &[own[0].clone(), own[2].clone()]);
    let user_streams = link("user_streams", &[own[0].clone(), own[3].clone()]);
    Some(Programs {
        dir,
        driver,
        hostile,
        user_streams,
        models,
        types,
    })
}
