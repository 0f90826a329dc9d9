//! What several of these test files share, included with `mod support;`.

/// Hadoop's own pair of evolving classes in `compiler/tests/ddl/hadoop/test.jr`.
pub const HADOOP_OLD_NEW: (&str, &str) = (
    "org.apache.hadoop.record.RecRecordOld",
    "org.apache.hadoop.record.RecRecordNew",
);

/// The (writer, reader) type pairs of `tests/interop/ddl/evolution.jr`: each version of
/// `Rec`, and of `Inner`, with every version of it, then Hadoop's old and new record both ways.
pub fn evolution_pairs() -> Vec<(String, String)> {
    let versions = |name: &str| ["v1", "v2", "v3"].map(|m| format!("{m}.{name}"));
    let mut pairs: Vec<(String, String)> = Vec::new();
    for family in [versions("Rec"), versions("Inner")] {
        for writer in &family {
            for reader in &family {
                pairs.push((writer.clone(), reader.clone()));
            }
        }
    }
    let (old, new) = HADOOP_OLD_NEW;
    pairs.extend([(old.into(), new.into()), (new.into(), old.into())]);
    pairs
}
