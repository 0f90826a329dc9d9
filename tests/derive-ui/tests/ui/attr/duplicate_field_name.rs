use hadoop_record::Record;

#[derive(Record)]
struct Link {
    #[record(name = "url")]
    address: String,
    url: String,
    r#type: i32,
    #[record(name = "type")]
    kind: i32,
}

fn main() {}
