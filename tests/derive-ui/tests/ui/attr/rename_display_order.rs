use hadoop_record::Record;

// A rule serde does not have.
#[derive(Record)]
#[record(rename_all = "Title Case")]
struct UnknownRule {
    page_title: String,
}

// serde's kebab-case makes names Hadoop's DDL does not allow.
#[derive(Record)]
#[record(rename_all = "kebab-case")]
struct Kebab {
    page_title: String,
    #[record(name = "fine")]
    also_fine: i32,
}

// `display` takes a bool, the order flags take no value, and only one of them.
#[derive(Record)]
#[record(display = "no", ord = true)]
#[record(ord, partial_ord)]
struct Values {
    a: i32,
}

fn main() {}
