//! Property tests for RecordIO v1: write → read for random records, headers and segment
//! limits; the codec blind to how input is cut; garbage never panics and both readers agree.

use bytes::BytesMut;
use hadoop_record::framing::v1::{
    FileHeader, TypedRecord, V1Codec, V1ReadOptions, V1Reader, V1WriteOptions, V1Writer,
};
use proptest::prelude::*;
use tokio_util::codec::Decoder;

fn record() -> impl Strategy<Value = TypedRecord> {
    (
        prop_oneof![
            Just("A".to_string()),
            Just("Log".to_string()),
            "[A-Za-z0-9]{1,12}"
        ],
        prop::collection::vec(any::<u8>(), 0..300),
    )
        .prop_map(|(t, p)| TypedRecord::new(t, p))
}

fn header() -> impl Strategy<Value = FileHeader> {
    prop::collection::vec(
        (
            prop_oneof![
                Just("Date".to_string()),
                Just("X-Uh-Note".to_string()),
                "[A-Z][a-z]{0,5}"
            ],
            "[ -~]{0,20}".prop_map(|v| v.trim_matches(' ').to_string()),
        ),
        0..5,
    )
    .prop_map(|pairs| {
        let mut h = FileHeader::new();
        for (k, v) in pairs {
            h.push(k, v).unwrap();
        }
        h
    })
}

fn write(header: &FileHeader, records: &[TypedRecord], max_segment_len: u64) -> Vec<u8> {
    let options = V1WriteOptions::default().with_max_segment_len(max_segment_len);
    let mut w = V1Writer::new(Vec::new(), header.clone(), options).unwrap();
    for r in records {
        w.write_record(&r.record_type, &r.payload).unwrap();
    }
    w.into_inner().unwrap()
}

/// Records and the error message, through the codec fed in pieces cut by `cuts`.
fn decode(file: &[u8], cuts: &[usize]) -> (Vec<TypedRecord>, Option<String>) {
    let mut codec = V1Codec::default();
    let mut buf = BytesMut::new();
    let mut records = Vec::new();
    let mut rest = file;
    let mut cuts = cuts.iter().copied().cycle();
    while !rest.is_empty() {
        let n = cuts.next().unwrap_or(rest.len()).clamp(1, rest.len());
        buf.extend_from_slice(&rest[..n]);
        rest = &rest[n..];
        loop {
            match codec.decode(&mut buf) {
                Ok(Some(r)) => records.push(r),
                Ok(None) => break,
                Err(e) => return (records, Some(e.to_string())),
            }
        }
    }
    loop {
        match codec.decode_eof(&mut buf) {
            Ok(Some(r)) => records.push(r),
            Ok(None) => return (records, None),
            Err(e) => return (records, Some(e.to_string())),
        }
    }
}

fn read(file: &[u8]) -> (Vec<TypedRecord>, Option<String>) {
    match V1Reader::with_options(file, V1ReadOptions::default()) {
        Err(e) => (vec![], Some(e.to_string())),
        Ok(reader) => {
            let mut records = Vec::new();
            for r in reader {
                match r {
                    Ok(r) => records.push(r),
                    Err(e) => return (records, Some(e.to_string())),
                }
            }
            (records, None)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn write_then_read_gives_the_records_and_header(
        header in header(),
        records in prop::collection::vec(record(), 0..20),
        max_segment_len in prop_oneof![1u64..20, Just(2_147_483_647u64)],
        cuts in prop::collection::vec(1usize..40, 1..10),
    ) {
        let file = write(&header, &records, max_segment_len);
        let reader = V1Reader::new(&file[..]).unwrap();
        prop_assert_eq!(reader.header(), &header);
        let got: Vec<TypedRecord> = reader.collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(&got, &records);
        let (decoded, error) = decode(&file, &cuts);
        prop_assert_eq!(decoded, records);
        prop_assert_eq!(error, None);
    }

    #[test]
    fn damaged_files_never_panic_and_both_readers_agree(
        records in prop::collection::vec(record(), 1..8),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<prop::sample::Index>(),
        cuts in prop::collection::vec(1usize..40, 1..10),
    ) {
        let mut file = write(&FileHeader::new(), &records, 7);
        let i = at.index(file.len());
        file[i] = byte;
        file.truncate(cut.index(file.len() + 1));
        let (got, error) = read(&file);
        prop_assert!(got.len() <= records.len());
        let (decoded, codec_error) = decode(&file, &cuts);
        prop_assert_eq!(decoded, got);
        prop_assert_eq!(codec_error, error);
    }

    #[test]
    fn garbage_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200), prefix in any::<bool>()) {
        let mut file = if prefix { b"RecordIO v1.0\n\n".to_vec() } else { Vec::new() };
        file.extend_from_slice(&bytes);
        let (got, error) = read(&file);
        let (decoded, codec_error) = decode(&file, &[3]);
        prop_assert_eq!(decoded, got);
        prop_assert_eq!(codec_error, error);
    }
}
