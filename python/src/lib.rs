//! The native module of the `hadoop_record` Python package (`hadoop_record._native`):
//! Hadoop record files read, written and queried as Arrow, through `hadoop-record-arrow`
//! and `hadoop-record-datafusion`. The Python API is `python/hadoop_record/__init__.py`
//! and its stubs; this crate is built by maturin (`pip install ./python`).

use pyo3::prelude::*;

mod capsule;
mod dataset;
mod errors;
mod json;
mod keyed;
mod options;
mod provider;
mod read;
mod schema;
mod source;
mod storage;
mod values;
mod write;

#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RecordError", m.py().get_type::<errors::RecordError>())?;
    m.add_class::<schema::PySchema>()?;
    m.add_class::<read::Reader>()?;
    m.add_class::<dataset::Dataset>()?;
    m.add_function(wrap_pyfunction!(read::read, m)?)?;
    m.add_function(wrap_pyfunction!(write::write, m)?)?;
    m.add_function(wrap_pyfunction!(dataset::dataset, m)?)?;
    m.add_function(wrap_pyfunction!(values::decode, m)?)?;
    m.add_function(wrap_pyfunction!(values::encode, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
