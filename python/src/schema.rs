//! `hadoop_record.Schema`: DDL loaded once (from `.jr` files or text) and kept as text, so
//! that every reader, writer and dataset made from it reads no file again.

use std::path::PathBuf;
use std::sync::Arc;

use hadoop_record::schema::{RecordId, Schema};
use hadoop_record_arrow::mapping::{arrow_schema, MappingOptions};
use hadoop_record_compiler::{load, load_with, LoadOptions, MemoryFileSystem, Model};
use hadoop_record_datafusion::{DdlSource, RecordFormat, RecordTableOptions};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::capsule::to_pyarrow_schema;
use crate::errors::from_datafusion;

/// Record types declared in Hadoop record DDL (`.jr` files), with everything they include.
///
/// Make one with `Schema.load("web.jr", include=["ddl/"])` or `Schema.parse(text)`; pass
/// it as `schema=` to `read`, `write`, `dataset`, `decode` and `encode`.
#[pyclass(name = "Schema", module = "hadoop_record", frozen)]
pub(crate) struct PySchema {
    source: DdlSource,
    types: Vec<String>,
    name: String,
}

impl PySchema {
    fn new(model: &Model, include: &[PathBuf], name: String) -> Self {
        let types = model
            .to_schema()
            .schema()
            .records()
            .iter()
            .map(|r| r.full_name())
            .collect();
        PySchema {
            source: DdlSource::from_model(model, include),
            types,
            name,
        }
    }

    /// The DDL as text.
    pub(crate) fn source(&self) -> &DdlSource {
        &self.source
    }
}

#[pymethods]
impl PySchema {
    /// Loads the DDL file `path` and the files it includes, looked for next to the including
    /// file and then in the `include` directories (as `rcc -I DIR`). A DDL error raises
    /// ValueError with every problem at file:line:col.
    #[staticmethod]
    #[pyo3(signature = (path, include=None))]
    fn load(path: PathBuf, include: Option<Vec<PathBuf>>) -> PyResult<Self> {
        let include = include.unwrap_or_default();
        let options = LoadOptions::default()
            .with_include_dirs(include.clone())
            .with_hadoop_compat(false);
        let model = load(&[&path], &options).map_err(|d| PyValueError::new_err(d.to_string()))?;
        Ok(Self::new(&model, &include, path.display().to_string()))
    }

    /// Parses DDL text; `name` is the file name its messages use. The text cannot include
    /// other files (use `Schema.load` for that).
    #[staticmethod]
    #[pyo3(signature = (text, name="schema.jr"))]
    fn parse(text: &str, name: &str) -> PyResult<Self> {
        let mut fs = MemoryFileSystem::new();
        fs.insert(name, text.as_bytes());
        let model = load_with(&fs, &[name], &LoadOptions::default())
            .map_err(|d| PyValueError::new_err(d.to_string()))?;
        Ok(Self::new(&model, &[], name.to_owned()))
    }

    /// The record types declared, `module.Class`, in declaration order (included files'
    /// too).
    #[getter]
    fn types(&self) -> Vec<String> {
        self.types.clone()
    }

    /// The `pyarrow.Schema` of a record type: the columns `read` gives and `write` takes,
    /// by the mapping `rcc` uses (byte int8, boolean bool, int int32, long int64, float
    /// float32, double float64, ustring string, buffer binary, vector list, map map in
    /// Hadoop's key order, record struct; nothing nullable unless `nullable` is true, for
    /// jute's nullable ustring, buffer and vector). Each field's metadata holds its Hadoop
    /// type (`hadoop.type`).
    #[pyo3(signature = (r#type, nullable=false))]
    fn arrow_schema<'py>(
        slf: &Bound<'py, Self>,
        r#type: &str,
        nullable: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (schema, id) = record_type(slf.get().source.clone(), r#type)?;
        let arrow = arrow_schema(
            &schema,
            id,
            MappingOptions::default().with_nullable(nullable),
        )
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
        to_pyarrow_schema(slf.py(), &arrow)
    }

    fn __repr__(&self) -> String {
        format!("Schema({:?}, types={:?})", self.name, self.types)
    }
}

/// The record type `type_name` of the DDL `source`: the runtime schema and its id.
pub(crate) fn record_type(source: DdlSource, type_name: &str) -> PyResult<(Arc<Schema>, RecordId)> {
    let format = RecordFormat::try_new(RecordTableOptions::from_ddl(source, type_name))
        .map_err(from_datafusion)?;
    let (schema, id) = format.record_type();
    Ok((schema.clone(), id))
}
