//! The user guide's commands (`docs/guide/*.md`), run as a reader runs them, so that the
//! guide cannot rot.
//!
//! In a chapter, a ```` ```console ```` block holds commands (`$ ` lines; a command goes on
//! while a quote is open or a line ends in `\`), each followed by what it prints, its
//! standard error merged into its standard output as a terminal shows them. Every block
//! starts at the root of a copy of the repository's `examples/`, as a reader starts at a
//! clone's root; files a block writes stay for the chapter's later blocks. `cd DIR` moves
//! the block's later commands. A command must succeed unless what it prints has an
//! `error:` line, and then must fail (unless it prints its own `exit status …`). A command ending in ` &` runs in the background
//! until the chapter ends; what it prints is its first line.
//! `rcc` is the one the tests build, first on `PATH`. A store's address a reader would
//! change (`hdfs://namenode:8020`) is replaced by the test's own in the commands, and back
//! in what they print (the cluster's ports too, for free ones).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long a background command may take to print its first line.
const START: Duration = Duration::from_secs(120);
/// How long any other command may take.
const FOREGROUND: Duration = Duration::from_secs(300);

/// The guide's folder.
pub fn guide_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/guide")
}

/// The README (whose first steps run as a chapter does), then the chapters `SUMMARY.md`
/// lists, in its order, then `docs/avro.md`.
pub fn chapters() -> Vec<PathBuf> {
    let summary = std::fs::read_to_string(guide_dir().join("SUMMARY.md")).unwrap();
    let listed = summary
        .lines()
        .filter_map(|line| Some(line.split_once("](")?.1.split_once(')')?.0))
        .map(|name| guide_dir().join(name));
    // The README, the chapters, and the documents outside the guide that show commands.
    std::iter::once(guide_dir().join("../../README.md"))
        .chain(listed)
        .chain(std::iter::once(guide_dir().join("../avro.md")))
        .collect()
}

/// Whether a chapter's commands use HDFS or S3.
pub fn uses_stores(path: &Path) -> bool {
    let text = std::fs::read_to_string(path).unwrap();
    blocks(&text)
        .iter()
        .flatten()
        .any(|step| step.command.contains("s3://") || step.command.contains("hdfs://"))
}

/// One command of a chapter and what the chapter shows it printing.
#[derive(Debug)]
struct Step {
    command: String,
    shown: Vec<String>,
}

/// The steps of each console block of `text`.
fn blocks(text: &str) -> Vec<Vec<Step>> {
    let mut blocks = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```console" {
            continue;
        }
        let mut steps: Vec<Step> = Vec::new();
        for line in lines.by_ref().take_while(|l| l.trim() != "```") {
            match steps.last_mut() {
                Some(step) if still_open(&step.command) => {
                    step.command.push('\n');
                    step.command.push_str(line);
                }
                _ => match line.strip_prefix("$ ") {
                    Some(command) => steps.push(Step {
                        command: command.to_owned(),
                        shown: Vec::new(),
                    }),
                    None => steps
                        .last_mut()
                        .unwrap_or_else(|| panic!("output before any command: {line}"))
                        .shown
                        .push(line.trim_end().to_owned()),
                },
            }
        }
        blocks.push(steps);
    }
    blocks
}

/// Whether a shell command goes on past the end of `text`: a quote left open, or a
/// final `\`.
fn still_open(text: &str) -> bool {
    let (mut quote, mut escaped) = (None, false);
    for c in text.chars() {
        match (quote, c) {
            _ if escaped => escaped = false,
            (Some('\''), '\'') => quote = None,
            (Some('\''), _) => {}
            (_, '\\') => escaped = true,
            (Some('"'), '"') => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            _ => {}
        }
    }
    quote.is_some() || escaped
}

/// Background processes of a chapter, whose process groups are ended when it ends.
struct Background(Vec<Child>);

impl Drop for Background {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = Command::new("kill")
                .args(["-TERM", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
        }
    }
}

/// What a chapter runs with: `rcc`'s folder, environment variables, and addresses the
/// chapter names (`hdfs://namenode:8020`) with those of the test's stores.
pub struct Setting<'a> {
    pub bin: &'a Path,
    pub env: Vec<(&'a str, &'a str)>,
    pub addresses: Vec<(&'a str, &'a str)>,
}

/// Runs the chapter at `path` in `work` (made afresh from `examples/`) as `setting` says;
/// answers what differs from what it shows.
pub fn run_chapter(path: &Path, work: &Path, setting: &Setting) -> Vec<String> {
    let (bin, env) = (setting.bin, &setting.env);
    let ours = |text: &str| {
        let mut text = text.to_owned();
        for (named, real) in &setting.addresses {
            text = text.replace(named, real);
        }
        text
    };
    let theirs = |text: &str| {
        let mut text = text.to_owned();
        for (named, real) in &setting.addresses {
            text = text.replace(real, named);
        }
        text
    };
    let text = std::fs::read_to_string(path).unwrap();
    let _ = std::fs::remove_dir_all(work);
    copy_examples(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples"),
        &work.join("examples"),
    );
    let search = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // A command that hangs fails the chapter, after `timeout` (coreutils) stops it.
    let shell = |dir: &Path, command: &str, foreground: bool| {
        let mut sh = Command::new(if foreground { "timeout" } else { "sh" });
        if foreground {
            sh.args([&format!("{}", FOREGROUND.as_secs()), "sh"]);
        }
        sh.arg("-c")
            .arg(format!("exec 2>&1\n{}", ours(command)))
            .current_dir(dir)
            .env("PATH", &search)
            .env("LC_ALL", "C")
            .env("NO_COLOR", "1")
            .envs(env.iter().copied());
        sh
    };
    let mut failures = Vec::new();
    let mut background = Background(Vec::new());
    for steps in blocks(&text) {
        let mut dir = work.to_path_buf();
        for step in steps {
            let command = step.command.as_str();
            let (printed, ok) = if let Some(to) = command.strip_prefix("cd ") {
                dir = dir.join(to.trim());
                (Vec::new(), dir.is_dir())
            } else if let Some(command) = command.strip_suffix(" &") {
                let mut sh = shell(&dir, command, false);
                std::os::unix::process::CommandExt::process_group(&mut sh, 0);
                let mut child = sh.stdout(Stdio::piped()).spawn().unwrap();
                let out = child.stdout.take().unwrap();
                background.0.push(child);
                let (tx, rx) = mpsc::channel();
                // Read to the end, past the line wanted: a command whose output nobody
                // reads stops when the pipe fills, or fails when it closes.
                std::thread::spawn(move || {
                    for line in BufReader::new(out).lines() {
                        let _ = tx.send(line);
                    }
                });
                match rx.recv_timeout(START) {
                    Ok(Ok(line)) => (vec![theirs(line.trim_end())], true),
                    _ => (Vec::new(), false),
                }
            } else {
                let out = shell(&dir, command, true).output().unwrap();
                let text = String::from_utf8_lossy(&out.stdout);
                let printed = text.lines().map(|l| theirs(l.trim_end())).collect();
                // A command that shows its exit status (`…; echo "exit status $?"`) says
                // how it ended itself.
                let fails = step.shown.iter().any(|l| l.starts_with("error:"))
                    && !step.shown.iter().any(|l| l.starts_with("exit status "));
                (printed, out.status.success() != fails)
            };
            if printed != step.shown || !ok {
                failures.push(format!(
                    "{}: `{command}`{}\n--- the guide shows:\n{}\n--- it printed:\n{}",
                    path.display(),
                    if ok {
                        ""
                    } else {
                        " (exit status not as shown)"
                    },
                    step.shown.join("\n"),
                    printed.join("\n")
                ));
            }
        }
    }
    failures
}

/// `examples/` copied to `to`, without build output.
fn copy_examples(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (path, name) = (entry.path(), entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            if name != "target" {
                copy_examples(&path, &to.join(&name));
            }
        } else {
            std::fs::copy(&path, to.join(&name)).unwrap();
        }
    }
}

#[test]
fn commands_go_on_while_a_quote_is_open() {
    let steps = &blocks("```console\n$ a \"b\n c\" \\\n d\nout\n$ e 'f\"'\n```\n")[0];
    assert_eq!(steps[0].command, "a \"b\n c\" \\\n d");
    assert_eq!(steps[0].shown, ["out"]);
    assert_eq!(steps[1].command, "e 'f\"'");
    assert!(steps[1].shown.is_empty());
}
