//! The example's program runs and prints what Hadoop would.

use derive_only::{readings, write_all};
use hadoop_record::Format;

#[test]
fn main_runs() {
    let mut out = Vec::new();
    derive_only::run(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let xml = write_all(&readings(), Format::Xml).unwrap();
    // XML names are the DDL names: `sensorId`, not `sensor_id`.
    assert!(
        xml.starts_with(b"<value><struct>\n  <member>\n    <name>sensorId</name>\n"),
        "{}",
        String::from_utf8_lossy(&xml)
    );
    assert_eq!(
        text,
        format!(
            "Reading signature: LReading(sld{{ss}}[LSample(iB)])\n\
         binary: 126 bytes, read back equal\n\
         csv: 187 bytes, read back equal\n\
         xml: {} bytes, read back equal\n\
         \n\
         Sorted as Hadoop sorts them (Display prints the CSV form):\n\
         't1,1700000000000,19.25,m{{'room,'lab%2C north}},v{{s{{512,#01fe}}}}\n\
         't1,1700000060000,-0.0,m{{'room,'lab%2C north}},v{{s{{512,#01fe}}}}\n\
         't2,1700000000000,21.5,m{{'room,'lab%2C north}},v{{s{{512,#01fe}}}}\n\
         compare_raw agrees on the serialized records\n",
            xml.len()
        )
    );
}
