//! Finds records that contain themselves other than through a vector or map: such a record
//! would be infinitely large (and its Hadoop signature infinitely long). Containment through
//! `vector<…>` or `map<…>` is fine, since those may be empty.
//!
//! Records can chain thousands deep, so the graph walk (Tarjan's strongly connected
//! components) keeps its own stack instead of recursing.

use std::collections::VecDeque;

use crate::diagnostics::{listing, Diagnostic};
use crate::model::{Record, Type};

/// For each record, `(field index, contained record)` for each field that holds a record
/// directly.
fn direct_edges(records: &[Record]) -> Vec<Vec<(usize, usize)>> {
    records
        .iter()
        .map(|r| {
            r.fields
                .iter()
                .enumerate()
                .filter_map(|(i, f)| match f.ty {
                    Type::Record(target) => Some((i, target.index())),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// Strongly connected components that contain a cycle, each as a list of records.
fn cyclic_components(edges: &[Vec<(usize, usize)>]) -> Vec<Vec<usize>> {
    const UNVISITED: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNVISITED; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut components = Vec::new();
    // (node, next edge to look at)
    let mut work: Vec<(usize, usize)> = Vec::new();
    for start in 0..n {
        if index[start] != UNVISITED {
            continue;
        }
        work.push((start, 0));
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if *edge == 0 && index[v] == UNVISITED {
                index[v] = next_index;
                low[v] = next_index;
                next_index += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&(_, w)) = edges[v].get(*edge) {
                *edge += 1;
                if index[w] == UNVISITED {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                let self_loop = edges[v].iter().any(|&(_, w)| w == v);
                if component.len() > 1 || self_loop {
                    component.sort_unstable();
                    components.push(component);
                }
            }
        }
    }
    components.sort();
    components
}

/// The shortest cycle from `start` back to itself within `component`, as
/// `(record, field index)` steps.
fn cycle_through(
    start: usize,
    component: &[usize],
    edges: &[Vec<(usize, usize)>],
) -> Vec<(usize, usize)> {
    let mut came_from: Vec<Option<(usize, usize)>> = vec![None; edges.len()];
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &(field, w) in &edges[v] {
            if component.binary_search(&w).is_err() {
                continue;
            }
            if w == start {
                let mut steps = vec![(v, field)];
                let mut at = v;
                while at != start {
                    let (prev, prev_field) = came_from[at].expect("reached through BFS");
                    steps.push((prev, prev_field));
                    at = prev;
                }
                steps.reverse();
                return steps;
            }
            if came_from[w].is_none() {
                came_from[w] = Some((v, field));
                queue.push_back(w);
            }
        }
    }
    unreachable!("a cyclic component has a cycle through each of its records")
}

/// Reports every group of records that contain themselves directly.
pub(super) fn check(records: &[Record], diagnostics: &mut Vec<Diagnostic>) {
    let edges = direct_edges(records);
    for component in cyclic_components(&edges) {
        let start = component[0];
        let steps = cycle_through(start, &component, &edges);
        let record = &records[start];
        let chain: Vec<String> = steps
            .iter()
            .map(|&(r, _)| format!("`{}`", records[r].name))
            .chain([format!("`{}`", record.name)])
            .collect();
        let mut d = Diagnostic::error(format!(
            "record `{}` contains itself, so it would be infinitely large",
            record.qualified_name
        ));
        for (i, &(r, field)) in steps.iter().enumerate() {
            let f = &records[r].fields[field];
            let (file, span) = (f.type_location.file, f.type_location.span);
            let target = &records[steps.get(i + 1).map_or(start, |s| s.0)].name;
            let message = format!("`{}` contains `{target}` here", records[r].name);
            d = if i == 0 {
                d.primary(file, span, message)
            } else {
                d.secondary(file, span, message)
            };
        }
        diagnostics.push(
            d.note(format!("containment cycle: {}", listing(&chain, " -> ")))
                .help("hold the record in a `vector<…>` or `map<…>`, which may be empty, to break the cycle"),
        );
    }
}
