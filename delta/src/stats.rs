//! A part file's statistics ([`FileStats`], collected by the task that wrote it) in Delta
//! Lake's form, the `stats` of its `add` action: `numRecords`, `minValues`, `maxValues` and
//! `nullCount`, nested records as nested objects, as Spark's writer records them.

use std::collections::BTreeMap;

use hadoop_record_datafusion::write::FileStats;
use serde_json::Value as Json;

/// The statistics of `stats` in Delta Lake's form: `{"numRecords": N, "minValues": {…},
/// "maxValues": {…}, "nullCount": {…}}`, nested records as nested objects.
pub(crate) fn delta_stats(stats: &FileStats) -> Json {
    let mut min = BTreeMap::new();
    let mut max = BTreeMap::new();
    let mut nulls = BTreeMap::new();
    for column in &stats.columns {
        insert(&mut nulls, &column.path, Json::from(column.nulls));
        if let Some(value) = &column.min {
            insert(&mut min, &column.path, value.clone());
        }
        if let Some(value) = &column.max {
            insert(&mut max, &column.path, value.clone());
        }
    }
    serde_json::json!({
        "numRecords": stats.rows,
        "minValues": tree(min),
        "maxValues": tree(max),
        "nullCount": tree(nulls),
    })
}

/// A nested map of JSON values by path.
enum Node {
    Leaf(Json),
    Inner(BTreeMap<String, Node>),
}

fn insert(root: &mut BTreeMap<String, Node>, path: &[String], value: Json) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = root;
    for name in parents {
        let node = at
            .entry(name.clone())
            .or_insert_with(|| Node::Inner(BTreeMap::new()));
        at = match node {
            Node::Inner(children) => children,
            Node::Leaf(_) => return,
        };
    }
    at.insert(last.clone(), Node::Leaf(value));
}

fn tree(nodes: BTreeMap<String, Node>) -> Json {
    Json::Object(
        nodes
            .into_iter()
            .map(|(name, node)| {
                let value = match node {
                    Node::Leaf(value) => value,
                    Node::Inner(children) => tree(children),
                };
                (name, value)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use hadoop_record_datafusion::write::ColumnStats;

    #[test]
    fn statistics_nest_as_delta_writes_them() {
        let column = |path: &[&str], nulls, min: Option<Json>, max: Option<Json>| {
            let mut stats = ColumnStats::default();
            stats.path = path.iter().map(|p| p.to_string()).collect();
            stats.nulls = nulls;
            stats.min = min;
            stats.max = max;
            stats
        };
        let stats = FileStats {
            rows: 3,
            columns: vec![
                column(&["id"], 1, Some((-3).into()), Some(5.into())),
                column(&["ok"], 0, None, None),
                column(
                    &["origin", "city"],
                    1,
                    Some("Lima".into()),
                    Some("Oslo".into()),
                ),
            ],
        };
        assert_eq!(
            delta_stats(&stats),
            serde_json::json!({
                "numRecords": 3,
                "minValues": {"id": -3, "origin": {"city": "Lima"}},
                "maxValues": {"id": 5, "origin": {"city": "Oslo"}},
                "nullCount": {"id": 1, "ok": 0, "origin": {"city": 1}},
            })
        );
    }
}
