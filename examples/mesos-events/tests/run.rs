//! Runs the example end to end: the library call and the binary itself.

use std::process::Command;

use fixture_harness::process::{assert_success, stdout};
use hadoop_record::framing::mesos::MesosReader;

fn expected_events() -> Vec<serde_json::Value> {
    MesosReader::new(mesos_events::SCHEDULER_EVENTS)
        .map(|r| serde_json::from_slice(&r.unwrap()).unwrap())
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn subscriber_receives_every_event_over_http() {
    let mut seen = Vec::new();
    let events = mesos_events::run(|e| seen.push(e["type"].as_str().unwrap().to_owned()))
        .await
        .unwrap();
    assert_eq!(events, expected_events());
    assert_eq!(
        seen,
        ["SUBSCRIBED", "HEARTBEAT", "OFFERS", "UPDATE", "HEARTBEAT"]
    );
}

#[test]
fn the_binary_runs_to_completion_and_prints_the_events() {
    let out = Command::new(env!("CARGO_BIN_EXE_mesos-events"))
        .output()
        .unwrap();
    assert_success(&out, "mesos-events");
    let stdout = stdout(&out);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{stdout}");
    assert!(lines[0].starts_with("SUBSCRIBED: {"), "{stdout}");
    assert!(lines[2].contains("\"offers\""), "{stdout}");
    assert_eq!(lines[5], "5 events");
}
