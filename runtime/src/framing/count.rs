//! [`Count`]: a number and its noun, singular or plural (`1 chunk`, `3 chunks`), for the
//! reports of `frame info`.

use std::fmt;

/// `n` and the noun that counts it, printed `1 chunk` or `2 chunks`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Count {
    n: u64,
    one: &'static str,
    many: &'static str,
}

impl Count {
    /// `n` of `one` (plural `many`).
    pub(crate) fn of(n: impl TryInto<u64>, one: &'static str, many: &'static str) -> Self {
        let n = n.try_into().unwrap_or(u64::MAX);
        Count { n, one, many }
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let noun = if self.n == 1 { self.one } else { self.many };
        write!(f, "{} {noun}", self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::Count;

    #[test]
    fn one_is_singular_and_others_plural() {
        assert_eq!(Count::of(1u64, "chunk", "chunks").to_string(), "1 chunk");
        assert_eq!(Count::of(0usize, "chunk", "chunks").to_string(), "0 chunks");
        assert_eq!(
            Count::of(2u32, "sync entry", "sync entries").to_string(),
            "2 sync entries"
        );
    }
}
