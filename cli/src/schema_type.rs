//! `--schema FILE.jr [-I DIR]… --type module.Class`: loading the record type a subcommand
//! works on, with a suggestion when the name is wrong.

use std::path::{Path, PathBuf};

use clap::Args;
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record_compiler::{load, LoadOptions, Model};

use super::Context;

/// `--schema FILE.jr [-I DIR]… --type module.Class`.
#[derive(Debug, Args)]
pub struct SchemaType {
    /// The DDL file declaring the record type
    #[arg(long, value_name = "FILE.jr")]
    pub schema: PathBuf,

    /// Also look for included files in DIR (repeatable; searched in order, after the
    /// including file's directory)
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,

    /// The record type, `module.Class`
    #[arg(long = "type", value_name = "module.Class")]
    pub type_name: String,
}

impl SchemaType {
    /// The schema and the record type named.
    pub fn load(&self, context: &Context) -> Result<(Schema, RecordId), Early> {
        load_type(context, &self.schema, &self.include_dirs, &self.type_name)
    }
}

/// Why a record type could not be had.
pub enum Early {
    /// To print as one line.
    Message(String),
    /// Already printed (DDL diagnostics).
    Reported,
}

impl From<String> for Early {
    fn from(message: String) -> Self {
        Early::Message(message)
    }
}

impl From<&str> for Early {
    fn from(message: &str) -> Self {
        Early::Message(message.to_owned())
    }
}

impl Early {
    /// Prints the message (if not printed yet).
    pub fn report(self, context: &Context) {
        if let Early::Message(message) = self {
            context.error(&message);
        }
    }
}

/// The runtime schema of `file` (and its includes) and the record named `name` in it.
pub fn load_type(
    context: &Context,
    file: &Path,
    include_dirs: &[PathBuf],
    name: &str,
) -> Result<(Schema, RecordId), Early> {
    let model = load_model(context, file, include_dirs)?;
    let schema = model.to_schema().into_schema();
    let id = find_type(&schema, name, file)?;
    Ok((schema, id))
}

/// `file` and what it includes, checked; problems are reported.
pub fn load_model(
    context: &Context,
    file: &Path,
    include_dirs: &[PathBuf],
) -> Result<Model, Early> {
    let options = LoadOptions::default()
        .with_include_dirs(include_dirs.to_vec())
        .with_hadoop_compat(false);
    load(&[file], &options).map_err(|diagnostics| {
        context.report(&diagnostics);
        Early::Reported
    })
}

/// The record type named `name` in `schema` (from `file`): `module.Class`, or a class name
/// declared once; otherwise an error naming the closest declared type.
pub fn find_type(schema: &Schema, name: &str, file: &Path) -> Result<RecordId, String> {
    if let Some(id) = schema.find(name) {
        return Ok(id);
    }
    let names: Vec<String> = schema.records().iter().map(|r| r.full_name()).collect();
    if !name.contains('.') {
        let matching: Vec<&String> = names
            .iter()
            .filter(|n| n.rsplit('.').next() == Some(name))
            .collect();
        if let [only] = matching[..] {
            return Ok(schema.find(only).expect("a declared name"));
        }
    }
    let file = file.display();
    let closest = names
        .iter()
        .map(|n| {
            let class = n.rsplit('.').next().unwrap_or(n);
            let score = strsim::jaro_winkler(n, name).max(strsim::jaro_winkler(class, name));
            (score, n)
        })
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    Err(match closest {
        Some((_, n)) => format!("unknown type `{name}` in {file}: did you mean `{n}`?"),
        None if names.is_empty() => format!("unknown type `{name}`: {file} declares no records"),
        None => format!(
            "unknown type `{name}` in {file} (it and its includes declare {})",
            names.join(", ")
        ),
    })
}
