//! Without its codec features the runtime still reads and writes every framing's
//! uncompressed form, and a compressed file or a compressing writer is an `Unsupported`
//! error that names the feature to turn on. Prints one line per check; exits 1 on a failure.

use std::path::Path;
use std::process::ExitCode;

use hadoop_record::framing::paddle::{Compressor, PaddleReader, PaddleWriteOptions, PaddleWriter};
use hadoop_record::framing::plasma::{Compression, VarReader, VarWriteOptions, VarWriter};
use hadoop_record::framing::seqfile::{
    Codec, Compression as SeqCompression, SeqReader, SeqWriteOptions, SeqWriter,
};
use hadoop_record::framing::FrameWrite;
use hadoop_record::{Error, ErrorKind};

fn fixture(path: &str) -> Vec<u8> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    std::fs::read(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `result` failed as a missing codec does: `Unsupported`, naming `feature`.
fn missing<T>(what: &str, result: Result<T, Error>, feature: &str) -> bool {
    match result {
        Err(e)
            if e.kind() == ErrorKind::Unsupported
                && e.to_string().contains(&format!("`{feature}` feature")) =>
        {
            println!("ok: {what}: {e}");
            true
        }
        Err(e) => {
            println!("FAILED: {what}: wrong error: {e} ({:?})", e.kind());
            false
        }
        Ok(_) => {
            println!("FAILED: {what}: no error");
            false
        }
    }
}

fn main() -> ExitCode {
    let mut ok = true;
    for codec in Codec::ALL {
        ok &= !codec.is_available() || {
            println!("FAILED: {codec:?} is available without its feature");
            false
        };
    }
    // Uncompressed forms work.
    let mut w = PaddleWriter::new(Vec::new());
    w.write_payload(b"plain").unwrap();
    let file = w.into_inner().unwrap();
    let read: Vec<Vec<u8>> = PaddleReader::new(&file[..])
        .collect::<Result<_, _>>()
        .unwrap();
    ok &= read == [b"plain".to_vec()];
    let seq = fixture("seqfile/none.seq");
    ok &= SeqReader::new(&seq[..]).unwrap().all(|r| r.is_ok());

    // Compressed ones are clear errors.
    let mut w = PaddleWriter::with_options(
        Vec::new(),
        PaddleWriteOptions::default().with_compressor(Compressor::Snappy),
    );
    ok &= missing("paddle snappy writer", w.write_payload(b"x"), "snappy");
    let gz = fixture("paddle/gzip_single_chunk.recordio");
    ok &= missing(
        "paddle gzip chunk",
        PaddleReader::new(&gz[..]).next().unwrap(),
        "deflate",
    );
    for (file, feature) in [
        ("seqfile/record-snappy.seq", "snappy"),
        ("seqfile/block-default.seq", "deflate"),
        ("seqfile/record-bzip2.seq", "bzip2"),
        ("seqfile/block-lz4.seq", "lz4"),
    ] {
        ok &= missing(file, SeqReader::new(&fixture(file)[..]), feature);
    }
    let options = SeqWriteOptions::new("x.Y")
        .with_compression(SeqCompression::Block)
        .with_codec(Codec::Gzip);
    let mut w = SeqWriter::new(Vec::new(), options);
    ok &= missing("seqfile gzip writer", w.write_payload(b"x"), "deflate");
    ok &= missing(
        "plasma-var snappy writer",
        VarWriter::new(
            Vec::new(),
            VarWriteOptions::default().with_compression(Compression::Snappy),
        ),
        "snappy",
    );
    let _ = VarReader::new(&b""[..]);
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
