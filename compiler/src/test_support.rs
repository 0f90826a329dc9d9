//! What the unit tests share: models loaded from DDL text.

use crate::{load_with, LoadOptions, MemoryFileSystem, Model};

/// The model of `files` (path and text) loaded from `roots`; a DDL error fails the test.
pub(crate) fn model_of(files: &[(&str, &str)], roots: &[&str]) -> Model {
    let mut fs = MemoryFileSystem::new();
    for (path, text) in files {
        fs.insert(path, *text);
    }
    load_with(&fs, roots, &LoadOptions::default()).unwrap()
}

/// The model of one file, `x.jr`, holding `ddl`.
pub(crate) fn model(ddl: &str) -> Model {
    model_of(&[("x.jr", ddl)], &["x.jr"])
}
