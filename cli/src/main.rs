//! `rcc`, the Hadoop Record I/O command line (the library holds its subcommands).

fn main() -> std::process::ExitCode {
    hadoop_record_cli::rcc()
}
