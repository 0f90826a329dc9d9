//! [`include_records!`](crate::include_records): the code a build script generated with
//! `hadoop_record_compiler::Config`.

/// Includes the Rust code that `hadoop_record_compiler::Config::compile` wrote into Cargo's
/// `OUT_DIR` as `NAME.rs` (by default `NAME` is the first schema's file stem). Use it inside
/// a module: the file holds a module tree (`pub mod links { … }` for `module links`).
///
/// ```text
/// // build.rs: hadoop_record_compiler::Config::new().compile(&["schema/links.jr"]).unwrap();
/// pub mod records {
///     hadoop_record::include_records!("links");
/// }
/// use records::links::Link;
/// ```
#[macro_export]
macro_rules! include_records {
    ($name:literal) => {
        include!(concat!(env!("OUT_DIR"), "/", $name, ".rs"));
    };
}
