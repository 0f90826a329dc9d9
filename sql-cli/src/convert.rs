//! `rcc-convert`: `rcc convert` whole, Parquet, Arrow, `hdfs://` and `s3://` included, for an
//! `rcc` built without them (its `columnar` and `storage` features), which runs this for
//! those conversions.

mod malloc;

fn main() -> std::process::ExitCode {
    malloc::tune();
    hadoop_record_cli::companion::main("convert", hadoop_record_cli::convert::run)
}
