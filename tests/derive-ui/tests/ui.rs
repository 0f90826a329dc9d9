//! Compile errors of `#[derive(Record)]`, one folder per theme. The toolchain is pinned
//! (rust-toolchain.toml) so the expected `.stderr` files stay stable; regenerate them with
//! `TRYBUILD=overwrite cargo test -p derive-ui --test ui`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/shape/*.rs");
    t.compile_fail("tests/ui/attr/*.rs");
    t.compile_fail("tests/ui/types/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
