//! `framing::split`: for every framing, the byte ranges of any partition of a file (random
//! cut points) deliver exactly the records a whole-file reader delivers, in order, none lost
//! and none doubled; record numbers, where a range knows them, are the file's. Paddle files
//! that carry Paddle files as records, and damaged files read with recovery, included.

mod support;

use std::cell::RefCell;
use std::io::{self, Cursor, Read, Write};
use std::rc::Rc;

use bytes::Bytes;

use hadoop_record::framing::mesos::MesosWriter;
use hadoop_record::framing::paddle::{
    Compressor, Layout, PaddleIndex, PaddleReadOptions, PaddleReader, PaddleWriteOptions,
    PaddleWriter,
};
use hadoop_record::framing::plasma::{
    Compression, FixedWriter, TextOptions, TextWriter, VarReadOptions, VarWriteOptions,
};
use hadoop_record::framing::seqfile::{
    Codec, Compression as SeqCompression, SeqReadOptions, SeqWriteOptions, SeqWriter,
};
use hadoop_record::framing::split::{Framing, Split};
use hadoop_record::framing::v1::{V1ReadOptions, V1Reader};
use hadoop_record::framing::{BufferPool, FrameWrite};
use hadoop_record::{ErrorKind, Format, IntoInnerError};
use proptest::prelude::*;
use proptest::sample::Index;
use support::frames::{paddle_file, paddle_options, payload_mix, var_file, write_frames};

/// What one range delivered: records with their locations' record numbers, or an error.
struct Read1 {
    payloads: Vec<(Vec<u8>, Option<u64>)>,
    error: Option<hadoop_record::Error>,
}

fn read_range(framing: Framing, format: Format, file: &[u8], start: u64, end: u64) -> Read1 {
    read_pooled(framing, format, file, start, end, Input::Read)
}

/// How a range reader gets the file.
#[derive(Clone, Copy)]
enum Input<'a> {
    /// Through `Read`, its buffers its own.
    Read,
    /// Through `Read`, its buffers from the pool.
    Pooled(&'a BufferPool),
    /// Held in memory (`open_range_in_memory`), its buffers from the pool.
    InMemory(&'a BufferPool),
}

/// [`read_range`], the file given to the reader as `input` says.
fn read_pooled(
    framing: Framing,
    format: Format,
    file: &[u8],
    start: u64,
    end: u64,
    input: Input,
) -> Read1 {
    let cursor = Cursor::new(file);
    let split = match input {
        Input::Read => framing.open_range(format, cursor, start..end),
        Input::Pooled(pool) => framing.open_range_pooled(format, cursor, start..end, pool),
        Input::InMemory(pool) => {
            let file = Bytes::copy_from_slice(file);
            framing.open_range_in_memory(format, file, start..end, pool)
        }
    };
    let mut out = Read1 {
        payloads: Vec::new(),
        error: None,
    };
    let split = match split {
        Ok(split) => split,
        Err(e) => {
            out.error = Some(e);
            return out;
        }
    };
    match split {
        Split::Payloads(mut payloads) => {
            while let Some(p) = payloads.next_payload() {
                match p {
                    Ok(bytes) => {
                        let bytes = bytes.to_vec();
                        out.payloads.push((bytes, payloads.location().record));
                    }
                    Err(e) => {
                        out.error = Some(e);
                        break;
                    }
                }
            }
        }
        Split::Stream(mut reader) => {
            let mut bytes = Vec::new();
            reader.read_to_end(&mut bytes).unwrap();
            out.payloads.push((bytes, Some(0)));
        }
    }
    out
}

/// Cut points in `0..=len`, sorted, as ranges covering the file (the last runs past it).
fn ranges(len: usize, cuts: &[Index]) -> Vec<(u64, u64)> {
    let mut points: Vec<u64> = cuts.iter().map(|i| i.index(len + 1) as u64).collect();
    points.push(0);
    points.sort_unstable();
    points.dedup();
    let mut out: Vec<(u64, u64)> = points.windows(2).map(|w| (w[0], w[1])).collect();
    out.push((*points.last().unwrap(), len as u64 + 7));
    out
}

/// Reads every range and checks that together they give `whole`, with file record numbers
/// where known. The ranges take their buffers from one pool, in turn: each reads into
/// the one before's buffer, whose bytes must not show through. Every other range reads the
/// file held in memory, and must deliver what a reader through `Read` delivers.
fn check_partition(
    framing: Framing,
    format: Format,
    file: &[u8],
    cuts: &[Index],
    whole: &[Vec<u8>],
) -> Result<(), TestCaseError> {
    let mut got = Vec::new();
    let pool = BufferPool::new(1);
    for (k, (start, end)) in ranges(file.len(), cuts).into_iter().enumerate() {
        let input = if k % 2 == 0 {
            Input::Pooled(&pool)
        } else {
            Input::InMemory(&pool)
        };
        let r = read_pooled(framing, format, file, start, end, input);
        prop_assert!(r.error.is_none(), "{framing} {start}..{end}: {:?}", r.error);
        for (payload, number) in r.payloads {
            if let Some(n) = number {
                prop_assert_eq!(n, got.len() as u64, "{} record number", framing);
            }
            got.push(payload);
        }
    }
    prop_assert_eq!(got, whole, "{}", framing);
    Ok(())
}

/// A record, sometimes made of the bytes of the framings' marks (chunk magic, v1 lines).
fn payload() -> impl Strategy<Value = Vec<u8>> {
    payload_mix(4, 40, b"\x04\x03\x02\x01:+\nT9", 300, 250..700)
}

fn cuts() -> impl Strategy<Value = Vec<Index>> {
    prop::collection::vec(any::<Index>(), 0..8)
}

fn paddle_settings() -> impl Strategy<Value = PaddleWriteOptions> {
    paddle_options(prop_oneof![Just(0u64), 1u64..300], 1..6)
}

/// Up to 29 records in a Paddle file written with `paddle_settings`, and where to cut it.
fn paddle_cuts() -> impl Strategy<Value = (Vec<Vec<u8>>, PaddleWriteOptions, Vec<Index>)> {
    (
        prop::collection::vec(payload(), 0..30),
        paddle_settings(),
        cuts(),
    )
}

/// A RecordIO v1 file: records of a few types cut into partial segments of at most
/// `segment` bytes, with reserved records among them; and the payloads a reader delivers.
fn v1_file(records: &[(u8, Vec<u8>, bool)], segment: usize) -> (Vec<u8>, Vec<Vec<u8>>) {
    let mut file = b"RecordIO v1.0\nX-Note: split test\n\n".to_vec();
    let mut delivered = Vec::new();
    for (kind, payload, reserved) in records {
        let name = if *reserved {
            ".idx".to_string()
        } else {
            format!("T{kind}")
        };
        let pieces: Vec<&[u8]> = if payload.is_empty() {
            vec![&[]]
        } else {
            payload.chunks(segment.max(1)).collect()
        };
        for (i, piece) in pieces.iter().enumerate() {
            let last = i + 1 == pieces.len();
            let mark = if last { ':' } else { '+' };
            file.extend_from_slice(format!("{name}:{}{mark}", piece.len()).as_bytes());
            file.extend_from_slice(piece);
            file.push(b'\n');
        }
        if !reserved {
            delivered.push(payload.clone());
        }
    }
    (file, delivered)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn paddle_ranges_partition_the_records(
        (records, options, cuts) in paddle_cuts(),
    ) {
        let file = paddle_file(&records, options);
        let framing = Framing::Paddle(PaddleReadOptions::default().with_layout(options.layout()));
        check_partition(framing, Format::Binary, &file, &cuts, &records)?;
    }

    /// Splits that take whole chunks (as remote files are read) partition the records too,
    /// each chunk's records all delivered by the split its header starts in.
    #[test]
    fn paddle_ranges_of_whole_chunks_partition_the_records(
        (records, options, cuts) in paddle_cuts(),
    ) {
        let file = paddle_file(&records, options);
        let read = PaddleReadOptions::default().with_layout(options.layout()).with_whole_chunks(true);
        check_partition(Framing::Paddle(read), Format::Binary, &file, &cuts, &records)?;
        // Each split's records are whole chunks: those whose headers start in it.
        let index = PaddleIndex::load(&mut Cursor::new(&file), &read).unwrap();
        for (start, end) in ranges(file.len(), &cuts) {
            let r = read_range(Framing::Paddle(read), Format::Binary, &file, start, end);
            let owned: u64 = index.chunks().iter()
                .filter(|c| (start..end).contains(&c.offset))
                .map(|c| u64::from(c.header.num_records))
                .sum();
            prop_assert_eq!(r.payloads.len() as u64, owned, "{}..{}", start, end);
        }
    }

    /// With recovery, ranges of a damaged file deliver what a whole-file recovering reader
    /// delivers.
    #[test]
    fn recovering_paddle_ranges_agree_with_the_whole_file_reader(
        records in prop::collection::vec(payload(), 1..20),
        options in paddle_settings(),
        damage in prop::collection::vec((any::<Index>(), any::<u8>()), 1..4),
        cuts in cuts(),
    ) {
        let mut file = paddle_file(&records, options);
        for (at, xor) in &damage {
            let i = at.index(file.len());
            file[i] ^= xor | 1;
        }
        let read = PaddleReadOptions::default().with_layout(options.layout()).with_recover(true);
        let whole: Vec<Vec<u8>> = PaddleReader::with_options(&file[..], read)
            .collect::<Result<_, _>>()
            .unwrap();
        let mut got = Vec::new();
        // Each range reads into the buffer the one before left (see `check_partition`).
        let pool = BufferPool::new(1);
        for (k, (start, end)) in ranges(file.len(), &cuts).into_iter().enumerate() {
            let input = if k % 2 == 0 { Input::Pooled(&pool) } else { Input::InMemory(&pool) };
            let r = read_pooled(Framing::Paddle(read), Format::Binary, &file, start, end, input);
            prop_assert!(r.error.is_none());
            got.extend(r.payloads.into_iter().map(|p| p.0));
        }
        prop_assert_eq!(got, whole);
    }

    /// A damaged or cut-off file read held in memory gives, range by range, what a reader
    /// through `Read` gives: the same records, and the same error.
    #[test]
    fn paddle_in_memory_ranges_read_damage_as_read_ranges_do(
        records in prop::collection::vec(payload(), 1..20),
        options in paddle_settings(),
        damage in prop::collection::vec((any::<Index>(), any::<u8>()), 0..3),
        cut in any::<Index>(),
        recover in any::<bool>(),
        cuts in cuts(),
    ) {
        let mut file = paddle_file(&records, options);
        for (at, xor) in &damage {
            let i = at.index(file.len());
            file[i] ^= xor | 1;
        }
        file.truncate(cut.index(file.len() + 1));
        let framing = Framing::Paddle(PaddleReadOptions::default().with_layout(options.layout()).with_recover(recover));
        let pool = BufferPool::new(1);
        for (start, end) in ranges(file.len(), &cuts) {
            let read = read_pooled(framing, Format::Binary, &file, start, end, Input::Pooled(&pool));
            let held = read_pooled(framing, Format::Binary, &file, start, end, Input::InMemory(&pool));
            prop_assert_eq!(&held.payloads, &read.payloads, "{}..{}", start, end);
            let message = |r: &Read1| r.error.as_ref().map(ToString::to_string);
            prop_assert_eq!(message(&held), message(&read), "{}..{}", start, end);
        }
    }

    #[test]
    fn v1_ranges_partition_the_records(
        records in prop::collection::vec((0u8..3, payload(), prop::bool::weighted(0.15)), 0..25),
        segment in 1usize..80,
        cuts in cuts(),
    ) {
        let (file, delivered) = v1_file(&records, segment);
        let whole: Vec<Vec<u8>> = V1Reader::new(&file[..]).unwrap().payloads()
            .collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(&whole, &delivered);
        check_partition(Framing::V1(V1ReadOptions::default()), Format::Binary, &file, &cuts, &whole)?;
    }

    #[test]
    fn plasma_ranges_partition_the_records(
        records in prop::collection::vec(payload(), 0..30),
        chunk_size in 64u32..300,
        snappy in any::<bool>(),
        cuts in cuts(),
    ) {
        let compression = if snappy { Compression::Snappy } else { Compression::None };
        let var = var_file(&records, VarWriteOptions::default().with_chunk_size(chunk_size).with_compression(compression));
        check_partition(Framing::PlasmaVar(VarReadOptions::default()), Format::Binary, &var, &cuts, &records)?;

        let lines: Vec<Vec<u8>> = records.iter()
            .map(|r| r.iter().copied().filter(|&b| b != b'\n').collect())
            .collect();
        let text = write_frames(TextWriter::new(Vec::new()), &lines).into_inner().unwrap();
        check_partition(Framing::PlasmaText(TextOptions::default()), Format::Csv, &text, &cuts, &lines)?;

        let fixed: Vec<Vec<u8>> = records.iter().map(|r| {
            let mut r = r.clone();
            r.resize(7, b'x');
            r
        }).collect();
        let file = write_frames(FixedWriter::new(Vec::new(), 7).unwrap(), &fixed).into_inner().unwrap();
        check_partition(Framing::PlasmaFixed(7), Format::Binary, &file, &cuts, &fixed)?;
    }

    /// SequenceFiles of every compression type, with sync entries far more often than
    /// Hadoop's interval so that small files have many: ranges begin at sync entries.
    #[test]
    fn seqfile_ranges_partition_the_records(
        records in prop::collection::vec(payload(), 0..40),
        compression in prop::sample::select(vec![
            SeqCompression::None, SeqCompression::Record, SeqCompression::Block,
        ]),
        sync_interval in 1u64..400,
        block_size in 1usize..600,
        cuts in cuts(),
    ) {
        let codec = if compression == SeqCompression::None { None } else { Some(Codec::Deflate) };
        let mut options = SeqWriteOptions::new("m.R")
            .with_compression(compression)
            .with_sync_interval(sync_interval)
            .with_block_size(block_size);
        if let Some(codec) = codec {
            options = options.with_codec(codec);
        }
        let file = write_frames(SeqWriter::new(Vec::new(), options), &records).into_inner().unwrap();
        check_partition(Framing::SeqFile(SeqReadOptions::default()), Format::Binary, &file, &cuts, &records)?;
    }

    /// Unsplittable framings: the range at 0 reads everything, the others nothing.
    #[test]
    fn mesos_and_plain_streams_are_read_by_the_first_range(
        records in prop::collection::vec(payload(), 0..20),
        cuts in cuts(),
    ) {
        let file = write_frames(MesosWriter::new(Vec::new()), &records).into_inner().unwrap();
        let framing: Framing = "mesos".parse().unwrap();
        check_partition(framing, Format::Binary, &file, &cuts, &records)?;
        prop_assert!(!framing.is_splittable(Format::Binary));

        let plain = records.concat();
        check_partition(Framing::None, Format::Xml, &plain, &cuts, std::slice::from_ref(&plain))?;
    }

    /// A plain CSV stream splits at line ends: each payload is one line with its LF (the
    /// last may lack it), and the ranges together deliver every line once.
    #[test]
    fn plain_csv_ranges_are_whole_lines(
        text in prop::collection::vec(prop::sample::select(b"ab,\r\n".to_vec()), 0..300),
        cuts in cuts(),
    ) {
        let lines: Vec<Vec<u8>> = text.split_inclusive(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        check_partition(Framing::None, Format::Csv, &text, &cuts, &lines)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Records that are Paddle files themselves carry valid chunks (magic, header, CRC) in
    /// their payloads: a range that starts inside them must not take them for the file's.
    #[test]
    fn paddle_ranges_ignore_chunk_images_inside_records(
        inner in prop::collection::vec(payload(), 1..6),
        outer in prop::collection::vec(payload(), 0..6),
        layout in prop::sample::select(vec![Layout::Go, Layout::Cpp]),
        cuts in cuts(),
    ) {
        let options = PaddleWriteOptions::default().with_layout(layout).with_max_chunk_size(40);
        let image = paddle_file(&inner, options);
        let mut records = outer.clone();
        records.insert(outer.len() / 2, image.clone());
        records.push(image);
        let file = paddle_file(&records, options);
        let framing = Framing::Paddle(PaddleReadOptions::default().with_layout(layout));
        check_partition(framing, Format::Binary, &file, &cuts, &records)?;
        // Every single-byte start lands on the right answer too.
        for start in 0..file.len() as u64 {
            let a = read_range(framing, Format::Binary, &file, 0, start);
            let b = read_range(framing, Format::Binary, &file, start, u64::MAX);
            let mut got: Vec<Vec<u8>> = a.payloads.into_iter().map(|p| p.0).collect();
            got.extend(b.payloads.into_iter().map(|p| p.0));
            prop_assert_eq!(&got, &records, "cut at {}", start);
        }
    }
}

#[test]
fn framing_names_round_trip() {
    for name in [
        "none",
        "mesos",
        "paddle",
        "paddle-cpp",
        "plasma-text",
        "plasma-fixed:3",
        "plasma-var",
        "v1",
        "seqfile",
    ] {
        assert_eq!(name.parse::<Framing>().unwrap().to_string(), name);
    }
    let e = "padle".parse::<Framing>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown framing `padle` (expected one of none, mesos, paddle, paddle-cpp, plasma-text, plasma-fixed:N, plasma-var, v1, seqfile)"
    );
}

/// A strict range reader reports damage in the header chain before its range (the records
/// it would own cannot be found past it) with the offset of the damaged chunk.
#[test]
fn strict_paddle_ranges_report_a_broken_chain() {
    let options = PaddleWriteOptions::default().with_max_chunk_size(4);
    let records: Vec<&[u8]> = vec![b"aaaa", b"bbbb", b"cccc"];
    let mut file = paddle_file(&records, options);
    file[28] = 0; // the second chunk's magic
    let framing = Framing::Paddle(PaddleReadOptions::default());
    let first = read_range(framing, Format::Binary, &file, 0, 10);
    assert_eq!(first.payloads.len(), 1);
    assert!(first.error.is_none());
    let e = Framing::Paddle(PaddleReadOptions::default())
        .open_range(Format::Binary, Cursor::new(&file), 30..60)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "byte 28: damaged chunk: bad magic number 0x01020300 (expected 0x01020304): give \
         --recover to skip the damage and read on"
    );
}

/// Every framing writer, dropped without `finish`, writes what it holds (a pending chunk or
/// block, a header, a final chunk), as `BufWriter` does; and `into_inner` writes it and gives
/// the writer back. Either way every record reads back, for no records too.
#[test]
fn writers_write_what_is_pending_when_dropped_or_taken_back() {
    use hadoop_record::framing::plasma::VarWriter;
    use hadoop_record::framing::v1::{FileHeader, V1FrameWriter, V1WriteOptions};

    // Text-safe records of one size, so that every framing can carry them.
    let some: Vec<Vec<u8>> = (0..40u8).map(|i| vec![b'a' + i % 26; 48]).collect();
    macro_rules! both_ways {
        ($framing:expr, |$w:ident| $make:expr) => {
            for records in [&some[..], &[]] {
                let write = |writer: &mut dyn FrameWrite| {
                    for r in records {
                        writer.write_payload(r).unwrap();
                    }
                };
                let mut dropped = Vec::new();
                {
                    let $w = &mut dropped;
                    write(&mut $make);
                }
                let $w = Vec::new();
                let mut writer = $make;
                write(&mut writer);
                let taken = writer.into_inner().unwrap();
                let framing: Framing = $framing;
                for (how, file) in [("dropped", &dropped), ("into_inner", &taken)] {
                    let read =
                        read_range(framing.clone(), Format::Binary, file, 0, file.len() as u64);
                    assert!(read.error.is_none(), "{framing} {how}: {:?}", read.error);
                    let payloads: Vec<Vec<u8>> =
                        read.payloads.into_iter().map(|(p, _)| p).collect();
                    assert_eq!(payloads, records, "{framing} {how}");
                }
                assert_eq!(dropped, taken, "{}", $framing);
            }
        };
    }
    both_ways!(Framing::Mesos(Default::default()), |w| MesosWriter::new(w));
    both_ways!(Framing::Paddle(PaddleReadOptions::default()), |w| {
        PaddleWriter::with_options(
            w,
            PaddleWriteOptions::default().with_compressor(Compressor::Snappy),
        )
    });
    both_ways!(Framing::SeqFile(SeqReadOptions::default()), |w| {
        let options = SeqWriteOptions::new("x.Y")
            .with_compression(SeqCompression::Block)
            .with_codec(Codec::Deflate)
            .with_sync([7; 16]);
        SeqWriter::new(w, options)
    });
    both_ways!(Framing::SeqFile(SeqReadOptions::default()), |w| {
        SeqWriter::new(w, SeqWriteOptions::new("x.Y").with_sync([7; 16]))
    });
    both_ways!(Framing::PlasmaVar(VarReadOptions::default()), |w| {
        VarWriter::new(w, VarWriteOptions::default().with_chunk_size(256)).unwrap()
    });
    both_ways!(Framing::PlasmaText(TextOptions::default()), |w| {
        TextWriter::new(w)
    });
    both_ways!(Framing::PlasmaFixed(48), |w| FixedWriter::new(w, 48)
        .unwrap());
    both_ways!(Framing::V1(V1ReadOptions::default()), |w| {
        V1FrameWriter::new(w, "Rec", FileHeader::new(), V1WriteOptions::default()).unwrap()
    });
}

/// What a [`Flaky`] sink holds: the bytes it took, the calls made (`write` and `flush`),
/// and the call that fails (counted from 1; 0 for none).
#[derive(Debug, Default)]
struct FlakyState {
    bytes: Vec<u8>,
    calls: u64,
    fail_at: u64,
}

/// A sink, shared with the test, that fails one call with "disk full" (as a full disk
/// does, until something is deleted) and takes every other one.
#[derive(Clone, Debug, Default)]
struct Flaky(Rc<RefCell<FlakyState>>);

impl Flaky {
    fn failing_at(call: u64) -> Self {
        let sink = Flaky::default();
        sink.0.borrow_mut().fail_at = call;
        sink
    }

    fn call(&self) -> io::Result<()> {
        let mut state = self.0.borrow_mut();
        state.calls += 1;
        if state.calls == state.fail_at {
            return Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"));
        }
        Ok(())
    }

    /// The bytes taken and the calls made so far.
    fn seen(&self) -> (Vec<u8>, u64) {
        let state = self.0.borrow();
        (state.bytes.clone(), state.calls)
    }
}

impl Write for Flaky {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.call()?;
        self.0.borrow_mut().bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.call()
    }
}

/// Checks that the writers `make` builds fail loudly when the sink fails its N-th call,
/// for every N a healthy sink sees: after a failed `write_payload` or `finish`, dropping
/// the writer calls the sink no more; a failed `into_inner` returns an error that names
/// the method and the sink's error and holds the writer, which (dropped) calls the sink no
/// more or (taken again, after a failed call that wrote nothing) writes the whole file.
/// `what` is the message of that error before the sink's.
fn check_fails_loudly<F: FrameWrite>(
    name: &str,
    what: &str,
    records: &[Vec<u8>],
    make: impl Fn(Flaky) -> F,
    into_inner: fn(F) -> Result<Flaky, IntoInnerError<F>>,
) {
    let write = |w: &mut F| records.iter().try_for_each(|r| w.write_payload(r));
    let sink = Flaky::default();
    let mut writer = make(sink.clone());
    write(&mut writer).unwrap();
    let (_, writing) = sink.seen();
    drop(into_inner(writer).unwrap());
    let (file, calls) = sink.seen();
    assert!(calls > writing, "{name}: into_inner calls the sink");
    for n in 1..=calls {
        let at = format!(
            "{name}, {} records, call {n} of {calls} failing",
            records.len()
        );
        let sink = Flaky::failing_at(n);
        let mut writer = make(sink.clone());
        let e = write(&mut writer)
            .and_then(|()| writer.finish())
            .unwrap_err();
        assert!(e.to_string().ends_with("disk full"), "{at}: {e}");
        let seen = sink.seen();
        drop(writer);
        assert_eq!(sink.seen(), seen, "{at}: dropped after an error");
        if n <= writing {
            continue;
        }
        let sink = Flaky::failing_at(n);
        let mut writer = make(sink.clone());
        write(&mut writer).unwrap();
        let e = into_inner(writer).unwrap_err();
        assert_eq!(e.error().kind(), ErrorKind::Io, "{at}");
        let message = e.to_string();
        assert_eq!(message, format!("{what}: disk full"), "{at}");
        let source = std::error::Error::source(&e).map(ToString::to_string);
        assert_eq!(source.as_ref(), Some(&message), "{at}");
        let writer = e.into_inner();
        if n == writing + 1 {
            drop(into_inner(writer).unwrap());
            assert_eq!(sink.seen().0, file, "{at}: taken again");
        } else {
            let seen = sink.seen();
            drop(writer);
            assert_eq!(sink.seen(), seen, "{at}: dropped after into_inner failed");
        }
    }
}

/// Every framing writer fails loudly (see [`check_fails_loudly`]): a failed output is not
/// closed into a well-formed, shorter file by `drop`, and `into_inner` gives the writer
/// back with the error.
#[test]
fn writers_that_failed_write_nothing_more_and_give_the_writer_back() {
    use hadoop_record::framing::plasma::VarWriter;
    use hadoop_record::framing::v1::{FileHeader, V1FrameWriter, V1WriteOptions, V1Writer};

    let some: Vec<Vec<u8>> = (0..40u8).map(|i| vec![b'a' + i % 26; 48]).collect();
    for records in [&some[..], &[]] {
        check_fails_loudly(
            "mesos",
            "MesosWriter::into_inner failed flushing the writer",
            records,
            MesosWriter::new,
            MesosWriter::into_inner,
        );
        check_fails_loudly(
            "paddle",
            "PaddleWriter::into_inner failed writing the pending chunk",
            records,
            |w| {
                let options = PaddleWriteOptions::default()
                    .with_compressor(Compressor::Snappy)
                    .with_max_chunk_size(1000);
                PaddleWriter::with_options(w, options)
            },
            PaddleWriter::into_inner,
        );
        check_fails_loudly(
            "seqfile-block",
            "SeqWriter::into_inner failed writing the header and the pending block",
            records,
            |w| {
                let options = SeqWriteOptions::new("x.Y")
                    .with_compression(SeqCompression::Block)
                    .with_codec(Codec::Deflate)
                    .with_sync([7; 16]);
                SeqWriter::new(w, options)
            },
            SeqWriter::into_inner,
        );
        check_fails_loudly(
            "seqfile",
            "SeqWriter::into_inner failed writing the header and the pending block",
            records,
            |w| SeqWriter::new(w, SeqWriteOptions::new("x.Y").with_sync([7; 16])),
            SeqWriter::into_inner,
        );
        check_fails_loudly(
            "plasma-var",
            "VarWriter::into_inner failed writing the final chunk",
            records,
            |w| VarWriter::new(w, VarWriteOptions::default().with_chunk_size(256)).unwrap(),
            VarWriter::into_inner,
        );
        check_fails_loudly(
            "plasma-text",
            "TextWriter::into_inner failed writing the buffered records",
            records,
            TextWriter::new,
            TextWriter::into_inner,
        );
        check_fails_loudly(
            "plasma-fixed",
            "FixedWriter::into_inner failed writing the buffered records",
            records,
            |w| FixedWriter::new(w, 48).unwrap(),
            FixedWriter::into_inner,
        );
        check_fails_loudly(
            "v1",
            "V1Writer::into_inner failed writing the header and the buffered records",
            records,
            |w| V1FrameWriter::new(w, "Rec", FileHeader::new(), V1WriteOptions::default()).unwrap(),
            V1FrameWriter::into_inner,
        );
    }

    // A refused record is an error too: the writer dropped after it writes no header.
    let sink = Flaky::default();
    let mut writer =
        V1Writer::new(sink.clone(), FileHeader::new(), V1WriteOptions::default()).unwrap();
    writer.write_record(".index", b"0").unwrap_err();
    drop(writer);
    assert_eq!(sink.seen(), (Vec::new(), 0));
}

/// The framing `detect` tells from the first bytes of each fixture: Paddle (both layouts),
/// SequenceFiles of every codec and RecordIO v1 by name; Mesos streams, plain records
/// (binary, CSV, XML) and an empty file as none.
#[test]
fn every_fixture_is_detected_as_its_framing_and_nothing_else_is_guessed() {
    use hadoop_record::framing::detect::{detect, DETECT_LEN};
    use hadoop_record::framing::v1::{FileHeader, V1WriteOptions, V1Writer};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
    let first = |path: &std::path::Path| {
        let bytes = std::fs::read(path).unwrap();
        bytes[..bytes.len().min(DETECT_LEN)].to_vec()
    };
    let files = |dir: &str, ext: &str| -> Vec<std::path::PathBuf> {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{dir}/*.{ext}");
        files
    };
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for (dir, ext) in [
        ("paddle", "recordio"),
        ("seqfile", "seq"),
        ("v1", "rio"),
        ("mesos", "recordio"),
        ("seqfile", "bin"),
        ("hadoop-java/data", "bin"),
        ("hadoop-java/data", "csv"),
        ("hadoop-java/data", "xml"),
    ] {
        for path in files(dir, ext) {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let want = match dir {
                "paddle" if name == "empty_file.recordio" => None,
                "paddle" if name.starts_with("cpp_layout") => Some("paddle-cpp"),
                "paddle" => Some("paddle"),
                "seqfile" if ext == "seq" => Some("seqfile"),
                "v1" => Some("v1"),
                _ => None,
            };
            let found = detect(&first(&path)).map(|d| d.name());
            assert_eq!(found, want, "{dir}/{name}");
            *seen.entry(format!("{found:?}")).or_default() += 1;
        }
    }
    assert_eq!(seen["Some(\"paddle\")"], 9);
    assert_eq!(seen["Some(\"paddle-cpp\")"], 1);
    assert_eq!(seen["Some(\"seqfile\")"], 11);
    assert_eq!(seen["Some(\"v1\")"], 9);

    // What the writers here write, every framing: those with a header are found, the
    // others (Mesos, plasma-text, plasma-fixed) are not guessed.
    let records: Vec<&[u8]> = vec![b"first", b"", b"third record"];
    let mut v1 = V1Writer::new(Vec::new(), FileHeader::new(), V1WriteOptions::default()).unwrap();
    for r in &records {
        v1.write_record("R", r).unwrap();
    }
    let written: Vec<(Vec<u8>, Option<&str>)> = vec![
        (
            paddle_file(&records, PaddleWriteOptions::default()),
            Some("paddle"),
        ),
        (
            paddle_file(&records, PaddleWriteOptions::cpp()),
            Some("paddle-cpp"),
        ),
        (
            var_file(&records, VarWriteOptions::default()),
            Some("plasma-var"),
        ),
        (
            write_frames(
                SeqWriter::new(Vec::new(), SeqWriteOptions::new("a.B")),
                &records,
            )
            .into_inner()
            .unwrap(),
            Some("seqfile"),
        ),
        (v1.into_inner().unwrap(), Some("v1")),
        (
            write_frames(MesosWriter::new(Vec::new()), &records)
                .into_inner()
                .unwrap(),
            None,
        ),
        (
            write_frames(TextWriter::new(Vec::new()), &[&b"a,1"[..], b"b,2"])
                .into_inner()
                .unwrap(),
            None,
        ),
        (
            write_frames(FixedWriter::new(Vec::new(), 4).unwrap(), &[&b"abcd"[..]])
                .into_inner()
                .unwrap(),
            None,
        ),
    ];
    for (bytes, want) in written {
        assert_eq!(detect(&bytes).map(|d| d.name()), want, "{bytes:02x?}");
    }
}

/// Strict readers' errors say what to do when something can be done: `--recover` for damage
/// with input after it, `--max-record-size` for a chunk over the limit, `paddle-cpp` for the
/// C++ layout read as Go's (and the reverse); the recovering readers' reports do not.
#[test]
fn strict_errors_name_their_remedy() {
    let paddle_fixture = |name: &str| {
        std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../tests/fixtures/paddle")
                .join(name),
        )
        .unwrap()
    };
    let error = |bytes: &[u8], options: PaddleReadOptions| {
        PaddleReader::with_options(bytes, options)
            .find_map(Result::err)
            .map(|e| e.to_string())
    };
    let recover = ": give --recover to skip the damage and read on";
    let damaged = paddle_fixture("corrupt_checksum.recordio");
    let e = error(&damaged, PaddleReadOptions::default()).unwrap();
    assert!(
        e.contains("checksum mismatch") && e.ends_with(recover),
        "{e}"
    );
    // Recovering, the skip report carries no hint.
    let mut reader = PaddleReader::with_options(
        &damaged[..],
        PaddleReadOptions::default().with_recover(true),
    );
    assert!(reader.by_ref().all(|r| r.is_ok()));
    assert!(!reader.skipped()[0].to_string().contains("--recover"));

    let cpp = paddle_fixture("cpp_layout_nocomp.recordio");
    let e = error(&cpp, PaddleReadOptions::default()).unwrap();
    assert!(
        e.starts_with("record 0, byte 0: unknown compressor id ")
            && e.ends_with(
                ", but the chunk header reads well in Paddle's C++ layout: read the file as \
                 paddle-cpp"
            ),
        "{e}"
    );
    let go = paddle_fixture("single_chunk_nocomp.recordio");
    let e = error(&go, PaddleReadOptions::default().with_layout(Layout::Cpp)).unwrap();
    assert!(
        e.ends_with("reads well in Paddle's Go layout: read the file as paddle"),
        "{e}"
    );
    let e = error(&go, PaddleReadOptions::default().with_max_chunk_bytes(8)).unwrap();
    assert!(
        e.ends_with(": give --max-record-size to raise the limit"),
        "{e}"
    );
    // The first chunk's magic wrong: not a Paddle file, which recovery does not help.
    let e = error(
        b"SEQ\x06 and more bytes than a header",
        PaddleReadOptions::default(),
    )
    .unwrap();
    assert!(e.ends_with("(expected 0x01020304)"), "{e}");

    // plasma-var: a payload checksum.
    let mut var = var_file(
        &records_of(40, 30),
        VarWriteOptions::default().with_chunk_size(256),
    );
    var[300] ^= 1;
    let e = hadoop_record::framing::plasma::VarReader::new(&var[..])
        .find_map(Result::err)
        .unwrap();
    assert!(
        e.message().starts_with("payload checksum mismatch") && e.message().ends_with(recover),
        "{e}"
    );

    // seqfile: a block that does not decompress.
    let options = SeqWriteOptions::new("a.B")
        .with_compression(SeqCompression::Block)
        .with_codec(Codec::Deflate)
        .with_block_size(256);
    let mut seq = write_frames(SeqWriter::new(Vec::new(), options), &records_of(200, 30))
        .into_inner()
        .unwrap();
    let middle = seq.len() / 2;
    for b in &mut seq[middle..middle + 8] {
        *b ^= 0x5a;
    }
    let e = hadoop_record::framing::seqfile::SeqReader::new(&seq[..])
        .unwrap()
        .find_map(Result::err)
        .unwrap();
    assert!(e.message().ends_with(recover), "{e}");
}

/// `n` records of `len` bytes, each different.
fn records_of(n: usize, len: usize) -> Vec<Vec<u8>> {
    (0..n).map(|i| vec![b'a' + (i % 26) as u8; len]).collect()
}
