use hadoop_record::Record;

#[derive(Record)]
#[record(name = "1Link", module = "org..links", crate = "not a path")]
struct Link {
    #[record(name = "")]
    url: String,
    #[record(name = "is-relative")]
    is_relative: bool,
}

fn main() {}
