use hadoop_record::Record;

#[derive(Record)]
#[record = "Link"]
struct Link {
    #[record]
    url: String,
}

fn main() {}
