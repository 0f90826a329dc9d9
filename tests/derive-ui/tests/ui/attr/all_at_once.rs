use hadoop_record::Record;

// Every problem is reported in one pass, each at its own span.
#[derive(Record)]
#[record(name = "Bad Name", colour = "blue")]
struct Everything<'a> {
    #[record(name = 1)]
    a: i32,
    #[record(name = "a")]
    b: i32,
    #[record(typo)]
    c: &'a str,
}

fn main() {}
