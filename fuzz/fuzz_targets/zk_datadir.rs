//! ZooKeeper's transaction log and snapshot readers over arbitrary bytes (the first byte
//! picks which): they never panic; damage is reported once, at an offset inside the file,
//! after the entries before it; every entry read prints as JSON.
#![no_main]

use zookeeper_client::datadir::{node_json, txn_entry_json, SnapshotReader, TxnLogReader};
use zookeeper_client::Error;

fn check(e: &Error, len: usize) {
    if let Error::Damaged { offset, .. } = e {
        assert!(
            *offset <= len as u64,
            "offset {offset} past the end ({len})"
        );
    }
    let _ = e.to_string();
}

/// Every item of `reader` (each printed by `show`) until the first error, which must be the
/// last item; the error, at a sound offset of a file of `len` bytes.
fn read_all<T, Shown>(
    reader: Result<impl Iterator<Item = Result<T, Error>>, Error>,
    len: usize,
    show: impl Fn(&T) -> Shown,
) {
    let reader = match reader {
        Ok(reader) => reader,
        Err(e) => return check(&e, len),
    };
    let mut failed = false;
    for item in reader {
        assert!(!failed, "an item after the damage");
        match item {
            Ok(item) => drop(show(&item)),
            Err(e) => {
                check(&e, len);
                failed = true;
            }
        }
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, data)) = data.split_first() else {
        return;
    };
    // A valid header most of the time, so that the entries are reached.
    let mut file = if pick & 1 == 0 {
        b"ZKLG".to_vec()
    } else {
        b"ZKSN".to_vec()
    };
    if pick & 2 == 0 {
        file.extend_from_slice(&[0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]);
    }
    file.extend_from_slice(data);
    if pick & 1 == 0 {
        read_all(TxnLogReader::new(&file), file.len(), txn_entry_json);
    } else {
        read_all(SnapshotReader::new(&file), file.len(), node_json);
    }
});
