use hadoop_record::Record;

#[derive(Record)]
enum Shape {
    Circle { r: f64 },
    Square { side: f64 },
}

fn main() {}
