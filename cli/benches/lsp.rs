//! `rcc lsp`'s latency, in process over an in-memory connection: from a change to a
//! 1,000-line file with 20 includes (on disk) to its published diagnostics, and a hover on
//! it. Targets (issue 43): diagnostics within 50 ms of the change, hover within 5 ms.
//! Results: BENCHMARKS.md.

use std::fmt::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use hadoop_record_compiler::LoadOptions;
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};

const INCLUDES: usize = 20;
const LINES: usize = 1_000;

/// 20 included files of 10 records each, and a main file of 1,000 lines that includes
/// them all and names their records. Returns the main file's text.
fn workspace(dir: &Path) -> String {
    let mut main = String::new();
    for i in 0..INCLUDES {
        let mut text = format!("module inc{i} {{\n");
        for r in 0..10 {
            let _ = writeln!(
                text,
                "    class R{r} {{\n        int id;\n        ustring name;\n        vector<long> values;\n    }}"
            );
        }
        text.push_str("}\n");
        std::fs::write(dir.join(format!("inc{i}.jr")), text).unwrap();
        let _ = writeln!(main, "include \"inc{i}.jr\"");
    }
    main.push_str("module main {\n");
    let mut class = 0;
    // Each class: its line, 6 fields, its `}`.
    while main.lines().count() + 9 < LINES {
        let _ = writeln!(main, "    class C{class} {{");
        let _ = writeln!(
            main,
            "        inc{}.R{} first;",
            class % INCLUDES,
            class % 10
        );
        let _ = writeln!(
            main,
            "        map<ustring, inc{}.R{}> byName;",
            (class + 1) % INCLUDES,
            (class + 3) % 10
        );
        let _ = writeln!(main, "        vector<double> samples;");
        let _ = writeln!(main, "        buffer digest;");
        let _ = writeln!(main, "        boolean ok;");
        let _ = writeln!(main, "        long at;");
        let _ = writeln!(main, "    }}");
        class += 1;
    }
    main.push_str("}\n");
    while main.lines().count() < LINES {
        main.push_str("// padding\n");
    }
    main
}

struct Client {
    connection: Connection,
    next_id: i32,
}

impl Client {
    fn notify(&self, method: &str, params: Value) {
        let n = Notification::new(method.to_owned(), params);
        self.connection
            .sender
            .send(Message::Notification(n))
            .unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let r = Request::new(id.clone(), method.to_owned(), params);
        self.connection.sender.send(Message::Request(r)).unwrap();
        loop {
            if let Message::Response(response) = self.connection.receiver.recv().unwrap() {
                if response.id == id {
                    return response.response_result.unwrap();
                }
            }
        }
    }

    /// Waits for the diagnostics of `uri`.
    fn diagnostics(&self, uri: &str) -> Value {
        loop {
            if let Message::Notification(n) = self.connection.receiver.recv().unwrap() {
                if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri {
                    return n.params;
                }
            }
        }
    }
}

fn lsp(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let text = workspace(dir.path());
    let main = dir.path().join("main.jr");
    std::fs::write(&main, &text).unwrap();
    let uri = format!("file://{}", main.display());

    let (server, client) = Connection::memory();
    let thread = std::thread::spawn(move || {
        hadoop_record_cli::lsp::serve(&server, LoadOptions::default()).unwrap();
    });
    let mut client = Client {
        connection: client,
        next_id: 0,
    };
    client.request("initialize", json!({"capabilities": {}}));
    client.notify("initialized", json!({}));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "jr", "version": 1, "text": text}}),
    );
    let first = client.diagnostics(&uri);
    assert_eq!(first["diagnostics"], json!([]), "the workspace checks");

    // The change: the name of the last field of the first class, edited back and forth.
    let line = text.lines().position(|l| l.contains("long at;")).unwrap();
    let change = |client: &Client, version: i32| {
        let name = if version % 2 == 0 { "ab" } else { "at" };
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{
                    "range": {"start": {"line": line, "character": 13},
                              "end": {"line": line, "character": 15}},
                    "text": name
                }]
            }),
        );
    };
    let mut version = 1;
    let mut group = c.benchmark_group("lsp/1000 lines, 20 includes");
    group.bench_function("change to diagnostics", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                version += 1;
                let started = Instant::now();
                change(&client, version);
                let published = client.diagnostics(&uri);
                total += started.elapsed();
                assert_eq!(published["version"], version);
            }
            total
        })
    });
    // Hover on the first class's first field (a record of an included file).
    let hover_line = text.lines().position(|l| l.contains("first;")).unwrap();
    let hover = |client: &mut Client| {
        let result = client.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri},
                   "position": {"line": hover_line, "character": 20}}),
        );
        assert!(result["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("Rust"));
    };
    group.bench_function("hover", |b| b.iter(|| hover(&mut client)));
    // The first hover after a change, as soon as its diagnostics are in: the server may
    // still be preparing the back ends' names.
    group.bench_function("hover, first after a change", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                version += 1;
                change(&client, version);
                client.diagnostics(&uri);
                let started = Instant::now();
                hover(&mut client);
                total += started.elapsed();
            }
            total
        })
    });
    group.finish();

    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    thread.join().unwrap();
}

criterion_group!(benches, lsp);
criterion_main!(benches);
