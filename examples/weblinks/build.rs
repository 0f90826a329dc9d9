//! Compiles `schema/outlinks.jr` (and `links.jr`, which it includes) into
//! `$OUT_DIR/outlinks.rs`. Cargo runs this again whenever either file changes.

fn main() {
    hadoop_record_compiler::Config::new()
        .compile(&["schema/outlinks.jr"])
        .unwrap();
}
