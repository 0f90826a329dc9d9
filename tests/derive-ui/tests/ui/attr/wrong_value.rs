use hadoop_record::Record;

#[derive(Record)]
#[record(name = Link, module = 7)]
struct Link {
    #[record(name = true)]
    url: String,
    #[record(name)]
    is_relative: bool,
}

fn main() {}
