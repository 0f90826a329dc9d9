//! Opening Arrow IPC files safely: arrow-ipc allocates each block's stated length before it
//! reads the block, so a damaged footer claiming exabytes would abort the process instead
//! of failing the read. [`open_file`] checks the footer's block table against the file's
//! length first.

use std::io::{Read, Seek, SeekFrom};

use arrow_ipc::reader::{read_footer_length, FileReader};
use arrow_schema::ArrowError;

/// An Arrow IPC file reader over `input`, once every block the footer lists lies inside
/// the file (what arrow-ipc itself refuses, a bad magic number or an unreadable footer, is
/// left to its error).
///
/// ```
/// use std::io::Cursor;
/// let err = hadoop_record_arrow::ipc::open_file(Cursor::new(b"not an arrow file".to_vec()));
/// assert!(err.is_err());
/// ```
pub fn open_file<R: Read + Seek>(mut input: R) -> Result<FileReader<R>, ArrowError> {
    check_blocks(&mut input)?;
    input.seek(SeekFrom::Start(0))?;
    FileReader::try_new(input, None)
}

/// Refuses a footer longer than the file, or a block (record batch or dictionary) that does
/// not end before the footer.
fn check_blocks<R: Read + Seek>(input: &mut R) -> Result<(), ArrowError> {
    let len = input.seek(SeekFrom::End(0))?;
    if len < 10 {
        return Ok(());
    }
    input.seek(SeekFrom::End(-10))?;
    let mut trailer = [0u8; 10];
    input.read_exact(&mut trailer)?;
    let Ok(footer_len) = read_footer_length(trailer) else {
        return Ok(());
    };
    let before = len - 10;
    if footer_len as u64 > before {
        return Err(ArrowError::ParseError(format!(
            "the footer claims {footer_len} bytes, the file has {before} before its end marker"
        )));
    }
    input.seek(SeekFrom::End(-10 - footer_len as i64))?;
    let mut footer = vec![0; footer_len];
    input.read_exact(&mut footer)?;
    let Ok(footer) = arrow_ipc::root_as_footer(&footer) else {
        return Ok(());
    };
    let blocks_end = before - footer_len as u64;
    let batches = footer.recordBatches().into_iter().flatten();
    for block in batches.chain(footer.dictionaries().into_iter().flatten()) {
        let (offset, meta, body) = (block.offset(), block.metaDataLength(), block.bodyLength());
        let end = (|| {
            u64::try_from(offset)
                .ok()?
                .checked_add(u64::try_from(meta).ok()?)?
                .checked_add(u64::try_from(body).ok()?)
        })();
        if end.is_none_or(|end| end > blocks_end) {
            return Err(ArrowError::ParseError(format!(
                "a block at offset {offset} claims {meta} + {body} bytes, \
                 but the blocks of this {len}-byte file end at byte {blocks_end}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;
    use std::sync::Arc;

    use arrow_array::{Int32Array, RecordBatch};
    use arrow_ipc::writer::FileWriter;
    use arrow_schema::{DataType, Field, Schema};

    use super::*;

    fn file() -> Vec<u8> {
        let schema = Arc::new(Schema::new(vec![Field::new("n", DataType::Int32, false)]));
        let column = Arc::new(Int32Array::from(vec![1, 2, 3]));
        let batch = RecordBatch::try_new(schema.clone(), vec![column]).unwrap();
        let mut writer = FileWriter::try_new(Vec::new(), &schema).unwrap();
        writer.write(&batch).unwrap();
        writer.into_inner().unwrap()
    }

    /// `file` with the first record batch's body length in the footer set to `body`.
    fn with_body_length(mut file: Vec<u8>, body: i64) -> Vec<u8> {
        let footer_len = read_footer_length(file[file.len() - 10..].try_into().unwrap()).unwrap();
        let start = file.len() - 10 - footer_len;
        let footer = arrow_ipc::root_as_footer(&file[start..file.len() - 10]).unwrap();
        let stated = footer
            .recordBatches()
            .unwrap()
            .get(0)
            .bodyLength()
            .to_le_bytes();
        let at = file[start..]
            .windows(8)
            .position(|w| w == stated)
            .expect("the body length in the footer");
        file[start + at..start + at + 8].copy_from_slice(&body.to_le_bytes());
        file
    }

    #[test]
    fn a_sound_file_reads() {
        let batches: Vec<_> = open_file(Cursor::new(file())).unwrap().collect();
        assert_eq!(batches.len(), 1);
        assert_eq!(batches[0].as_ref().unwrap().num_rows(), 3);
    }

    #[test]
    fn blocks_past_the_end_are_refused_before_anything_is_allocated() {
        for body in [1 << 40, i64::MAX, -8, 4096] {
            let Err(e) = open_file(Cursor::new(with_body_length(file(), body))) else {
                panic!("a body of {body} bytes was accepted");
            };
            let e = e.to_string();
            assert!(e.contains("claims") && e.contains(&body.to_string()), "{e}");
        }
    }

    #[test]
    fn a_footer_longer_than_the_file_is_refused() {
        let mut file = file();
        let n = file.len();
        file[n - 10..n - 6].copy_from_slice(&i32::MAX.to_le_bytes());
        let Err(e) = open_file(Cursor::new(file)) else {
            panic!("a footer of 2 GiB was accepted");
        };
        let e = e.to_string();
        assert!(e.contains("the footer claims 2147483647 bytes"), "{e}");
    }
}
