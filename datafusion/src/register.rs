//! [`SessionContextExt::register_records`]: a table of record files in one call.

use std::sync::Arc;

use async_trait::async_trait;
use datafusion::common::{plan_datafusion_err, DataFusionError, Result};
use datafusion::datasource::listing::{
    ListingOptions, ListingTable, ListingTableConfig, ListingTableUrl,
};
use datafusion::execution::context::{SessionContext, SessionState};
use futures::TryStreamExt;
use glob::MatchOptions;
use hadoop_record::framing::detect::DETECT_LEN;
use hadoop_record::framing::seqfile::SeqReader;
use hadoop_record::ErrorKind;
use object_store::{ObjectMeta, ObjectStoreExt};

use crate::binary_strings::register_binary_strings;
use crate::error::{AvroFileError, Place, RecordError};
use crate::format::RecordFormat;
use crate::opener::file_name;
use crate::options::{DdlFile, DdlSource, RecordTableOptions};

/// Registers tables of record files with a [`SessionContext`].
#[async_trait]
pub trait SessionContextExt {
    /// Registers `paths` — files, directories (the files in them) and globs
    /// (`logs/*.paddle`), local, in HDFS (`hdfs://nn:8020/logs/*.seq`), in S3
    /// (`s3://bucket/logs/`) or in any registered object store — as one table
    /// `name` of the records `options` describe. Returns the table's format, for its schema
    /// and its progress. A path that matches no file is an error. The session gets SQL's
    /// functions on binary strings for the table's `buffer` columns
    /// ([`register_binary_strings`]).
    ///
    /// ```
    /// use datafusion::prelude::SessionContext;
    /// use hadoop_record_datafusion::{RecordTableOptions, SessionContextExt};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?;
    /// # let ddl = dir.path().join("m.jr");
    /// # std::fs::write(&ddl, "module m { class Hit { ustring url; long n; } }")?;
    /// # std::fs::write(dir.path().join("hits.csv"), "'a,1\n'b,2\n'a,5\n")?;
    /// # let data = dir.path().join("hits.csv");
    /// # let data = data.to_str().unwrap();
    /// let ctx = SessionContext::new();
    /// let options = RecordTableOptions::new(&ddl, "m.Hit").with_encoding(hadoop_record::Format::Csv);
    /// ctx.register_records("hits", options, &[data]).await?;
    /// let df = ctx.sql("SELECT url, sum(n) AS n FROM hits GROUP BY url ORDER BY url").await?;
    /// let batches = df.collect().await?;
    /// assert_eq!(batches[0].num_rows(), 2);
    /// # Ok(())
    /// # }
    /// ```
    async fn register_records(
        &self,
        name: &str,
        options: RecordTableOptions,
        paths: &[&str],
    ) -> Result<Arc<RecordFormat>>;
}

#[async_trait]
impl SessionContextExt for SessionContext {
    async fn register_records(
        &self,
        name: &str,
        options: RecordTableOptions,
        paths: &[&str],
    ) -> Result<Arc<RecordFormat>> {
        let format = Arc::new(table_format(self, options, paths).await?);
        let table = record_table(self, format.clone(), paths).await?;
        register_binary_strings(self);
        self.register_table(name, Arc::new(table))?;
        Ok(format)
    }
}

/// The format of a table of `paths` (as [`record_table`] takes them) of the records
/// `options` describe, its framing checked against the first bytes of the first file that
/// is not empty (in name order, the paths in the order given): a framing `auto` is the one
/// they show (or `none`; see [`FramingOptions`](crate::FramingOptions)), one named must not
/// be contradicted by them (`FILE: this is a SequenceFile (SEQ, version 6), not paddle: …`).
/// A SequenceFile whose value class is not the record type's (`module.Class`, the Java
/// class rcc generates) is a warning, in [`ScanProgress::warnings`](crate::ScanProgress::warnings).
/// The table's scans check every other file the same way.
pub async fn table_format(
    ctx: &SessionContext,
    options: RecordTableOptions,
    paths: &[&str],
) -> Result<RecordFormat> {
    let framing = options.framing().clone();
    framing
        .check()
        .map_err(|e| plan_datafusion_err!("{}", e.message()))?;
    if framing.name() == "none" {
        return RecordFormat::try_new(options);
    }
    let state = ctx.state();
    let mut first = None;
    for path in paths {
        let listed = list_path(&state, path).await?;
        let store = state
            .runtime_env()
            .object_store(listed.url.object_store())?;
        let file = listed
            .files
            .iter()
            .filter(|meta| meta.size > 0)
            .min_by(|a, b| a.location.cmp(&b.location));
        if let Some(meta) = file {
            let end = meta.size.min(DETECT_LEN as u64);
            let bytes = store.get_range(&meta.location, 0..end).await?;
            let name = file_name(listed.url.object_store().as_str(), &meta.location);
            first = Some((name, bytes));
            break;
        }
    }
    let Some((file, bytes)) = first else {
        // No file holds a byte: nothing to read, in any framing.
        let framing = if framing.is_auto() {
            framing.with_name("none")
        } else {
            framing
        };
        return RecordFormat::try_new(options.with_framing_options(framing));
    };
    let framing = framing
        .found(&bytes, &file)
        .map_err(|e| plan_datafusion_err!("{}", e.message()))?;
    if let Err(message) = framing.check_file(&bytes) {
        // As the table's scans report a file that contradicts its framing.
        return Err(DataFusionError::External(Box::new(RecordError {
            file,
            place: Place::File,
            error: hadoop_record::Error::new(ErrorKind::Syntax, message),
        })));
    }
    let seqfile = framing.name() == "seqfile";
    let format = RecordFormat::try_new(options.with_framing_options(framing))?;
    if seqfile {
        // The header is read from the first bytes; one longer than them is not checked.
        if let Ok(reader) = SeqReader::new(&bytes[..]) {
            let (schema, id) = format.record_type();
            let class = schema.record(id).map(|r| r.full_name()).unwrap_or_default();
            if let Some(warning) = reader.header().value_class_warning(&class, None) {
                format
                    .progress()
                    .add_warning(format!("{file} is {warning}"));
            }
        }
    }
    Ok(format)
}

/// How far into an Avro file its header (and schema) is looked for.
const AVRO_HEADER_LEN: u64 = 1 << 20;

/// Options that read the Avro container files `paths` (as [`record_table`] takes them) as
/// the record type their schema gives: the schema in the header of the first file that is
/// not empty (in name order, the paths in the order given), turned into DDL
/// ([`hadoop_record_avro::ddl_of_schema`]; a record a class in a module named after its
/// namespace). For Avro files that came without a `.jr`; every file is then read by Avro's
/// resolution to that type. An error names the file whose schema no record type reads.
pub async fn avro_table_options(
    ctx: &SessionContext,
    paths: &[&str],
) -> Result<RecordTableOptions> {
    let state = ctx.state();
    for path in paths {
        let listed = list_path(&state, path).await?;
        let store = state
            .runtime_env()
            .object_store(listed.url.object_store())?;
        let first = listed
            .files
            .iter()
            .filter(|meta| meta.size > 0)
            .min_by(|a, b| a.location.cmp(&b.location));
        let Some(meta) = first else {
            continue;
        };
        let file = file_name(listed.url.object_store().as_str(), &meta.location);
        let bytes = store
            .get_range(&meta.location, 0..meta.size.min(AVRO_HEADER_LEN))
            .await?;
        let in_file = |error| {
            DataFusionError::External(Box::new(AvroFileError {
                file: file.clone(),
                error,
            }))
        };
        let schema = hadoop_record_avro::file_schema(&bytes[..]).map_err(in_file)?;
        let (ddl, record) = hadoop_record_avro::ddl_of_schema(&schema).map_err(in_file)?;
        let source = DdlSource::Text {
            files: vec![DdlFile {
                path: format!("{file} (its Avro schema as DDL).jr").into(),
                root: true,
                text: ddl,
            }],
            include_dirs: Vec::new(),
        };
        return Ok(RecordTableOptions::from_ddl(source, record)
            .with_avro(true)
            .with_framing("none"));
    }
    Err(plan_datafusion_err!(
        "{}: no Avro file with a byte in it, so no schema to take the table's columns from \
         (give --schema and --type)",
        paths.join(" ")
    ))
}

/// The listing table of `paths` in `format`, every path checked to match a file.
pub async fn record_table(
    ctx: &SessionContext,
    format: Arc<RecordFormat>,
    paths: &[&str],
) -> Result<ListingTable> {
    if paths.is_empty() {
        return Err(plan_datafusion_err!("no files given for the record table"));
    }
    let state = ctx.state();
    let mut urls = Vec::with_capacity(paths.len());
    for path in paths {
        let listed = list_path(&state, path).await?;
        format
            .progress()
            .add_total(listed.files.iter().map(|meta| meta.size).sum());
        if listed.one_by_one {
            urls.extend(
                listed
                    .file_urls()
                    .map(ListingTableUrl::parse)
                    .collect::<Result<Vec<_>>>()?,
            );
        } else {
            urls.push(listed.url);
        }
    }
    let schema = format.arrow_schema();
    let listing = ListingOptions::new(format).with_file_extension("");
    let config = ListingTableConfig::new_with_multi_paths(urls)
        .with_listing_options(listing)
        .with_schema(schema);
    ListingTable::try_new(config)
}

/// The files `paths` name, as [`record_table`] reads them, as URLs (`file:///data/a.seq`,
/// `hdfs://nn:8020/logs/a.seq`): each path's files in name order, the paths in the order
/// given. A path that matches no file is an error naming it.
pub async fn list_files(ctx: &SessionContext, paths: &[&str]) -> Result<Vec<String>> {
    let state = ctx.state();
    let mut urls = Vec::new();
    for path in paths {
        let listed = list_path(&state, path).await?;
        let mut files: Vec<String> = listed.file_urls().collect();
        files.sort();
        urls.extend(files);
    }
    Ok(urls)
}

/// One path of a table: its URL and the files it names.
struct Listed {
    url: ListingTableUrl,
    files: Vec<ObjectMeta>,
    /// A folder or a glob: the table names its files one by one (as listed here, not as
    /// DataFusion would list the URL again).
    one_by_one: bool,
}

impl Listed {
    fn file_urls(&self) -> impl Iterator<Item = String> + '_ {
        // The store's URL ends with `/` (`file:///`, `s3://bucket/`).
        let store = self.url.object_store();
        self.files
            .iter()
            .map(move |meta| format!("{}{}", store.as_str(), meta.location))
    }
}

/// Lists `path`; a path that matches no file is an error naming it.
async fn list_path(state: &SessionState, path: &str) -> Result<Listed> {
    let url = table_url(path)?;
    let store = state.runtime_env().object_store(url.object_store())?;
    // Everything below the URL's folder is listed and matched here: DataFusion's listing
    // matches a glob against the first segment only (`listing_table_ignore_subdirectory`),
    // which would leave `logs/2024-*/*.seq` without files.
    let mut below = state.clone();
    below
        .config_mut()
        .options_mut()
        .execution
        .listing_table_ignore_subdirectory = false;
    // Listed through the URL without its glob: DataFusion's own match leaves out the
    // segments with a `=` (Hive's `col=value/`) before matching, so that `*/*.seq` would
    // miss `day=1/a.seq`. The glob is matched below, on every segment.
    let everything = match url.get_glob() {
        Some(_) => ListingTableUrl::parse(format!(
            "{}{}",
            url.object_store().as_str(),
            folder_of(url.prefix())
        ))?,
        None => url.clone(),
    };
    let mut files: Vec<ObjectMeta> = everything
        .list_all_files(&below, store.as_ref(), "")
        .await?
        .try_collect()
        .await?;
    // A folder is the visible files in it, not those in folders below it, as Hadoop's
    // `FileInputFormat` reads a folder; a glob matches segment by segment, as a shell's
    // (`*` never crosses a `/`), and its hidden files are left out too. A URL without a
    // trailing `/` that is no file is a folder (DataFusion then lists below it).
    let glob = url.get_glob().as_ref().filter(|_| path.contains(WILDCARDS));
    let is_file = |meta: &ObjectMeta| meta.location == *url.prefix();
    let folder = glob.is_none() && (url.is_collection() || !files.iter().any(is_file));
    let segments = MatchOptions {
        require_literal_separator: true,
        ..MatchOptions::new()
    };
    let one_by_one = folder || glob.is_some();
    // The first visible file in a folder below a folder's own (for the error when it has none).
    let deeper = files
        .iter()
        .filter(|_| folder)
        .find(|meta| {
            let rest = segments_below(&meta.location, url.prefix());
            rest.len() > 1
                && rest
                    .iter()
                    .all(|part| !part.as_ref().starts_with(['.', '_']))
        })
        .map(|meta| meta.location.clone());
    if one_by_one {
        files.retain(|meta| {
            let rest = segments_below(&meta.location, url.prefix());
            let visible = rest
                .last()
                .is_some_and(|name| !name.as_ref().starts_with(['.', '_']));
            let matches = match glob {
                Some(glob) => {
                    let rest: Vec<&str> = rest.iter().map(|part| part.as_ref()).collect();
                    glob.matches_with(&rest.join("/"), segments)
                }
                None => rest.len() == 1,
            };
            visible && matches
        });
    }
    if files.is_empty() {
        // A folder whose files are all in folders below it (Hive's `day=…/`): say how to
        // read them, which Hadoop's `FileInputFormat` does not do for a folder either.
        if let Some(below) = deeper {
            let inner = segments_below(&below, url.prefix())
                .iter()
                .map(|part| part.as_ref().to_owned())
                .collect::<Vec<_>>()
                .join("/");
            let folder = path.trim_end_matches('/');
            return Err(plan_datafusion_err!(
                "{path}: no files directly in this folder, only in folders below it (as \
                 {inner}); a folder is read as Hadoop reads one, its own files: give a glob \
                 such as '{folder}/*/*' to read those below"
            ));
        }
        return Err(plan_datafusion_err!(
            "{path}: no such file, or no file matches"
        ));
    }
    Ok(Listed {
        url,
        files,
        one_by_one,
    })
}

/// The segments of `location` after `prefix` (none when it is not below it).
fn segments_below<'a>(
    location: &'a object_store::path::Path,
    prefix: &object_store::path::Path,
) -> Vec<object_store::path::PathPart<'a>> {
    location
        .prefix_match(prefix)
        .into_iter()
        .flatten()
        .collect()
}

/// The characters that make a path a glob.
const WILDCARDS: [char; 3] = ['*', '?', '['];

/// `path` as a table URL: a local path (a glob in it is DataFusion's), or a URL, whose
/// glob (`hdfs://nn:8020/logs/2024-*/*.seq`) DataFusion leaves to its caller: the folder
/// before the first wildcard is listed, and the rest matches the files below it
/// ([`list_path`] keeps a folder's or a glob's visible files).
/// A folder's path as a URL's path after the store's `/`: `logs/` (its segments as
/// object_store escapes them), or nothing for the store's root.
fn folder_of(prefix: &object_store::path::Path) -> String {
    match prefix.as_ref() {
        "" => String::new(),
        folder => format!("{folder}/"),
    }
}

pub(crate) fn table_url(path: &str) -> Result<ListingTableUrl> {
    let url_glob = path
        .find(WILDCARDS)
        .filter(|_| hadoop_record_storage::is_url(path));
    let Some(wild) = url_glob else {
        return ListingTableUrl::parse(path);
    };
    let folder_end = path[..wild].rfind('/').map_or(0, |slash| slash + 1);
    let (folder, glob) = path.split_at(folder_end);
    if !hadoop_record_storage::is_url(folder) || folder.ends_with("://") {
        return Err(plan_datafusion_err!(
            "{path}: a wildcard in the bucket or name node is not supported"
        ));
    }
    ListingTableUrl::parse(folder)?.with_glob(glob)
}

#[cfg(test)]
mod tests {
    use super::*;
    use object_store::path::Path;

    /// A folder, with or without its `/`, is its visible direct files; a glob matches below.
    #[tokio::test]
    async fn a_folder_is_its_visible_files_and_a_glob_matches_below_it() {
        use object_store::{memory::InMemory, ObjectStoreExt};
        let store = Arc::new(InMemory::new());
        for key in [
            "logs/a.seq",
            "logs/b.seq",
            "logs/.a.seq.crc",
            "logs/_SUCCESS",
            "logs/old/c.seq",
            "logs/day=1/d.seq",
            "logs.seq",
        ] {
            store.put(&Path::from(key), vec![1].into()).await.unwrap();
        }
        let ctx = SessionContext::new();
        let bucket = url::Url::parse("s3://bucket").unwrap();
        ctx.register_object_store(&bucket, store);
        let direct = ["s3://bucket/logs/a.seq", "s3://bucket/logs/b.seq"];
        for folder in ["s3://bucket/logs/", "s3://bucket/logs"] {
            assert_eq!(list_files(&ctx, &[folder]).await.unwrap(), direct);
        }
        let deep = list_files(&ctx, &["s3://bucket/logs/*/*.seq"])
            .await
            .unwrap();
        assert_eq!(
            deep,
            ["s3://bucket/logs/day=1/d.seq", "s3://bucket/logs/old/c.seq"]
        );
        // Hive's directories match as any other.
        let hive = list_files(&ctx, &["s3://bucket/logs/day=*/*.seq"])
            .await
            .unwrap();
        assert_eq!(hive, ["s3://bucket/logs/day=1/d.seq"]);
        let one = list_files(&ctx, &["s3://bucket/logs.seq"]).await.unwrap();
        assert_eq!(one, ["s3://bucket/logs.seq"]);
        let e = list_files(&ctx, &["s3://bucket/nothing"])
            .await
            .unwrap_err();
        assert!(
            e.to_string().contains("s3://bucket/nothing: no such file"),
            "{e}"
        );
    }

    /// What `table_url` gives the listing; `list_path` then keeps a folder's visible direct
    /// files (`a_folder_is_its_visible_files_and_a_glob_matches_below_it`).
    #[test]
    fn a_glob_in_a_url_matches_below_its_folder() {
        let url = table_url("hdfs://nn:8020/logs/2024-*/*.seq").unwrap();
        assert_eq!(url.prefix().as_ref(), "logs");
        assert!(url.contains(&Path::from("logs/2024-01/a.seq"), false));
        assert!(!url.contains(&Path::from("logs/2023-01/a.seq"), false));
        assert!(!url.contains(&Path::from("logs/2024-01/a.txt"), false));
        let url = table_url("s3://bucket/a.seq").unwrap();
        assert_eq!(url.get_glob(), &None);
        let url = table_url("hdfs://nn:8020/logs/").unwrap();
        assert!(url.contains(&Path::from("logs/a.seq"), false));
        assert!(url.contains(&Path::from("logs/2024/a.seq"), false));
        assert!(table_url("s3://b*/a").is_err());
    }
}
