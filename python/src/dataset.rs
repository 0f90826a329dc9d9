//! `dataset`: record files as a DataFusion table provider for the `datafusion` Python package
//! (`__datafusion_table_provider__`, through `datafusion-ffi`): `hadoop-record-datafusion`'s
//! listing table, so a query reads only the columns it uses and splits large files into byte
//! ranges for several partitions.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use datafusion::catalog::TableProvider;
use datafusion::execution::TaskContextProvider;
use datafusion::prelude::{SessionConfig, SessionContext};
use datafusion_ffi::proto::logical_extension_codec::FFI_LogicalExtensionCodec;
use datafusion_ffi::table_provider::FFI_TableProvider;
use hadoop_record_datafusion::record_table;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use crate::capsule::to_pyarrow_schema;
use crate::errors::from_datafusion;
use crate::options::{paths as expand, TableArgs};
use crate::provider::WithStores;
use crate::storage::{self, Inputs};

/// The runtime that runs the datasets' scans for their foreign callers.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .thread_name("hadoop-record")
            .enable_all()
            .build()
            .expect("a tokio runtime")
    })
}

/// Record files as one table for DataFusion: register it with
/// `datafusion.SessionContext().register_table("hits", ds)` and query it with SQL. Only the
/// columns a query uses are decoded, and large files in a splittable framing are read as
/// several byte ranges at once.
#[pyclass(name = "Dataset", module = "hadoop_record", frozen)]
pub(crate) struct Dataset {
    table: Arc<dyn TableProvider>,
    /// The context that listed the files, the task context of callers that give none.
    ctx: Arc<SessionContext>,
}

#[pymethods]
impl Dataset {
    /// The `pyarrow.Schema` of the table.
    #[getter]
    fn schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_pyarrow_schema(py, &self.table.schema())
    }

    /// The table as DataFusion's FFI table provider; `session` is the caller's
    /// `SessionContext` (or its logical codec), as the `datafusion` package passes it.
    #[pyo3(signature = (session=None))]
    fn __datafusion_table_provider__<'py>(
        &self,
        py: Python<'py>,
        session: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let handle = Some(runtime().handle().clone());
        let provider = match session {
            Some(session) => {
                let codec = logical_codec(&session)?;
                FFI_TableProvider::new_with_ffi_codec(self.table.clone(), false, handle, codec)
            }
            None => {
                let ctx: Arc<dyn TaskContextProvider> = self.ctx.clone();
                FFI_TableProvider::new(self.table.clone(), false, handle, &ctx, None)
            }
        };
        PyCapsule::new_with_value(py, provider, c"datafusion_table_provider")
    }

    fn __repr__(&self) -> String {
        let columns: Vec<String> = self
            .table
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect();
        format!("Dataset(columns={columns:?})")
    }
}

/// The caller's logical extension codec: `session.__datafusion_logical_extension_codec__()`,
/// or `session` itself when it is that capsule.
fn logical_codec(session: &Bound<'_, PyAny>) -> PyResult<FFI_LogicalExtensionCodec> {
    const NAME: &std::ffi::CStr = c"datafusion_logical_extension_codec";
    let capsule = if session.hasattr("__datafusion_logical_extension_codec__")? {
        session.call_method0("__datafusion_logical_extension_codec__")?
    } else {
        session.clone()
    };
    let capsule = capsule.cast::<PyCapsule>().map_err(|_| {
        PyValueError::new_err(
            "session must be a datafusion.SessionContext (or its logical extension codec)",
        )
    })?;
    let pointer = capsule.pointer_checked(Some(NAME))?;
    // SAFETY: the capsule's name says it holds an FFI_LogicalExtensionCodec, which it keeps
    // alive while we clone it (the clone is ours).
    let codec = unsafe { &*pointer.as_ptr().cast::<FFI_LogicalExtensionCodec>() };
    Ok(codec.clone())
}

/// Record files as a DataFusion table.
#[pyfunction]
#[pyo3(signature = (
    paths, schema, r#type, encoding="binary", framing=None, *, include=None, recover=false,
    lenient=false, max_record_size=None, nullable=false, memory_map=true, batch_size=8192,
    s3_endpoint=None
))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
pub(crate) fn dataset(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    schema: &Bound<'_, PyAny>,
    r#type: &str,
    encoding: &str,
    framing: Option<&str>,
    include: Option<Vec<PathBuf>>,
    recover: bool,
    lenient: bool,
    max_record_size: Option<u64>,
    nullable: bool,
    memory_map: bool,
    batch_size: usize,
    s3_endpoint: Option<String>,
) -> PyResult<Dataset> {
    let inputs = Inputs {
        paths: expand(paths)?,
        storage: storage::options(s3_endpoint),
    };
    let format = TableArgs {
        schema,
        include,
        type_name: r#type,
        encoding,
        framing,
        recover,
        lenient,
        max_record_size,
        nullable,
        memory_map,
        batch_size,
    }
    .format(py, &inputs)?;
    let ctx = Arc::new(
        storage::session(SessionConfig::new(), inputs.storage.clone()).map_err(from_datafusion)?,
    );
    let table = py
        .detach(|| {
            let paths: Vec<&str> = inputs.paths.iter().map(String::as_str).collect();
            runtime().block_on(record_table(&ctx, Arc::new(format), &paths))
        })
        .map_err(from_datafusion)?;
    let stores = ctx.runtime_env();
    Ok(Dataset {
        table: Arc::new(WithStores::new(
            Arc::new(table),
            stores,
            runtime().handle().clone(),
        )),
        ctx,
    })
}
