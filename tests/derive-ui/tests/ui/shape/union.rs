use hadoop_record::Record;

#[derive(Record)]
union Bits {
    i: i32,
    f: f32,
}

fn main() {}
