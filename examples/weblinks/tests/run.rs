//! The example's program runs, and its records are what Hadoop writes.

use hadoop_record::Format;
use weblinks::{pages, read_all, write_all};

#[test]
fn main_runs() {
    let mut out = Vec::new();
    weblinks::run(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with("OutLinks signature: LOutLinks(s[LLink(szs)]{sl})\n"),
        "{text}"
    );
    for format in ["binary", "csv", "xml"] {
        assert!(
            text.contains(&format!("\n{format}: ")),
            "{format} missing: {text}"
        );
    }
}

#[test]
fn csv_is_hadoops() {
    let csv = write_all(&pages(), Format::Csv).unwrap();
    assert_eq!(
        String::from_utf8(csv).unwrap(),
        "'http://hadoop.apache.org/,\
         v{s{'docs/current/,T,'Documentation},s{'http://www.apache.org/,F,'The Apache Software Foundation}},\
         m{'www.apache.org,1199145600000}\n\
         'http://example.org/a%2C b,v{},m{}\n"
    );
}

#[test]
fn every_format_reads_back() {
    for format in [Format::Binary, Format::Csv, Format::Xml] {
        let bytes = write_all(&pages(), format).unwrap();
        assert_eq!(read_all(&bytes, format).unwrap(), pages(), "{format:?}");
    }
}

/// `data/pages.bin` is what `cargo run -p weblinks -- write data/pages.bin` writes: the file
/// the C++ example (`examples/cpp-weblinks`) and its test read.
#[test]
fn checked_in_pages_are_what_the_example_writes() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/pages.bin");
    let written = write_all(&pages(), Format::Binary).unwrap();
    assert_eq!(
        std::fs::read(path).unwrap(),
        written,
        "regenerate with `cargo run -p weblinks -- write examples/weblinks/data/pages.bin`"
    );
}
