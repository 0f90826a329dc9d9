//! The harness itself: every manifest value converts, every signature matches.

use fixture_harness::{fixture_schema, hadoop_java};

#[test]
fn every_signature_matches_the_hand_built_schema() {
    let manifest = hadoop_java();
    assert_eq!(manifest.signatures.len(), fixture_schema().records().len());
    for (name, signature) in &manifest.signatures {
        let id = fixture_schema().find(name).expect(name);
        assert_eq!(
            fixture_schema().signature(id).unwrap(),
            signature.as_str(),
            "{name}"
        );
    }
}

#[test]
fn every_case_and_comparison_converts() {
    let manifest = hadoop_java();
    assert_eq!(manifest.cases.len(), 465);
    for case in &manifest.cases {
        assert_eq!(
            case.expected_values().len(),
            case.values.len(),
            "{}",
            case.name
        );
        assert_eq!(case.bytes().len() as u64, case.size, "{}", case.name);
    }
    for comparison in &manifest.comparisons {
        comparison.values();
    }
}
