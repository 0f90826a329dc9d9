//! `rcc-convert`: `rcc convert` whole, Parquet and Arrow included, for an `rcc` built
//! without them (its `columnar` feature), which runs this for those conversions.

fn main() -> std::process::ExitCode {
    hadoop_record_cli::companion::main("convert", hadoop_record_cli::convert::run)
}
