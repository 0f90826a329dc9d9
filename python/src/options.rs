//! The arguments every function shares, checked and turned into the library crates' types:
//! the schema (a `Schema` or a `.jr` path), the record type, the encoding, the framing and
//! its read settings, the paths.

use std::path::PathBuf;
use std::sync::Arc;

use hadoop_record::archive::FloatText;
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::Format;
use hadoop_record_datafusion::{DdlSource, FramingOptions, RecordFormat, RecordTableOptions};
use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;

use crate::errors::from_datafusion;
use crate::schema::{record_type, PySchema};
use crate::storage::Inputs;

/// The encodings, as `rcc convert --from/--to` names them.
pub(crate) const ENCODINGS: &str = "binary, csv, xml, jute, json";

/// A record encoding: one of the runtime's, or JSON (what `rcc convert --to json` writes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Records(Format),
    Json,
}

impl Encoding {
    pub(crate) fn parse(name: &str) -> PyResult<Self> {
        match name {
            "binary" => Ok(Encoding::Records(Format::Binary)),
            "csv" => Ok(Encoding::Records(Format::Csv)),
            "xml" => Ok(Encoding::Records(Format::Xml)),
            "jute" => Ok(Encoding::Records(Format::Jute)),
            "json" => Ok(Encoding::Json),
            _ => Err(PyValueError::new_err(format!(
                "unknown encoding `{name}` (expected one of {ENCODINGS})"
            ))),
        }
    }
}

/// `float_text=`: the float text of CSV and XML output, `legacy` (JDK 8 to 18's
/// `Double.toString`, what Hadoop clusters write; the default, `None`) or `shortest` (JDK 19
/// and later's). Given for another `encoding`, an error: it would change nothing there.
pub(crate) fn float_text(name: Option<&str>, encoding: Encoding) -> PyResult<FloatText> {
    let Some(name) = name else {
        return Ok(FloatText::default());
    };
    let float_text = name
        .parse::<FloatText>()
        .map_err(|e| PyValueError::new_err(e.message().to_owned()))?;
    match encoding {
        Encoding::Records(Format::Csv | Format::Xml) => Ok(float_text),
        Encoding::Records(format) => Err(not_text(format.name())),
        Encoding::Json => Err(not_text("json")),
    }
}

/// `float_text=` given for output that holds no float text of its choosing.
fn not_text(encoding: &str) -> PyErr {
    PyValueError::new_err(format!(
        "float_text= applies to csv and xml output, not {encoding}"
    ))
}

/// The DDL a `schema` argument names: a `Schema`'s, or a `.jr` file (and `include`
/// directories) loaded when the record type is looked up.
pub(crate) fn ddl(schema: &Bound<'_, PyAny>, include: Option<Vec<PathBuf>>) -> PyResult<DdlSource> {
    if let Ok(schema) = schema.cast::<PySchema>() {
        if include.is_some() {
            return Err(PyValueError::new_err(
                "include= applies when schema is a path; give it to Schema.load instead",
            ));
        }
        return Ok(schema.get().source().clone());
    }
    let path: PathBuf = schema.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(
            "schema must be a hadoop_record.Schema or the path of a .jr file",
        )
    })?;
    if !path.exists() {
        return Err(PyFileNotFoundError::new_err((
            2,
            "no such DDL file",
            path.display().to_string(),
        )));
    }
    Ok(DdlSource::Files {
        paths: vec![path],
        include_dirs: include.unwrap_or_default(),
    })
}

/// The record type `type_name` of `schema`: the runtime schema and its id.
pub(crate) fn resolve(
    schema: &Bound<'_, PyAny>,
    include: Option<Vec<PathBuf>>,
    type_name: &str,
) -> PyResult<(Arc<Schema>, RecordId)> {
    record_type(ddl(schema, include)?, type_name)
}

/// How to read a framing (`rcc`'s `--in-framing`, `--recover`, `--lenient`,
/// `--max-record-size`); `None` or `"auto"`: found from the first file's first bytes
/// (records back to back when they show none); `"none"`: records back to back.
pub(crate) fn framing(
    name: Option<&str>,
    recover: bool,
    lenient: bool,
    max_record_size: Option<u64>,
) -> PyResult<FramingOptions> {
    let options = FramingOptions::default()
        .with_name(name.unwrap_or("auto").to_owned())
        .with_recover(recover)
        .with_lenient(lenient)
        .with_max_record_size(max_record_size);
    options
        .check()
        .map_err(|e| PyValueError::new_err(e.message().to_owned()))?;
    Ok(options)
}

/// `paths` (a path, a directory, a glob, or a list of them; local, or URLs: `hdfs://`,
/// `s3://`, ...) as `rcc sql` takes them: a local directory ends with `/`; a local path
/// without glob characters must exist. URLs are checked when they are listed.
pub(crate) fn paths(paths: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let list: Vec<PathBuf> = match paths.extract::<PathBuf>() {
        Ok(one) => vec![one],
        Err(_) => paths.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(
                "paths must be a path (str or os.PathLike), a directory, a glob, or a list of them",
            )
        })?,
    };
    if list.is_empty() {
        return Err(PyValueError::new_err("no paths given"));
    }
    list.into_iter()
        .map(|path| {
            let text = path.to_string_lossy().into_owned();
            if hadoop_record_storage::is_url(&text) {
                Ok(text)
            } else if path.is_dir() {
                Ok(if text.ends_with('/') {
                    text
                } else {
                    format!("{text}/")
                })
            } else if !path.exists() && !text.contains(['*', '?', '[']) {
                Err(PyFileNotFoundError::new_err((
                    2,
                    "no such file or directory",
                    text,
                )))
            } else {
                Ok(text)
            }
        })
        .collect()
}

/// The arguments that say what a table of record files is.
pub(crate) struct TableArgs<'a, 'py> {
    pub schema: &'a Bound<'py, PyAny>,
    pub include: Option<Vec<PathBuf>>,
    pub type_name: &'a str,
    pub encoding: &'a str,
    pub framing: Option<&'a str>,
    pub recover: bool,
    pub lenient: bool,
    pub max_record_size: Option<u64>,
    pub nullable: bool,
    pub memory_map: bool,
    pub batch_size: usize,
}

impl TableArgs<'_, '_> {
    /// The table's format for `inputs`: the DDL loaded, the type found, the framing found
    /// from the first file's first bytes (`auto`, the default) or checked against them;
    /// what the files may not be (a SequenceFile of another value class) is a
    /// `UserWarning`.
    pub(crate) fn format(self, py: Python<'_>, inputs: &Inputs) -> PyResult<RecordFormat> {
        let encoding = match Encoding::parse(self.encoding)? {
            Encoding::Records(format) => format,
            Encoding::Json => {
                return Err(PyValueError::new_err(
                    "a table of JSON records cannot be split or queried in place: read them \
                     with read() (dataset() takes binary, csv, xml or jute)",
                ))
            }
        };
        if self.batch_size == 0 {
            return Err(PyValueError::new_err("batch_size must be at least 1"));
        }
        let framing = framing(
            self.framing,
            self.recover,
            self.lenient,
            self.max_record_size,
        )?;
        let options = RecordTableOptions::from_ddl(ddl(self.schema, self.include)?, self.type_name)
            .with_encoding(encoding)
            .with_framing_options(framing)
            .with_nullable(self.nullable)
            .with_memory_map(self.memory_map)
            // pyarrow's `string`, which every consumer of Arrow in Python takes.
            .with_string_view(false)
            .with_batch_size(Some(self.batch_size));
        let format = py
            .detach(|| inputs.format(options))
            .map_err(from_datafusion)?;
        for warning in format.progress().warnings() {
            let message = std::ffi::CString::new(warning).unwrap_or_default();
            let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
            PyErr::warn(py, &category, &message, 1)?;
        }
        Ok(format)
    }
}

/// Checks `columns` against `schema`'s: an unknown one is a KeyError naming them all.
pub(crate) fn check_columns(columns: &[String], schema: &arrow_schema::Schema) -> PyResult<()> {
    for column in columns {
        if schema.column_with_name(column).is_none() {
            let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
            return Err(pyo3::exceptions::PyKeyError::new_err(format!(
                "unknown column `{column}` (the columns are {})",
                names.join(", ")
            )));
        }
    }
    Ok(())
}
