use hadoop_record::Record;

// Hadoop's DDL has no empty classes: `class A {}` does not parse.
#[derive(Record)]
struct Empty {}

fn main() {}
