//! `cargo run -p mesos-events`: serves a Mesos-style scheduler event stream on 127.0.0.1
//! and reads it back with hadoop-record's tokio codec, printing each JSON event.

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), mesos_events::BoxError> {
    let events = mesos_events::run(|event| {
        let kind = event["type"].as_str().unwrap_or("?");
        println!("{kind}: {event}");
    })
    .await?;
    println!("{} events", events.len());
    Ok(())
}
