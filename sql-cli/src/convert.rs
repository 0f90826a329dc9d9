//! `rcc-convert`: `rcc convert` whole, Parquet, Arrow, `hdfs://` and `s3://` included, for an
//! `rcc` built without them (its `columnar` and `storage` features), which runs this for
//! those conversions.

/// mimalloc: see the manifest.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    hadoop_record_cli::companion::main("convert", hadoop_record_cli::convert::run)
}
