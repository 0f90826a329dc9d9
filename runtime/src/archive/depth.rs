//! The one nesting rule of every reader: [`Depth`].

use crate::error::{Error, ErrorKind, Result};

/// The default limit on nesting (see [`Depth`]): records, vectors and maps open at once,
/// the top-level record included.
///
/// A non-recursive schema nests at most one level per record in its longest chain of
/// records holding records plus one per `vector<…>`/`map<…>` on the way
/// ([`crate::schema::Schema::max_depth`] computes it); `rcc` accepts at most 64 container
/// levels in one field type, so this covers, for example, a chain of 8 records each holding
/// the next 64 containers deep, and any chain of up to 512 records. A deeper schema needs a
/// raised limit, and a thread stack to match.
pub const DEFAULT_MAX_DEPTH: usize = 512;

/// Counts the records, vectors and maps open in one reader against its limit: the one
/// nesting rule of every reader.
///
/// Every path that walks a record — typed `deserialize` through any archive, the
/// schema-driven [`crate::Value`] codec, JSON values, and the raw comparators'
/// `skip_raw`/`cmp_raw` — counts nesting the same way and stops at the same limit:
///
/// * the **depth** is the number of records, vectors and maps open at once, the top-level
///   record included: `int` alone in a record is at depth 1, the elements of a
///   `vector<int>` field at depth 2, a record inside that vector at depth 3;
/// * opening one more when `max` are open fails with [`ErrorKind::Limit`] at the position of
///   the value that would open it, before anything of it is read.
///
/// The limit only ever binds recursive types (a record that holds itself through a vector
/// or map) and schemas deeper than it: the depth of a non-recursive schema is fixed by the
/// schema. [`DEFAULT_MAX_DEPTH`] is far above what real schemas nest, while keeping the
/// recursion of every reader well inside a 2 MiB thread stack; raise or lower it with the
/// readers' `with_max_depth` ([`crate::RecordReader::with_max_depth`] and the archives'
/// inputs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Depth {
    open: usize,
    max: usize,
}

impl Default for Depth {
    fn default() -> Self {
        Depth::new(DEFAULT_MAX_DEPTH)
    }
}

impl Depth {
    /// Nothing open, at most `max` levels allowed.
    pub const fn new(max: usize) -> Self {
        Depth { open: 0, max }
    }

    /// The limit.
    pub fn max(&self) -> usize {
        self.max
    }

    /// How many records, vectors and maps are open.
    pub fn open(&self) -> usize {
        self.open
    }

    /// Opens a record, vector or map: an [`ErrorKind::Limit`] error (without a position,
    /// which the caller adds) when `max` are open already.
    #[inline]
    pub fn enter(&mut self) -> Result<()> {
        if self.open >= self.max {
            return Err(self.too_deep());
        }
        self.open += 1;
        Ok(())
    }

    /// Closes what [`Depth::enter`] opened.
    #[inline]
    pub fn leave(&mut self) {
        self.open = self.open.saturating_sub(1);
    }

    #[cold]
    fn too_deep(&self) -> Error {
        Error::new(
            ErrorKind::Limit,
            format!(
                "records, vectors and maps nested more than {} deep (the reader's max_depth)",
                self.max
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_levels_open_and_no_more() {
        let mut depth = Depth::new(3);
        for _ in 0..3 {
            depth.enter().unwrap();
        }
        let e = depth.enter().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Limit);
        assert_eq!(
            e.to_string(),
            "records, vectors and maps nested more than 3 deep (the reader's max_depth)"
        );
        assert_eq!(depth.open(), 3);
        depth.leave();
        depth.enter().unwrap();
        assert_eq!(Depth::default().max(), DEFAULT_MAX_DEPTH);
    }
}
