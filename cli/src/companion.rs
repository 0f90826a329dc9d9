//! `rcc sql`, `rcc cluster` and `rcc delta` run companion commands, `rcc-sql`, `rcc-cluster`
//! and `rcc-delta`, found next to `rcc` or on `PATH`, as `cargo foo` runs `cargo-foo` and
//! `git foo` runs `git-foo`.
//!
//! SQL and the cluster need DataFusion and Ballista, some 400 crates and minutes of
//! compiling; code generation, checks and conversions need none of them. Kept in their own
//! package (`hadoop-record-sql-cli`), they cost nothing to whoever installs `rcc` only,
//! while `rcc sql` stays the command users type.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use clap::{Args, CommandFactory, FromArgMatches, Parser};

use crate::{ColorArg, Context};

/// The package that provides the companion commands.
pub const PACKAGE: &str = "hadoop-record-sql-cli";
/// Its folder in a clone of the repository.
const PACKAGE_DIR: &str = "sql-cli";
/// The subcommands that companions provide.
pub const SUBCOMMANDS: [&str; 3] = ["sql", "cluster", "delta"];

/// The arguments of a subcommand that a companion runs: all of them, as given.
#[derive(Debug, Args)]
pub struct Forward {
    /// The companion command's arguments (`--help` lists them)
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    pub args: Vec<OsString>,
}

/// The companion subcommand that `args` (without the program name) ask for, if any, and
/// the arguments to hand it: all of them but the subcommand's name, `--color` included.
/// `rcc help sql` asks for `rcc-sql --help`.
pub fn requested<I>(args: I) -> Option<(&'static str, Vec<OsString>)>
where
    I: IntoIterator<Item = OsString>,
{
    let Split {
        mut colors,
        first,
        rest,
    } = split(args)?;
    let name_of = |arg: &OsStr| SUBCOMMANDS.iter().copied().find(|s| arg == OsStr::new(s));
    if let Some(name) = name_of(&first) {
        colors.extend(rest);
        return Some((name, colors));
    }
    let name = (first == "help")
        .then(|| name_of(rest.first()?))
        .flatten()?;
    colors.push("--help".into());
    Some((name, colors))
}

/// Runs the companion of subcommand `name`, which this process's arguments name, as
/// [`run`] does: for a subcommand that `rcc` has but hands to a companion in some cases
/// (`rcc convert` to Parquet, without the `columnar` feature; `rcc frame` and `rcc convert`
/// with URLs, without the `storage` feature).
pub fn run_subcommand(name: &str) -> ExitCode {
    match split(std::env::args_os().skip(1)) {
        Some(Split {
            mut colors,
            first,
            rest,
        }) if first == name => {
            colors.extend(rest);
            run(name, colors)
        }
        _ => unreachable!("rcc parsed `{name}` as its subcommand"),
    }
}

/// Arguments split at the subcommand.
struct Split {
    /// The `--color` options before it.
    colors: Vec<OsString>,
    /// The first argument that is not a `--color` option.
    first: OsString,
    /// The arguments after it.
    rest: Vec<OsString>,
}

/// `args` split at the first argument that is not a `--color` option.
fn split<I>(args: I) -> Option<Split>
where
    I: IntoIterator<Item = OsString>,
{
    let mut args = args.into_iter();
    let mut colors = Vec::new();
    while let Some(arg) = args.next() {
        if arg == "--color" {
            colors.push(arg);
            colors.extend(args.next());
        } else if is_color(&arg) {
            colors.push(arg);
        } else {
            return Some(Split {
                colors,
                first: arg,
                rest: args.collect(),
            });
        }
    }
    None
}

/// `--color=WHEN`.
fn is_color(arg: &OsStr) -> bool {
    arg.to_str().is_some_and(|a| a.starts_with("--color="))
}

/// Runs `rcc-<name> args` in place of this process and exits as it does; or, when it is
/// not installed, says how to install it.
pub fn run(name: &str, args: Vec<OsString>) -> ExitCode {
    let program = format!("rcc-{name}{}", std::env::consts::EXE_SUFFIX);
    let own = std::env::current_exe().ok();
    let beside = own
        .as_deref()
        .and_then(Path::parent)
        .map(|dir| dir.join(&program));
    let Some(path) = beside.filter(|p| p.is_file()).or_else(|| on_path(&program)) else {
        let place = match &own {
            Some(own) => format!("next to {} or on PATH", own.display()),
            None => "on PATH".to_owned(),
        };
        eprintln!(
            "error: `rcc {name}` runs the companion command rcc-{name}, which was not found \
             {place}\n  install it: cargo install {PACKAGE}\n  from a clone of the \
             repository: cargo install --path {PACKAGE_DIR} (or cargo build -p {PACKAGE}, \
             which puts it beside target/*/rcc)"
        );
        return ExitCode::FAILURE;
    };
    let mut command = Command::new(&path);
    command.args(args);
    exec(command, &path)
}

// A companion's command line: its arguments `A` and `--color`. (Not a doc comment: clap
// would make it the help's description.)
#[derive(Debug, Parser)]
#[command(version)]
struct CompanionCli<A: Args> {
    // First: the help headings of `A`'s later groups would otherwise take it in.
    #[command(flatten)]
    color: ColorArg,

    #[command(flatten)]
    args: A,
}

/// The `main` of the companion that provides `rcc <name>`: parses its command line (usage
/// and help say `rcc <name>`) and runs it; `run` returns true on success.
///
/// ```no_run
/// # use hadoop_record_cli::{companion, Context};
/// #[derive(Debug, clap::Args)]
/// struct SqlArgs {
///     query: String,
/// }
///
/// fn main() -> std::process::ExitCode {
///     companion::main("sql", |context: &Context, args: SqlArgs| !args.query.is_empty())
/// }
/// ```
pub fn main<A: Args>(name: &'static str, run: impl FnOnce(&Context, A) -> bool) -> ExitCode {
    main_with_matches(name, |context, args, _| run(context, args))
}

/// [`main`], where `run` also gets the parsed command line: where each flag and value
/// stood (`ArgMatches::indices_of`), for flags that apply to the values after them.
pub fn main_with_matches<A: Args>(
    name: &'static str,
    run: impl FnOnce(&Context, A, &clap::ArgMatches) -> bool,
) -> ExitCode {
    let name = format!("rcc {name}");
    // The description is `A`'s (its doc comment): clap takes that of the last flattened
    // struct, `--color`'s.
    let own = A::augment_args(clap::Command::new("own"));
    let mut command = CompanionCli::<A>::command()
        .name(name.clone())
        .bin_name(name)
        .about(None::<&str>)
        .long_about(None::<&str>);
    // A companion's own `--version` (`rcc sql --from delta --version N`) wins over clap's;
    // `rcc --version` says the version.
    if own.get_arguments().any(|a| a.get_long() == Some("version")) {
        command = command.disable_version_flag(true);
    }
    if let Some(about) = own.get_about() {
        command = command.about(about.clone());
    }
    if let Some(long_about) = own.get_long_about() {
        command = command.long_about(long_about.clone());
    }
    let matches = command.get_matches();
    let cli = CompanionCli::<A>::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let context = Context::new(cli.color.color);
    if run(&context, cli.args, &matches) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The first file named `program` in the folders of `PATH`.
fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Replaces this process with `command` (signals and the exit status are then the
/// companion's own).
#[cfg(unix)]
fn exec(mut command: Command, path: &Path) -> ExitCode {
    use std::os::unix::process::CommandExt;
    let e = command.exec();
    eprintln!("error: cannot run {}: {e}", path.display());
    ExitCode::FAILURE
}

/// Runs `command` and exits with its status.
#[cfg(not(unix))]
fn exec(mut command: Command, path: &Path) -> ExitCode {
    match command.status() {
        Ok(status) => match status.code() {
            Some(code) => ExitCode::from(code.clamp(0, 255) as u8),
            None => ExitCode::FAILURE,
        },
        Err(e) => {
            eprintln!("error: cannot run {}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn requested_of(args: &[&str]) -> Option<(&'static str, Vec<String>)> {
        requested(args.iter().map(OsString::from)).map(|(name, args)| {
            let args = args.into_iter().map(|a| a.into_string().unwrap()).collect();
            (name, args)
        })
    }

    #[test]
    fn companions_get_every_argument_but_their_name() {
        assert_eq!(
            requested_of(&["sql", "--schema", "a.jr", "SELECT 1", "sql"]),
            Some((
                "sql",
                vec![
                    "--schema".into(),
                    "a.jr".into(),
                    "SELECT 1".into(),
                    "sql".into()
                ]
            ))
        );
        assert_eq!(
            requested_of(&["--color", "never", "cluster", "scheduler"]),
            Some((
                "cluster",
                vec!["--color".into(), "never".into(), "scheduler".into()]
            ))
        );
        assert_eq!(
            requested_of(&["--color=always", "sql"]),
            Some(("sql", vec!["--color=always".into()]))
        );
        assert_eq!(
            requested_of(&["help", "cluster"]),
            Some(("cluster", vec!["--help".into()]))
        );
        assert_eq!(
            requested_of(&["--color", "never", "help", "sql", "x"]),
            Some((
                "sql",
                vec!["--color".into(), "never".into(), "--help".into()]
            ))
        );
    }

    #[test]
    fn everything_else_is_rcc_s_own() {
        for args in [
            &["links.jr"][..],
            &["-l", "rust", "sql"],
            &["convert", "sql"],
            &["help"],
            &["help", "convert"],
            &["--color", "never"],
            &[],
        ] {
            assert_eq!(requested_of(args), None, "{args:?}");
        }
    }
}
