use hadoop_record::Record;

#[derive(Record)]
struct Nothing;

fn main() {}
