//! Every bad input in `tests/ddl/bad/` is rejected, and its rendered diagnostics (no
//! colour) match the snapshot in `tests/snapshots/`.

use std::path::Path;

use hadoop_record_compiler::{load, LoadOptions, RenderOptions};

#[test]
fn bad_inputs_render_their_diagnostics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut count = 0;
    insta::glob!("ddl/bad/*.jr", |path| {
        // A relative path, as a user would type it, keeps the snapshots machine-independent.
        let relative = path.strip_prefix(root).unwrap();
        let diagnostics = match load(&[relative], &LoadOptions::default()) {
            Ok(_) => panic!("{} was accepted", relative.display()),
            Err(d) => d,
        };
        assert!(diagnostics.error_count() > 0);
        insta::assert_snapshot!(diagnostics.render(&RenderOptions::default().with_color(false)));
        count += 1;
    });
    assert!(count >= 25, "only {count} bad inputs");
}
