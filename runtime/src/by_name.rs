//! Enums that go by a name on the command line and in options (formats, codecs,
//! compressions): one parser for all of them, whose error lists the names.

use crate::error::{Error, Result};

/// The value of `all` whose `name` is `s` (ASCII case ignored when `any_case`); otherwise an
/// unknown-name error for `what` that lists the names as `a, b or c`.
pub(crate) fn parse<T: Copy>(
    all: &[T],
    name: fn(T) -> &'static str,
    what: &str,
    s: &str,
    any_case: bool,
) -> Result<T> {
    let matches = |n: &str| {
        if any_case {
            n.eq_ignore_ascii_case(s)
        } else {
            n == s
        }
    };
    if let Some(&v) = all.iter().find(|&&v| matches(name(v))) {
        return Ok(v);
    }
    let names: Vec<&str> = all.iter().map(|&v| name(v)).collect();
    let choices = match names.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    Err(Error::unknown_name(what, s, &choices))
}

/// `FromStr` for an enum with an `ALL` (its values, in the order the error lists them) and a
/// `name(self)`: [`parse`] for `what`, exact or, with `any_case`, ASCII case ignored. Doc
/// comments before the type go on `from_str`.
macro_rules! from_name {
    ($(#[$doc:meta])* $ty:ident, $what:literal $(, $any_case:ident)?) => {
        impl std::str::FromStr for $ty {
            type Err = $crate::Error;

            $(#[$doc])*
            fn from_str(s: &str) -> $crate::Result<Self> {
                let any_case = $crate::by_name::from_name!(@case $($any_case)?);
                $crate::by_name::parse(&Self::ALL[..], Self::name, $what, s, any_case)
            }
        }
    };
    (@case) => {
        false
    };
    (@case any_case) => {
        true
    };
}
pub(crate) use from_name;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Pick {
        One,
        Two,
        Three,
    }

    impl Pick {
        const ALL: [Pick; 3] = [Pick::One, Pick::Two, Pick::Three];

        fn name(self) -> &'static str {
            match self {
                Pick::One => "one",
                Pick::Two => "two",
                Pick::Three => "three",
            }
        }
    }

    #[test]
    fn names_are_found_and_unknown_ones_listed() {
        let pick =
            |all: &[Pick], s: &str, any_case: bool| parse(all, Pick::name, "pick", s, any_case);
        assert_eq!(pick(&Pick::ALL, "two", false).unwrap(), Pick::Two);
        assert_eq!(pick(&Pick::ALL, "TWO", true).unwrap(), Pick::Two);
        let e = pick(&Pick::ALL, "TWO", false).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        assert_eq!(
            e.message(),
            "unknown pick `TWO` (expected one, two or three)"
        );
        let e = pick(&Pick::ALL[1..], "one", false).unwrap_err();
        assert_eq!(e.message(), "unknown pick `one` (expected two or three)");
        let e = pick(&Pick::ALL[2..], "one", false).unwrap_err();
        assert_eq!(e.message(), "unknown pick `one` (expected three)");
    }
}
