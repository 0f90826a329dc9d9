//! Queries whose answer a Ballista cluster gets wrong, refused before they run: a wrong
//! answer reported as a success is worse than a refusal that names the way around it.

use datafusion::common::tree_node::{TreeNode, TreeNodeRecursion};
use datafusion::logical_expr::LogicalPlan;

/// An error naming the way around it when `plan` (optimized, as the scheduler receives it)
/// holds a query a Ballista 55 cluster answers wrongly; `Ok` otherwise.
///
/// Refused: an `ORDER BY` without a `LIMIT`, or a window function, over a `UNION ALL`
/// (through projections, filters and aliases). Ballista merges the sorted union's
/// partitions in a stage whose tasks each read more of the union than their own part, and
/// its answer holds some rows two to four times. A `LIMIT` (a sort that keeps its top
/// rows), a `GROUP BY` or `DISTINCT` between the two, and `UNION` without `ALL` give the
/// right rows.
///
pub fn refuse_wrong_answers(plan: &LogicalPlan) -> Result<(), String> {
    let mut found = false;
    plan.apply(|node| {
        let over_union = match node {
            LogicalPlan::Sort(sort) => sort.fetch.is_none() && from_a_union(&sort.input),
            LogicalPlan::Window(window) => from_a_union(&window.input),
            _ => false,
        };
        if over_union {
            found = true;
            return Ok(TreeNodeRecursion::Stop);
        }
        Ok(TreeNodeRecursion::Continue)
    })
    .map_err(|e| e.to_string())?;
    if found {
        return Err(
            "ORDER BY or a window function over a UNION ALL gives some rows more than once \
             on a Ballista cluster (its merge of a sorted union): run the query without \
             --cluster, or give the ORDER BY a LIMIT"
                .into(),
        );
    }
    Ok(())
}

/// Whether the rows `plan` gives come straight from a `UNION ALL`: through projections,
/// filters and aliases, which keep its rows as they are.
fn from_a_union(plan: &LogicalPlan) -> bool {
    match plan {
        LogicalPlan::Union(_) => true,
        LogicalPlan::Projection(p) => from_a_union(&p.input),
        LogicalPlan::Filter(f) => from_a_union(&f.input),
        LogicalPlan::SubqueryAlias(a) => from_a_union(&a.input),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use datafusion::prelude::SessionContext;

    use super::*;

    async fn check(sql: &str) -> Result<(), String> {
        let ctx = SessionContext::new();
        ctx.sql("CREATE TABLE t (a INT, b VARCHAR) AS VALUES (1, 'x'), (2, 'y')")
            .await
            .unwrap();
        let plan = ctx.sql(sql).await.unwrap().into_optimized_plan().unwrap();
        refuse_wrong_answers(&plan)
    }

    #[tokio::test]
    async fn a_sorted_union_all_is_refused_naming_the_way_around() {
        for sql in [
            "SELECT a FROM t UNION ALL SELECT a FROM t ORDER BY a",
            "SELECT a FROM t WHERE a = 1 UNION ALL SELECT a FROM t ORDER BY 1 DESC",
            "SELECT * FROM (SELECT a, b FROM t UNION ALL SELECT a, b FROM t) u \
             WHERE a > 0 ORDER BY b",
            "SELECT a, row_number() OVER (ORDER BY a) FROM \
             (SELECT a FROM t UNION ALL SELECT a FROM t)",
        ] {
            let e = check(sql).await.unwrap_err();
            assert!(
                e.contains("without --cluster") && e.contains("LIMIT"),
                "{sql}: {e}"
            );
        }
    }

    #[tokio::test]
    async fn what_the_cluster_answers_rightly_runs() {
        for sql in [
            "SELECT a FROM t UNION ALL SELECT a FROM t",
            "SELECT a FROM t UNION ALL SELECT a FROM t ORDER BY a LIMIT 3",
            "SELECT a FROM t UNION SELECT a FROM t ORDER BY a",
            "SELECT a, count(*) FROM (SELECT a FROM t UNION ALL SELECT a FROM t) GROUP BY a \
             ORDER BY a",
            "SELECT a FROM t ORDER BY a",
            "SELECT a FROM (SELECT a FROM t ORDER BY a) UNION ALL SELECT a FROM t",
        ] {
            assert_eq!(check(sql).await, Ok(()), "{sql}");
        }
    }
}
