//! `rcc compat OLD.jr NEW.jr --type m.C` (or `--old-type`/`--new-type`): what happens, field
//! by field, to data written with the old version of a record when the new version reads it
//! with Hadoop's rules, and to Avro data written with the old version's schema (`rcc -l
//! avro`'s) when read with the new one's by Avro's schema resolution; a gate for CI before a
//! schema change ships.
//!
//! Exit status: 0 when nothing is lost or misread; 1 when, by Hadoop's rules, a field present
//! on both sides changed type, a field would be dropped (unless `--allow-drops`) or a nested
//! record would be misread, or when Avro cannot resolve the new schema against the old;
//! 2 when the command itself fails (bad DDL, unknown type).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use hadoop_record::meta::{compat, FieldChange, Outcome, RecordTypeInfo};
use hadoop_record::schema::{RecordId, RecordType, Schema};
use hadoop_record_compiler::backend::avro::{self, AvroFinding, AvroOutcome};
use hadoop_record_compiler::{Model, RecordIndex};
use serde_json::json;

use super::schema_type::{find_type, load_model, Early};
use super::Context;

const EXAMPLES: &str = "\
Examples:
  rcc compat v1/events.jr v2/events.jr --type events.Event
  rcc compat old.jr new.jr --old-type m.Person --new-type m.Customer --allow-drops
  rcc compat old.jr new.jr --type m.Event --format json

Hadoop's outcomes: kept; dropped (the new version has no such field); type-changed (it has
one of another type, so the data is skipped); defaulted (the new field is not in the data: it
reads empty); misread (a nested record whose fields changed is read without a type filter, as
Hadoop reads it unless a field is named like the record type: its bytes are misread).

Avro's, for data written with the old version's schema from `rcc -l avro` and read with the
new one's (the fields other than kept are listed): promoted (int to long, float or double;
long to float or double; float to double; ustring to buffer and back: read as written);
dropped (skipped); defaulted (read as Hadoop's empty value, the schemas' default); mismatch
(another type Avro cannot read it as: keep the type, or add a field of the new type under a
new name); renamed (a record renamed: Avro matches records by name; keep the name, or give
the new schema's record the old full name as an Avro alias); no-default (an added field
without a default: rcc -l avro leaves none where the default would hold a record still being
defined, one that holds itself through a vector or map).

Exit status: 1 when Hadoop's rules lose or misread data (type-changed, dropped unless
--allow-drops, misread) or when Avro cannot read the old data (mismatch, renamed,
no-default): a change
must keep both Hadoop's record data and its Avro copies readable. 2 on errors.";

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
    #[arg(long = "type", value_name = "module.Class", required_unless_present_all = ["old_type", "new_type"], conflicts_with_all = ["old_type", "new_type"])]
    type_name: Option<String>,

    /// The record type in the old version (when it was renamed)
    #[arg(long, value_name = "module.Class", requires = "new_type")]
    old_type: Option<String>,

    /// The record type in the new version (when it was renamed)
    #[arg(long, value_name = "module.Class", requires = "old_type")]
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
    let loaded = Version::load(context, &args.old, &args.include_dirs, old_type).and_then(|old| {
        Version::load(context, &args.new, &args.include_dirs, new_type).map(|new| (old, new))
    });
    let (old, new) = match loaded {
        Ok(both) => both,
        Err(early) => {
            early.report(context);
            return ExitCode::from(2);
        }
    };
    let (old_schema, old_id, new_schema, new_id) = (&old.schema, old.id, &new.schema, new.id);
    let changes = RecordTypeInfo::of(old_schema, old_id)
        .and_then(|writer| compat(new_schema, new_id, &writer));
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
    let hadoop_ok = !changes.iter().any(failing);
    let avro = avro::record_resolution(&old.model, old.record, &new.model, new.record);
    let avro_failing = avro.iter().filter(|f| f.outcome.fails()).count();
    let ok = hadoop_ok && avro_failing == 0;
    let (old_name, new_name) = (old.full_name(), new.full_name());
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
                if hadoop_ok {
                    "compatible: nothing written is lost or misread".to_string()
                } else {
                    let n = changes.iter().filter(|c| failing(c)).count();
                    format!("incompatible: {} lost or misread (marked !)", fields(n))
                }
            );
            println!();
            let summary = match avro_failing {
                0 => "compatible".to_string(),
                // The records themselves do not match: nothing inside is compared.
                _ if avro.iter().any(|f| f.path.is_empty()) => {
                    "Avro cannot resolve the record (marked !)".to_string()
                }
                n => format!("{} Avro cannot resolve (marked !)", fields(n)),
            };
            println!("Avro (rcc -l avro's schemas): {summary}");
            for finding in avro.iter().filter(|f| f.outcome != AvroOutcome::Kept) {
                let mark = if finding.outcome.fails() {
                    "  ! "
                } else {
                    "    "
                };
                println!("{mark}{finding}");
            }
        }
        ReportFormat::Json => {
            let hadoop_fields: Vec<serde_json::Value> = changes
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
            let avro_fields: Vec<serde_json::Value> = avro.iter().map(avro_json).collect();
            let report = json!({
                "old": { "file": args.old.display().to_string(), "type": old_name },
                "new": { "file": args.new.display().to_string(), "type": new_name },
                "compatible": ok,
                "fields": hadoop_fields,
                "avro": { "compatible": avro_failing == 0, "fields": avro_fields },
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

/// One version of the record type: its DDL's runtime schema and model, and the record in
/// each.
struct Version {
    schema: Schema,
    id: RecordId,
    model: Model,
    record: RecordIndex,
}

impl Version {
    /// The record type `name` of `file` (and its includes).
    fn load(
        context: &Context,
        file: &Path,
        include_dirs: &[PathBuf],
        name: &str,
    ) -> Result<Version, Early> {
        let model = load_model(context, file, include_dirs)?;
        let schema = model.to_schema().into_schema();
        let id = find_type(&schema, name, file)?;
        let full_name = schema.record(id).map(RecordType::full_name);
        let record = full_name
            .and_then(|n| model.find(&n))
            .ok_or_else(|| format!("`{name}` of {} has no Avro schema", file.display()))?;
        Ok(Version {
            schema,
            id,
            model,
            record,
        })
    }

    /// The record type's `module.Class`.
    fn full_name(&self) -> &str {
        self.model.record(self.record).qualified_name()
    }
}

/// `n field` or `n fields`.
fn fields(n: usize) -> String {
    format!("{n} field{}", if n == 1 { "" } else { "s" })
}

/// A finding of Avro's resolution in the JSON report.
fn avro_json(finding: &AvroFinding) -> serde_json::Value {
    json!({
        "path": finding.path,
        "written": finding.written,
        "read": finding.read,
        "outcome": finding.outcome.name(),
        "fails": finding.outcome.fails(),
    })
}
