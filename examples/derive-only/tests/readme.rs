//! The README's "Reading and writing records" example, kept compiling and true.

use hadoop_record::{Format, Record, RecordReader, RecordWriter};

#[derive(Record, Debug, PartialEq)]
struct Link {
    #[record(name = "URL")]
    url: String,
    #[record(name = "isRelative")]
    is_relative: bool,
}

#[test]
fn readme_example() -> hadoop_record::Result<()> {
    let mut writer = RecordWriter::new(Vec::new(), Format::Csv);
    writer.write(&Link {
        url: "http://hadoop.apache.org/".into(),
        is_relative: false,
    })?;
    let bytes = writer.into_inner()?;
    assert_eq!(bytes, b"'http://hadoop.apache.org/,F\n");
    let mut reader = RecordReader::new(&bytes[..], Format::Csv);
    let link: Option<Link> = reader.read()?;
    assert_eq!(
        link.map(|l| l.url),
        Some("http://hadoop.apache.org/".to_owned())
    );
    assert_eq!(reader.read::<Link>()?, None);
    assert_eq!(Link::signature().to_string(), "LLink(sz)");
    Ok(())
}
