//! `rcc describe [-I DIR]… FILE…`: the checked model as JSON (the compiler's `describe`
//! module), for generators of anyone's own; its JSON Schema is `docs/describe.schema.json`.

use std::path::PathBuf;

use clap::Args;
use hadoop_record_compiler::describe::describe;

use super::{Context, LoadArgs};

const EXAMPLES: &str = "\
Examples:
  rcc describe links.jr > links.json          The model of links.jr and its includes
  rcc describe -I ddl/common a.jr b.jr        Several files, includes also in ddl/common
  rcc describe links.jr | python3 examples/describe-python/describe_to_dataclasses.py

The output holds `format_version`, the files read, the modules, and the records with their
fields: types as trees (primitive, vector, map, record with its qualified name and file),
positions (file, line, column, byte offsets), comments and Hadoop's type signatures. Its
JSON Schema is docs/describe.schema.json. Problems are reported as `rcc check` reports them
(exit 1, nothing on standard output).";

/// Arguments of `rcc describe`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct DescribeArgs {
    #[command(flatten)]
    load: LoadArgs,

    /// DDL files to describe (with every file they include)
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
}

/// Prints the model of the files; true when they check.
pub(crate) fn run(context: &Context, args: DescribeArgs) -> bool {
    let Some(model) = args.load.load(context, &args.files) else {
        return false;
    };
    let mut json = serde_json::to_string_pretty(&describe(&model)).expect("JSON values serialise");
    json.push('\n');
    context.print(&json)
}
