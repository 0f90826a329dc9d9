//! Value helpers: canonical NaNs, the recursive schema, Java's `compareTo` signs.

use std::cmp::Ordering;

use fixture_harness::Comparison;
use hadoop_record::schema::{FieldDef, FieldType, RecordId, RecordType, Schema};
use hadoop_record::value::compare_hadoop;
use hadoop_record::Value;

/// `Node { vector<Node> kids }`: the only way to nest without limit.
pub fn recursive_schema() -> (Schema, RecordId) {
    let mut s = Schema::new();
    // A record may refer to itself as it is added.
    let node = s.next_id();
    let kids = FieldType::Vector(Box::new(FieldType::Record(node)));
    let added = s.add(RecordType::new(
        "t",
        "Node",
        vec![FieldDef::new("kids", kids)],
    ));
    assert_eq!(added.unwrap(), node);
    (s, node)
}

/// `compare_hadoop` of `a` and `b` both ways has the signs Java's `compareTo` gave for `c`.
pub fn assert_compares_like_java(c: &Comparison, a: &Value, b: &Value) {
    let sign = |o: Ordering| o as i32;
    assert_eq!(sign(compare_hadoop(a, b)), c.compare_to_sign, "{}", c.label);
    assert_eq!(
        sign(compare_hadoop(b, a)),
        c.compare_to_reverse_sign,
        "{}",
        c.label
    );
}
