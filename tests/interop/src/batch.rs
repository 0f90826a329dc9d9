//! The batch protocol of the Java driver (`java/src/main/java/hadooprecord/peer/Driver.java`,
//! whose class comment is the reference): a request file of operations, a response file
//! answering each in order, so that one JVM serves thousands of checks.

use crate::wire::{Cursor, Request};

/// Bytes Hadoop wrote, or the exception its writer threw.
pub type Written = Result<Vec<u8>, String>;

/// What Hadoop did with one input of a [`Batch::round_trip`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadOutcome {
    /// No input in this encoding was given.
    Absent,
    /// Hadoop's reader threw this.
    Failed(String),
    /// Hadoop read a record and wrote it in binary, CSV and XML.
    Read {
        /// Input bytes the reader left unread (binary only; `None` for CSV and XML).
        unread: Option<u32>,
        written: [Written; 3],
    },
}

/// What Hadoop's generated class said of two records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// `a.compareTo(b)`
    pub a_to_b: i32,
    /// `b.compareTo(a)`
    pub b_to_a: i32,
    /// `a.equals(b)`
    pub a_equals_b: bool,
    /// `b.equals(a)`
    pub b_equals_a: bool,
    /// `a.hashCode()`
    pub hash_a: i32,
    /// `b.hashCode()`
    pub hash_b: i32,
    /// The registered raw comparator's `compare` on the binary forms of `a` and `b`, or
    /// what it threw; `None` when [`Batch::compare`] did not ask for it.
    pub raw: Option<Result<i32, String>>,
}

/// The answer to one operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// To [`Batch::round_trip`]: per input encoding (binary, CSV, XML).
    RoundTrip(Box<[ReadOutcome; 3]>),
    /// To [`Batch::compare`]: the comparison, or why the records could not be read.
    Compare(Result<Comparison, String>),
    /// To [`Batch::generate`]: each record in binary, CSV and XML.
    Generated(Vec<[Written; 3]>),
    /// To [`Batch::signature`].
    Signature(String),
    /// To [`Batch::stream`]: the records in binary, CSV and XML, or why reading failed.
    Stream(Result<[Written; 3], String>),
    /// To [`Batch::type_info`]: `getTypeInfo()` in binary, CSV and XML.
    TypeInfo([Written; 3]),
    /// To [`Batch::filtered`]: the records read, in binary, CSV and XML; or the error.
    Filtered(Result<[Written; 3], String>),
    /// To [`Batch::bench`]: the fastest read and write of all the records, in nanoseconds.
    Bench { read_ns: u64, write_ns: u64 },
    /// To [`Batch::seq_write`]: the SequenceFile Hadoop wrote, or what it threw.
    SeqWritten(Written),
    /// To [`Batch::seq_read`]: what Hadoop's reader read, or what it threw.
    SeqRead(Result<SeqContent, String>),
    /// To [`Batch::write_bench`]: the fastest write of all the records in nanoseconds of
    /// wall time and of the writing thread's CPU time, and the bytes written.
    WriteBench {
        write_ns: u64,
        cpu_ns: u64,
        written: Vec<u8>,
    },
}

/// A SequenceFile to have Hadoop's `SequenceFile.Writer` write.
#[derive(Debug, Clone)]
pub struct SeqSpec<'a> {
    /// The key class (a Writable or a record class).
    pub key_class: &'a str,
    /// The value class.
    pub value_class: &'a str,
    /// 0 none, 1 record, 2 block.
    pub compression: u8,
    /// The codec class; empty for none.
    pub codec: &'a str,
    /// `Writer.syncInterval` (Hadoop 3 only); -1 for the default.
    pub sync_interval: i32,
    /// `io.seqfile.compress.blocksize`; -1 for the default.
    pub block_size: i32,
    /// Metadata pairs.
    pub metadata: &'a [(Vec<u8>, Vec<u8>)],
    /// How many records.
    pub count: u32,
    /// The keys' `write` bytes, back to back.
    pub keys: &'a [u8],
    /// The values' `write` bytes, back to back.
    pub values: &'a [u8],
}

/// What Hadoop's `SequenceFile.Reader` read from a file (or a split of it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeqContent {
    pub key_class: String,
    pub value_class: String,
    /// The codec's class; empty when uncompressed.
    pub codec_class: String,
    pub compressed: bool,
    pub block: bool,
    /// Sorted by key, as Hadoop's `TreeMap` holds them.
    pub metadata: Vec<(Vec<u8>, Vec<u8>)>,
    /// Each record's key and value bytes.
    pub records: Vec<(Vec<u8>, Vec<u8>)>,
}

#[derive(Debug, Clone, Copy)]
enum Op {
    RoundTrip,
    Compare,
    Generate(u32),
    Signature,
    Stream,
    TypeInfo,
    Filtered,
    Bench,
    SeqWrite,
    SeqRead,
    WriteBench,
}

/// Operations for one run of the driver.
#[derive(Debug, Clone)]
pub struct Batch(Request<Op>);

/// The driver's protocol version, after its magic `HRIP`.
const VERSION: i32 = 1;

impl Default for Batch {
    fn default() -> Self {
        Self::new()
    }
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Self {
        Batch(Request::new(b"HRIP", Some(VERSION)))
    }

    /// How many operations the batch holds.
    pub fn len(&self) -> usize {
        self.0.ops().len()
    }

    /// Whether the batch holds no operation.
    pub fn is_empty(&self) -> bool {
        self.0.ops().is_empty()
    }

    /// Read each present input (binary, CSV, XML) as a record of Java class `class` and
    /// write it back in all three encodings.
    pub fn round_trip(&mut self, class: &str, inputs: [Option<&[u8]>; 3]) {
        self.op_on(1, Op::RoundTrip, class);
        for input in inputs {
            self.input(input);
        }
    }

    /// Read two binary records and compare them with `compareTo`, `equals`, `hashCode`, and
    /// with the registered raw comparator when `raw` (Hadoop's own can spin for minutes on
    /// random nested records, so ask only where its answer is checked).
    pub fn compare(&mut self, class: &str, a: &[u8], b: &[u8], raw: bool) {
        self.op_on(2, Op::Compare, class);
        self.0.blob(a);
        self.0.blob(b);
        self.0.put(&[u8::from(raw)]);
    }

    /// `count` random records of `class` from Java's generator seeded with `seed`.
    pub fn generate(&mut self, class: &str, seed: u64, count: u32) {
        self.op_on(3, Op::Generate(count), class);
        self.0.put(&seed.to_be_bytes());
        self.0.put(&count.to_be_bytes());
    }

    /// `class.signature()`.
    pub fn signature(&mut self, class: &str) {
        self.op_on(4, Op::Signature, class);
    }

    /// Read `count` records of `class` from `input` (encoding 0 binary, 1 CSV, 2 XML) with
    /// one reader, and write them all in each encoding.
    pub fn stream(&mut self, class: &str, encoding: u8, count: u32, input: &[u8]) {
        self.op_on(5, Op::Stream, class);
        self.0.put(&[encoding]);
        self.0.put(&count.to_be_bytes());
        self.0.blob(input);
    }

    /// `class.getTypeInfo()`, written in each encoding.
    pub fn type_info(&mut self, class: &str) {
        self.op_on(6, Op::TypeInfo, class);
    }

    /// Read `count` binary records of class `writer` from `data` as class `reader`, with
    /// `reader.setTypeFilter(writer.getTypeInfo())`, into records that first read
    /// `defaults` (one binary record of `reader`).
    pub fn filtered(
        &mut self,
        reader: &str,
        writer: &str,
        defaults: &[u8],
        data: &[u8],
        count: u32,
    ) {
        self.op_on(7, Op::Filtered, reader);
        self.0.blob(writer.as_bytes());
        self.0.blob(defaults);
        self.0.blob(data);
        self.0.put(&count.to_be_bytes());
    }

    /// Time reading the `count` records of `data` (encoding 0 binary, 1 CSV) into objects of
    /// `class`, and writing them, `rounds` times each.
    pub fn bench(&mut self, class: &str, encoding: u8, count: u32, data: &[u8], rounds: u32) {
        self.op_on(8, Op::Bench, class);
        self.0.put(&[encoding]);
        self.0.put(&count.to_be_bytes());
        self.0.blob(data);
        self.0.put(&rounds.to_be_bytes());
    }

    /// Have Hadoop's `SequenceFile.Writer` write `spec`.
    pub fn seq_write(&mut self, spec: &SeqSpec<'_>) {
        self.op_on(9, Op::SeqWrite, spec.key_class);
        self.0.blob(spec.value_class.as_bytes());
        self.0.put(&[spec.compression]);
        self.0.blob(spec.codec.as_bytes());
        self.0.put(&spec.sync_interval.to_be_bytes());
        self.0.put(&spec.block_size.to_be_bytes());
        let pairs = i32::try_from(spec.metadata.len()).expect("a few metadata pairs");
        self.0.put(&pairs.to_be_bytes());
        for (k, v) in spec.metadata {
            self.0.blob(k);
            self.0.blob(v);
        }
        self.0.put(&spec.count.to_be_bytes());
        self.0.blob(spec.keys);
        self.0.blob(spec.values);
    }

    /// Have Hadoop's `SequenceFile.Reader` read `file`: whole (`split` `None`), or the
    /// records of the split `[start, end)` as `SequenceFileRecordReader` reads them.
    pub fn seq_read(&mut self, file: &[u8], split: Option<(u64, u64)>) {
        self.0.op(10, Op::SeqRead);
        self.0.blob(file);
        let (start, end) = split.map_or((-1, -1), |(s, e)| (s as i64, e as i64));
        self.0.put(&start.to_be_bytes());
        self.0.put(&end.to_be_bytes());
    }

    /// Time writing the `count` records of `binary` (binary records of `class`) with a
    /// writer of `encoding` (0 binary, 1 CSV, 2 XML), `rounds` times; the answer also holds
    /// the bytes written.
    pub fn write_bench(
        &mut self,
        class: &str,
        encoding: u8,
        count: u32,
        binary: &[u8],
        rounds: u32,
    ) {
        self.op_on(11, Op::WriteBench, class);
        self.0.put(&[encoding]);
        self.0.put(&count.to_be_bytes());
        self.0.blob(binary);
        self.0.put(&rounds.to_be_bytes());
    }

    /// The request file's bytes.
    pub fn request(&self) -> &[u8] {
        self.0.bytes()
    }

    /// The answers in a response file to this batch.
    pub fn answers(&self, response: &[u8]) -> Result<Vec<Answer>, String> {
        self.0.answers(response, |r, op| r.answer(*op))
    }

    /// Starts operation `code`, then its first argument, `class`.
    fn op_on(&mut self, code: u8, op: Op, class: &str) {
        self.0.op(code, op);
        self.0.blob(class.as_bytes());
    }

    /// A blob, or -1 for an input not given.
    fn input(&mut self, input: Option<&[u8]>) {
        match input {
            Some(b) => self.0.blob(b),
            None => self.0.put(&(-1i32).to_be_bytes()),
        }
    }
}

/// Reading the driver's answers.
impl Cursor<'_> {
    fn written(&mut self) -> Result<Written, String> {
        match self.byte()? {
            0 => Ok(Ok(self.blob()?)),
            1 => Ok(Err(self.string()?)),
            b => Err(format!("result status {b}")),
        }
    }

    fn three(&mut self) -> Result<[Written; 3], String> {
        Ok([self.written()?, self.written()?, self.written()?])
    }

    fn outcome(&mut self) -> Result<ReadOutcome, String> {
        Ok(match self.byte()? {
            0 => {
                let unread = self.int()?;
                ReadOutcome::Read {
                    unread: u32::try_from(unread).ok(),
                    written: self.three()?,
                }
            }
            1 => ReadOutcome::Failed(self.string()?),
            2 => ReadOutcome::Absent,
            b => return Err(format!("read status {b}")),
        })
    }

    fn seq_content(&mut self) -> Result<SeqContent, String> {
        let key_class = self.string()?;
        let value_class = self.string()?;
        let codec_class = self.string()?;
        let compressed = self.bool()?;
        let block = self.bool()?;
        let pairs = self.int()?;
        let metadata = (0..pairs)
            .map(|_| Ok((self.blob()?, self.blob()?)))
            .collect::<Result<_, String>>()?;
        let count = self.int()?;
        let records = (0..count)
            .map(|_| Ok((self.blob()?, self.blob()?)))
            .collect::<Result<_, String>>()?;
        Ok(SeqContent {
            key_class,
            value_class,
            codec_class,
            compressed,
            block,
            metadata,
            records,
        })
    }

    fn answer(&mut self, op: Op) -> Result<Answer, String> {
        Ok(match op {
            Op::RoundTrip => Answer::RoundTrip(Box::new([
                self.outcome()?,
                self.outcome()?,
                self.outcome()?,
            ])),
            Op::Compare => Answer::Compare(self.or_error(|r| {
                Ok(Comparison {
                    a_to_b: r.int()?,
                    b_to_a: r.int()?,
                    a_equals_b: r.bool()?,
                    b_equals_a: r.bool()?,
                    hash_a: r.int()?,
                    hash_b: r.int()?,
                    raw: match r.byte()? {
                        0 => Some(Ok(r.int()?)),
                        2 => None,
                        _ => Some(Err(r.string()?)),
                    },
                })
            })?),
            Op::Generate(n) => {
                Answer::Generated((0..n).map(|_| self.three()).collect::<Result<_, _>>()?)
            }
            Op::Signature => Answer::Signature(self.string()?),
            Op::Stream => Answer::Stream(self.or_error(Self::three)?),
            Op::TypeInfo => Answer::TypeInfo(self.three()?),
            Op::Filtered => Answer::Filtered(self.or_error(Self::three)?),
            Op::Bench => Answer::Bench {
                read_ns: self.long()?,
                write_ns: self.long()?,
            },
            Op::SeqWrite => Answer::SeqWritten(self.written()?),
            Op::SeqRead => Answer::SeqRead(self.or_error(Self::seq_content)?),
            Op::WriteBench => Answer::WriteBench {
                write_ns: self.long()?,
                cpu_ns: self.long()?,
                written: self.blob()?,
            },
        })
    }
}
