// The runtime under another name, as when a crate renames the dependency.
extern crate hadoop_record as records;

use records::Record;

#[derive(Record)]
#[record(crate = "records")]
struct Point {
    x: i32,
}

fn main() {
    assert_eq!(Point::signature(), "LPoint(i)");
}
