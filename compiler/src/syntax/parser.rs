//! The pest parser generated from `grammar/jr.pest`.

/// Parser for Hadoop DDL; [`Rule`] names the grammar's rules.
#[derive(pest_derive::Parser)]
#[grammar = "grammar/jr.pest"]
pub(crate) struct JrParser;
