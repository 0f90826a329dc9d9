//! `rcc convert --from avro`'s reader over arbitrary bytes: an Avro container file (the first
//! byte picks the record type it is read as, one of the Hadoop Java fixtures' types), its
//! batches written as records. Anything may be refused, cleanly; nothing panics or allocates
//! what the bytes do not back (blocks are limited to 1 MiB here), and what was read writes
//! as Avro under `rcc -l avro`'s schema and reads back the same.
//!
//! The direct way too (`AvroRecordReader`, `AvroRecordWriter`, for the types without maps):
//! the file read straight into Hadoop binary records gives the Arrow way's records when both
//! read it whole, and the bytes read as Hadoop binary records go into a file that reads back
//! as the records taken.
#![no_main]

use std::sync::{Arc, OnceLock};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use hadoop_record::archive::binary::RawInput;
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::{Format, RecordReader, RecordWriter};
use hadoop_record_arrow::mapping::{arrow_schema, MappingOptions};
use hadoop_record_arrow::{BatchEncoder, EncodeOptions};
use hadoop_record_avro::{
    AvroCodec, AvroReader, AvroRecordReader, AvroRecordWriter, AvroWriter, Transcoder,
};

/// A record type: its runtime schema and id, `.avsc` and Arrow schema.
struct Type {
    schema: Arc<Schema>,
    id: RecordId,
    avsc: String,
    arrow: SchemaRef,
}

/// The fixture types read as.
const TYPES: [&str; 3] = [
    "oracle.composite.Outer",
    "oracle.composite.Containers",
    "oracle.prims.AllPrims",
];

fn types() -> &'static [Type] {
    static TYPES_READ: OnceLock<Vec<Type>> = OnceLock::new();
    TYPES_READ.get_or_init(|| {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/hadoop-java/"
        );
        let paths: Vec<String> = ["common.jr", "prims.jr", "composite.jr"]
            .iter()
            .map(|f| format!("{dir}{f}"))
            .collect();
        let model = hadoop_record_compiler::load(&paths, &Default::default())
            .unwrap_or_else(|_| panic!("the fixture DDL loads"));
        let ids = model.to_schema();
        let schema = Arc::new(ids.schema().clone());
        TYPES
            .iter()
            .map(|name| {
                let id = ids.find(name).expect("a fixture type");
                let arrow = arrow_schema(&schema, id, MappingOptions::default()).unwrap();
                Type {
                    schema: schema.clone(),
                    id,
                    avsc: hadoop_record_compiler::backend::avro::schema(
                        &model,
                        model.find(name).unwrap(),
                    ),
                    arrow: Arc::new(arrow),
                }
            })
            .collect()
    })
}

/// The file's records read the direct way (`None` after an error, or without a way).
fn read_direct(file: &[u8], ty: &Type) -> Option<Vec<u8>> {
    let reader = AvroRecordReader::new(file, &ty.schema, ty.id).ok()?;
    let mut reader = reader.with_max_block_bytes(1 << 20);
    let mut records = Vec::new();
    while reader.read_record(&mut records).ok()? {}
    Some(records)
}

/// `data` read as Hadoop binary records of the type, as far as they are sound, into a file
/// the direct way; the file reads back as the records taken.
fn write_direct(data: &[u8], ty: &Type) {
    let Ok(transcoder) = Transcoder::new(&ty.avsc, &ty.schema, ty.id) else {
        return;
    };
    let mut writer =
        AvroRecordWriter::new(Vec::new(), &transcoder, AvroCodec::Null).expect("written to memory");
    let mut input = RawInput::new(data);
    let mut taken = 0;
    while !input.remaining().is_empty() && writer.write_record(&mut input).is_ok() {
        taken = input.offset();
    }
    let file = writer.finish().expect("written to memory");
    let back = read_direct(&file, ty).expect("a file we wrote reads");
    // The records as Hadoop's reader reads them and its writer writes them again (a
    // boolean's byte as 1, one NaN, the shortest numbers).
    let mut reader = RecordReader::from_slice(&data[..taken], Format::Binary);
    let mut again = RecordWriter::new(Vec::new(), Format::Binary);
    while let Some(value) = reader
        .read_value(&ty.schema, ty.id)
        .expect("the records taken read")
    {
        again
            .write_value(&ty.schema, ty.id, &value)
            .expect("a record read writes");
    }
    let again = again.into_inner().expect("written to memory");
    assert_eq!(back, again, "the records taken read back");
}

fn read(file: &[u8], arrow: &SchemaRef) -> Option<Vec<RecordBatch>> {
    let reader = AvroReader::new(file, arrow.clone(), 64).ok()?;
    Some(
        reader
            .with_max_block_bytes(1 << 20)
            .map_while(Result::ok)
            .collect(),
    )
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    let ty = &types()[pick as usize % TYPES.len()];
    write_direct(file, ty);
    let direct = read_direct(file, ty);
    let Some(batches) = read(file, &ty.arrow) else {
        return;
    };
    let mut writer = AvroWriter::new(Vec::new(), &ty.avsc, ty.arrow.clone(), AvroCodec::Deflate)
        .expect("the .avsc holds its type");
    for batch in &batches {
        writer.write(batch).expect("batches read write");
    }
    let ours = writer.finish().expect("written to memory");
    let back = read(&ours, &ty.arrow).expect("a file we wrote opens");
    assert_eq!(back, batches, "what was read reads back the same");
    // Records of the batches (a string Hadoop refuses may be an error).
    let mut encoder = BatchEncoder::new(ty.schema.clone(), ty.id, EncodeOptions::default())
        .expect("a fixture type");
    let mut records = RecordWriter::new(Vec::new(), Format::Binary);
    let encoded = batches
        .iter()
        .all(|batch| encoder.write_batch(batch, &mut records).is_ok());
    let records = records.into_inner().expect("written to memory");
    let whole = AvroReader::new(file, ty.arrow.clone(), 64)
        .map(|r| r.with_max_block_bytes(1 << 20).all(|b| b.is_ok()))
        .unwrap_or(false);
    // Where the Arrow way reads the whole file into records, the direct way (when it takes
    // the file's schema) reads the same records.
    let direct_opens = AvroRecordReader::new(file, &ty.schema, ty.id).is_ok();
    if direct_opens && encoded && whole {
        let direct = direct.expect("the direct way reads what the Arrow way reads");
        assert_eq!(
            direct, records,
            "the direct way reads the Arrow way's records"
        );
    }
});
