//! The tables of `rcc sql`: which FILEs each `--table` holds and how they are read.
//! `--table`, `--from`, `--version` and `--timestamp` apply to the FILEs after them, until
//! given again; given only after every FILE, to all of them (`rcc sql --from delta Q t/`
//! and `rcc sql Q t/ --from delta` alike).

use clap::{ArgMatches, ValueEnum};
use hadoop_record::Format;
use hadoop_record_delta::TimeTravel;

/// `--from` values: the record encodings, and Delta tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Source {
    Binary,
    Csv,
    Xml,
    /// ZooKeeper's jute binary encoding
    Jute,
    /// A Delta Lake table's directory (its latest version, or --version, --timestamp); its
    /// columns are the table's, no --schema needed
    Delta,
    /// Avro container files, any Avro writer's: read as --type's records, fields matched
    /// by name with Avro's promotions and defaults (without --schema: as the record of the
    /// first file's schema)
    Avro,
}

impl Source {
    /// The record encoding; `None` for a Delta table. Avro files are read by the record
    /// format too (`RecordTableOptions::with_avro`), their encoding unused.
    pub fn format(self) -> Option<Format> {
        match self {
            Source::Binary | Source::Avro => Some(Format::Binary),
            Source::Csv => Some(Format::Csv),
            Source::Xml => Some(Format::Xml),
            Source::Jute => Some(Format::Jute),
            Source::Delta => None,
        }
    }
}

/// One table of the query.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// Its name in the query.
    pub table: String,
    pub source: Source,
    /// The version read (Delta tables).
    pub at: TimeTravel,
    /// Record files, directories and globs; a Delta table's directory.
    pub files: Vec<String>,
}

/// The name of a table no `--table` names.
pub const DEFAULT_TABLE: &str = "records";

/// The tables the FILEs make, in the order they are first named.
pub fn inputs(files: &[String], matches: &ArgMatches) -> Result<Vec<Input>, String> {
    let at: Vec<usize> = matches
        .indices_of("files")
        .map(|i| i.collect())
        .unwrap_or_default();
    let tables = each_file::<String>(matches, "table", &at);
    let sources = each_file::<Source>(matches, "from", &at);
    let versions = each_file::<u64>(matches, "version", &at);
    let times = each_file::<String>(matches, "timestamp", &at);
    let mut out: Vec<Input> = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let table = tables[i].clone().unwrap_or_else(|| DEFAULT_TABLE.into());
        let source = sources[i].unwrap_or(Source::Binary);
        let at = match (versions[i], &times[i]) {
            (Some(_), Some(_)) => {
                return Err(format!("{file}: give --version or --timestamp, not both"))
            }
            (Some(v), None) => TimeTravel::Version(v),
            (None, Some(t)) => TimeTravel::at_time(t).map_err(|e| format!("--timestamp: {e}"))?,
            (None, None) => TimeTravel::Latest,
        };
        if at != TimeTravel::Latest && source != Source::Delta {
            return Err(format!(
                "{file}: --version and --timestamp read a Delta table's past versions: give \
                 --from delta before the table's directory"
            ));
        }
        match out.iter_mut().find(|t| t.table == table) {
            None => out.push(Input {
                table,
                source,
                at,
                files: vec![file.clone()],
            }),
            Some(t) if t.source == Source::Delta || source == Source::Delta => {
                return Err(format!(
                    "`{table}` is both {} and {file}: a Delta table is a table of its own; \
                     name each with --table NAME before it",
                    t.files[0]
                ))
            }
            Some(t) if t.source != source => {
                return Err(format!(
                    "`{table}` holds {} (--from {}) and {file} (--from {}): one table is one \
                     encoding; name each with --table NAME before its files",
                    t.files[0],
                    name(t.source),
                    name(source)
                ))
            }
            Some(t) => t.files.push(file.clone()),
        }
    }
    Ok(out)
}

/// The `--from` name of `source`.
fn name(source: Source) -> String {
    source
        .to_possible_value()
        .map(|v| v.get_name().to_owned())
        .unwrap_or_default()
}

/// The value of the flag `id` for each FILE (at the positions `files`): the last one given
/// before it, if any; given only after every FILE, the last one given.
fn each_file<T: Clone + Send + Sync + 'static>(
    matches: &ArgMatches,
    id: &str,
    files: &[usize],
) -> Vec<Option<T>> {
    let given: Vec<(usize, T)> = match (matches.indices_of(id), matches.get_many::<T>(id)) {
        (Some(at), Some(values)) => at.zip(values.cloned()).collect(),
        _ => Vec::new(),
    };
    let trailing = files
        .last()
        .is_some_and(|last| given.iter().all(|(at, _)| at > last));
    files
        .iter()
        .map(|&file| {
            let before = given.iter().rev().find(|(at, _)| *at < file);
            before
                .or(given.last().filter(|_| trailing))
                .map(|(_, v)| v.clone())
        })
        .collect()
}
