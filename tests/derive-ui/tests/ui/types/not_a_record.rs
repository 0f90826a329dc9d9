use hadoop_record::Record;

struct NotARecord {
    x: i32,
}

#[derive(Record)]
struct Outer {
    inner: NotARecord,
    inners: Vec<NotARecord>,
}

fn main() {}
