//! The CMake example (`examples/cpp-weblinks`) builds with CMake through its
//! `hadoop_record_cpp` function, reads the records the Rust weblinks example wrote
//! (`examples/weblinks/data/pages.bin`) and writes records the Rust runtime reads back, in
//! binary and in CSV.

#[path = "../../compiler/tests/cpp_support/mod.rs"]
mod cpp_support;

use std::path::Path;
use std::process::Command;

use cpp_support::{model, repo, toolchain, SKIP_VAR};
use hadoop_record::{Format, RecordReader, RecordWriter, Value};

fn cmake(args: &[&str]) {
    let out = Command::new("cmake")
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "the CMake example needs cmake ({e}): install it (Debian/Ubuntu: `sudo apt-get \
                 install cmake`), or set {SKIP_VAR}=1 to skip the C++ tests"
            )
        });
    assert!(
        out.status.success(),
        "cmake {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read_all(bytes: &[u8], format: Format) -> Vec<Value> {
    let m = model(&["examples/weblinks/schema/outlinks.jr"]);
    let schema = m.to_schema();
    let id = schema.find("outlinks.OutLinks").unwrap();
    let mut reader = RecordReader::new(bytes, format);
    let mut out = Vec::new();
    while let Some(v) = reader.read_value(schema.schema(), id).unwrap() {
        out.push(v);
    }
    out
}

fn write_all(values: &[Value], format: Format) -> Vec<u8> {
    let m = model(&["examples/weblinks/schema/outlinks.jr"]);
    let schema = m.to_schema();
    let id = schema.find("outlinks.OutLinks").unwrap();
    let mut writer = RecordWriter::new(Vec::new(), format);
    for v in values {
        writer.write_value(schema.schema(), id, v).unwrap();
    }
    writer.into_inner().unwrap()
}

#[test]
fn the_cmake_example_reads_rust_records_and_writes_records_rust_reads() {
    let Some(tc) = toolchain() else { return };
    // Kept between runs: CMake rebuilds only what changed. A build directory configured for
    // another checkout (a target/ copied or moved along) is refused by CMake: start afresh.
    let build = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cpp-cmake");
    let source = repo().join("examples/cpp-weblinks");
    if let Ok(cache) = std::fs::read_to_string(build.join("CMakeCache.txt")) {
        let home = format!(
            "CMAKE_HOME_DIRECTORY:INTERNAL={}\n",
            source.canonicalize().unwrap().display()
        );
        if !cache.contains(&home) {
            std::fs::remove_dir_all(&build).unwrap();
        }
    }
    cmake(&[
        "-S",
        &source.to_string_lossy(),
        "-B",
        &build.to_string_lossy(),
        &format!("-DRCC_EXECUTABLE={}", env!("CARGO_BIN_EXE_rcc")),
        &format!("-DCMAKE_CXX_COMPILER={}", tc.cxx),
        "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Wpedantic -Werror",
    ]);
    cmake(&["--build", &build.to_string_lossy(), "-j", "2"]);
    assert!(build
        .join("weblinks_records-records/outlinks.jr.hh")
        .is_file());

    let from_rust = std::fs::read(repo().join("examples/weblinks/data/pages.bin")).unwrap();
    let pages = read_all(&from_rust, Format::Binary);
    assert_eq!(pages.len(), 2);
    for (format, name) in [(Format::Binary, "binary"), (Format::Csv, "csv")] {
        let input = build.join(format!("pages.{name}"));
        std::fs::write(&input, write_all(&pages, format)).unwrap();
        let output = build.join(format!("from-cpp.{name}"));
        let _ = std::fs::remove_file(&output);
        let out = Command::new(build.join("weblinks-cpp"))
            .args([&input, &output])
            .arg(name)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("read 2 records of LOutLinks(s[LLink(szs)]{sl})"),
            "{stdout}"
        );
        assert!(
            stdout.contains("  docs/current/ (relative): Documentation\n"),
            "{stdout}"
        );
        assert!(stdout.contains("wrote 3 records"), "{stdout}");

        let back = read_all(&std::fs::read(&output).unwrap(), format);
        assert_eq!(back.len(), 3, "{name}");
        assert_eq!(back[..2], pages[..], "{name}");
        let Value::Record(added) = &back[2] else {
            panic!("{:?}", back[2])
        };
        assert_eq!(
            added[0],
            Value::String("https://hadoop.apache.org/docs/r1.2.1/".into())
        );
        // The map was written in Java's key order.
        assert_eq!(
            added[2],
            Value::Map(vec![
                (
                    Value::String("hadoop.apache.org".into()),
                    Value::Long(1_385_856_000_000)
                ),
                (Value::String("\u{1f600}.example".into()), Value::Long(-1)),
            ])
        );
    }
}
