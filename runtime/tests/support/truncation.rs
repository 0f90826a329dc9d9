//! What reading a file cut short must report.

use hadoop_record::Error;

/// Checks the error of reading `case`'s file cut to its first `len` bytes, after `complete`
/// whole records of `type_name`: it has a position, the number of the record it is in and a
/// field path rooted at the type name.
#[track_caller]
pub fn assert_cut_short(e: &Error, case: &str, len: usize, complete: usize, type_name: &str) {
    assert!(e.position().is_some(), "{case}[..{len}]: {e}");
    assert_eq!(e.record(), Some(complete as u64), "{case}[..{len}]: {e}");
    assert!(
        e.path().starts_with(type_name),
        "{case}[..{len}]: path of {e}"
    );
}
