//! Loading the DDL of a table's record type, from files or from text, into the runtime
//! schema; and keeping its text, so that the table's options are self-contained.

use std::path::Path;
use std::sync::Arc;

use datafusion::common::{plan_datafusion_err, Result};
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record_compiler::{load, load_with, LoadOptions, MemoryFileSystem};

use crate::options::DdlSource;

/// A record type and the schema that declares it.
#[derive(Debug, Clone)]
pub(crate) struct LoadedType {
    pub schema: Arc<Schema>,
    pub id: RecordId,
    /// The DDL as text (what `source` was, read from disk if it named files).
    pub source: DdlSource,
}

/// Loads `source` and finds `type_name` in it.
pub(crate) fn load_type(source: &DdlSource, type_name: &str) -> Result<LoadedType> {
    let model = match source {
        DdlSource::Files {
            paths,
            include_dirs,
        } => {
            let options = LoadOptions::default()
                .with_include_dirs(include_dirs.clone())
                .with_hadoop_compat(false);
            load(paths, &options).map_err(|d| {
                plan_datafusion_err!("the DDL of the record type does not load:\n{d}")
            })?
        }
        DdlSource::Text {
            files,
            include_dirs,
        } => {
            let mut fs = MemoryFileSystem::new();
            for f in files {
                fs.insert(&f.path, f.text.as_bytes());
            }
            let roots: Vec<&Path> = files
                .iter()
                .filter(|f| f.root)
                .map(|f| f.path.as_path())
                .collect();
            let options = LoadOptions::default()
                .with_include_dirs(include_dirs.clone())
                .with_hadoop_compat(false);
            load_with(&fs, &roots, &options).map_err(|d| {
                plan_datafusion_err!("the DDL text of the record type does not load:\n{d}")
            })?
        }
    };
    let (DdlSource::Files { include_dirs, .. } | DdlSource::Text { include_dirs, .. }) = source;
    let schema = model.to_schema().into_schema();
    let id = find(&schema, type_name)?;
    Ok(LoadedType {
        schema: Arc::new(schema),
        id,
        source: DdlSource::from_model(&model, include_dirs),
    })
}

/// `module.Class`, or a class name declared once.
fn find(schema: &Schema, name: &str) -> Result<RecordId> {
    if let Some(id) = schema.find(name) {
        return Ok(id);
    }
    let names: Vec<String> = schema.records().iter().map(|r| r.full_name()).collect();
    let matching: Vec<&String> = names
        .iter()
        .filter(|n| !name.contains('.') && n.rsplit('.').next() == Some(name))
        .collect();
    if let [only] = matching[..] {
        return Ok(schema.find(only).expect("a declared name"));
    }
    Err(if names.is_empty() {
        plan_datafusion_err!("unknown record type `{name}`: the DDL declares no records")
    } else {
        plan_datafusion_err!(
            "unknown record type `{name}` (the DDL declares {})",
            names.join(", ")
        )
    })
}
