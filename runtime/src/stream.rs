//! Whole records over a byte stream: [`RecordWriter`] and [`RecordReader`], in any
//! [`Format`].
//!
//! ```
//! use hadoop_record::{Format, RecordReader, RecordWriter, Value};
//! use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
//!
//! let mut schema = Schema::new();
//! let point = schema.add(RecordType::new("geo", "Point", vec![
//!     FieldDef::new("x", FieldType::Int),
//!     FieldDef::new("y", FieldType::Int),
//! ])).unwrap();
//! let p = Value::from_fields(&schema, point, [("x", 1024.into()), ("y", (-1).into())]).unwrap();
//!
//! let mut writer = RecordWriter::new(Vec::new(), Format::Binary);
//! writer.write_value(&schema, point, &p).unwrap();
//! writer.write_value(&schema, point, &p).unwrap();
//! let bytes = writer.into_inner().unwrap();
//! assert_eq!(bytes, b"\x8e\x04\x00\xff\x8e\x04\x00\xff");
//!
//! let mut reader = RecordReader::new(&bytes[..], Format::Binary);
//! assert_eq!(reader.read_value(&schema, point).unwrap(), Some(p.clone()));
//! assert_eq!(reader.read_value(&schema, point).unwrap(), Some(p));
//! assert_eq!(reader.read_value(&schema, point).unwrap(), None);
//!
//! // A record cut short: the error names the record, the byte offset and the field.
//! let mut reader = RecordReader::new(&bytes[..6], Format::Binary);
//! reader.read_value(&schema, point).unwrap();
//! let e = reader.read_value(&schema, point).unwrap_err();
//! assert_eq!(e.to_string(), "record 1, byte 4, in Point.x: input ends inside an int");
//! ```
//!
//! Adding a format takes six lines here: a variant of `Input` and of `Output`, an arm in
//! each of the `with_input!`/`with_output!` macros, and an arm in each constructor. Its input
//! implements [`RecordInput`] (`at_end` at a clean end of input, `position` for errors) and its
//! output implements [`RecordOutput`] plus the crate's `StreamOutput` (its [`Sink`], `reset`
//! after a failed record) and has inherent `get_ref` and `into_inner`.

use std::fmt;
use std::io::{Read, Write};
use std::iter::FusedIterator;
use std::marker::PhantomData;

use crate::archive::binary::{BinaryInput, BinaryOutput};
use crate::archive::csv::{CsvInput, CsvOutput};
use crate::archive::jute::{JuteInput, JuteOptions, JuteOutput};
use crate::archive::xml::{XmlInput, XmlOutput};
use crate::archive::{FloatText, RecordInput, RecordOutput, Sink};
use crate::by_name::from_name;
use crate::error::{Error, ErrorKind, IntoInnerError, Position, Result};
use crate::meta::{Filters, RecordTypeInfo};
use crate::record::Record;
use crate::schema::{FieldType, RecordId, Schema};
use crate::value::{self, Value};

/// Hadoop's three record encodings, and ZooKeeper's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// `BinaryRecordOutput`/`BinaryRecordInput` (spec §3).
    Binary,
    /// `CsvRecordOutput`/`CsvRecordInput` (spec §4).
    Csv,
    /// `XmlRecordOutput`/`XmlRecordInput` (spec §5).
    Xml,
    /// ZooKeeper's jute `BinaryOutputArchive`/`BinaryInputArchive` ([`crate::archive::jute`]),
    /// read with ZooKeeper's default `jute.maxbuffer` unless
    /// [`RecordReader::with_jute_options`] says otherwise.
    Jute,
}

impl Format {
    /// Every format.
    pub const ALL: &'static [Format] = &[Format::Binary, Format::Csv, Format::Xml, Format::Jute];

    /// The lower-case name: `binary`, `csv`, `xml` or `jute`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Binary => "binary",
            Format::Csv => "csv",
            Format::Xml => "xml",
            Format::Jute => "jute",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

from_name!(
    /// `binary`, `csv`, `xml` or `jute`, in any case.
    Format,
    "format",
    any_case
);

/// Reads one top-level record from the input a [`RecordReader`] lends it
/// ([`RecordReader::read_visit`]), seeing the input's concrete type: every call on it is
/// statically dispatched. For readers that are neither a [`Record`] nor a [`Value`], such as
/// a columnar decoder writing straight into its own buffers.
pub trait VisitInput {
    /// What reading one record gives.
    type Output;
    /// Reads one top-level record (tag `""`) from `input`.
    fn visit<I: RecordInput + ?Sized>(&mut self, input: &mut I) -> Result<Self::Output>;
}

/// Writes one top-level record to the output a [`RecordWriter`] lends it
/// ([`RecordWriter::write_visit`]), seeing the output's concrete type.
pub trait VisitOutput {
    /// Writes one top-level record (tag `""`) to `out`.
    fn visit<O: RecordOutput + ?Sized>(&mut self, out: &mut O) -> Result<()>;
}

/// What [`RecordWriter`] needs of a format's output beyond [`RecordOutput`].
pub(crate) trait StreamOutput<W: Write>: RecordOutput {
    /// The buffered sink the output writes through.
    fn sink(&mut self) -> &mut Sink<W>;
    /// Forgets the state of a record abandoned midway (a comma flag, an indentation level),
    /// so the next record starts as at the beginning of a stream.
    fn reset(&mut self) {}
}

impl<W: Write> StreamOutput<W> for BinaryOutput<W> {
    fn sink(&mut self) -> &mut Sink<W> {
        self.sink_mut()
    }
}

impl<W: Write> StreamOutput<W> for JuteOutput<W> {
    fn sink(&mut self) -> &mut Sink<W> {
        self.sink_mut()
    }
}

impl<W: Write> StreamOutput<W> for XmlOutput<W> {
    fn sink(&mut self) -> &mut Sink<W> {
        self.sink_mut()
    }
    fn reset(&mut self) {
        XmlOutput::reset(self)
    }
}

impl<W: Write> StreamOutput<W> for CsvOutput<W> {
    fn sink(&mut self) -> &mut Sink<W> {
        self.sink_mut()
    }
    fn reset(&mut self) {
        CsvOutput::reset(self)
    }
}

/// The format-specific input of a [`RecordReader`].
#[derive(Debug)]
enum Input<R> {
    Binary(BinaryInput<R>),
    Csv(CsvInput<R>),
    Xml(XmlInput<R>),
    Jute(JuteInput<R>),
}

/// Runs `$body` with `$i` bound to the concrete input: one statically dispatched copy per
/// format.
macro_rules! with_input {
    ($input:expr, $i:ident => $body:expr) => {
        match $input {
            Input::Binary($i) => $body,
            Input::Csv($i) => $body,
            Input::Xml($i) => $body,
            Input::Jute($i) => $body,
        }
    };
}

/// Reads top-level records one after another from a byte stream (Hadoop's `RecordReader`).
///
/// Input is buffered internally: pass the raw reader (a file, a socket, a byte slice), not a
/// `BufReader`. Each [`RecordReader::read`] returns the next record, `None` at a clean end of
/// input (exactly after a record), or an error for anything else — a partial record included.
/// Errors carry the record number (from 0), the position (byte offset for binary, line:col
/// for text) and the field path rooted at the type name, e.g.
/// `record 2, line 3:41, in Outer.c.vrec[3].tag: …`. After an error the reader stays failed:
/// a damaged stream cannot be resynchronised reliably, so every later read is an error of the
/// same [`ErrorKind`] (an I/O error stays an I/O error), and the iterators end.
///
/// ```
/// use hadoop_record::{Format, RecordReader};
/// # use hadoop_record::{Record, RecordInput, RecordOutput, Result};
/// # use hadoop_record::schema::{FieldDef, FieldType, RecordId, SchemaBuilder};
/// # #[derive(Debug, PartialEq)]
/// # struct Point { x: i32, y: i32 }
/// # impl Record for Point {
/// #     fn type_name() -> &'static str { "Point" }
/// #     fn write_to<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
/// #         out.start_record(tag)?; out.write_int(self.x, "x")?; out.write_int(self.y, "y")?; out.end_record(tag)
/// #     }
/// #     fn read_from<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
/// #         input.start_record(tag)?;
/// #         let x = input.read_int("x").map_err(|e| e.in_field("x"))?;
/// #         let y = input.read_int("y").map_err(|e| e.in_field("y"))?;
/// #         input.end_record(tag)?; Ok(Point { x, y })
/// #     }
/// #     fn compare_hadoop(&self, o: &Self) -> std::cmp::Ordering { (self.x, self.y).cmp(&(o.x, o.y)) }
/// #     fn describe(s: &mut SchemaBuilder) -> RecordId {
/// #         s.record::<Self>("Point", |_| vec![FieldDef::new("x", FieldType::Int), FieldDef::new("y", FieldType::Int)])
/// #     }
/// # }
/// let csv = b"1,2\n3,4\n";
/// let mut reader = RecordReader::new(&csv[..], Format::Csv);
/// let points: Vec<Point> = reader.records().collect::<Result<_, _>>().unwrap();
/// assert_eq!(points, [Point { x: 1, y: 2 }, Point { x: 3, y: 4 }]);
/// ```
#[derive(Debug)]
pub struct RecordReader<R> {
    input: Input<R>,
    format: Format,
    records: u64,
    /// The kind of the error that stopped the reader.
    failed: Option<ErrorKind>,
    /// What the last schema-evolution read built, for the next.
    evolution: Option<Box<Evolution>>,
}

/// The filters of a schema-evolution read ([`RecordReader::read_with`],
/// [`RecordReader::read_value_with`]), kept for the reads that follow with the same types.
#[derive(Debug)]
struct Evolution {
    /// The writer's type information.
    writer: RecordTypeInfo,
    /// The record type read into, when typed (its schema is in the filters).
    record: Option<std::any::TypeId>,
    filters: Filters,
}

impl Evolution {
    #[cold]
    fn new(
        writer: &RecordTypeInfo,
        record: Option<std::any::TypeId>,
        filters: Filters,
    ) -> Result<Box<Evolution>> {
        Ok(Box::new(Evolution {
            writer: writer.clone(),
            record,
            filters,
        }))
    }
}

/// Reads the next record into `T` through `filters`: [`RecordReader::read_with`] on the
/// reader's parts, so that the filters may be kept in the reader.
#[inline(always)]
fn read_evolved<R: Read, T: Record>(
    input: &mut Input<R>,
    records: &mut u64,
    failed: &mut Option<ErrorKind>,
    filters: &Filters,
) -> Result<Option<T>> {
    // In line (as `read`'s is, being small): a record returned from a call through memory
    // costs a store-forwarding stall, a fifth of reading a small record.
    let result = with_input!(input, input => read_one(input, T::type_name(),
        #[inline(always)]
        |i| filters.read_typed::<T, _>(i, "")
    ));
    count_read(records, failed, result)
}

/// [`read_evolved`] as a [`Value`].
fn read_evolved_value<R: Read>(
    input: &mut Input<R>,
    records: &mut u64,
    failed: &mut Option<ErrorKind>,
    filters: &Filters,
) -> Result<Option<Value>> {
    let name = &filters.schema().record_at(filters.reader()).name;
    let result = with_input!(input, input => read_one(input, name, |i| {
        filters.read_record(i, "")
    }));
    count_read(records, failed, result)
}

/// What [`RecordsWith`] and [`ValuesWith`] share: the reader, and the filters taken out of
/// it (given back on drop), or the error of making them.
#[derive(Debug)]
struct Evolving<'a, R> {
    reader: &'a mut RecordReader<R>,
    kept: Option<Box<Evolution>>,
    /// Set on the first error: the iterator ends after it.
    error: Option<Error>,
    ended: bool,
}

impl<'a, R: Read> Evolving<'a, R> {
    fn new(reader: &'a mut RecordReader<R>, kept: Result<Box<Evolution>>) -> Self {
        let (kept, error) = match kept {
            Ok(kept) => (Some(kept), None),
            Err(e) => (None, Some(e)),
        };
        Evolving {
            reader,
            kept,
            error,
            ended: false,
        }
    }

    /// The reader's parts and the filters to read the next item with, or the item that
    /// ends the iteration.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    fn parts(
        &mut self,
    ) -> std::result::Result<
        (&mut Input<R>, &mut u64, &mut Option<ErrorKind>, &Filters),
        Option<Error>,
    > {
        if self.ended || self.reader.failed.is_some() {
            return Err(None);
        }
        if let Some(e) = self.error.take() {
            self.ended = true;
            return Err(Some(e));
        }
        let r = &mut *self.reader;
        match &self.kept {
            Some(kept) => Ok((&mut r.input, &mut r.records, &mut r.failed, &kept.filters)),
            None => Err(None),
        }
    }

    /// Ends the iteration after an error.
    #[inline(always)]
    fn item<T>(&mut self, read: Result<Option<T>>) -> Option<Result<T>> {
        let item = read.transpose()?;
        self.ended = item.is_err();
        Some(item)
    }
}

impl<R> Drop for Evolving<'_, R> {
    fn drop(&mut self) {
        if let Some(kept) = self.kept.take() {
            self.reader.evolution = Some(kept);
        }
    }
}

/// Iterator over records written with other type information, read into `T`
/// ([`RecordReader::records_with`]).
#[derive(Debug)]
pub struct RecordsWith<'a, R, T> {
    evolving: Evolving<'a, R>,
    _record: PhantomData<fn() -> T>,
}

impl<R: Read, T: Record> Iterator for RecordsWith<'_, R, T> {
    type Item = Result<T>;

    // Always in line, like `RecordReader::read`: returning a record through memory from a
    // call costs a store-forwarding stall per record, a fifth of reading a small one.
    #[inline(always)]
    fn next(&mut self) -> Option<Result<T>> {
        let read = match self.evolving.parts() {
            Ok((input, records, failed, filters)) => read_evolved(input, records, failed, filters),
            Err(end) => return end.map(Err),
        };
        self.evolving.item(read)
    }
}

impl<R: Read, T: Record> FusedIterator for RecordsWith<'_, R, T> {}

/// Iterator over records written with other type information, read as [`Value`]s
/// ([`RecordReader::values_with`]).
#[derive(Debug)]
pub struct ValuesWith<'a, R> {
    evolving: Evolving<'a, R>,
}

impl<R: Read> Iterator for ValuesWith<'_, R> {
    type Item = Result<Value>;

    fn next(&mut self) -> Option<Result<Value>> {
        let read = match self.evolving.parts() {
            Ok((input, records, failed, filters)) => {
                read_evolved_value(input, records, failed, filters)
            }
            Err(end) => return end.map(Err),
        };
        self.evolving.item(read)
    }
}

impl<R: Read> FusedIterator for ValuesWith<'_, R> {}

impl<R: Read> RecordReader<R> {
    /// A reader of `format` records from `reader`.
    pub fn new(reader: R, format: Format) -> Self {
        Self::with_capacity(reader, format, usize::MAX)
    }

    /// A reader whose input buffer starts at `capacity` bytes (at most the usual 64 KiB).
    fn with_capacity(reader: R, format: Format, capacity: usize) -> Self {
        let input = match format {
            Format::Binary => Input::Binary(BinaryInput::with_capacity(reader, capacity)),
            Format::Csv => Input::Csv(CsvInput::with_capacity(reader, capacity)),
            Format::Xml => Input::Xml(XmlInput::with_capacity(reader, capacity)),
            Format::Jute => Input::Jute(JuteInput::with_capacity(
                reader,
                JuteOptions::default(),
                capacity,
            )),
        };
        RecordReader {
            input,
            format,
            records: 0,
            failed: None,
            evolution: None,
        }
    }

    /// The same reader with a nesting limit of `max` records, vectors and maps open at once
    /// instead of [`crate::archive::DEFAULT_MAX_DEPTH`]; deeper input fails with
    /// [`ErrorKind::Limit`]. The limit is counted as every reader counts it
    /// ([`crate::archive::Depth`]), for typed records and [`Value`]s alike.
    ///
    /// ```
    /// use hadoop_record::{ErrorKind, Format, RecordReader, Value};
    /// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
    /// let mut schema = Schema::new();
    /// let id = schema.add(RecordType {
    ///     module: String::new(),
    ///     name: "R".into(),
    ///     fields: vec![FieldDef::new("v", FieldType::Vector(Box::new(FieldType::Int)))],
    /// }).unwrap();
    /// // The record and its vector: two levels.
    /// let mut reader = RecordReader::new(&b"v{1}\n"[..], Format::Csv).with_max_depth(2);
    /// assert!(reader.read_value(&schema, id).unwrap().is_some());
    /// let mut reader = RecordReader::new(&b"v{1}\n"[..], Format::Csv).with_max_depth(1);
    /// assert_eq!(reader.read_value(&schema, id).unwrap_err().kind(), ErrorKind::Limit);
    /// ```
    pub fn with_max_depth(mut self, max: usize) -> Self {
        self.input = match self.input {
            Input::Binary(i) => Input::Binary(i.with_max_depth(max)),
            Input::Csv(i) => Input::Csv(i.with_max_depth(max)),
            Input::Xml(i) => Input::Xml(i.with_max_depth(max)),
            Input::Jute(i) => Input::Jute(i.with_max_depth(max)),
        };
        self
    }

    /// The same reader with the string and buffer length limit of `options` (ZooKeeper's
    /// `jute.maxbuffer`) when it reads jute; other formats have no such limit.
    ///
    /// ```
    /// use hadoop_record::archive::jute::JuteOptions;
    /// use hadoop_record::{Format, RecordReader};
    /// let bytes = b"\0\0\x04\0";
    /// let reader = RecordReader::new(&bytes[..], Format::Jute)
    ///     .with_jute_options(JuteOptions::default().with_max_buffer(4096));
    /// assert_eq!(reader.format(), Format::Jute);
    /// ```
    pub fn with_jute_options(mut self, options: JuteOptions) -> Self {
        if let Input::Jute(input) = &mut self.input {
            input.set_options(options);
        }
        self
    }

    /// The format being read.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The reader records are read from.
    pub fn get_ref(&self) -> &R {
        with_input!(&self.input, i => i.get_ref())
    }

    /// The reader records are read from, mutably. Reading from it directly skips the bytes
    /// this reader has buffered.
    pub fn get_mut(&mut self) -> &mut R {
        with_input!(&mut self.input, i => i.get_mut())
    }

    /// The reader records are read from. The bytes this reader has read ahead (up to 64 KiB
    /// past the last record) are lost, as with `BufReader::into_inner`.
    pub fn into_inner(self) -> R {
        with_input!(self.input, i => i.into_inner())
    }

    /// How many records have been read.
    pub fn records_read(&self) -> u64 {
        self.records
    }

    /// Where the next record starts (or where reading failed).
    pub fn position(&self) -> Position {
        with_input!(&self.input, i => i.position())
    }

    /// Reads the next record: `None` at a clean end of input.
    #[inline]
    pub fn read<T: Record>(&mut self) -> Result<Option<T>> {
        if let Some(kind) = self.failed {
            return Err(self.failed_before(kind));
        }
        let result = with_input!(&mut self.input, input => read_one(input, T::type_name(), |i| {
            T::read_from(i, "")
        }));
        self.count(result)
    }

    /// Reads the next record of type `id` of `schema` as a [`Value`]: `None` at a clean end
    /// of input. A record the schema lacks is an [`ErrorKind::Schema`] error, which leaves
    /// the reader as it was.
    pub fn read_value(&mut self, schema: &Schema, id: RecordId) -> Result<Option<Value>> {
        if let Some(kind) = self.failed {
            return Err(self.failed_before(kind));
        }
        let name = &schema.checked_record(id)?.name;
        let result = with_input!(&mut self.input, input => read_one(input, name, |i| {
            value::read_checked(i, schema, &FieldType::Record(id), "")
        }));
        self.count(result)
    }

    /// Reads the next record with `visitor`, which is lent the reader's input: `None` at a
    /// clean end of input. Errors are reported as [`RecordReader::read`] reports them: the
    /// record number, the position, and the field path rooted at `type_name` (the record
    /// type's simple name). Failing leaves the reader failed, as `read` does.
    ///
    /// ```
    /// use hadoop_record::{Format, RecordInput, RecordReader, Result, VisitInput};
    ///
    /// /// Sums the one `long` field of each record.
    /// struct Sum(i64);
    /// impl VisitInput for Sum {
    ///     type Output = ();
    ///     fn visit<I: RecordInput + ?Sized>(&mut self, input: &mut I) -> Result<()> {
    ///         input.start_record("")?;
    ///         self.0 += input.read_long("n").map_err(|e| e.in_field("n"))?;
    ///         input.end_record("")
    ///     }
    /// }
    /// let mut reader = RecordReader::new(&b"1\n2\nx\n"[..], Format::Csv);
    /// let mut sum = Sum(0);
    /// while let Some(()) = reader.read_visit("N", &mut sum).unwrap_or_else(|e| {
    ///     assert_eq!(e.to_string(), "record 2, line 3:1, in N.n: expected a long, found `x`");
    ///     None
    /// }) {}
    /// assert_eq!(sum.0, 3);
    /// ```
    #[inline]
    pub fn read_visit<V: VisitInput>(
        &mut self,
        type_name: &str,
        visitor: &mut V,
    ) -> Result<Option<V::Output>> {
        if let Some(kind) = self.failed {
            return Err(self.failed_before(kind));
        }
        let result = with_input!(&mut self.input, input => read_one(input, type_name, |i| {
            visitor.visit(i)
        }));
        self.count(result)
    }

    /// Whether the input is exhausted (after what may separate records): `true` at a clean
    /// end of input. A framed payload holds one record: this tells whether more follows it.
    pub fn at_end(&mut self) -> Result<bool> {
        if let Some(kind) = self.failed {
            return Err(self.failed_before(kind));
        }
        let records = self.records;
        with_input!(&mut self.input, input => input
            .at_end()
            .map_err(|e| e.in_record(records).at(input.position())))
    }

    /// The same reader numbering records from `first` in its errors: for one payload of a
    /// framed stream, the payload's number in the stream.
    ///
    /// ```
    /// use hadoop_record::{Format, RecordReader, Value};
    /// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
    /// let mut schema = Schema::new();
    /// let id = schema.add(RecordType { module: String::new(), name: "N".into(),
    ///     fields: vec![FieldDef::new("n", FieldType::Long)] }).unwrap();
    /// let e = RecordReader::from_slice(b"x\n", Format::Csv).numbered_from(41)
    ///     .read_value(&schema, id).unwrap_err();
    /// assert_eq!(e.record(), Some(41));
    /// ```
    pub fn numbered_from(mut self, first: u64) -> Self {
        self.records = first;
        self
    }

    /// Reads the next record, written with the type information `writer` (of an older or
    /// newer version of `T`), into `T` with Hadoop's rules (see [`crate::meta`]): fields are
    /// matched by name and type, those `T` lacks are skipped, those the data lacks are
    /// empty. `None` at a clean end of input.
    ///
    /// The reader builds what it reads with (`T`'s schema and the [`Filters`]) at the first
    /// call and keeps it for the calls that follow with the same `T` and equal type
    /// information, so a stream reads at the speed of its records (see `BENCHMARKS.md`):
    /// the writer's fields are read straight into `T`'s, in whatever order they come, or
    /// skipped. (Only a derived or generated `T` whose fields hold records that changed too,
    /// and whose fields were reordered, is read whole first, then handed to `T`.)
    ///
    /// ```
    /// use hadoop_record::{Format, Record, RecordReader, RecordWriter};
    ///
    /// #[derive(Record, Debug, PartialEq)]
    /// struct V1 { id: i32, gone: String }
    /// #[derive(Record, Debug, PartialEq)]
    /// struct V2 { added: bool, id: i32 }
    ///
    /// let mut w = RecordWriter::new(Vec::new(), Format::Xml);
    /// w.write(&V1 { id: 7, gone: "x".into() })?;
    /// w.write(&V1 { id: 8, gone: "y".into() })?;
    /// let xml = w.into_inner()?;
    /// let mut r = RecordReader::new(&xml[..], Format::Xml);
    /// let v1 = V1::type_info();
    /// assert_eq!(r.read_with::<V2>(&v1)?, Some(V2 { added: false, id: 7 }));
    /// assert_eq!(r.read_with::<V2>(&v1)?, Some(V2 { added: false, id: 8 }));
    /// assert_eq!(r.read_with::<V2>(&v1)?, None);
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    #[inline]
    pub fn read_with<T: Record + 'static>(&mut self, writer: &RecordTypeInfo) -> Result<Option<T>> {
        if let Some(kind) = self.failed {
            return Err(self.failed_before(kind));
        }
        let kept = self.evolution_for::<T>(writer)?;
        let filters = &self.evolution.insert(kept).filters;
        read_evolved(
            &mut self.input,
            &mut self.records,
            &mut self.failed,
            filters,
        )
    }

    /// [`RecordReader::read_with`] for a record of type `id` of `schema`, as a [`Value`];
    /// likewise kept for the calls that follow with the same (or a cloned, unchanged)
    /// schema, `id` and equal type information. A record the schema lacks is an
    /// [`ErrorKind::Schema`] error, which leaves the reader as it was.
    pub fn read_value_with(
        &mut self,
        schema: &Schema,
        id: RecordId,
        writer: &RecordTypeInfo,
    ) -> Result<Option<Value>> {
        if let Some(kind) = self.failed {
            return Err(self.failed_before(kind));
        }
        let kept = self.evolution_for_value(schema, id, writer)?;
        let filters = &self.evolution.insert(kept).filters;
        read_evolved_value(
            &mut self.input,
            &mut self.records,
            &mut self.failed,
            filters,
        )
    }

    /// An iterator over the remaining records, written with the type information `writer`,
    /// read into `T` as [`RecordReader::read_with`] reads them; it ends after the first
    /// error. What it reads with is built (or taken from the last schema-evolution read) once,
    /// when it is made, and kept by the reader when it is dropped.
    ///
    /// ```
    /// use hadoop_record::{Format, Record, RecordReader, RecordWriter};
    ///
    /// #[derive(Record, Debug, PartialEq)]
    /// struct V1 { id: i32 }
    /// #[derive(Record, Debug, PartialEq)]
    /// struct V2 { id: i32, label: String }
    ///
    /// let mut w = RecordWriter::new(Vec::new(), Format::Binary);
    /// for id in 0..3 {
    ///     w.write(&V1 { id })?;
    /// }
    /// let bytes = w.into_inner()?;
    /// let mut r = RecordReader::new(&bytes[..], Format::Binary);
    /// let ids: Vec<i32> = r.records_with::<V2>(&V1::type_info()).map(|v| v.map(|v| v.id)).collect::<Result<_, _>>()?;
    /// assert_eq!(ids, [0, 1, 2]);
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn records_with<T: Record + 'static>(
        &mut self,
        writer: &RecordTypeInfo,
    ) -> RecordsWith<'_, R, T> {
        let kept = self.evolution_for::<T>(writer);
        RecordsWith {
            evolving: Evolving::new(self, kept),
            _record: PhantomData,
        }
    }

    /// An iterator over the remaining records as [`Value`]s of type `id` of `schema`,
    /// written with the type information `writer`, read as [`RecordReader::read_value_with`]
    /// reads them; it ends after the first error. Like [`RecordReader::records_with`], it
    /// builds what it reads with once.
    pub fn values_with(
        &mut self,
        schema: &Schema,
        id: RecordId,
        writer: &RecordTypeInfo,
    ) -> ValuesWith<'_, R> {
        let kept = self.evolution_for_value(schema, id, writer);
        ValuesWith {
            evolving: Evolving::new(self, kept),
        }
    }

    /// What reading `T` with `writer` takes: the kept filters when they are for that, else
    /// new ones. Taken out of the reader, to be put back.
    #[inline]
    fn evolution_for<T: Record + 'static>(
        &mut self,
        writer: &RecordTypeInfo,
    ) -> Result<Box<Evolution>> {
        let record = Some(std::any::TypeId::of::<T>());
        match self.evolution.take() {
            Some(e) if e.record == record && e.writer.reads_as(writer) => Ok(e),
            _ => {
                let (schema, id) = T::schema();
                Evolution::new(writer, record, Filters::new(&schema, id, writer)?)
            }
        }
    }

    /// [`RecordReader::evolution_for`] a record `id` of `schema` read as a [`Value`].
    fn evolution_for_value(
        &mut self,
        schema: &Schema,
        id: RecordId,
        writer: &RecordTypeInfo,
    ) -> Result<Box<Evolution>> {
        match self.evolution.take() {
            Some(e)
                if e.record.is_none()
                    && e.filters.reader() == id
                    && e.filters.schema().stamp() == schema.stamp()
                    && e.writer.reads_as(writer) =>
            {
                Ok(e)
            }
            _ => Evolution::new(writer, None, Filters::new(schema, id, writer)?),
        }
    }

    /// An iterator over the remaining records; it ends after the first error.
    pub fn records<T: Record>(&mut self) -> Records<'_, R, T> {
        Records {
            reader: self,
            _record: PhantomData,
        }
    }

    /// An owning iterator over the remaining records; it ends after the first error.
    pub fn into_records<T: Record>(self) -> IntoRecords<R, T> {
        IntoRecords {
            reader: self,
            _record: PhantomData,
        }
    }

    /// An iterator over the remaining records as [`Value`]s of type `id` of `schema`; it ends
    /// after the first error.
    pub fn values<'a>(&'a mut self, schema: &'a Schema, id: RecordId) -> Values<'a, R> {
        Values {
            reader: self,
            schema,
            id,
            ended: false,
        }
    }

    /// [`RecordReader::read`] as an iterator item: nothing after the first error.
    #[inline]
    fn next_record<T: Record>(&mut self) -> Option<Result<T>> {
        if self.failed.is_some() {
            return None;
        }
        self.read().transpose()
    }

    #[inline]
    fn count<T>(&mut self, result: Result<Option<T>>) -> Result<Option<T>> {
        count_read(&mut self.records, &mut self.failed, result)
    }

    #[cold]
    fn failed_before(&self, kind: ErrorKind) -> Error {
        read_after_failure(kind, self.records, self.position())
    }
}

impl<'a> RecordReader<&'a [u8]> {
    /// A reader of `format` records from bytes already in memory, such as one framed payload.
    ///
    /// It reads and reports errors exactly as [`RecordReader::new`] over the same bytes does,
    /// but its buffer is sized to the bytes instead of 64 KiB: making one per small payload is
    /// cheap.
    ///
    /// ```
    /// use hadoop_record::{Format, RecordReader, Value};
    /// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
    /// let mut schema = Schema::new();
    /// let id = schema.add(RecordType {
    ///     module: String::new(),
    ///     name: "N".into(),
    ///     fields: vec![FieldDef::new("n", FieldType::Long)],
    /// }).unwrap();
    /// let payload = b"7\n";
    /// let mut reader = RecordReader::from_slice(payload, Format::Csv);
    /// assert_eq!(reader.read_value(&schema, id).unwrap(), Some(Value::Record(vec![Value::Long(7)])));
    /// assert_eq!(reader.read_value(&schema, id).unwrap(), None);
    ///
    /// let e = RecordReader::from_slice(b"7x\n", Format::Csv).read_value(&schema, id).unwrap_err();
    /// let same = RecordReader::new(&b"7x\n"[..], Format::Csv).read_value(&schema, id).unwrap_err();
    /// assert_eq!(e.to_string(), same.to_string());
    /// ```
    pub fn from_slice(bytes: &'a [u8], format: Format) -> Self {
        Self::with_capacity(bytes, format, bytes.len())
    }
}

/// One top-level record, or `None` at a clean end of input; errors get the path root and a
/// position.
#[inline(always)]
fn read_one<I: RecordInput, T>(
    input: &mut I,
    type_name: &str,
    read: impl FnOnce(&mut I) -> Result<T>,
) -> Result<Option<T>> {
    let result = match input.at_end() {
        Ok(true) => return Ok(None),
        Ok(false) => read(input),
        Err(e) => Err(e),
    };
    match result {
        Ok(record) => Ok(Some(record)),
        Err(e) => Err(e.in_field(type_name).at(input.position())),
    }
}

/// Iterator over the records of a [`RecordReader`] ([`RecordReader::records`]).
#[derive(Debug)]
pub struct Records<'a, R, T> {
    reader: &'a mut RecordReader<R>,
    _record: PhantomData<fn() -> T>,
}

impl<R: Read, T: Record> Iterator for Records<'_, R, T> {
    type Item = Result<T>;

    #[inline]
    fn next(&mut self) -> Option<Result<T>> {
        self.reader.next_record()
    }
}

impl<R: Read, T: Record> FusedIterator for Records<'_, R, T> {}

/// Owning iterator over the records of a [`RecordReader`] ([`RecordReader::into_records`]).
#[derive(Debug)]
pub struct IntoRecords<R, T> {
    reader: RecordReader<R>,
    _record: PhantomData<fn() -> T>,
}

impl<R, T> IntoRecords<R, T> {
    /// The reader, e.g. to ask for its position after an error.
    pub fn reader(&self) -> &RecordReader<R> {
        &self.reader
    }

    /// The reader, to go on reading records of another type.
    pub fn into_reader(self) -> RecordReader<R> {
        self.reader
    }
}

impl<R: Read, T: Record> Iterator for IntoRecords<R, T> {
    type Item = Result<T>;

    #[inline]
    fn next(&mut self) -> Option<Result<T>> {
        self.reader.next_record()
    }
}

impl<R: Read, T: Record> FusedIterator for IntoRecords<R, T> {}

/// Iterator over records as [`Value`]s ([`RecordReader::values`]).
#[derive(Debug)]
pub struct Values<'a, R> {
    reader: &'a mut RecordReader<R>,
    schema: &'a Schema,
    id: RecordId,
    ended: bool,
}

impl<R: Read> Iterator for Values<'_, R> {
    type Item = Result<Value>;

    fn next(&mut self) -> Option<Result<Value>> {
        if self.ended || self.reader.failed.is_some() {
            return None;
        }
        let item = self.reader.read_value(self.schema, self.id).transpose()?;
        // Also after an error that leaves the reader as it was (a record the schema lacks).
        self.ended = item.is_err();
        Some(item)
    }
}

impl<R: Read> FusedIterator for Values<'_, R> {}

/// The format-specific output of a [`RecordWriter`].
#[derive(Debug)]
enum Output<W: Write> {
    Binary(BinaryOutput<W>),
    Csv(CsvOutput<W>),
    Xml(XmlOutput<W>),
    Jute(JuteOutput<W>),
    /// After `into_inner`.
    Taken,
}

/// Runs `$body` with `$o` bound to the concrete output.
macro_rules! with_output {
    ($output:expr, $o:ident => $body:expr, $($other:tt)*) => {
        match $output {
            Output::Binary($o) => $body,
            Output::Csv($o) => $body,
            Output::Xml($o) => $body,
            Output::Jute($o) => $body,
            $($other)*
        }
    };
}

#[cold]
fn taken() -> Error {
    Error::new(ErrorKind::Io, "the writer was taken by into_inner")
}

/// Writes top-level records one after another to a byte stream (Hadoop's `RecordWriter`).
///
/// Output is buffered internally (pass the raw writer, not a `BufWriter`) and flushed by
/// [`RecordWriter::flush`], [`RecordWriter::into_inner`] or, ignoring errors, on drop, like
/// `BufWriter`. A record that fails to encode (a string Hadoop's binary format refuses, a
/// value that does not match its schema) is an error naming the record number and the field
/// path, and leaves nothing of itself in the output unless a string or buffer of 2 KiB or more
/// before the failure was already handed to the writer (large payloads bypass the buffer).
///
/// ```
/// use hadoop_record::{Format, RecordWriter, Value};
/// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
/// let mut schema = Schema::new();
/// let id = schema.add(RecordType {
///     module: String::new(),
///     name: "Pair".into(),
///     fields: vec![FieldDef::new("s", FieldType::String), FieldDef::new("n", FieldType::Long)],
/// }).unwrap();
/// let mut out = Vec::new();
/// let mut writer = RecordWriter::new(&mut out, Format::Csv);
/// writer.write_value(&schema, id, &Value::Record(vec![Value::String("a,b".into()), Value::Long(7)])).unwrap();
/// drop(writer);
/// assert_eq!(out, b"'a%2Cb,7\n");
/// ```
#[derive(Debug)]
pub struct RecordWriter<W: Write> {
    output: Output<W>,
    format: Format,
    records: u64,
    float_text: FloatText,
}

impl<W: Write> RecordWriter<W> {
    /// A writer of `format` records to `writer`.
    pub fn new(writer: W, format: Format) -> Self {
        let output = match format {
            Format::Binary => Output::Binary(BinaryOutput::new(writer)),
            Format::Csv => Output::Csv(CsvOutput::new(writer)),
            Format::Xml => Output::Xml(XmlOutput::new(writer)),
            Format::Jute => Output::Jute(JuteOutput::new(writer)),
        };
        RecordWriter {
            output,
            format,
            records: 0,
            float_text: FloatText::default(),
        }
    }

    /// The same writer printing floats and doubles in CSV and XML as `float_text`'s JDK does:
    /// [`FloatText::Legacy`] (the default) as Java 8 to 18, [`FloatText::Shortest`] as Java 19
    /// and later. Binary and jute hold no float text.
    ///
    /// ```
    /// use hadoop_record::archive::FloatText;
    /// use hadoop_record::{to_vec, Format, Record, RecordWriter};
    /// #[derive(Record)]
    /// struct D { d: f64 }
    /// assert_eq!(to_vec(&D { d: 1e23 }, Format::Csv)?, b"9.999999999999999E22\n");
    /// let mut writer = RecordWriter::new(Vec::new(), Format::Csv).with_float_text(FloatText::Shortest);
    /// writer.write(&D { d: 1e23 })?;
    /// assert_eq!(writer.float_text(), FloatText::Shortest);
    /// assert_eq!(writer.into_inner()?, b"1.0E23\n");
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn with_float_text(mut self, float_text: FloatText) -> Self {
        self.output = match std::mem::replace(&mut self.output, Output::Taken) {
            Output::Csv(o) => Output::Csv(o.with_float_text(float_text)),
            Output::Xml(o) => Output::Xml(o.with_float_text(float_text)),
            other => other,
        };
        self.float_text = float_text;
        self
    }

    /// Which JDK's text floats and doubles are printed in.
    pub fn float_text(&self) -> FloatText {
        self.float_text
    }

    /// The format being written.
    pub fn format(&self) -> Format {
        self.format
    }

    /// How many records have been written.
    pub fn records_written(&self) -> u64 {
        self.records
    }

    /// Writes one top-level record.
    #[inline]
    pub fn write<T: Record>(&mut self, record: &T) -> Result<()> {
        let result = with_output!(&mut self.output, out => write_one(out, T::type_name(), |o| {
            record.write_to(o, "")
        }), Output::Taken => Err(taken()));
        self.count(result)
    }

    /// Writes `value`, a record of type `id` of `schema`, as one top-level record. A value
    /// that does not match the type is an [`ErrorKind::Schema`] error naming the record
    /// number and the field path (and writes nothing), as is a record the schema lacks.
    pub fn write_value(&mut self, schema: &Schema, id: RecordId, value: &Value) -> Result<()> {
        let name = &schema
            .checked_record(id)
            .map_err(|e| e.in_record(self.records))?
            .name;
        let result = with_output!(&mut self.output, out => write_one(out, name, |o| {
            value::write_checked(o, schema, &FieldType::Record(id), value, "")
        }), Output::Taken => Err(taken()));
        self.count(result)
    }

    /// Writes one top-level record given as its Hadoop binary encoding, the bytes a binary
    /// writer writes for it (read from a binary input, or transcoded from another encoding
    /// of the same type), as they are: a binary writer takes them unchanged, so they must be
    /// one whole record. Only a [`Format::Binary`] writer takes them; others return an
    /// [`ErrorKind::Unsupported`] error and write nothing.
    ///
    /// ```
    /// use hadoop_record::{Format, RecordWriter};
    /// let mut writer = RecordWriter::new(Vec::new(), Format::Binary);
    /// writer.write_binary(b"\x8e\x04\x00")?;
    /// assert_eq!(writer.records_written(), 1);
    /// assert_eq!(writer.into_inner()?, b"\x8e\x04\x00");
    /// assert!(RecordWriter::new(Vec::new(), Format::Csv).write_binary(b"\x01").is_err());
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    #[inline]
    pub fn write_binary(&mut self, record: &[u8]) -> Result<()> {
        let result = match &mut self.output {
            Output::Binary(out) => {
                let sink = out.sink_mut();
                sink.write_bytes(record).and_then(|()| sink.end_of_record())
            }
            _ => Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "a record's binary bytes go to a binary writer, not to {}",
                    self.format.name()
                ),
            )),
        };
        self.count(result)
    }

    /// Writes one top-level record with `visitor`, which is lent the writer's output. A
    /// failure is reported and cleaned up as [`RecordWriter::write`] does it: the record
    /// number, the field path rooted at `type_name`, and nothing of the record left behind
    /// (with the same exception for large strings and buffers).
    ///
    /// ```
    /// use hadoop_record::{Format, RecordOutput, RecordWriter, Result, VisitOutput};
    /// struct Pair(i32, i32);
    /// impl VisitOutput for Pair {
    ///     fn visit<O: RecordOutput + ?Sized>(&mut self, out: &mut O) -> Result<()> {
    ///         out.start_record("")?;
    ///         out.write_int(self.0, "a")?;
    ///         out.write_int(self.1, "b")?;
    ///         out.end_record("")
    ///     }
    /// }
    /// let mut writer = RecordWriter::new(Vec::new(), Format::Csv);
    /// writer.write_visit("Pair", &mut Pair(1, 2))?;
    /// assert_eq!(writer.into_inner()?, b"1,2\n");
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    #[inline]
    pub fn write_visit<V: VisitOutput>(&mut self, type_name: &str, visitor: &mut V) -> Result<()> {
        let result = with_output!(&mut self.output, out => write_one(out, type_name, |o| {
            visitor.visit(o)
        }), Output::Taken => Err(taken()));
        self.count(result)
    }

    #[inline]
    fn count(&mut self, result: Result<()>) -> Result<()> {
        match result {
            Ok(()) => {
                self.records += 1;
                Ok(())
            }
            Err(e) => Err(e.in_record(self.records)),
        }
    }

    /// Writes everything buffered and flushes the writer.
    pub fn flush(&mut self) -> Result<()> {
        with_output!(&mut self.output, o => o.sink().flush(),
            Output::Taken => Ok(()),
        )
    }

    /// The writer. Bytes may still be buffered: see [`RecordWriter::flush`].
    pub fn get_ref(&self) -> &W {
        with_output!(&self.output, o => o.get_ref(),
            Output::Taken => unreachable!("a RecordWriter is consumed by into_inner"),
        )
    }

    /// The writer, mutably. Writing to it directly puts bytes before those still buffered:
    /// [`RecordWriter::flush`] first.
    pub fn get_mut(&mut self) -> &mut W {
        with_output!(&mut self.output, o => o.get_mut(),
            Output::Taken => unreachable!("a RecordWriter is consumed by into_inner"),
        )
    }

    /// Writes everything buffered, flushes, and returns the writer. When that fails, the
    /// error holds this writer with what it could not write, as `BufWriter::into_inner` does.
    pub fn into_inner(mut self) -> Result<W, IntoInnerError<Self>> {
        if let Err(e) = self.flush() {
            return Err(IntoInnerError::new(self, e));
        }
        match std::mem::replace(&mut self.output, Output::Taken) {
            Output::Binary(o) => Ok(o.into_writer()),
            Output::Csv(o) => Ok(o.into_writer()),
            Output::Xml(o) => Ok(o.into_writer()),
            Output::Jute(o) => Ok(o.into_writer()),
            Output::Taken => Err(IntoInnerError::new(self, taken())),
        }
    }
}

impl<W: Write> Drop for RecordWriter<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// Writes one top-level record; on failure, takes its bytes back out of the buffer when they
/// are all still there.
#[inline(always)]
fn write_one<W: Write, O: StreamOutput<W>>(
    out: &mut O,
    type_name: &str,
    write: impl FnOnce(&mut O) -> Result<()>,
) -> Result<()> {
    let sink = out.sink();
    let len = sink.buf().len();
    let flushed = sink.position() - len as u64;
    match write(out) {
        Ok(()) => Ok(()),
        Err(e) => {
            let sink = out.sink();
            let now = sink.buf().len();
            if sink.position() - now as u64 == flushed && now >= len {
                sink.buf().truncate(len);
            }
            out.reset();
            Err(e.in_field(type_name))
        }
    }
}

/// The error of a read after a reader failed: of the first error's `kind`, numbered with the
/// record that failed.
#[cold]
pub(crate) fn read_after_failure(kind: ErrorKind, records: u64, position: Position) -> Error {
    Error::new(
        kind,
        "the stream cannot be read past the error in an earlier record",
    )
    .in_record(records)
    .at(position)
}

/// What a reader does with the outcome of reading one record: count it in `records`, or
/// remember that the stream `failed` (and how) and number the error with the record it is in.
#[inline]
pub(crate) fn count_read<T>(
    records: &mut u64,
    failed: &mut Option<ErrorKind>,
    result: Result<Option<T>>,
) -> Result<Option<T>> {
    match result {
        Ok(Some(record)) => {
            *records += 1;
            Ok(Some(record))
        }
        Ok(None) => Ok(None),
        Err(e) => {
            *failed = Some(e.kind());
            Err(e.in_record(*records))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{FieldDef, FieldType, RecordType};

    /// Everything `reader` yields until its first error or the end: values, then the error.
    fn drain<R: Read>(mut reader: RecordReader<R>, schema: &Schema, id: RecordId) -> String {
        let mut out = String::new();
        loop {
            match reader.read_value(schema, id) {
                Ok(Some(v)) => out.push_str(&format!("{v:?}\n")),
                Ok(None) => return out,
                Err(e) => return out + &e.to_string(),
            }
        }
    }

    /// `from_slice` reads every prefix of a stream (so every place a record can be cut off,
    /// across the growth of its small buffer) exactly as `new` does.
    #[test]
    fn from_slice_reads_and_fails_as_new_does() {
        let mut schema = Schema::new();
        let id = schema
            .add(RecordType {
                module: String::new(),
                name: "R".into(),
                fields: vec![
                    FieldDef::new("s", FieldType::String),
                    FieldDef::new("v", FieldType::Vector(Box::new(FieldType::Double))),
                    FieldDef::new("b", FieldType::Buffer),
                    FieldDef::new("n", FieldType::Long),
                ],
            })
            .unwrap();
        let record = |i: i64| {
            Value::Record(vec![
                Value::String(format!("name,{i}\n{}", "x".repeat(i as usize * 40))),
                Value::Vector(vec![Value::Double(i as f64 / 3.0); i as usize]),
                Value::Buffer(vec![i as u8; 3]),
                Value::Long(i * 1_000_003),
            ])
        };
        for format in [Format::Binary, Format::Csv, Format::Xml, Format::Jute] {
            let mut writer = RecordWriter::new(Vec::new(), format);
            for i in 0..3 {
                writer.write_value(&schema, id, &record(i)).unwrap();
            }
            let bytes = writer.into_inner().unwrap();
            for end in 0..=bytes.len() {
                let slice = &bytes[..end];
                let expected = drain(RecordReader::new(slice, format), &schema, id);
                let got = drain(RecordReader::from_slice(slice, format), &schema, id);
                assert_eq!(got, expected, "{format}, first {end} bytes");
            }
            let whole = drain(RecordReader::from_slice(&bytes, format), &schema, id);
            assert_eq!(whole.lines().count(), 3, "{format}: {whole}");
        }
    }
}
