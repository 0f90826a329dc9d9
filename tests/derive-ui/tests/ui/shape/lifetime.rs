use hadoop_record::Record;

#[derive(Record)]
struct Borrowed<'a> {
    name: &'a str,
}

fn main() {}
