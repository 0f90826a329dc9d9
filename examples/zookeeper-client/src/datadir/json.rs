//! One JSON object per transaction and per snapshot item, for people and for `jq`.
//!
//! Records print as `rcc convert --to json` prints them (fields in declaration order,
//! buffers as hex, Java's null as `null`); ids print in hex as ZooKeeper's tools print them.

use hadoop_record::schema::FieldType;
use hadoop_record::value::json::to_json;
use hadoop_record::{Format, Record, RecordReader};
use serde_json::{json, Map, Value as Json};

use super::snapshot::{Node, SnapshotItem};
use super::txnlog::{decode_txn, Txn, TxnEntry};
use crate::opcode;

/// `record` as JSON, through the schema-driven codec (so nulls stay `null`).
pub fn record_json<T: Record>(record: &T) -> Json {
    let (schema, id) = T::schema();
    let bytes = hadoop_record::to_vec(record, Format::Jute).expect("jute writes every record");
    let value = RecordReader::from_slice(&bytes, Format::Jute)
        .read_value(&schema, id)
        .expect("jute reads what it wrote")
        .expect("one record");
    let text = to_json(&schema, &FieldType::Record(id), &value)
        .expect("a value read with its own schema converts to JSON");
    serde_json::from_str(&text).expect("to_json writes JSON")
}

fn hex(v: i64) -> Json {
    Json::String(format!("{:#x}", v))
}

fn txn_json(txn: &Txn) -> Json {
    match txn {
        Txn::CreateSession(t) => record_json(t),
        Txn::CloseSession(Some(t)) => record_json(t),
        Txn::CloseSession(None) => Json::Null,
        Txn::Create(t) => record_json(t),
        Txn::CreateTtl(t) => record_json(t),
        Txn::CreateContainer(t) => record_json(t),
        Txn::Delete(t) => record_json(t),
        Txn::SetData(t) => record_json(t),
        Txn::SetAcl(t) => record_json(t),
        Txn::Error(t) => record_json(t),
        Txn::Multi(multi) => {
            let parts: Vec<Json> = multi
                .txns
                .iter()
                .flatten()
                .map(|part| {
                    let data = part.data.as_deref().unwrap_or_default();
                    let txn = match decode_txn(part.r#type, data) {
                        Ok((txn, _)) => txn_json(&txn),
                        Err(e) => json!({ "undecodable": e.to_string() }),
                    };
                    json!({ "type": opcode::name(part.r#type), "txn": txn })
                })
                .collect();
            json!({ "txns": parts })
        }
    }
}

/// One transaction: its offset, header (session, cxid and zxid in hex, time in
/// milliseconds, the type by name), the transaction and the digest.
pub fn txn_entry_json(entry: &TxnEntry) -> String {
    let h = &entry.header;
    let mut o = Map::new();
    o.insert("offset".into(), json!(entry.offset));
    o.insert("session".into(), hex(h.client_id));
    // As `Long.toHexString` prints the int widened to a long.
    o.insert("cxid".into(), hex(i64::from(h.cxid)));
    o.insert("zxid".into(), hex(h.zxid));
    o.insert("time".into(), json!(h.time));
    o.insert("type".into(), json!(opcode::name(h.r#type)));
    o.insert("txn".into(), txn_json(&entry.txn));
    if let Some(d) = &entry.digest {
        o.insert("digest".into(), record_json(d));
    }
    Json::Object(o).to_string()
}

/// One snapshot item: a session, an ACL cache entry, a node (its data in hex), a seal, the
/// digest or the last zxid, each marked by its first key.
pub fn node_json(item: &SnapshotItem) -> String {
    let j = match item {
        SnapshotItem::Session { id, timeout } => json!({ "session": hex(*id), "timeout": timeout }),
        SnapshotItem::Acl { index, acls } => {
            let acls: Json = match acls {
                Some(list) => list.iter().map(record_json).collect(),
                None => Json::Null,
            };
            json!({ "acl": index, "acls": acls })
        }
        SnapshotItem::Node(node) => node_object(node),
        SnapshotItem::Seal { offset, checksum } => {
            json!({ "seal": offset, "checksum": hex(*checksum) })
        }
        SnapshotItem::Digest {
            zxid,
            version,
            digest,
        } => json!({ "digest": digest, "zxid": hex(*zxid), "version": version }),
        SnapshotItem::LastZxid(z) => json!({ "lastZxid": hex(*z) }),
    };
    j.to_string()
}

fn node_object(node: &Node) -> Json {
    let data = node
        .data
        .as_ref()
        .map(|d| d.iter().map(|b| format!("{b:02x}")).collect::<String>());
    let s = &node.stat;
    json!({
        "path": node.path,
        "offset": node.offset,
        "data": data,
        "acl": node.acl,
        "czxid": hex(s.czxid),
        "mzxid": hex(s.mzxid),
        "ctime": s.ctime,
        "mtime": s.mtime,
        "version": s.version,
        "cversion": s.cversion,
        "aversion": s.aversion,
        "ephemeralOwner": hex(s.ephemeral_owner),
        "pzxid": hex(s.pzxid),
    })
}
