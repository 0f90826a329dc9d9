//! The DDL toolchain's commands: `rcc fmt` and `rcc describe`.

mod describe;
mod fmt;

use crate::support::help_with;

/// `rcc fmt --help` and `rcc describe --help` say what they do, with examples; `rcc --help`
/// lists both.
#[test]
fn the_toolchain_commands_help_says_what_they_do_with_examples() {
    for (command, wanted) in [
        (
            "fmt",
            &[
                "--check",
                "--diff",
                "Examples:",
                "rcc fmt --check schema/",
                "docs/format.md",
            ][..],
        ),
        (
            "describe",
            &[
                "--include-dir <DIR>",
                "Examples:",
                "rcc describe links.jr",
                "docs/describe.schema.json",
            ],
        ),
    ] {
        help_with(&[command, "--help"], wanted);
    }
    help_with(
        &["--help"],
        &[
            "\n  fmt        Format DDL files",
            "\n  describe   Print the checked model",
            "rcc fmt schema/",
        ],
    );
}
