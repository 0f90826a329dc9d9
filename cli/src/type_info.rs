//! `rcc type-info --schema S.jr --type m.C --to binary|csv|xml [OUT]`: a record type's type
//! information (`getTypeInfo()` of the class Hadoop's rcc generates), written as Hadoop
//! writes it, to store next to data for readers of other versions.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use hadoop_record::meta::RecordTypeInfo;
use hadoop_record::{Format, RecordWriter};

use super::output_guard::{check_output, OutputKind};
use super::schema_type::{Early, SchemaType};
use super::storage::{create_output, StorageArgs};
use super::Context;

const EXAMPLES: &str = "\
Examples:
  rcc type-info --schema links.jr --type links.Link --to binary links.rti
  rcc type-info --schema links.jr --type links.Link --to xml

Data written with this type information can be read by a later version of the record with
`rcc convert --writer-schema` (or RecordReader::read_with, or setTypeFilter in Java).";

/// Arguments of `rcc type-info`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct TypeInfoArgs {
    #[command(flatten)]
    record: SchemaType,

    /// Encoding to write the type information in
    #[arg(long, value_enum, value_name = "FORMAT")]
    to: Encoding,

    /// Output file (default or `-`: standard output)
    #[arg(value_name = "OUTPUT")]
    output: Option<PathBuf>,
}

/// The encodings type information can be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Encoding {
    Binary,
    Csv,
    Xml,
}

impl Encoding {
    pub(crate) fn format(self) -> Format {
        match self {
            Encoding::Binary => Format::Binary,
            Encoding::Csv => Format::Csv,
            Encoding::Xml => Format::Xml,
        }
    }
}

/// Runs `rcc type-info`; true on success.
pub(crate) fn run(context: &Context, args: TypeInfoArgs) -> bool {
    let (schema, id) = match args.record.load(context) {
        Ok(found) => found,
        Err(early) => {
            early.report(context);
            return false;
        }
    };
    let info = match RecordTypeInfo::of(&schema, id) {
        Ok(info) => info,
        Err(e) => {
            Early::Message(e.to_string()).report(context);
            return false;
        }
    };
    // Over the DDL file, the output would destroy it.
    let ddl = [args.record.schema.as_path()];
    let guarded = match args.output.as_deref() {
        Some(output) => check_output(output, OutputKind::File, &ddl),
        None => Ok(()),
    };
    let local = StorageArgs::default();
    let written = guarded.and_then(|()| create_output(args.output.as_deref(), &local));
    let written = written.and_then(|(out, complete)| {
        let mut writer = RecordWriter::new(out, args.to.format());
        writer
            .write(&info)
            .and_then(|()| writer.into_inner().map(drop).map_err(Into::into))
            .map_err(|e| format!("writing the type information: {e}"))?;
        complete.commit()
    });
    match written {
        Ok(()) => true,
        Err(message) => {
            context.error(&message);
            false
        }
    }
}
