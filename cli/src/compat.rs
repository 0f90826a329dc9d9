//! `rcc compat OLD.jr NEW.jr --type m.C` (or `--old-type`/`--new-type`): what happens, field
//! by field, to data written with the old version of a record when the new version reads it
//! with Hadoop's rules; a gate for CI before a schema change ships.
//!
//! Exit status: 0 when nothing is lost or misread; 1 when a field present on both sides
//! changed type, a field would be dropped (unless `--allow-drops`), or a nested record would
//! be misread; 2 when the command itself fails (bad DDL, unknown type).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use hadoop_record::meta::{compat, FieldChange, Outcome, RecordTypeInfo};
use hadoop_record::schema::{RecordType, Schema};
use serde_json::json;

use super::schema_type::{load_type, Early};
use super::Context;

const EXAMPLES: &str = "\
Examples:
  rcc compat v1/events.jr v2/events.jr --type events.Event
  rcc compat old.jr new.jr --old-type m.Person --new-type m.Customer --allow-drops
  rcc compat old.jr new.jr --type m.Event --format json

Outcomes: kept; dropped (the new version has no such field); type-changed (it has one of
another type, so the data is skipped); defaulted (the new field is not in the data: it reads
empty); misread (a nested record whose fields changed is read without a type filter, as
Hadoop reads it unless a field is named like the record type: its bytes are misread).
Exit status: 1 for type-changed, dropped (unless --allow-drops) or misread; 2 on errors.";

/// Arguments of `rcc compat`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct CompatArgs {
    /// The DDL file of the version that wrote the data
    #[arg(value_name = "OLD.jr")]
    old: PathBuf,

    /// The DDL file of the version that reads it
    #[arg(value_name = "NEW.jr")]
    new: PathBuf,

    /// The record type, `module.Class`, in both versions
    #[arg(long = "type", value_name = "module.Class", required_unless_present_all = ["old_type", "new_type"])]
    type_name: Option<String>,

    /// The record type in the old version (when it was renamed)
    #[arg(
        long,
        value_name = "module.Class",
        conflicts_with = "type_name",
        requires = "new_type"
    )]
    old_type: Option<String>,

    /// The record type in the new version (when it was renamed)
    #[arg(
        long,
        value_name = "module.Class",
        conflicts_with = "type_name",
        requires = "old_type"
    )]
    new_type: Option<String>,

    /// Also look for included files in DIR (repeatable; for both versions)
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    include_dirs: Vec<PathBuf>,

    /// Accept fields that the new version drops (type changes and misreads still fail)
    #[arg(long)]
    allow_drops: bool,

    /// Output format
    #[arg(long, value_enum, default_value = "text")]
    format: ReportFormat,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ReportFormat {
    Text,
    Json,
}

/// Runs `rcc compat`.
pub(crate) fn run(context: &Context, args: CompatArgs) -> ExitCode {
    let (old_type, new_type) = match (&args.type_name, &args.old_type, &args.new_type) {
        (Some(t), _, _) => (t.as_str(), t.as_str()),
        (None, Some(o), Some(n)) => (o.as_str(), n.as_str()),
        _ => unreachable!("clap requires --type or both --old-type and --new-type"),
    };
    let loaded = load_type(context, &args.old, &args.include_dirs, old_type).and_then(|old| {
        load_type(context, &args.new, &args.include_dirs, new_type).map(|new| (old, new))
    });
    let ((old_schema, old_id), (new_schema, new_id)) = match loaded {
        Ok(both) => both,
        Err(early) => {
            early.report(context);
            return ExitCode::from(2);
        }
    };
    let changes = RecordTypeInfo::of(&old_schema, old_id)
        .and_then(|writer| compat(&new_schema, new_id, &writer));
    let changes = match changes {
        Ok(changes) => changes,
        Err(e) => {
            Early::Message(e.to_string()).report(context);
            return ExitCode::from(2);
        }
    };
    let failing = |c: &FieldChange| match c.outcome {
        Outcome::TypeChanged | Outcome::Misread => true,
        Outcome::Dropped => !args.allow_drops,
        Outcome::Kept | Outcome::Defaulted => false,
    };
    let ok = !changes.iter().any(failing);
    // Both ids were found in their schemas (and `compat` checked them).
    let full_name = |s: &Schema, id| s.record(id).map(RecordType::full_name);
    let (old_name, new_name) = (
        full_name(&old_schema, old_id).unwrap_or_default(),
        full_name(&new_schema, new_id).unwrap_or_default(),
    );
    match args.format {
        ReportFormat::Text => {
            println!(
                "{old_name} ({}) read as {new_name} ({})",
                args.old.display(),
                args.new.display()
            );
            for change in &changes {
                let mark = if failing(change) { "  ! " } else { "    " };
                println!("{mark}{change}");
            }
            println!(
                "{}",
                if ok {
                    "compatible: nothing written is lost or misread".to_string()
                } else {
                    let n = changes.iter().filter(|c| failing(c)).count();
                    format!(
                        "incompatible: {n} field{} lost or misread (marked !)",
                        if n == 1 { "" } else { "s" }
                    )
                }
            );
        }
        ReportFormat::Json => {
            let fields: Vec<serde_json::Value> = changes
                .iter()
                .map(|c| {
                    json!({
                        "path": c.path,
                        "written": c.written,
                        "read": c.read,
                        "outcome": c.outcome.name(),
                        "fails": failing(c),
                    })
                })
                .collect();
            let report = json!({
                "old": { "file": args.old.display().to_string(), "type": old_name },
                "new": { "file": args.new.display().to_string(), "type": new_name },
                "compatible": ok,
                "fields": fields,
            });
            println!("{report:#}");
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
