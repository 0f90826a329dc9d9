//! Hadoop records without DDL: plain structs with `#[derive(Record)]`, written and read in
//! Hadoop's three formats, sorted with Hadoop's comparison, and compared in serialized
//! form as MapReduce sorts keys.

use std::collections::BTreeMap;
use std::io::Write;

use hadoop_record::{Format, Record, RecordReader, RecordWriter};

/// A sensor reading; the DDL equivalent is
/// `module example.sensors { class Reading { ustring sensorId; long at; double celsius; map<ustring, ustring> tags; vector<Sample> samples; } }`.
#[derive(Record, Debug, Clone, PartialEq, Default)]
#[record(module = "example.sensors")]
pub struct Reading {
    /// Hadoop's name is `sensorId`: XML and signatures use it.
    #[record(name = "sensorId")]
    pub sensor_id: String,
    /// Milliseconds since the epoch.
    pub at: i64,
    pub celsius: f64,
    pub tags: BTreeMap<String, String>,
    pub samples: Vec<Sample>,
}

/// One raw sample: a nested record.
#[derive(Record, Debug, Clone, PartialEq, Eq, Default)]
#[record(module = "example.sensors")]
pub struct Sample {
    pub raw: i32,
    pub flags: Vec<u8>,
}

/// Three readings, out of Hadoop's order.
pub fn readings() -> Vec<Reading> {
    let reading = |id: &str, at, celsius| Reading {
        sensor_id: id.into(),
        at,
        celsius,
        tags: [("room".to_owned(), "lab, north".to_owned())].into(),
        samples: vec![Sample {
            raw: 512,
            flags: vec![0x01, 0xfe],
        }],
    };
    vec![
        reading("t2", 1_700_000_000_000, 21.5),
        reading("t1", 1_700_000_060_000, -0.0),
        reading("t1", 1_700_000_000_000, 19.25),
    ]
}

/// The records in `format`, one after another.
pub fn write_all<T: Record>(records: &[T], format: Format) -> hadoop_record::Result<Vec<u8>> {
    let mut writer = RecordWriter::new(Vec::new(), format);
    for record in records {
        writer.write(record)?;
    }
    Ok(writer.into_inner()?)
}

/// Writes the readings in each format and reads them back, sorts them as Hadoop would, and
/// reports to `out`.
pub fn run(out: &mut dyn Write) -> Result<(), Box<dyn std::error::Error>> {
    let mut readings = readings();
    writeln!(out, "Reading signature: {}", Reading::signature())?;
    for format in [Format::Binary, Format::Csv, Format::Xml] {
        let bytes = write_all(&readings, format)?;
        let back: Vec<Reading> = RecordReader::new(&bytes[..], format)
            .records()
            .collect::<Result<_, _>>()?;
        if back != readings {
            return Err(format!("{} did not read back the records written", format.name()).into());
        }
        writeln!(
            out,
            "{}: {} bytes, read back equal",
            format.name(),
            bytes.len()
        )?;
    }

    // Hadoop's compareTo: field by field, so by sensor, then time.
    readings.sort_by(Reading::compare_hadoop);
    writeln!(
        out,
        "\nSorted as Hadoop sorts them (Display prints the CSV form):"
    )?;
    for r in &readings {
        write!(out, "{r}")?;
    }

    // The same order straight from the serialized bytes, without decoding.
    let encoded: Vec<Vec<u8>> = readings
        .iter()
        .map(|r| write_all(std::slice::from_ref(r), Format::Binary))
        .collect::<Result<_, _>>()?;
    for pair in encoded.windows(2) {
        if Reading::compare_raw(&pair[0], &pair[1])?.is_gt() {
            return Err("compare_raw disagrees with compare_hadoop".into());
        }
    }
    writeln!(out, "compare_raw agrees on the serialized records")?;
    Ok(())
}
