//! The C++ runtime `rcc -l c++` writes next to the generated code: headers under `hadoop/`,
//! their out-of-line parts under `hadoop/impl/`, and the one source file that compiles
//! them, `hadoop_record.cc`. The files live in `templates/cpp/runtime` and are copied as
//! they are.

use std::path::PathBuf;

use super::OutputFile;

/// (path in the output directory, contents)
const FILES: &[(&str, &str)] = &[
    (
        "hadoop/archive.hh",
        include_str!("../../../templates/cpp/runtime/hadoop/archive.hh"),
    ),
    (
        "hadoop/binary.hh",
        include_str!("../../../templates/cpp/runtime/hadoop/binary.hh"),
    ),
    (
        "hadoop/buffer.hh",
        include_str!("../../../templates/cpp/runtime/hadoop/buffer.hh"),
    ),
    (
        "hadoop/csv.hh",
        include_str!("../../../templates/cpp/runtime/hadoop/csv.hh"),
    ),
    (
        "hadoop/ddl.hh",
        include_str!("../../../templates/cpp/runtime/hadoop/ddl.hh"),
    ),
    (
        "hadoop/error.hh",
        include_str!("../../../templates/cpp/runtime/hadoop/error.hh"),
    ),
    (
        "hadoop/impl/binary.inc",
        include_str!("../../../templates/cpp/runtime/hadoop/impl/binary.inc"),
    ),
    (
        "hadoop/impl/csv.inc",
        include_str!("../../../templates/cpp/runtime/hadoop/impl/csv.inc"),
    ),
    (
        "hadoop/impl/error.inc",
        include_str!("../../../templates/cpp/runtime/hadoop/impl/error.inc"),
    ),
    (
        "hadoop/impl/record.inc",
        include_str!("../../../templates/cpp/runtime/hadoop/impl/record.inc"),
    ),
    (
        "hadoop/impl/stream.inc",
        include_str!("../../../templates/cpp/runtime/hadoop/impl/stream.inc"),
    ),
    (
        "hadoop/impl/text_format.inc",
        include_str!("../../../templates/cpp/runtime/hadoop/impl/text_format.inc"),
    ),
    (
        "hadoop/impl/text_parse.inc",
        include_str!("../../../templates/cpp/runtime/hadoop/impl/text_parse.inc"),
    ),
    (
        "hadoop/impl/utf8.inc",
        include_str!("../../../templates/cpp/runtime/hadoop/impl/utf8.inc"),
    ),
    (
        "hadoop/impl/xml_input.inc",
        include_str!("../../../templates/cpp/runtime/hadoop/impl/xml_input.inc"),
    ),
    (
        "hadoop/impl/xml_lexer.inc",
        include_str!("../../../templates/cpp/runtime/hadoop/impl/xml_lexer.inc"),
    ),
    (
        "hadoop/impl/xml_output.inc",
        include_str!("../../../templates/cpp/runtime/hadoop/impl/xml_output.inc"),
    ),
    (
        "hadoop/record.hh",
        include_str!("../../../templates/cpp/runtime/hadoop/record.hh"),
    ),
    (
        "hadoop/recordio.hh",
        include_str!("../../../templates/cpp/runtime/hadoop/recordio.hh"),
    ),
    (
        "hadoop/stream.hh",
        include_str!("../../../templates/cpp/runtime/hadoop/stream.hh"),
    ),
    (
        "hadoop/text.hh",
        include_str!("../../../templates/cpp/runtime/hadoop/text.hh"),
    ),
    (
        "hadoop/utf8.hh",
        include_str!("../../../templates/cpp/runtime/hadoop/utf8.hh"),
    ),
    (
        "hadoop/xml.hh",
        include_str!("../../../templates/cpp/runtime/hadoop/xml.hh"),
    ),
    (
        "hadoop_record.cc",
        include_str!("../../../templates/cpp/runtime/hadoop_record.cc"),
    ),
];

/// The runtime's files, with paths relative to the output directory.
pub fn runtime() -> Vec<OutputFile> {
    FILES
        .iter()
        .map(|(path, contents)| OutputFile {
            path: PathBuf::from(path),
            contents: (*contents).to_owned(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Every file under `templates/cpp/runtime` is written, and nothing else.
    #[test]
    fn lists_every_runtime_file() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/cpp/runtime");
        let mut on_disk = Vec::new();
        let mut dirs = vec![root.clone()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else {
                    let rel = path.strip_prefix(&root).unwrap();
                    on_disk.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
        on_disk.sort();
        let listed: Vec<String> = super::FILES.iter().map(|(p, _)| (*p).to_owned()).collect();
        assert_eq!(listed, on_disk);
    }
}
