//! Records generated from `schema/outlinks.jr` by `build.rs`, written and read in Hadoop's
//! three formats.

use std::io::Write;

use hadoop_record::{Format, Record, RecordReader, RecordWriter};

/// The generated code: `records::links::Link` and `records::outlinks::OutLinks`.
pub mod records {
    hadoop_record::include_records!("outlinks");
}

use records::links::Link;
use records::outlinks::OutLinks;

/// Two pages' links.
pub fn pages() -> Vec<OutLinks> {
    let link = |url: &str, relative, text: &str| Link {
        url: url.into(),
        is_relative: relative,
        anchor_text: text.into(),
    };
    vec![
        OutLinks {
            base_url: "http://hadoop.apache.org/".into(),
            out_links: vec![
                link("docs/current/", true, "Documentation"),
                link(
                    "http://www.apache.org/",
                    false,
                    "The Apache Software Foundation",
                ),
            ],
            last_fetched: [("www.apache.org".to_owned(), 1_199_145_600_000)].into(),
        },
        OutLinks {
            base_url: "http://example.org/a, b".into(),
            out_links: Vec::new(),
            last_fetched: Default::default(),
        },
    ]
}

/// The records in `format`, one after another.
pub fn write_all(records: &[OutLinks], format: Format) -> hadoop_record::Result<Vec<u8>> {
    let mut writer = RecordWriter::new(Vec::new(), format);
    for record in records {
        writer.write(record)?;
    }
    Ok(writer.into_inner()?)
}

/// Every record in `bytes`.
pub fn read_all(bytes: &[u8], format: Format) -> hadoop_record::Result<Vec<OutLinks>> {
    RecordReader::new(bytes, format).records().collect()
}

/// Writes the pages in each format, reads them back, and reports to `out`.
pub fn run(out: &mut dyn Write) -> Result<(), Box<dyn std::error::Error>> {
    let pages = pages();
    writeln!(out, "OutLinks signature: {}", OutLinks::signature())?;
    for format in [Format::Binary, Format::Csv, Format::Xml] {
        let bytes = write_all(&pages, format)?;
        let back = read_all(&bytes, format)?;
        if back != pages {
            return Err(format!("{} did not read back the records written", format.name()).into());
        }
        writeln!(
            out,
            "\n{}: {} bytes for {} records, read back equal",
            format.name(),
            bytes.len(),
            back.len()
        )?;
        match format {
            Format::Binary => writeln!(out, "{}", hex(&bytes))?,
            _ => out.write_all(&bytes)?,
        }
    }
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    let pairs: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    pairs
        .chunks(32)
        .map(|line| line.join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}
