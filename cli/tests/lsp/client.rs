//! A client of `rcc lsp` served in this process (`lsp::serve` over an in-memory
//! connection), for tests that look at the order of answers or hold the server up.

use std::path::Path;
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::RecvTimeoutError;
use hadoop_record_compiler::LoadOptions;
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{json, Value};

/// How long a test waits for a message from the server before it fails.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// The URI of `path`.
pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

pub struct Client {
    pub connection: Connection,
    server: Option<JoinHandle<()>>,
    next_id: i32,
    /// Notifications received and not yet taken, in order.
    pub notifications: Vec<Notification>,
    /// Requests the server sent (each answered with `null`).
    pub server_requests: Vec<Request>,
    /// Responses received before they were waited for.
    responses: Vec<Response>,
}

impl Client {
    /// A client of a fresh server whose workspace folder is `root`, initialized with
    /// `capabilities`.
    pub fn start(root: &Path, capabilities: Value) -> Client {
        let (server, connection) = Connection::memory();
        let thread = std::thread::spawn(move || {
            hadoop_record_cli::lsp::serve(&server, LoadOptions::default()).unwrap();
        });
        let mut client = Client {
            connection,
            server: Some(thread),
            next_id: 0,
            notifications: Vec::new(),
            server_requests: Vec::new(),
            responses: Vec::new(),
        };
        let folder = uri(root);
        client.request(
            "initialize",
            json!({"capabilities": capabilities, "rootUri": folder,
                   "workspaceFolders": [{"uri": folder, "name": "ws"}]}),
        );
        client.notify("initialized", json!({}));
        client
    }

    pub fn notify(&self, method: &str, params: Value) {
        let notification = Notification::new(method.to_owned(), params);
        self.connection.sender.send(notification.into()).unwrap();
    }

    /// Opens `path` at `version` with `text`.
    pub fn open(&self, path: &Path, version: i32, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(path), "languageId": "jr", "version": version,
                                    "text": text}}),
        );
    }

    /// Sends a request without waiting for its answer.
    pub fn send(&mut self, method: &str, params: Value) -> RequestId {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request::new(id.clone(), method.to_owned(), params);
        self.connection.sender.send(request.into()).unwrap();
        id
    }

    /// Sends a request and waits for its result.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        match self.response(&id).response_result {
            Ok(result) => result,
            Err(e) => panic!("{method} failed: {} {}", e.code, e.message),
        }
    }

    /// The next message from the server; a request from the server is answered.
    fn receive(&mut self) -> Message {
        let message = self
            .connection
            .receiver
            .recv_timeout(PATIENCE)
            .unwrap_or_else(|e| panic!("no message from the server in {PATIENCE:?}: {e}"));
        if let Message::Request(request) = &message {
            let answer = Response::new_ok(request.id.clone(), Value::Null);
            self.connection.sender.send(answer.into()).unwrap();
        }
        message
    }

    /// The next response, whichever request it answers (the notifications and requests
    /// before it are kept).
    pub fn next_response(&mut self) -> Response {
        if !self.responses.is_empty() {
            return self.responses.remove(0);
        }
        loop {
            match self.receive() {
                Message::Response(response) => return response,
                Message::Notification(n) => self.notifications.push(n),
                Message::Request(r) => self.server_requests.push(r),
            }
        }
    }

    /// Waits for the response to `id` (other responses before it are kept).
    pub fn response(&mut self, id: &RequestId) -> Response {
        if let Some(i) = self.responses.iter().position(|r| &r.id == id) {
            return self.responses.remove(i);
        }
        loop {
            match self.receive() {
                Message::Response(response) if &response.id == id => return response,
                Message::Response(response) => self.responses.push(response),
                Message::Notification(n) => self.notifications.push(n),
                Message::Request(r) => self.server_requests.push(r),
            }
        }
    }

    /// The parameters of the next diagnostics published for `path`.
    pub fn diagnostics(&mut self, path: &Path) -> Value {
        let uri = uri(path);
        let published = |n: &Notification| {
            n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri
        };
        loop {
            if let Some(i) = self.notifications.iter().position(published) {
                return self.notifications.remove(i).params;
            }
            match self.receive() {
                Message::Notification(n) => self.notifications.push(n),
                Message::Response(r) => self.responses.push(r),
                Message::Request(r) => self.server_requests.push(r),
            }
        }
    }

    /// The URIs of the diagnostics published since the last call, in order, taken.
    pub fn published(&mut self) -> Vec<(String, Value)> {
        std::mem::take(&mut self.notifications)
            .into_iter()
            .filter(|n| n.method == "textDocument/publishDiagnostics")
            .map(|n| (n.params["uri"].as_str().unwrap().to_owned(), n.params))
            .collect()
    }

    /// Shuts the server down as the protocol says and waits for it, and every thread of
    /// it, to end; what it sent after answering `shutdown`.
    pub fn shut_down(mut self) -> Vec<Message> {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        self.server.take().unwrap().join().unwrap();
        let mut rest = Vec::new();
        loop {
            match self.connection.receiver.recv_timeout(PATIENCE) {
                Ok(message) => rest.push(message),
                Err(RecvTimeoutError::Disconnected) => return rest,
                Err(RecvTimeoutError::Timeout) => panic!("a thread of the server still runs"),
            }
        }
    }
}

/// A named pipe at `path`: a file whose reader waits until the test writes it, so that a
/// walk that reads it is held up for as long as the test wants.
#[cfg(unix)]
pub fn fifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}
