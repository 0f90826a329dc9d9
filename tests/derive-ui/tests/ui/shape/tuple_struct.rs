use hadoop_record::Record;

#[derive(Record)]
struct Point(i32, i32);

fn main() {}
