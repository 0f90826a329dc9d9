//! Property-based round trips against ZooKeeper's real jute runtime (`BinaryInputArchive`,
//! `BinaryOutputArchive` and the record classes of zookeeper-jute 3.9.5), batched in one JVM:
//! random values of every `zookeeper.jute` record (nulls, empty and non-ASCII strings,
//! characters beyond the BMP included) written by us and by Java, each read and written
//! back by the other, byte for byte. Skipped only by `HADOOP_RECORD_SKIP_PEERS`.

use fixture_harness::arb::{self, Arb};
use hadoop_record::archive::jute::{JuteInput, JuteOutput};
use hadoop_record::schema::{FieldType, RecordId, Schema};
use hadoop_record::{Format, Record, RecordInput, RecordOutput, RecordReader, RecordWriter, Value};
use interop_tests::report::{clip, Report};
use interop_tests::zookeeper::{JuteAnswer, JuteBatch, ZkPeer};
use interop_tests::{cases, sample, seed};
use proptest::prelude::*;
use zookeeper_client::{data, proto, server, txn};

/// Every record of zookeeper.jute: its Java class and its id in the runtime schema.
fn schema() -> (&'static Schema, Vec<(String, RecordId)>) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/schema/zookeeper.jute");
    let model = hadoop_record_compiler::load(&[path], &Default::default()).expect("zookeeper.jute");
    let model_schema = model.to_schema();
    let types = model
        .records()
        .iter()
        .map(|r| {
            let name = r.qualified_name().to_string();
            let id = model_schema.find(&name).expect("a record of the model");
            (name, id)
        })
        .collect();
    (Box::leak(Box::new(model_schema.into_schema())), types)
}

fn encode(schema: &Schema, id: RecordId, value: &Value) -> Vec<u8> {
    let mut w = RecordWriter::new(Vec::new(), Format::Jute);
    w.write_value(schema, id, value)
        .expect("jute writes every value");
    w.into_inner().unwrap()
}

/// What we read from `bytes` and write back, or why reading failed.
fn rewrite(schema: &Schema, id: RecordId, bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut r = RecordReader::from_slice(bytes, Format::Jute);
    let value = r
        .read_value(schema, id)
        .map_err(|e| e.to_string())?
        .ok_or("no record")?;
    Ok(encode(schema, id, &value))
}

fn hex(b: &[u8]) -> String {
    clip(
        &b.iter().map(|b| format!("{b:02x}")).collect::<String>(),
        600,
    )
}

#[test]
fn signatures_and_values_cross_both_ways_byte_for_byte() {
    let Some(peer) = ZkPeer::get() else { return };
    let (schema, types) = schema();
    let seed = seed();
    let n = cases(150);
    let arb = Arb::java().nulls(true);

    // Ours to Java: Java reads our bytes and writes them back.
    let mut batch = JuteBatch::default();
    let mut sent = Vec::new();
    for (k, (class, id)) in types.iter().enumerate() {
        batch.signature(class);
        let values = sample(
            &arb::value(schema, &FieldType::Record(*id), arb),
            n,
            seed ^ k as u64,
        );
        for v in values {
            let bytes = encode(schema, *id, &v);
            batch.round_trip(class, &bytes);
            sent.push((class.clone(), *id, v, bytes));
        }
    }
    let answers = peer.run("zookeeper-ours", &batch);
    let mut report = Report::new(
        "zookeeper.jute, our bytes through ZooKeeper's jute",
        format!("HADOOP_RECORD_INTEROP_SEED={seed}"),
    );
    let mut answers = answers.into_iter();
    let mut sent = sent.into_iter();
    let mut identical = 0;
    for (class, id) in &types {
        let Some(JuteAnswer::Signature(sig)) = answers.next() else {
            panic!("a signature")
        };
        let ours = schema.signature(*id).unwrap().to_string();
        report.check(sig == ours, || {
            format!("{class}: signature {ours}, Java's {sig}")
        });
        for _ in 0..n {
            let (_, id, value, bytes) = sent.next().unwrap();
            let Some(JuteAnswer::RoundTrip(java)) = answers.next() else {
                panic!("a round trip")
            };
            let ours = rewrite(schema, id, &bytes);
            let ok = matches!((&java, &ours), (Ok((0, j)), Ok(o)) if j == o);
            identical += usize::from(matches!(&java, Ok((_, j)) if *j == bytes));
            report.check(ok, || {
                format!(
                    "{class}\n  value: {}\n  ours:    {}\n  ours again: {:?}\n  ZooKeeper: {:?}",
                    clip(&format!("{value:?}"), 1500),
                    hex(&bytes),
                    ours.as_deref().map(hex),
                    java.as_ref().map(|(u, j)| (u, hex(j)))
                )
            });
        }
    }
    report.finish(&format!(
        "{} record types, {n} values each, {identical} written back by ZooKeeper byte for byte (the rest hold characters beyond the BMP, which ZooKeeper reads back as U+FFFD, as we do)",
        types.len()
    ));

    // Java to ours: ZooKeeper writes random records (its nulls, lone surrogates); we read
    // and write each back as ZooKeeper itself does.
    let mut batch = JuteBatch::default();
    let m = cases(150) as u32;
    for (class, _) in &types {
        batch.generate(class, seed, m);
    }
    let generated = peer.run("zookeeper-generate", &batch);
    let mut batch = JuteBatch::default();
    let mut records = Vec::new();
    for ((class, id), answer) in types.iter().zip(generated) {
        let JuteAnswer::Generated(list) = answer else {
            panic!("generated records")
        };
        for bytes in list {
            batch.round_trip(class, &bytes);
            records.push((class.clone(), *id, bytes));
        }
    }
    let answers = peer.run("zookeeper-theirs", &batch);
    let mut report = Report::new(
        "zookeeper.jute, ZooKeeper's bytes through ours",
        format!("HADOOP_RECORD_INTEROP_SEED={seed}"),
    );
    let mut typed = 0;
    for ((class, id, bytes), answer) in records.iter().zip(answers) {
        let JuteAnswer::RoundTrip(java) = answer else {
            panic!("a round trip")
        };
        let ours = rewrite(schema, *id, bytes);
        let ok = matches!((&java, &ours), (Ok((0, j)), Ok(o)) if j == o);
        report.check(ok, || {
            format!(
                "{class}\n  ZooKeeper wrote: {}\n  we wrote back: {:?}\n  ZooKeeper wrote back: {:?}",
                hex(bytes),
                ours.as_deref().map(hex),
                java.as_ref().map(|(u, j)| (u, hex(j)))
            )
        });
        // The generated Rust types read and write what the schema-driven codec does.
        if let Some(t) = typed_rewrite(class, bytes) {
            typed += 1;
            report.check(Ok(t.clone()) == ours, || {
                format!(
                    "{class}: the generated type wrote {} where the codec wrote {ours:?}",
                    hex(&t)
                )
            });
        }
    }
    assert_eq!(typed, records.len(), "every class has a generated type");
    report.finish(&format!(
        "{} records of {} types from ZooKeeper's writer, read and written back by the schema-driven codec and by the generated types",
        records.len(),
        types.len()
    ));
}

fn typed<T: Record>(bytes: &[u8]) -> Vec<u8> {
    let mut r = RecordReader::from_slice(bytes, Format::Jute);
    let record: T = r
        .read()
        .expect("the generated type reads it")
        .expect("one record");
    let mut w = RecordWriter::new(Vec::new(), Format::Jute);
    w.write(&record).unwrap();
    w.into_inner().unwrap()
}

/// `bytes` read into the generated type of `class` and written back.
fn typed_rewrite(class: &str, bytes: &[u8]) -> Option<Vec<u8>> {
    macro_rules! dispatch {
        ($($ty:path),* $(,)?) => {
            $(
                if class == concat!("org.apache.zookeeper.", stringify!($ty)).replace(" ", "").replace("::", ".") {
                    return Some(typed::<$ty>(bytes));
                }
            )*
        };
    }
    dispatch!(
        data::Id,
        data::ACL,
        data::ClientInfo,
        data::Stat,
        data::StatPersisted,
        proto::AddWatchRequest,
        proto::AuthPacket,
        proto::CheckVersionRequest,
        proto::CheckWatchesRequest,
        proto::ConnectRequest,
        proto::ConnectResponse,
        proto::Create2Response,
        proto::CreateRequest,
        proto::CreateResponse,
        proto::CreateTTLRequest,
        proto::DeleteRequest,
        proto::ErrorResponse,
        proto::ExistsRequest,
        proto::ExistsResponse,
        proto::GetACLRequest,
        proto::GetACLResponse,
        proto::GetAllChildrenNumberRequest,
        proto::GetAllChildrenNumberResponse,
        proto::GetChildren2Request,
        proto::GetChildren2Response,
        proto::GetChildrenRequest,
        proto::GetChildrenResponse,
        proto::GetDataRequest,
        proto::GetDataResponse,
        proto::GetEphemeralsRequest,
        proto::GetEphemeralsResponse,
        proto::GetMaxChildrenRequest,
        proto::GetMaxChildrenResponse,
        proto::GetSASLRequest,
        proto::MultiHeader,
        proto::ReconfigRequest,
        proto::RemoveWatchesRequest,
        proto::ReplyHeader,
        proto::RequestHeader,
        proto::SetACLRequest,
        proto::SetACLResponse,
        proto::SetDataRequest,
        proto::SetDataResponse,
        proto::SetMaxChildrenRequest,
        proto::SetSASLRequest,
        proto::SetSASLResponse,
        proto::SetWatches,
        proto::SetWatches2,
        proto::SyncRequest,
        proto::SyncResponse,
        proto::WatcherEvent,
        proto::WhoAmIResponse,
        server::quorum::LearnerInfo,
        server::quorum::QuorumAuthPacket,
        server::quorum::QuorumPacket,
        server::persistence::FileHeader,
        txn::CheckVersionTxn,
        txn::CloseSessionTxn,
        txn::CreateContainerTxn,
        txn::CreateSessionTxn,
        txn::CreateTTLTxn,
        txn::CreateTxn,
        txn::CreateTxnV0,
        txn::DeleteTxn,
        txn::ErrorTxn,
        txn::Txn,
        txn::MultiTxn,
        txn::SetACLTxn,
        txn::SetDataTxn,
        txn::SetMaxChildrenTxn,
        txn::TxnDigest,
        txn::TxnHeader
    );
    None
}

/// Any bytes as a jute string: ZooKeeper's `readString` then `writeString`, and ours.
#[test]
fn strings_decode_as_javas_utf8_decoder_does() {
    let Some(peer) = ZkPeer::get() else { return };
    let seed = seed();
    let piece = prop_oneof![
        any::<u8>().prop_map(|b| vec![b]),
        prop::sample::select(vec![
            vec![0xed, 0xa0, 0x80],
            vec![0xed, 0xb0, 0x80],
            vec![0xf0, 0x9f, 0x98, 0x80],
            vec![0xe0, 0x80],
            vec![0xc0, 0x80],
            vec![0xf4, 0x90, 0x80, 0x80],
            vec![0xef, 0xbf, 0xbf],
            vec![0xe2, 0x82],
            vec![0xf0, 0x9f],
            vec![0xc3],
            b"a".to_vec(),
        ]),
    ];
    let strategy = proptest::collection::vec(piece, 0..10).prop_map(|p| p.concat());
    let inputs = sample(&strategy, cases(3000), seed);
    let mut batch = JuteBatch::default();
    for bytes in &inputs {
        batch.string(bytes);
    }
    let answers = peer.run("zookeeper-strings", &batch);
    let mut report = Report::new("jute strings", format!("HADOOP_RECORD_INTEROP_SEED={seed}"));
    for (bytes, answer) in inputs.iter().zip(answers) {
        let JuteAnswer::String(java) = answer else {
            panic!("a string")
        };
        let mut framed = (bytes.len() as i32).to_be_bytes().to_vec();
        framed.extend_from_slice(bytes);
        let s = JuteInput::new(&framed[..]).read_string("s").unwrap();
        let mut out = JuteOutput::new(Vec::new());
        out.write_string(&s, "s").unwrap();
        let ours = out.into_inner().unwrap();
        report.check(java.as_ref() == Ok(&ours), || {
            format!(
                "input {}: ours {} ({s:?}), ZooKeeper's {:?}",
                hex(bytes),
                hex(&ours),
                java.as_deref().map(hex)
            )
        });
    }
    report.finish("random byte strings, valid and not, read and written back");
}
