use hadoop_record::archive::binary::RawInput;
use hadoop_record::Record;

#[derive(Record, Debug)]
#[record(module = "m")]
struct Point {
    x: i32,
    r#where: String,
}

#[test]
fn smoke() {
    assert_eq!(Point::signature(), "LPoint(is)");
    let mut input = RawInput::new(&[0x01, 0x02, b'h', b'i']);
    let p = Point::deserialize(&mut input, "").unwrap();
    assert_eq!(p.x, 1);
    assert_eq!(p.r#where, "hi");
}
