//! The Arrow PyCapsule interface: schemas, batches and streams handed to Python (pyarrow,
//! Polars, DuckDB, pandas) through the Arrow C data and stream interfaces, without copies;
//! and streams taken from any object with `__arrow_c_stream__`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use arrow_array::ffi::FFI_ArrowArray;
use arrow_array::ffi_stream::{ArrowArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::{Array as _, RecordBatch, RecordBatchReader, StructArray};
use arrow_schema::ffi::FFI_ArrowSchema;
use arrow_schema::{ArrowError, Schema, SchemaRef};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};

/// A stream of batches that may be handed over the C stream interface.
pub(crate) type BoxedReader = Box<dyn RecordBatchReader + Send>;

fn arrow_err(e: ArrowError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `schema` as an `arrow_schema` capsule.
pub(crate) fn schema_capsule<'py>(
    py: Python<'py>,
    schema: &Schema,
) -> PyResult<Bound<'py, PyCapsule>> {
    let ffi = FFI_ArrowSchema::try_from(schema).map_err(arrow_err)?;
    PyCapsule::new_with_value(py, ffi, c"arrow_schema")
}

/// `reader` as an `arrow_array_stream` capsule. A panic in the reader (none is expected)
/// becomes the stream's error instead of unwinding into the consumer.
pub(crate) fn stream_capsule(
    py: Python<'_>,
    reader: BoxedReader,
) -> PyResult<Bound<'_, PyCapsule>> {
    let ffi = FFI_ArrowArrayStream::new(Box::new(Guarded(reader)));
    PyCapsule::new_with_value(py, ffi, c"arrow_array_stream")
}

/// A reader whose panics are errors: the C stream interface must not unwind.
struct Guarded(BoxedReader);

impl Iterator for Guarded {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        catch_unwind(AssertUnwindSafe(|| self.0.next())).unwrap_or_else(|_| {
            Some(Err(ArrowError::ExternalError(
                "hadoop_record: the reader failed unexpectedly (a bug: please report it)".into(),
            )))
        })
    }
}

impl RecordBatchReader for Guarded {
    fn schema(&self) -> SchemaRef {
        self.0.schema()
    }
}

/// A schema that Python takes through `__arrow_c_schema__` (`pyarrow.schema(obj)`).
#[pyclass(module = "hadoop_record._native", frozen)]
pub(crate) struct SchemaExport(SchemaRef);

#[pymethods]
impl SchemaExport {
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.0)
    }
}

/// `schema` as a `pyarrow.Schema`.
pub(crate) fn to_pyarrow_schema<'py>(
    py: Python<'py>,
    schema: &Schema,
) -> PyResult<Bound<'py, PyAny>> {
    let export = Bound::new(py, SchemaExport(SchemaRef::new(schema.clone())))?;
    py.import("pyarrow")?.call_method1("schema", (export,))
}

/// A batch that Python takes through `__arrow_c_array__` (`pyarrow.record_batch(obj)`).
#[pyclass(module = "hadoop_record._native", frozen)]
pub(crate) struct BatchExport(RecordBatch);

#[pymethods]
impl BatchExport {
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let _ = requested_schema;
        let schema = schema_capsule(py, &self.0.schema())?;
        let data = StructArray::from(self.0.clone()).into_data();
        let array = PyCapsule::new_with_value(py, FFI_ArrowArray::new(&data), c"arrow_array")?;
        PyTuple::new(py, [schema.into_any(), array.into_any()])
    }
}

/// `batch` as a `pyarrow.RecordBatch` (no copy).
pub(crate) fn to_pyarrow_batch(py: Python<'_>, batch: RecordBatch) -> PyResult<Bound<'_, PyAny>> {
    let export = Bound::new(py, BatchExport(batch))?;
    py.import("pyarrow")?
        .call_method1("record_batch", (export,))
}

/// A stream, handed over once, through `__arrow_c_stream__`.
#[pyclass(module = "hadoop_record._native", frozen)]
pub(crate) struct StreamExport {
    schema: SchemaRef,
    reader: Mutex<Option<BoxedReader>>,
}

impl StreamExport {
    pub(crate) fn new(reader: BoxedReader) -> Self {
        StreamExport {
            schema: reader.schema(),
            reader: Mutex::new(Some(reader)),
        }
    }
}

#[pymethods]
impl StreamExport {
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let reader = self.reader.lock().map_err(|_| consumed())?.take();
        stream_capsule(py, reader.ok_or_else(consumed)?)
    }

    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.schema)
    }
}

/// The error of a stream asked for a second time.
pub(crate) fn consumed() -> PyErr {
    PyValueError::new_err("the stream was already read (a reader can be consumed once)")
}

/// `batches` as a `pyarrow.Table` (no copy).
pub(crate) fn to_pyarrow_table(
    py: Python<'_>,
    schema: SchemaRef,
    batches: Vec<RecordBatch>,
) -> PyResult<Bound<'_, PyAny>> {
    let reader = arrow_array::RecordBatchIterator::new(batches.into_iter().map(Ok), schema);
    let export = Bound::new(py, StreamExport::new(Box::new(reader)))?;
    py.import("pyarrow")?.call_method1("table", (export,))
}

/// The stream of `data`: anything with `__arrow_c_stream__` (a pyarrow Table or
/// RecordBatchReader, a Polars or pandas DataFrame, a DuckDB relation, …), or with
/// `__arrow_c_array__` (one record batch).
pub(crate) fn import_stream(data: &Bound<'_, PyAny>) -> PyResult<ArrowArrayStreamReader> {
    let py = data.py();
    let data = if data.hasattr("__arrow_c_stream__")? {
        data.clone()
    } else if data.hasattr("__arrow_c_array__")? {
        py.import("pyarrow")?
            .getattr("RecordBatchReader")?
            .call_method1(
                "from_batches",
                (data.getattr("schema")?, vec![data.clone()]),
            )?
    } else {
        return Err(PyTypeError::new_err(format!(
            "data must have __arrow_c_stream__ (a pyarrow Table or RecordBatchReader, a Polars \
             or pandas DataFrame, ...), not {}",
            data.get_type().name()?
        )));
    };
    let capsule = data.call_method0("__arrow_c_stream__")?;
    let capsule = capsule
        .cast::<PyCapsule>()
        .map_err(|_| PyTypeError::new_err("__arrow_c_stream__ did not return a PyCapsule"))?;
    let pointer = capsule.pointer_checked(Some(c"arrow_array_stream"))?;
    // SAFETY: the capsule holds an ArrowArrayStream (its name says so); `from_raw` moves
    // the stream out and leaves a released one behind, which the capsule's destructor
    // then leaves alone, as the PyCapsule interface prescribes for consumers.
    let stream = unsafe { FFI_ArrowArrayStream::from_raw(pointer.as_ptr().cast()) };
    ArrowArrayStreamReader::try_new(stream).map_err(arrow_err)
}
