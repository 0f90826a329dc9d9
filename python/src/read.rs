//! `read`: record files as a stream of Arrow record batches (`RecordReader`), decoded by
//! `hadoop-record-datafusion`'s scan in file order, only the columns asked for.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};
use datafusion::common::DataFusionError;
use datafusion::execution::SendableRecordBatchStream;
use datafusion::prelude::{SessionConfig, SessionContext};
use futures::StreamExt;
use hadoop_record_datafusion::{record_table, RecordFormat};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use crate::capsule::{
    consumed, schema_capsule, stream_capsule, to_pyarrow_batch, to_pyarrow_schema, to_pyarrow_table,
};
use crate::errors::from_datafusion;
use crate::json::JsonSource;
use crate::keyed::{Keyed, KeyedSource, KEY};
use crate::options::{check_columns, paths as expand, resolve, TableArgs};
use crate::source::{ReadError, Source};
use crate::storage::{self, Inputs};
use hadoop_record_arrow::decode::DecodeOptions;
use pyo3::exceptions::PyValueError;

/// A query's batches, pulled on the caller's thread (one partition: the files in order).
struct Query {
    stream: SendableRecordBatchStream,
    _ctx: SessionContext,
    runtime: tokio::runtime::Runtime,
}

impl Source for Query {
    fn next_batch(&mut self) -> Result<Option<RecordBatch>, ReadError> {
        self.runtime
            .block_on(self.stream.next())
            .transpose()
            .map_err(ReadError::Scan)
    }
}

/// Opens `inputs` as one table of `format`, its `columns` (all when `None`), at most `n_rows`
/// rows.
fn query(
    format: RecordFormat,
    inputs: Inputs,
    columns: Option<Vec<String>>,
    n_rows: Option<usize>,
    batch_size: usize,
) -> Result<Query, DataFusionError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let config = SessionConfig::new()
        .with_target_partitions(1)
        .with_batch_size(batch_size);
    let ctx = storage::session(config, inputs.storage)?;
    let paths: Vec<&str> = inputs.paths.iter().map(String::as_str).collect();
    let table = runtime.block_on(record_table(&ctx, Arc::new(format), &paths))?;
    let mut frame = ctx.read_table(Arc::new(table))?;
    if let Some(columns) = &columns {
        let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
        frame = frame.select_columns(&columns)?;
    }
    if n_rows.is_some() {
        frame = frame.limit(0, n_rows)?;
    }
    let stream = runtime.block_on(frame.execute_stream())?;
    Ok(Query {
        stream,
        _ctx: ctx,
        runtime,
    })
}

/// Record batches read from record files: iterate for `pyarrow.RecordBatch`es, `read_all()`
/// for a `pyarrow.Table`, or hand it to anything that takes an Arrow stream
/// (`__arrow_c_stream__`: `pyarrow.table(r)`, `polars.from_arrow(r)`, DuckDB, ...). It is
/// consumed once. The GIL is released while records are decoded.
#[pyclass(name = "RecordReader", module = "hadoop_record", frozen)]
pub(crate) struct Reader {
    schema: SchemaRef,
    source: Mutex<Option<Box<dyn Source>>>,
    progress: Option<Arc<hadoop_record_datafusion::ScanProgress>>,
}

impl Reader {
    pub(crate) fn new(
        schema: SchemaRef,
        source: Box<dyn Source>,
        progress: Option<Arc<hadoop_record_datafusion::ScanProgress>>,
    ) -> Self {
        Reader {
            schema,
            source: Mutex::new(Some(source)),
            progress,
        }
    }

    /// The next batch, the GIL released meanwhile; the source is dropped at its end or
    /// error.
    fn next_batch(&self, py: Python<'_>) -> PyResult<Option<RecordBatch>> {
        py.detach(|| {
            let mut source = self.source.lock().unwrap_or_else(|p| p.into_inner());
            let Some(s) = source.as_mut() else {
                return Ok(None);
            };
            let next = s.next_batch();
            if !matches!(next, Ok(Some(_))) {
                *source = None;
            }
            next
        })
        .map_err(ReadError::into_py)
    }
}

#[pymethods]
impl Reader {
    /// The `pyarrow.Schema` of the batches.
    #[getter]
    fn schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_pyarrow_schema(py, &self.schema)
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.read_next_batch(py)
    }

    /// The next `pyarrow.RecordBatch`, or None at the end.
    fn read_next_batch<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.next_batch(py)?
            .map(|batch| to_pyarrow_batch(py, batch))
            .transpose()
    }

    /// Every remaining batch as one `pyarrow.Table` (no copy).
    fn read_all<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let batches = py
            .detach(|| {
                let mut source = self.source.lock().unwrap_or_else(|p| p.into_inner());
                let mut batches = Vec::new();
                if let Some(mut s) = source.take() {
                    while let Some(batch) = s.next_batch()? {
                        batches.push(batch);
                    }
                }
                Ok(batches)
            })
            .map_err(ReadError::into_py)?;
        to_pyarrow_table(py, self.schema.clone(), batches)
    }

    /// What recovering readers (`recover=True`) skipped so far, one line each.
    #[getter]
    fn skipped(&self) -> Vec<String> {
        self.progress
            .as_ref()
            .map_or_else(Vec::new, |p| p.skipped())
    }

    /// Stops reading; the files are closed.
    fn close(&self, py: Python<'_>) {
        let source = py.detach(|| self.source.lock().unwrap_or_else(|p| p.into_inner()).take());
        drop(source);
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) {
        self.close(py);
    }

    /// The remaining batches as an Arrow C stream (the PyCapsule interface).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let source = self
            .source
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
            .ok_or_else(consumed)?;
        let reader = Exported {
            schema: self.schema.clone(),
            source: Some(source),
        };
        stream_capsule(py, Box::new(reader))
    }

    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.schema)
    }
}

/// A source handed over the C stream interface.
struct Exported {
    schema: SchemaRef,
    source: Option<Box<dyn Source>>,
}

impl Iterator for Exported {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        let next = self.source.as_mut()?.next_batch();
        if !matches!(next, Ok(Some(_))) {
            self.source = None;
        }
        next.map_err(ReadError::into_arrow).transpose()
    }
}

impl RecordBatchReader for Exported {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// Reads record files as Arrow record batches.
#[pyfunction]
#[pyo3(signature = (
    paths, schema, r#type, encoding="binary", framing=None, columns=None, batch_size=8192, *,
    n_rows=None, include=None, key_type=None, key_schema=None, recover=false, lenient=false,
    max_record_size=None, nullable=false, memory_map=true, s3_endpoint=None
))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
pub(crate) fn read(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    schema: &Bound<'_, PyAny>,
    r#type: &str,
    encoding: &str,
    framing: Option<&str>,
    columns: Option<Vec<String>>,
    batch_size: usize,
    n_rows: Option<usize>,
    include: Option<Vec<PathBuf>>,
    key_type: Option<&str>,
    key_schema: Option<&Bound<'_, PyAny>>,
    recover: bool,
    lenient: bool,
    max_record_size: Option<u64>,
    nullable: bool,
    memory_map: bool,
    s3_endpoint: Option<String>,
) -> PyResult<Reader> {
    // JSON files are read by the JSON reader; the format still finds the record type.
    let json = encoding == "json";
    if json && (framing.is_some() || key_type.is_some()) {
        return Err(PyValueError::new_err(
            "JSON records are read unframed (framing=None, no key_type=)",
        ));
    }
    let inputs = Inputs {
        paths: expand(paths)?,
        storage: storage::options(s3_endpoint),
    };
    let framing = match (json, key_type) {
        (true, _) => Some("none"),
        // Keys are a SequenceFile's: its reader says what a file that is none is.
        (false, Some(_)) => framing.or(Some("seqfile")),
        (false, None) => framing,
    };
    let format = TableArgs {
        schema,
        include: include.clone(),
        type_name: r#type,
        encoding: if json { "binary" } else { encoding },
        framing,
        recover,
        lenient,
        max_record_size,
        nullable,
        memory_map,
        batch_size,
    }
    .format(py, &inputs)?;
    if json {
        return json_reader(py, format, inputs, columns, n_rows, batch_size);
    }
    if let Some(key_type) = key_type {
        let key = match key_schema {
            Some(key_schema) => resolve(key_schema, None, key_type)?,
            None => resolve(schema, include, key_type)?,
        };
        return keyed_reader(py, format, inputs, key, columns, n_rows, batch_size);
    }
    if key_schema.is_some() {
        return Err(PyValueError::new_err(
            "key_schema= needs key_type= (the keys' record type)",
        ));
    }
    if let Some(columns) = &columns {
        check_columns(columns, &format.arrow_schema())?;
    }
    let progress = format.progress();
    let query = py
        .detach(|| query(format, inputs, columns, n_rows, batch_size))
        .map_err(from_datafusion)?;
    let schema = query.stream.schema();
    Ok(Reader::new(schema, Box::new(query), Some(progress)))
}

/// A reader of SequenceFiles with record keys: the key column, then the value's.
fn keyed_reader(
    py: Python<'_>,
    format: RecordFormat,
    inputs: Inputs,
    key: (
        Arc<hadoop_record::schema::Schema>,
        hadoop_record::schema::RecordId,
    ),
    columns: Option<Vec<String>>,
    n_rows: Option<usize>,
    batch_size: usize,
) -> PyResult<Reader> {
    let values = format.arrow_schema();
    let (with_key, projection) = match &columns {
        None => (true, None),
        Some(columns) => {
            let mut known = values.as_ref().clone();
            known = arrow_schema::Schema::new(
                std::iter::once(arrow_schema::Field::new(
                    KEY,
                    arrow_schema::DataType::Null,
                    false,
                ))
                .chain(known.fields().iter().map(|f| f.as_ref().clone()))
                .collect::<Vec<_>>(),
            );
            check_columns(columns, &known)?;
            let mut fields: Vec<usize> = columns
                .iter()
                .filter_map(|c| values.index_of(c).ok())
                .collect();
            fields.sort_unstable();
            fields.dedup();
            (columns.iter().any(|c| c == KEY), Some(fields))
        }
    };
    let keyed = Keyed {
        key,
        with_key,
        projection,
        n_rows,
    };
    let source = py
        .detach(|| {
            let files = inputs.list()?;
            KeyedSource::new(&format, files, inputs.storage, keyed, batch_size)
        })
        .map_err(from_datafusion)?;
    ordered(source.schema(), Box::new(source), columns)
}

/// A reader of files of JSON records.
fn json_reader(
    py: Python<'_>,
    format: RecordFormat,
    inputs: Inputs,
    columns: Option<Vec<String>>,
    n_rows: Option<usize>,
    batch_size: usize,
) -> PyResult<Reader> {
    let values = format.arrow_schema();
    let projection = match &columns {
        None => None,
        Some(columns) => {
            check_columns(columns, &values)?;
            let mut fields: Vec<usize> = columns
                .iter()
                .map(|c| values.index_of(c).expect("a checked column"))
                .collect();
            fields.sort_unstable();
            fields.dedup();
            Some(fields)
        }
    };
    let (schema, id) = format.record_type();
    let options = DecodeOptions::default()
        .with_batch_size(batch_size)
        .with_projection(projection)
        .with_nullable(format.options().nullable());
    let source = py
        .detach(|| {
            let files = inputs.list()?;
            JsonSource::new(schema.clone(), id, files, inputs.storage, options, n_rows)
        })
        .map_err(from_datafusion)?;
    ordered(source.schema(), Box::new(source), columns)
}

/// `source`'s batches with their columns in the order of `columns` (all when `None`).
fn ordered(
    schema: SchemaRef,
    source: Box<dyn Source>,
    columns: Option<Vec<String>>,
) -> PyResult<Reader> {
    let Some(columns) = columns else {
        return Ok(Reader::new(schema, source, None));
    };
    let order: Vec<usize> = columns
        .iter()
        .map(|c| schema.index_of(c).expect("a checked column"))
        .collect();
    let projected = Arc::new(schema.project(&order).expect("checked columns"));
    Ok(Reader::new(
        projected,
        Box::new(Projected { source, order }),
        None,
    ))
}

/// A source's batches with their columns in another order.
struct Projected {
    source: Box<dyn Source>,
    order: Vec<usize>,
}

impl Source for Projected {
    fn next_batch(&mut self) -> Result<Option<RecordBatch>, ReadError> {
        match self.source.next_batch()? {
            None => Ok(None),
            Some(batch) => batch
                .project(&self.order)
                .map(Some)
                .map_err(|e| ReadError::Scan(DataFusionError::ArrowError(Box::new(e), None))),
        }
    }
}
