//! Compiles `schema/zookeeper.jute` into `$OUT_DIR/zookeeper.rs`, with every `ustring`,
//! `buffer` and `vector` an `Option` (Java's null, which jute writes as a length of -1).

fn main() {
    hadoop_record_compiler::Config::new()
        .nullable(true)
        .compile(&["schema/zookeeper.jute"])
        .unwrap();
}
