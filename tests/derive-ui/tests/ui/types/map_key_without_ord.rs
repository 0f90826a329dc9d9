use std::collections::BTreeMap;

use hadoop_record::Record;

// f64 has no `Ord`: a BTreeMap cannot hold it as a key. `MapKey<f64>` orders as Java does.
#[derive(Record)]
struct Histogram {
    counts: BTreeMap<f64, i64>,
}

fn main() {}
