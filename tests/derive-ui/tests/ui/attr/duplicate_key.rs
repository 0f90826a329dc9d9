use hadoop_record::Record;

#[derive(Record)]
#[record(name = "Link")]
#[record(module = "links", name = "Link2")]
struct Link {
    #[record(name = "URL", name = "Url")]
    url: String,
}

fn main() {}
