//! SequenceFiles against Hadoop's own `SequenceFile.Writer` and `SequenceFile.Reader`
//! (`SeqFiles.java` in the Java peer), on random files: every compression type, the codecs
//! each Hadoop has in pure Java (2.10.2: DefaultCodec, BZip2Codec, and GzipCodec for reading;
//! 3.4.2: GzipCodec, SnappyCodec on snappy-java, Lz4Codec on lz4-java), keys of every common
//! Writable and of record classes, values of generated record classes, random metadata,
//! sync intervals and block sizes.
//!
//! - Hadoop reads what we write: the same header and records, whole and in splits, where
//!   its `SequenceFileRecordReader` loop puts exactly the records our split reader puts in
//!   each split.
//! - We read what Hadoop writes, whole and in the same splits as Hadoop; written again with
//!   its sync marker, metadata, block size and sync interval, the file is Hadoop's byte for
//!   byte (for BZip2Codec and SnappyCodec, whose compressors may pick other bytes, the
//!   records are compared instead and the identical files counted).

use std::io::Cursor;

use fixture_harness::arb::{self, Arb};
use hadoop_record::framing::seqfile::{
    writable::{self, Writable},
    Codec, Compression, SeqReadOptions, SeqReader, SeqWriteOptions, SeqWriter, DEFAULT_BLOCK_SIZE,
    SYNC_INTERVAL,
};
use hadoop_record::schema::FieldType;
use hadoop_record::Format;
use interop_tests::batch::{Answer, Batch, SeqContent, SeqSpec};
use interop_tests::java::JavaPeer;
use interop_tests::report::Report;
use interop_tests::tools::say;
use interop_tests::{cases, encode, sample, seed};

/// A Hadoop release under test, and the codecs it has in pure Java.
struct Hadoop {
    /// Its Java peer, built on first use; `None` when the peers are skipped.
    peer: fn() -> Option<&'static JavaPeer>,
    /// The codecs it writes.
    writes: &'static [Codec],
    /// The codecs it reads.
    reads: &'static [Codec],
    /// Hadoop 3 takes any sync interval; Hadoop 2 has one.
    hadoop3: bool,
    version: &'static str,
}

impl Hadoop {
    /// Runs `check` against this release, unless the peers are skipped.
    fn check(&self, check: fn(&'static JavaPeer, &Hadoop)) {
        if let Some(peer) = (self.peer)() {
            check(peer, self);
        }
    }
}

/// Hadoop 2.10.2 in pure Java: GzipCodec needs its native library to write.
const HADOOP_2: Hadoop = Hadoop {
    peer: JavaPeer::hadoop,
    writes: &[Codec::Deflate, Codec::BZip2],
    reads: &[Codec::Deflate, Codec::BZip2, Codec::Gzip],
    hadoop3: false,
    version: "2.10.2",
};

/// Hadoop 3.4.2 with the codecs tested there (snappy-java, lz4-java, BuiltInGzipCompressor).
const HADOOP_3: Hadoop = Hadoop {
    peer: JavaPeer::ours_hadoop3,
    writes: &[Codec::Gzip, Codec::Snappy, Codec::Lz4],
    reads: &[Codec::Gzip, Codec::Snappy, Codec::Lz4],
    hadoop3: true,
    version: "3.4.2",
};

#[test]
fn hadoop_2_reads_our_files_whole_and_in_splits() {
    HADOOP_2.check(hadoop_reads_ours);
}

#[test]
fn we_read_and_rewrite_hadoop_2s_files() {
    HADOOP_2.check(we_read_hadoops);
}

#[test]
fn hadoop_3_reads_our_gzip_snappy_lz4_files() {
    HADOOP_3.check(hadoop_reads_ours);
}

#[test]
fn we_read_and_rewrite_hadoop_3s_files() {
    HADOOP_3.check(we_read_hadoops);
}

/// A small deterministic generator for the files' shapes (values come from proptest).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    fn bytes(&mut self, max: u64) -> Vec<u8> {
        (0..self.below(max + 1))
            .map(|_| self.next() as u8)
            .collect()
    }
}

/// Records as key and value bytes.
type Pairs = Vec<(Vec<u8>, Vec<u8>)>;

/// A random file's content and layout.
struct Case {
    key_class: String,
    value_class: String,
    compression: Compression,
    codec: Codec,
    sync_interval: u64,
    block_size: usize,
    metadata: Vec<(Vec<u8>, Vec<u8>)>,
    /// Key and value bytes.
    records: Pairs,
    /// Where the file is cut into splits, as fractions of its length (of 1000).
    cuts: Vec<u64>,
}

impl Case {
    fn options(&self) -> SeqWriteOptions {
        let mut o = SeqWriteOptions::new(self.value_class.clone())
            .with_key_class(self.key_class.clone())
            .with_compression(self.compression)
            .with_codec(self.codec)
            .with_sync_interval(self.sync_interval)
            .with_block_size(self.block_size);
        for (k, v) in &self.metadata {
            o = o.with_metadata(k.clone(), v.clone());
        }
        o
    }

    /// The metadata as Hadoop's `TreeMap` holds it (and our writer writes it).
    fn sorted_metadata(&self) -> Vec<(Vec<u8>, Vec<u8>)> {
        SeqWriter::new(Vec::new(), self.options())
            .header()
            .metadata
            .clone()
    }

    /// The split boundaries for a file of `len` bytes.
    fn splits(&self, len: u64) -> Vec<(u64, u64)> {
        let mut bounds: Vec<u64> = self.cuts.iter().map(|c| c * len / 1000).collect();
        bounds.sort_unstable();
        bounds.insert(0, 0);
        bounds.push(len);
        bounds.windows(2).map(|w| (w[0], w[1])).collect()
    }
}

/// Random files: `n` of them, values of the peer's record types, keys of every kind.
fn random_cases(peer: &'static JavaPeer, codecs: &[Codec], n: usize, seed: u64) -> Vec<Case> {
    let mut rng = Rng(seed | 1);
    let schema = peer.schema();
    let types = peer.types();
    (0..n)
        .map(|i| {
            let (value_class, id) = &types[rng.below(types.len() as u64) as usize];
            let large = rng.below(4) == 0;
            let arb = if large {
                Arb::java().large()
            } else {
                Arb::java()
            };
            let count = rng.below(if large { 12 } else { 40 }) as usize;
            let strategy = arb::value(schema, &FieldType::Record(*id), arb);
            let values: Vec<Vec<u8>> = sample(&strategy, count, seed.wrapping_add(i as u64))
                .iter()
                .filter_map(|v| encode(schema, *id, v, Format::Binary).ok())
                .collect();
            let key_kind = rng.below(6);
            let (key_class, keys): (String, Vec<Vec<u8>>) = match key_kind {
                0 => (
                    writable::NULL_WRITABLE.into(),
                    vec![Vec::new(); values.len()],
                ),
                1 => (
                    writable::LONG_WRITABLE.into(),
                    (0..values.len() as i64)
                        .map(|k| k.to_be_bytes().to_vec())
                        .collect(),
                ),
                2 => (
                    writable::INT_WRITABLE.into(),
                    values
                        .iter()
                        .map(|_| (rng.next() as i32).to_be_bytes().to_vec())
                        .collect(),
                ),
                3 | 4 => {
                    let (class, make): (&str, fn(Vec<u8>) -> Writable) = if key_kind == 3 {
                        (writable::TEXT, |b| {
                            Writable::Text(String::from_utf8_lossy(&b).into_owned().into_bytes())
                        })
                    } else {
                        (writable::BYTES_WRITABLE, Writable::Bytes)
                    };
                    let keys = values
                        .iter()
                        .map(|_| {
                            let mut out = Vec::new();
                            make(rng.bytes(40)).encode(&mut out);
                            out
                        })
                        .collect();
                    (class.into(), keys)
                }
                _ => (value_class.clone(), values.clone()),
            };
            let compression = match rng.below(3) {
                0 => Compression::None,
                1 => Compression::Record,
                _ => Compression::Block,
            };
            let metadata = (0..rng.below(4))
                .map(|_| (rng.bytes(8), rng.bytes(20)))
                .collect();
            Case {
                key_class,
                value_class: value_class.clone(),
                compression,
                codec: rng.pick(codecs),
                sync_interval: rng.pick(&[SYNC_INTERVAL, 0, 300, 100_000]),
                block_size: rng.pick(&[1, 700, 20_000, 300_000, DEFAULT_BLOCK_SIZE]),
                metadata,
                records: keys.into_iter().zip(values).collect(),
                cuts: (0..rng.below(4)).map(|_| rng.below(1001)).collect(),
            }
        })
        .collect()
}

/// Files whose buffers pass the 218,422 (snappy) and 261,100 (lz4) bytes that Hadoop's
/// `BlockCompressorStream` compresses in one chunk: `BytesWritable` values of up to 600 KB,
/// record- and block-compressed with every codec.
fn large_cases(codecs: &[Codec], seed: u64) -> Vec<Case> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::new();
    for &codec in codecs {
        for compression in [Compression::Record, Compression::Block] {
            let records = [0usize, 100_000, 250_000, 600_000, 7]
                .iter()
                .map(|&n| {
                    // Compressible, but not trivially: runs of random bytes.
                    let mut v = Vec::with_capacity(n);
                    while v.len() < n {
                        let b = rng.next() as u8;
                        let run = 1 + rng.below(12) as usize;
                        v.extend(std::iter::repeat_n(b, run.min(n - v.len())));
                    }
                    let mut bytes = Vec::new();
                    Writable::Bytes(v).encode(&mut bytes);
                    (Vec::new(), bytes)
                })
                .collect();
            out.push(Case {
                key_class: writable::NULL_WRITABLE.into(),
                value_class: writable::BYTES_WRITABLE.into(),
                compression,
                codec,
                sync_interval: SYNC_INTERVAL,
                block_size: DEFAULT_BLOCK_SIZE,
                metadata: Vec::new(),
                records,
                cuts: vec![rng.below(1001), rng.below(1001)],
            });
        }
    }
    out
}

/// Our file of `case`.
fn our_file(case: &Case) -> Vec<u8> {
    let mut w = SeqWriter::new(Vec::new(), case.options());
    for (k, v) in &case.records {
        w.append(k, v).unwrap();
    }
    hadoop_record::framing::FrameWrite::finish(&mut w).unwrap();
    w.into_inner().unwrap()
}

/// Our reader's records of `file` (or of one split of it).
fn our_records(file: &[u8], split: Option<(u64, u64)>) -> Result<Pairs, String> {
    let mut r = match split {
        None => SeqReader::with_options(Cursor::new(file), SeqReadOptions::default()),
        Some((s, e)) => SeqReader::split(Cursor::new(file), s, e, SeqReadOptions::default()),
    }
    .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    while let Some(pair) = r.next_pair() {
        let pair = pair.map_err(|e| e.to_string())?;
        out.push((pair.key.to_vec(), pair.value.to_vec()));
    }
    Ok(out)
}

fn describe(case: &Case) -> String {
    format!(
        "{} records of {} with {} keys, {:?}/{:?}, sync interval {}, block size {}",
        case.records.len(),
        case.value_class,
        case.key_class,
        case.compression,
        case.codec,
        case.sync_interval,
        case.block_size
    )
}

fn header_matches(case: &Case, theirs: &SeqContent) -> bool {
    let codec = match case.compression {
        Compression::None => "",
        _ => case.codec.class_name(),
    };
    theirs.key_class == case.key_class
        && theirs.value_class == case.value_class
        && theirs.codec_class == codec
        && theirs.compressed == (case.compression != Compression::None)
        && theirs.block == (case.compression == Compression::Block)
        && theirs.metadata == case.sorted_metadata()
}

/// Hadoop reads our random files whole and in splits.
fn hadoop_reads_ours(peer: &'static JavaPeer, hadoop: &Hadoop) {
    let (codecs, version) = (hadoop.reads, hadoop.version);
    let seed = seed();
    let mut files = random_cases(peer, codecs, cases(60), seed);
    files.extend(large_cases(codecs, seed));
    let mut batch = Batch::new();
    let mut sent = Vec::new();
    for case in &files {
        let file = our_file(case);
        batch.seq_read(&file, None);
        for split in case.splits(file.len() as u64) {
            batch.seq_read(&file, Some(split));
        }
        sent.push(file);
    }
    let run = format!("seqfile-read-ours-{version}");
    let answers = peer.run(&run, &batch);
    let mut report = Report::new(
        format!("our SequenceFiles → Hadoop {version}"),
        peer.reproduce(seed, &run),
    );
    let mut answers = answers.into_iter();
    let mut records = 0;
    for (case, file) in files.iter().zip(&sent) {
        let whole = answers.next().expect("an answer per read");
        let what = describe(case);
        match whole {
            Answer::SeqRead(Ok(theirs)) => {
                report.check(header_matches(case, &theirs), || {
                    format!("{what}: Hadoop read another header: {theirs:?}")
                });
                report.check(theirs.records == case.records, || {
                    format!("{what}: Hadoop read other records")
                });
                records += theirs.records.len();
            }
            other => report.check(false, || format!("{what}: Hadoop failed: {other:?}")),
        }
        splits_agree(&mut report, &mut answers, case, file, "our");
    }
    say(&format!(
        "{} files, {records} records read by Hadoop {version}",
        files.len()
    ));
    report.finish("SequenceFile checks");
}

/// We read Hadoop's random files whole and in Hadoop's splits, and write them again.
fn we_read_hadoops(peer: &'static JavaPeer, hadoop: &Hadoop) {
    let (codecs, hadoop3, version) = (hadoop.writes, hadoop.hadoop3, hadoop.version);
    let seed = seed();
    let mut files = random_cases(peer, codecs, cases(60), seed ^ 0x5eed);
    files.extend(large_cases(codecs, seed));
    let mut batch = Batch::new();
    let joined: Vec<(Vec<u8>, Vec<u8>)> = files
        .iter()
        .map(|c| {
            (
                c.records.iter().flat_map(|r| r.0.clone()).collect(),
                c.records.iter().flat_map(|r| r.1.clone()).collect(),
            )
        })
        .collect();
    for (case, (keys, values)) in files.iter().zip(&joined) {
        batch.seq_write(&SeqSpec {
            key_class: &case.key_class,
            value_class: &case.value_class,
            compression: case.compression as u8,
            codec: match case.compression {
                Compression::None => "",
                _ => case.codec.class_name(),
            },
            // Hadoop 2 has one interval; Hadoop 3 takes any.
            sync_interval: if hadoop3 {
                case.sync_interval as i32
            } else {
                -1
            },
            block_size: case.block_size as i32,
            metadata: &case.metadata,
            count: case.records.len() as u32,
            keys,
            values,
        });
    }
    let run = format!("seqfile-write-{version}");
    let answers = peer.run(&run, &batch);
    let mut report = Report::new(
        format!("Hadoop {version}'s SequenceFiles → us"),
        peer.reproduce(seed, &run),
    );
    let (mut identical, mut compared) = (0, 0);
    let mut written = Vec::new();
    for (case, answer) in files.iter().zip(answers) {
        let what = describe(case);
        let Answer::SeqWritten(Ok(file)) = answer else {
            report.check(false, || {
                format!("{what}: Hadoop could not write it: {answer:?}")
            });
            continue;
        };
        let ours = our_records(&file, None);
        report.check(ours.as_ref() == Ok(&case.records), || {
            format!(
                "{what}: we read other records from Hadoop's file: {:?}",
                ours.as_ref().err()
            )
        });
        let header = SeqReader::new(&file[..]).unwrap().header().clone();
        let mut options = case.options().with_sync(header.sync.unwrap());
        if !hadoop3 {
            options = options.with_sync_interval(SYNC_INTERVAL);
        }
        let mut w = SeqWriter::new(Vec::new(), options);
        for (k, v) in &case.records {
            w.append(k, v).unwrap();
        }
        hadoop_record::framing::FrameWrite::finish(&mut w).unwrap();
        let again = w.into_inner().unwrap();
        let same = again == file;
        // The runtime's default features (zlib, lz4) make these Hadoop's bytes; except for
        // a record-compressed value too large for one chunk, which Hadoop splits where its
        // serializer's writes happen to fall.
        let chunked = case.compression == Compression::Record
            && case.records.iter().any(|(_, v)| v.len() > 200_000);
        let must = case.compression == Compression::None
            || matches!(case.codec, Codec::Deflate | Codec::Gzip)
            || (case.codec == Codec::Lz4 && !chunked);
        compared += 1;
        identical += usize::from(same);
        report.check(same || !must, || {
            let at = again.iter().zip(&file).position(|(a, b)| a != b);
            format!(
                "{what}: our rewrite differs from Hadoop's file at byte {at:?} ({} vs {} bytes)",
                again.len(),
                file.len()
            )
        });
        written.push((case, file));
    }
    // Hadoop's splits of its own files against ours.
    let mut batch = Batch::new();
    for (case, file) in &written {
        for split in case.splits(file.len() as u64) {
            batch.seq_read(file, Some(split));
        }
    }
    let run = format!("seqfile-split-{version}");
    let answers = peer.run(&run, &batch);
    let mut answers = answers.into_iter();
    for (case, file) in &written {
        splits_agree(&mut report, &mut answers, case, file, "Hadoop's");
    }
    say(&format!(
        "{compared} files written by Hadoop {version}: {identical} rewritten byte for byte"
    ));
    report.finish("SequenceFile checks");
}

/// Hadoop's next answers, one per split of `file` (`whose` file: ours or Hadoop's), hold the
/// records our split reader reads from that split.
fn splits_agree(
    report: &mut Report,
    answers: &mut impl Iterator<Item = Answer>,
    case: &Case,
    file: &[u8],
    whose: &str,
) {
    for split in case.splits(file.len() as u64) {
        let answer = answers.next().expect("an answer per split");
        let ours = our_records(file, Some(split));
        report.check(
            matches!(&answer, Answer::SeqRead(Ok(t)) if Ok(&t.records) == ours.as_ref()),
            || {
                format!(
                    "{}: split {split:?} of {whose} file: Hadoop's records differ from ours \
                     ({answer:?})",
                    describe(case)
                )
            },
        );
    }
}
