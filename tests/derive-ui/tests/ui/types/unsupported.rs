use hadoop_record::Record;

#[derive(Record)]
struct Unsupported {
    unsigned: u32,
    optional: Option<i32>,
    unsigned_vector: Vec<u16>,
    tuple: (i32, i32),
    fine: i64,
}

fn main() {}
