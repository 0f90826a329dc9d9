//! A Mesos-style event stream over HTTP, end to end on the loopback interface.
//!
//! [`serve`] answers every request with a streaming response the way a Mesos master does
//! (`Content-Type: application/recordio`, `Message-Content-Type: application/json`,
//! chunked transfer encoding, no length), cutting the RecordIO bytes into irregular HTTP
//! chunks that ignore record boundaries, as proxies may. [`subscribe`] reads such a
//! response with hadoop-record's [`MesosCodec`] and returns each event as JSON.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use http_body_util::{BodyExt, Empty, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::FramedRead;
use tokio_util::io::StreamReader;

use hadoop_record::framing::mesos::MesosCodec;

/// A scheduler event stream as a Mesos master sends it (framed by Mesos' own encoder):
/// SUBSCRIBED, HEARTBEAT, OFFERS, UPDATE, HEARTBEAT.
pub const SCHEDULER_EVENTS: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/mesos/scheduler_events_json.recordio"
));

/// The header naming the type of the messages inside a RecordIO body.
pub const MESSAGE_CONTENT_TYPE: &str = "Message-Content-Type";

/// Any error of this example.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Serves `body` as a streaming RecordIO response to every connection, on `listener`,
/// until `connections` connections have been served.
pub async fn serve(
    listener: TcpListener,
    body: &'static [u8],
    connections: usize,
) -> Result<(), BoxError> {
    for _ in 0..connections {
        let (stream, _) = listener.accept().await?;
        let service = hyper::service::service_fn(move |_req: Request<Incoming>| async move {
            // Irregular pieces: 1, 7, 23, 61 ... bytes, regardless of record boundaries.
            let mut pieces = Vec::new();
            let (mut rest, mut size) = (body, 1usize);
            while !rest.is_empty() {
                let (piece, tail) = rest.split_at(size.min(rest.len()));
                pieces.push(Bytes::from_static(piece));
                rest = tail;
                size = size * 3 + 4;
            }
            let frames = futures_util::stream::iter(pieces).then(|piece| async move {
                tokio::time::sleep(Duration::from_millis(2)).await;
                Ok::<_, Infallible>(Frame::data(piece))
            });
            let mut response = Response::new(StreamBody::new(frames));
            let headers = response.headers_mut();
            headers.insert(
                CONTENT_TYPE,
                HeaderValue::from_static("application/recordio"),
            );
            headers.insert(
                MESSAGE_CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            Ok::<_, Infallible>(response)
        });
        hyper::server::conn::http1::Builder::new()
            .serve_connection(TokioIo::new(stream), service)
            .await?;
    }
    Ok(())
}

/// Subscribes to the event stream at `addr` and returns every event, calling `on_event`
/// for each as it arrives.
pub async fn subscribe(
    addr: SocketAddr,
    mut on_event: impl FnMut(&serde_json::Value),
) -> Result<Vec<serde_json::Value>, BoxError> {
    let stream = TcpStream::connect(addr).await?;
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    let connection = tokio::spawn(connection);

    let request = Request::post("/api/v1/scheduler")
        .header(hyper::header::HOST, addr.to_string())
        .header(hyper::header::ACCEPT, "application/recordio")
        .header("Message-Accept", "application/json")
        .body(Empty::<Bytes>::new())?;
    let response = sender.send_request(request).await?;
    if response.status() != StatusCode::OK {
        return Err(format!("unexpected status {}", response.status()).into());
    }
    let header = |name| response.headers().get(name).and_then(|v| v.to_str().ok());
    if header(CONTENT_TYPE.as_str()) != Some("application/recordio") {
        return Err("the response is not application/recordio".into());
    }
    if header(MESSAGE_CONTENT_TYPE) != Some("application/json") {
        return Err("the messages are not application/json".into());
    }

    // The body, as an AsyncRead, framed by the Mesos RecordIO codec.
    let body = response
        .into_body()
        .into_data_stream()
        .map(|chunk| chunk.map_err(std::io::Error::other));
    let mut records = FramedRead::new(StreamReader::new(body), MesosCodec::default());
    let mut events = Vec::new();
    while let Some(record) = records.next().await {
        let event: serde_json::Value = serde_json::from_slice(&record?)?;
        on_event(&event);
        events.push(event);
    }
    drop(sender);
    connection.await??;
    Ok(events)
}

/// Runs a server on 127.0.0.1 (an ephemeral port) and one subscriber against it; returns
/// the events the subscriber printed.
pub async fn run(
    mut on_event: impl FnMut(&serde_json::Value),
) -> Result<Vec<serde_json::Value>, BoxError> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(serve(listener, SCHEDULER_EVENTS, 1));
    let events = subscribe(addr, &mut on_event).await?;
    server.await??;
    Ok(events)
}
