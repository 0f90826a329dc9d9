//! `rcc`, the Hadoop Record I/O compiler.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
