//! How deep a record type nests: [`Schema::max_depth`].

use super::{FieldType, RecordId, Schema};
use crate::error::Result;

impl Schema {
    /// How deep a record of type `id` nests, counted as the readers count it
    /// ([`crate::archive::Depth`]: records, vectors and maps open at once, the record itself
    /// included), or `None` when it can hold itself (through a vector or map), so that only
    /// the input bounds its depth.
    ///
    /// A reader of a non-recursive schema deeper than [`crate::archive::DEFAULT_MAX_DEPTH`]
    /// accepts everything the schema can produce with
    /// `with_max_depth(schema.max_depth(id).unwrap_or(DEFAULT_MAX_DEPTH).max(DEFAULT_MAX_DEPTH))`.
    ///
    /// An [`ErrorKind::Schema`](crate::ErrorKind::Schema) error when the schema has no
    /// record `id`.
    ///
    /// ```
    /// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
    /// let mut s = Schema::new();
    /// let point = s.declare("m", "P");
    /// let line = s.add(RecordType::new("m", "L",
    ///     vec![FieldDef::new("ps", FieldType::Vector(Box::new(FieldType::Record(point))))]))?;
    /// s.define(point, vec![FieldDef::new("x", FieldType::Int)])?;
    /// assert_eq!(s.max_depth(point)?, Some(1));
    /// assert_eq!(s.max_depth(line)?, Some(3));
    /// s.define(point, vec![FieldDef::new("more", FieldType::Vector(Box::new(FieldType::Record(line))))])?;
    /// assert_eq!(s.max_depth(line)?, None);
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn max_depth(&self, id: RecordId) -> Result<Option<usize>> {
        self.checked_record(id)?;
        /// The containers a type nests at most below where it stands, and each record it
        /// refers to with the containers above that reference.
        fn walk(ty: &FieldType, above: usize, refs: &mut Vec<(RecordId, usize)>) -> usize {
            match ty {
                FieldType::Vector(t) => walk(t, above + 1, refs) + 1,
                FieldType::Map(k, v) => walk(k, above + 1, refs).max(walk(v, above + 1, refs)) + 1,
                FieldType::Record(r) => {
                    refs.push((*r, above));
                    0
                }
                _ => 0,
            }
        }
        #[derive(Clone, Copy)]
        enum Seen {
            No,
            Open,
            Depth(usize),
        }
        let mut seen = vec![Seen::No; self.records.len()];
        // Depth-first, without recursion: chains of records can be thousands long.
        let mut stack = vec![id];
        while let Some(&r) = stack.last() {
            let mut refs = Vec::new();
            let own = self
                .record_at(r)
                .fields
                .iter()
                .map(|f| walk(&f.ty, 0, &mut refs))
                .max()
                .unwrap_or(0);
            if let Seen::No = seen[r.index()] {
                seen[r.index()] = Seen::Open;
                let pending: Vec<RecordId> = refs
                    .iter()
                    .map(|&(t, _)| t)
                    .filter(|t| !matches!(seen[t.index()], Seen::Depth(_)))
                    .collect();
                if pending
                    .iter()
                    .any(|t| matches!(seen[t.index()], Seen::Open))
                {
                    return Ok(None);
                }
                if !pending.is_empty() {
                    stack.extend(pending);
                    continue;
                }
            }
            if let Seen::Depth(_) = seen[r.index()] {
                stack.pop();
                continue;
            }
            let mut depth = own;
            for &(t, above) in &refs {
                match seen[t.index()] {
                    Seen::Depth(d) => depth = depth.max(above + d),
                    _ => return Ok(None),
                }
            }
            seen[r.index()] = Seen::Depth(depth + 1);
            stack.pop();
        }
        Ok(match seen[id.index()] {
            Seen::Depth(d) => Some(d),
            _ => None,
        })
    }
}
