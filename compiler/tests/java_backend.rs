//! `rcc -l java`: the layout Hadoop's rcc uses, the two Hadoop APIs, the names fallbacks,
//! and snapshots of the generated classes. (`tests/interop` compiles and runs all of this
//! against the real Hadoop jars.)

use hadoop_record_compiler::backend::java::{self, JavaApi, Options};
use hadoop_record_compiler::backend::OutputFile;
use hadoop_record_compiler::{load, LoadOptions};

fn generate(paths: &[&str], api: JavaApi) -> Vec<OutputFile> {
    let model = load(paths, &LoadOptions::default()).unwrap_or_else(|d| panic!("{d}"));
    java::generate(&model, &Options::default().with_api(api)).unwrap_or_else(|d| panic!("{d}"))
}

fn paths(files: &[OutputFile]) -> Vec<&str> {
    files.iter().map(|f| f.path.to_str().unwrap()).collect()
}

const COMPOSITE: &str = "../tests/fixtures/hadoop-java/composite.jr";

#[test]
fn a_file_per_record_of_the_files_named_as_hadoop_lays_them_out() {
    // composite.jr includes common.jr, whose records get no class (as with Hadoop's rcc).
    let files = generate(&[COMPOSITE], JavaApi::Hadoop2);
    assert_eq!(
        paths(&files),
        [
            "oracle/composite/Inner.java",
            "oracle/composite/IntVec.java",
            "oracle/composite/StrVec.java",
            "oracle/composite/Containers.java",
            "oracle/composite/Outer.java"
        ]
    );
    let both = generate(
        &[COMPOSITE, "../tests/fixtures/hadoop-java/common.jr"],
        JavaApi::Hadoop2,
    );
    assert!(paths(&both).contains(&"oracle/common/types/Point.java"));
}

#[test]
fn hadoop3_classes_have_no_meta() {
    let two = generate(&[COMPOSITE], JavaApi::Hadoop2);
    let three = generate(&[COMPOSITE], JavaApi::Hadoop3);
    assert!(two[4]
        .contents
        .contains("public static org.apache.hadoop.record.meta.RecordTypeInfo getTypeInfo()"));
    assert!(two[4]
        .contents
        .contains("public static void setTypeFilter("));
    assert!(
        !three[4].contents.contains(".meta."),
        "{}",
        three[4].contents
    );
    assert!(three[4]
        .contents
        .contains("public static java.lang.String signature()"));
}

#[test]
fn generated_classes() {
    for (name, api) in [("hadoop2", JavaApi::Hadoop2), ("hadoop3", JavaApi::Hadoop3)] {
        let files = generate(&[COMPOSITE], api);
        let containers = files
            .iter()
            .find(|f| f.path.ends_with("Containers.java"))
            .unwrap();
        insta::assert_snapshot!(format!("java_{name}_containers"), containers.contents);
    }
    let prims = generate(
        &["../tests/fixtures/hadoop-java/prims.jr"],
        JavaApi::Hadoop2,
    );
    let all = prims
        .iter()
        .find(|f| f.path.ends_with("AllPrims.java"))
        .unwrap();
    insta::assert_snapshot!("java_hadoop2_allprims", all.contents);
}
