//! The formatter behind `rcc fmt` (`hadoop_record_compiler::format`): its layout on chosen
//! inputs, random DDL with comments anywhere, and every DDL file of the repository.

#[path = "format/corpus.rs"]
mod corpus;
#[path = "format/layout.rs"]
mod layout;
#[path = "format/props.rs"]
mod props;
