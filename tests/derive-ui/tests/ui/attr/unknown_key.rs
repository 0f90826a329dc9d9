use hadoop_record::Record;

#[derive(Record)]
#[record(nmae = "Typo", rename_all = "camelCase", deny_unknown(fields))]
struct Link {
    #[record(rename = "URL")]
    url: String,
}

fn main() {}
