//! SequenceFile reading: arbitrary bytes through the strict and recovering readers, info
//! and the split reader; must never panic or loop. Recovery delivers at least what the
//! strict reader delivered. The records read, written again, read back the same, and the
//! splits of that file partition its records exactly (Hadoop's split rule).
#![no_main]

use std::io::Cursor;

use hadoop_record::framing::seqfile::{
    info, SeqReadOptions, SeqReader, SeqWriteOptions, SeqWriter,
};
use hadoop_record::framing::FrameWrite;
use libfuzzer_sys::fuzz_target;

type Pairs = Vec<(Vec<u8>, Vec<u8>)>;

fn pairs<R: std::io::Read>(reader: &mut SeqReader<R>) -> (Pairs, Option<String>) {
    let mut out = Vec::new();
    while let Some(pair) = reader.next_pair() {
        match pair {
            Ok(p) => out.push((p.key.to_vec(), p.value.to_vec())),
            Err(e) => return (out, Some(e.to_string())),
        }
    }
    (out, None)
}

fuzz_target!(|data: &[u8]| {
    let Some((&control, input)) = data.split_first() else {
        return;
    };
    // A small cap keeps bombs cheap.
    let options = SeqReadOptions::default().with_max_record_size(1 << 20);
    let Ok(mut strict) = SeqReader::with_options(input, options) else {
        assert!(
            info(input, &options).is_err(),
            "a bad header fails info too"
        );
        return;
    };
    let header = strict.header().clone();
    let (records, error) = pairs(&mut strict);
    assert!(
        strict.next_pair().is_none(),
        "nothing after the end or an error"
    );
    if let Some(e) = &error {
        assert!(e.contains("byte "), "an error says where: {e}");
    }

    let mut recovering = SeqReader::with_options(input, options.with_recover(true)).unwrap();
    let (recovered, failure) = pairs(&mut recovering);
    if header.sync.is_some() {
        assert!(
            failure.is_none(),
            "recovery reports damage instead of failing"
        );
        let summary = info(input, &options).expect("in-memory input cannot fail to read");
        assert_eq!(summary.records, recovered.len() as u64);
    }
    assert!(recovered.len() >= records.len());
    assert_eq!(recovered[..records.len()], records[..]);

    // Any split of the input ends (and never panics).
    let len = input.len() as u64;
    let start = u64::from(control) * len / 255;
    if let Ok(split) = SeqReader::split(Cursor::new(input), start, len, options) {
        let _ = split.count();
    }

    // What was read, written again with the same layout, reads back the same, whole and
    // in splits cut where the control byte says.
    let Ok(codec) = header.codec() else { return };
    let mut o = SeqWriteOptions::new(header.value_class.clone())
        .with_key_class(header.key_class.clone())
        .with_compression(header.compression)
        .with_sync(*b"fuzz-sync-marker")
        .with_sync_interval(u64::from(control) * 8)
        .with_block_size(usize::from(control) * 16 + 1);
    if let Some(codec) = codec {
        o = o.with_codec(codec);
    }
    let mut w = SeqWriter::new(Vec::new(), o);
    for (k, v) in &records {
        w.append(k, v).unwrap();
    }
    w.finish().unwrap();
    let file = w.into_inner().expect("writing to memory");
    let (back, error) = pairs(&mut SeqReader::new(&file[..]).unwrap());
    assert!(error.is_none());
    assert_eq!(back, records);
    // Splits partition the records unless the data itself holds the sync entry (as in
    // Hadoop, a reader cannot tell it from a real one).
    let entries = memchr::memmem::find_iter(&file, b"fuzz-sync-marker").count();
    let syncs = info(&file[..], &SeqReadOptions::default())
        .unwrap()
        .syncs
        .len();
    if entries == syncs + 1 {
        let len = file.len() as u64;
        let cut = |n: u8| u64::from(n) * len / 255;
        let mut bounds = [0, cut(control), cut(control.wrapping_mul(7)), len];
        bounds.sort_unstable();
        let mut joined = Vec::new();
        for w in bounds.windows(2) {
            let mut split =
                SeqReader::split(Cursor::new(&file), w[0], w[1], SeqReadOptions::default())
                    .unwrap();
            let (part, error) = pairs(&mut split);
            assert!(error.is_none());
            joined.extend(part);
        }
        assert_eq!(joined, records, "splits partition the records");
    }
});
