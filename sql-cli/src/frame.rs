//! `rcc-frame`: `rcc frame` whole, `hdfs://` and `s3://` files included, for an `rcc` built
//! without them (its `storage` feature), which runs this for commands that name a URL.

fn main() -> std::process::ExitCode {
    hadoop_record_cli::companion::main("frame", hadoop_record_cli::frame::run)
}
