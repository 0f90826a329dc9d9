//! Columnar decode: records of any encoding straight into Arrow arrays, driven by the
//! runtime [`Schema`], not through the [`hadoop_record::Value`] tree.
//!
//! A [`BatchDecoder`] holds one column per projected field, each with its plan chosen once
//! from the [mapping](crate::mapping). It decodes one record at a time from any
//! [`RecordInput`] (statically dispatched), from one framed payload
//! ([`BatchDecoder::decode_payload`]), or through a [`BatchReader`] over a whole stream, and
//! [`BatchDecoder::flush`]es what it holds as a [`RecordBatch`].
//!
//! ```
//! use std::sync::Arc;
//! use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
//! use hadoop_record::Format;
//! use hadoop_record_arrow::decode::{BatchDecoder, DecodeOptions};
//! use arrow_array::cast::AsArray;
//! use arrow_array::types::Int64Type;
//!
//! let mut schema = Schema::new();
//! let id = schema.add(RecordType {
//!     module: "m".into(),
//!     name: "Hit".into(),
//!     fields: vec![FieldDef::new("url", FieldType::String), FieldDef::new("n", FieldType::Long)],
//! })?;
//! let options = DecodeOptions::default().with_projection(Some(vec![1]));
//! let mut decoder = BatchDecoder::new(Arc::new(schema), id, options)?;
//! // One CSV record per framed payload; `url` is skipped, not decoded.
//! decoder.decode_payload(b"'a,7\n", Format::Csv)?;
//! decoder.decode_payload(b"'b,8\n", Format::Csv)?;
//! let e = decoder.decode_payload(b"'c,x\n", Format::Csv).unwrap_err();
//! assert_eq!(e.to_string(), "record 2, line 1:4, in Hit.n: expected a long, found `x`");
//! let batch = decoder.flush()?.unwrap();
//! assert_eq!(batch.num_rows(), 2);
//! assert_eq!(batch.column(0).as_primitive::<Int64Type>().values(), &[7, 8]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod column;
mod flat;
mod reader;
mod skip;

use std::collections::HashSet;
use std::sync::Arc;

use arrow_array::{RecordBatch, RecordBatchOptions};
use arrow_schema::SchemaRef;
use hadoop_record::archive::binary::RawInput;
use hadoop_record::archive::jute::JuteOptions;
use hadoop_record::archive::DEFAULT_MAX_DEPTH;
use hadoop_record::schema::{FieldType, RecordId, Schema};
use hadoop_record::value::ValueInput;
use hadoop_record::{ErrorKind, Format, Position, RecordInput, RecordReader, Value, VisitInput};

use crate::mapping::{arrow_schema, MappingOptions};
use crate::Error;
use column::{Column, Context, BYTES_PER_BATCH};

pub use reader::BatchReader;

/// Rows per batch unless [`DecodeOptions::batch_size`] says otherwise (DataFusion's default).
pub const DEFAULT_BATCH_SIZE: usize = 8192;

hadoop_record::__options! {
    /// How a [`BatchDecoder`] decodes.
    ///
    /// ```
    /// use hadoop_record_arrow::DecodeOptions;
    /// let options = DecodeOptions::default().with_batch_size(1024).with_projection(Some(vec![2, 0]));
    /// assert_eq!(options.batch_size(), 1024);
    /// ```
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DecodeOptions {
        /// Rows per batch: [`BatchDecoder::is_full`] from then on (default 8192). A batch
        /// also counts as full once it holds 1 GiB of string and buffer bytes.
        batch_size / with_batch_size: copy usize = DEFAULT_BATCH_SIZE;
        /// The top-level fields to decode, by index in the record, in the order the batch's
        /// columns are to have; the others are skipped, not decoded. `None`: every field.
        /// `Some(vec![])` decodes no column and counts rows (for `count(*)`).
        projection / with_projection: ref Option<Vec<usize>> = None;
        /// jute's nullable types: `ustring`, `buffer` and `vector` may be null (as `rcc
        /// --nullable` generates them) and map to nullable fields.
        nullable / with_nullable: copy bool = false;
        /// The longest string or buffer jute input may hold (ZooKeeper's `jute.maxbuffer`),
        /// for [`BatchDecoder::decode_payload`] and [`BatchReader`].
        jute / with_jute: copy JuteOptions = JuteOptions::default();
        /// The most records, vectors and maps open at once
        /// ([`hadoop_record::archive::Depth`]); `None`: what the schema can nest, at least
        /// [`DEFAULT_MAX_DEPTH`].
        max_depth / with_max_depth: copy Option<usize> = None;
        /// The record's own `ustring` fields decode to `Utf8View` arrays rather than `Utf8`
        /// ([`MappingOptions::string_view`]).
        string_view / with_string_view: copy bool = false;
    }
}

/// A top-level field of the record and how it is read.
#[derive(Debug)]
struct TopField {
    name: String,
    ty: FieldType,
    step: Step,
}

/// How a top-level field is read: into the column of that index (numbers and booleans
/// straight into their buffers, without a second dispatch on the column), or skipped.
#[derive(Debug, Clone, Copy)]
enum Step {
    Byte(usize),
    Bool(usize),
    Int(usize),
    Long(usize),
    Float(usize),
    Double(usize),
    Column(usize),
    Skip,
}

impl Step {
    fn new(ty: &FieldType, column: usize) -> Step {
        match ty {
            FieldType::Byte => Step::Byte(column),
            FieldType::Bool => Step::Bool(column),
            FieldType::Int => Step::Int(column),
            FieldType::Long => Step::Long(column),
            FieldType::Float => Step::Float(column),
            FieldType::Double => Step::Double(column),
            _ => Step::Column(column),
        }
    }
}

/// Decodes records of one type into Arrow columns and flushes them as [`RecordBatch`]es.
///
/// A record that fails to decode leaves nothing of itself behind: the rows before it stay,
/// and decoding may go on with the next record (when the input can be resynchronised, as
/// with framed payloads). Errors are [`hadoop_record::Error`]s carrying the record number,
/// the position and the field path, exactly as [`RecordReader`] reports them.
#[derive(Debug)]
pub struct BatchDecoder {
    schema: Arc<Schema>,
    record: RecordId,
    type_name: Arc<str>,
    fields: Vec<TopField>,
    /// The fast plan of binary payloads, when the record is flat.
    flat: Option<Box<[flat::Flat]>>,
    columns: Vec<Column>,
    arrow: SchemaRef,
    rows: usize,
    /// Records decoded since the decoder was made, for error numbering.
    records: u64,
    bytes: usize,
    max_depth: usize,
    options: DecodeOptions,
}

impl BatchDecoder {
    /// A decoder of records of type `record` of `schema`.
    ///
    /// Fails when a projection index is not a field of the record or is given twice.
    pub fn new(
        schema: Arc<Schema>,
        record: RecordId,
        options: DecodeOptions,
    ) -> Result<Self, Error> {
        let mapping = MappingOptions::default()
            .with_nullable(options.nullable)
            .with_string_view(options.string_view);
        let full = arrow_schema(&schema, record, mapping)?;
        let def = crate::mapping::record_type(&schema, record);
        let projection: Vec<usize> = match &options.projection {
            Some(p) => p.clone(),
            None => (0..def.fields.len()).collect(),
        };
        let mut seen = HashSet::new();
        for &i in &projection {
            if i >= def.fields.len() || !seen.insert(i) {
                return Err(hadoop_record::Error::new(
                    ErrorKind::Schema,
                    format!(
                        "projection {projection:?}: {} (`{}` has {} fields, numbered from 0)",
                        if i >= def.fields.len() {
                            format!("there is no field {i}")
                        } else {
                            format!("field {i} is asked for twice")
                        },
                        def.full_name(),
                        def.fields.len()
                    ),
                )
                .into());
            }
        }
        let mut fields: Vec<TopField> = def
            .fields
            .iter()
            .map(|f| TopField {
                name: f.name.clone(),
                ty: f.ty.clone(),
                step: Step::Skip,
            })
            .collect();
        let recursive = mapping.recursive_encoding();
        let columns = projection
            .iter()
            .enumerate()
            .map(|(c, &i)| {
                fields[i].step = Step::new(&def.fields[i].ty, c);
                Column::new(
                    &schema,
                    &def.fields[i].ty,
                    Arc::new(full.field(i).clone()),
                    recursive,
                )
            })
            .collect();
        let mut columns: Vec<Column> = columns;
        let batch_rows = options.batch_size.clamp(1, DEFAULT_BATCH_SIZE * 8);
        columns.iter_mut().for_each(|c| c.reserve(batch_rows));
        let arrow = Arc::new(full.project(&projection)?);
        let max_depth = match options.max_depth {
            Some(max) => max,
            None => schema
                .max_depth(record)?
                .unwrap_or(DEFAULT_MAX_DEPTH)
                .max(DEFAULT_MAX_DEPTH),
        };
        Ok(BatchDecoder {
            type_name: def.name.as_str().into(),
            schema,
            record,
            flat: flat::plan(&fields, &columns),
            fields,
            columns,
            arrow,
            rows: 0,
            records: 0,
            bytes: 0,
            max_depth,
            options,
        })
    }

    /// The Arrow schema of the batches: the projected fields, in projection order, with the
    /// mapping's metadata.
    pub fn schema(&self) -> SchemaRef {
        self.arrow.clone()
    }

    /// The runtime schema and the record type decoded.
    pub fn record_type(&self) -> (&Arc<Schema>, RecordId) {
        (&self.schema, self.record)
    }

    /// The options the decoder was made with.
    pub fn options(&self) -> &DecodeOptions {
        &self.options
    }

    /// Decodes one record from `input`, which must hold one at its current position. Errors
    /// carry the record number (records decoded so far), the position and the field path
    /// rooted at the type name, as [`RecordReader`] reports them.
    pub fn decode<I: RecordInput + ?Sized>(&mut self, input: &mut I) -> hadoop_record::Result<()> {
        let n = self.records;
        self.decode_record(input).map_err(|e| {
            e.in_field(&self.type_name)
                .at(input.position())
                .in_record(n)
        })
    }

    /// Decodes a record that is a [`Value`] already (read from JSON, or through a type
    /// filter). Errors name the record number and the field path.
    pub fn decode_value(&mut self, value: &Value) -> hadoop_record::Result<()> {
        let n = self.records;
        let mut input = ValueInput::new(value.clone());
        self.decode_record(&mut input)
            .map_err(|e| e.in_field(&self.type_name).in_record(n))
    }

    /// Decodes the one record of a framed payload in `format`. Errors are numbered as the
    /// payload's record (the records decoded so far) and placed in the payload; an empty
    /// payload, or bytes after the record, are errors too. A CSV record needs its line end
    /// (which `plasma-text` framing strips).
    ///
    /// Binary payloads are decoded straight from their bytes, records whose fields are all
    /// numbers and booleans by a plan of their own (the fast path of scans); any error is
    /// the one a [`RecordReader`] on the payload reports.
    pub fn decode_payload(&mut self, payload: &[u8], format: Format) -> hadoop_record::Result<()> {
        if format == Format::Binary {
            return self.decode_binary_payload(payload);
        }
        self.read_payload(payload, format)
    }

    /// [`BatchDecoder::decode_payload`] of each payload `payloads` gives, until the decoder
    /// [is full](BatchDecoder::is_full) or they end; stops at the first error (the payload
    /// in error taken from `payloads`, nothing of it kept). The loop of scans: binary
    /// payloads of flat records go through their plan without a call per payload.
    pub fn decode_payloads<'p>(
        &mut self,
        payloads: &mut impl Iterator<Item = &'p [u8]>,
        format: Format,
    ) -> hadoop_record::Result<()> {
        if format == Format::Binary {
            if let Some(plan) = self.flat.take() {
                let result = self.decode_while_room(payloads, |d, p| d.decode_flat(&plan, p));
                self.flat = Some(plan);
                return result;
            }
        }
        self.decode_while_room(payloads, |d, p| d.decode_payload(p, format))
    }

    /// `decode` of each payload of `payloads` until the decoder is full or they end.
    #[inline(always)]
    fn decode_while_room<'p>(
        &mut self,
        payloads: &mut impl Iterator<Item = &'p [u8]>,
        mut decode: impl FnMut(&mut Self, &'p [u8]) -> hadoop_record::Result<()>,
    ) -> hadoop_record::Result<()> {
        while !self.is_full() {
            let Some(payload) = payloads.next() else {
                break;
            };
            decode(self, payload)?;
        }
        Ok(())
    }

    /// One binary payload by the flat `plan`; one it does not take, through
    /// [`Self::read_payload`].
    #[inline(always)]
    fn decode_flat(&mut self, plan: &[flat::Flat], payload: &[u8]) -> hadoop_record::Result<()> {
        if let Some(bytes) = flat::decode(plan, &mut self.columns, payload) {
            self.rows += 1;
            self.records += 1;
            self.bytes += bytes;
            return Ok(());
        }
        for c in &mut self.columns {
            c.truncate(self.rows);
        }
        self.read_payload(payload, Format::Binary)
    }

    /// [`BatchDecoder::decode_payload`] through a [`RecordReader`] on the payload.
    fn read_payload(&mut self, payload: &[u8], format: Format) -> hadoop_record::Result<()> {
        let n = self.records;
        let type_name = self.type_name.clone();
        let mut reader = RecordReader::from_slice(payload, format)
            .numbered_from(n)
            .with_jute_options(self.options.jute)
            .with_max_depth(self.max_depth);
        match reader.read_visit(&type_name, &mut Visit(self))? {
            Some(()) => {}
            None => {
                return Err(hadoop_record::Error::new(
                    ErrorKind::UnexpectedEof,
                    "the payload is empty (a payload holds one record)",
                )
                .in_record(n)
                .at(Position::Byte(0)))
            }
        }
        let trailing = match reader.at_end() {
            Ok(true) => return Ok(()),
            Ok(false) => hadoop_record::Error::syntax(
                "more bytes after the record (a payload holds one record)",
            )
            .in_record(n)
            .at(reader.position()),
            Err(e) => e,
        };
        self.take_back_last();
        Err(trailing)
    }

    /// [`BatchDecoder::decode_payload`] of binary: straight from the payload's bytes (flat
    /// records by their fast plan), without the copy a reader makes. A payload that is not
    /// one good record is decoded again by [`Self::read_payload`], whose error is the one
    /// reading the bytes as a stream gives (`rcc convert`'s, for example).
    fn decode_binary_payload(&mut self, payload: &[u8]) -> hadoop_record::Result<()> {
        if let Some(plan) = self.flat.take() {
            let result = self.decode_flat(&plan, payload);
            self.flat = Some(plan);
            return result;
        } else if !payload.is_empty() {
            let mut input = RawInput::new(payload).with_max_depth(self.max_depth);
            if self.decode_record(&mut input).is_ok() {
                if input.offset() == payload.len() {
                    return Ok(());
                }
                self.take_back_last();
            }
        }
        self.read_payload(payload, Format::Binary)
    }

    /// Rows buffered.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row is buffered.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Whether the buffered rows make a batch: [`DecodeOptions::batch_size`] rows, or 1 GiB
    /// of string and buffer bytes.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.rows >= self.options.batch_size.max(1) || self.bytes >= BYTES_PER_BATCH
    }

    /// Rows to add before the decoder [is full](BatchDecoder::is_full) by its row count.
    #[inline]
    pub fn room(&self) -> usize {
        self.options.batch_size.max(1).saturating_sub(self.rows)
    }

    /// Records decoded since the decoder was made.
    pub fn records_decoded(&self) -> u64 {
        self.records
    }

    /// The buffered rows as a batch (`None` when there are none), leaving the decoder empty.
    pub fn flush(&mut self) -> Result<Option<RecordBatch>, Error> {
        if self.rows == 0 {
            return Ok(None);
        }
        let rows = std::mem::take(&mut self.rows);
        self.bytes = 0;
        let arrays: Result<Vec<_>, _> = self
            .columns
            .iter_mut()
            .map(|c| c.finish(&self.schema))
            .collect();
        let arrays = match arrays {
            Ok(arrays) => arrays,
            Err(e) => {
                self.columns.iter_mut().for_each(|c| c.truncate(0));
                return Err(e.into());
            }
        };
        let batch_rows = self.options.batch_size.clamp(1, DEFAULT_BATCH_SIZE * 8);
        self.columns.iter_mut().for_each(|c| c.reserve(batch_rows));
        let options = RecordBatchOptions::new().with_row_count(Some(rows));
        Ok(Some(RecordBatch::try_new_with_options(
            self.arrow.clone(),
            arrays,
            &options,
        )?))
    }

    /// Decodes one top-level record; on failure, takes back what it appended.
    fn decode_record<I: RecordInput + ?Sized>(
        &mut self,
        input: &mut I,
    ) -> hadoop_record::Result<()> {
        let mut cx = Context {
            schema: &self.schema,
            bytes: 0,
        };
        let result = decode_fields(&self.fields, &mut self.columns, input, &mut cx);
        let bytes = cx.bytes;
        match result {
            Ok(()) => {
                self.rows += 1;
                self.records += 1;
                self.bytes += bytes;
                Ok(())
            }
            Err(e) => {
                for c in &mut self.columns {
                    c.truncate(self.rows);
                }
                Err(e)
            }
        }
    }

    /// Takes the last record decoded back out.
    fn take_back_last(&mut self) {
        self.rows -= 1;
        self.records -= 1;
        for c in &mut self.columns {
            c.truncate(self.rows);
        }
    }
}

fn decode_fields<I: RecordInput + ?Sized>(
    fields: &[TopField],
    columns: &mut [Column],
    input: &mut I,
    cx: &mut Context<'_>,
) -> hadoop_record::Result<()> {
    input.start_record("")?;
    for f in fields {
        let tag = f.name.as_str();
        let result = match f.step {
            Step::Byte(c) => input.read_byte(tag).map(|v| columns[c].bytes_mut().push(v)),
            Step::Bool(c) => input
                .read_bool(tag)
                .map(|v| columns[c].bools_mut().append(v)),
            Step::Int(c) => input.read_int(tag).map(|v| columns[c].ints_mut().push(v)),
            Step::Long(c) => input.read_long(tag).map(|v| columns[c].longs_mut().push(v)),
            Step::Float(c) => input
                .read_float(tag)
                .map(|v| columns[c].floats_mut().push(v)),
            Step::Double(c) => input
                .read_double(tag)
                .map(|v| columns[c].doubles_mut().push(v)),
            Step::Column(c) => columns[c].decode(input, tag, cx),
            Step::Skip => skip::skip(input, cx.schema, &f.ty, tag),
        };
        result.map_err(|e| e.in_field(tag))?;
    }
    input.end_record("")
}

/// Lends a [`RecordReader`]'s input to the decoder.
struct Visit<'a>(&'a mut BatchDecoder);

impl VisitInput for Visit<'_> {
    type Output = ();

    #[inline]
    fn visit<I: RecordInput + ?Sized>(&mut self, input: &mut I) -> hadoop_record::Result<()> {
        self.0.decode_record(input)
    }
}
