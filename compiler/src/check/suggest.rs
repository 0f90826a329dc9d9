//! "Did you mean": the closest spelling among candidates, and the names other languages use
//! for DDL types.

/// Names that people from other languages write for a DDL type.
const FOREIGN_NAMES: &[(&str, &str)] = &[
    ("string", "ustring"),
    ("String", "ustring"),
    ("str", "ustring"),
    ("bool", "boolean"),
    ("Boolean", "boolean"),
    ("bytes", "buffer"),
    ("binary", "buffer"),
    ("blob", "buffer"),
    ("integer", "int"),
    ("Integer", "int"),
    ("i32", "int"),
    ("i64", "long"),
    ("int64", "long"),
    ("int32", "int"),
    ("f32", "float"),
    ("f64", "double"),
    ("i8", "byte"),
    ("int8", "byte"),
];

/// The DDL type a foreign type name stands for, e.g. `ustring` for `string`.
pub(super) fn ddl_name_for(name: &str) -> Option<&'static str> {
    FOREIGN_NAMES
        .iter()
        .find(|(foreign, _)| *foreign == name)
        .map(|(_, ddl)| *ddl)
}

/// How far apart two names are; a case-only difference counts as very close.
fn distance(a: &str, b: &str) -> usize {
    if a.eq_ignore_ascii_case(b) {
        return 0;
    }
    strsim::damerau_levenshtein(a, b)
}

/// The candidate closest to `word`, if one is close enough to be a likely typo. Each
/// candidate is `(compared, shown)`: the text to compare with and the text to suggest.
pub(super) fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|(compared, shown)| (distance(word, compared), shown))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, shown)| shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_typos_and_case_slips() {
        let c = [("Point", "Point"), ("Named", "a.Named"), ("int", "int")];
        assert_eq!(closest("Pont", c), Some("Point"));
        assert_eq!(closest("named", c), Some("a.Named"));
        assert_eq!(closest("Int", c), Some("int"));
        assert_eq!(closest("Completely", c), None);
    }
}
