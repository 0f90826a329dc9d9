//! Requests and notifications of `rcc lsp` whose answers depend on what else happens:
//! hover, watched files, walks of the workspace off the main loop, cancellation, rename's
//! versioned edits.

use std::path::Path;

use lsp_server::{Message, Notification, Request, RequestId};
use serde_json::{json, Value};

use super::client::{uri, Client};
use crate::support::dir_with;

/// The parameters of a request at `line`, `character` of `path`.
fn at(path: &Path, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri(path)},
           "position": {"line": line, "character": character}})
}

fn hover_text(client: &mut Client, path: &Path, line: u32, character: u32) -> String {
    let hover = client.request("textDocument/hover", at(path, line, character));
    hover["contents"]["value"].as_str().unwrap().to_owned()
}

#[test]
fn lsp_hover_on_a_field_shows_the_fields_own_comment() {
    let text = "module m {\n    // A person.\n    class Person {\n        // Their name, as they \
                write it.\n        ustring name;\n        int age;\n    }\n}\n";
    let dir = dir_with(&[("p.jr", text)]);
    let path = dir.path().join("p.jr");
    let mut client = Client::start(dir.path(), json!({}));
    client.open(&path, 1, text);
    client.diagnostics(&path);

    let name = hover_text(&mut client, &path, 4, 18);
    assert!(
        name.starts_with(
            "```ddl\nustring name\n```\nfield of `m.Person`\n\nTheir name, as they write it.\n\n- Rust: "
        ),
        "{name}"
    );
    assert!(!name.contains("A person."), "{name}");
    // A field without a comment shows none, not its record's.
    let age = hover_text(&mut client, &path, 5, 13);
    assert!(
        age.starts_with("```ddl\nint age\n```\nfield of `m.Person`\n\n- Rust: "),
        "{age}"
    );
    // The record's comment is on the record's hover.
    let record = hover_text(&mut client, &path, 2, 12);
    assert!(
        record.starts_with("```ddl\nclass m.Person\n```\n\nA person.\n"),
        "{record}"
    );
    assert!(client.server_requests.is_empty(), "no watcher asked for");
    client.shut_down();
}

#[test]
fn lsp_watches_jr_files_and_rechecks_the_documents_that_include_a_file_changed_on_disk() {
    let main_text = "include \"inc.jr\"\nmodule m { class M { inc.I i; } }\n";
    let other_text = "module o { class O { int y; } }\n";
    let dir = dir_with(&[
        ("inc.jr", "module inc { class I { int x; } }\n"),
        ("main.jr", main_text),
        ("other.jr", other_text),
    ]);
    let inc = dir.path().join("inc.jr");
    let main = dir.path().join("main.jr");
    let other = dir.path().join("other.jr");
    let capabilities =
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    let mut client = Client::start(dir.path(), capabilities);
    client.open(&main, 1, main_text);
    client.open(&other, 1, other_text);
    assert_eq!(client.diagnostics(&main)["diagnostics"], json!([]));
    assert_eq!(client.diagnostics(&other)["diagnostics"], json!([]));
    // The server asked to be told of `.jr` files changed on disk.
    let [watch] = &client.server_requests[..] else {
        panic!("one request from the server: {:?}", client.server_requests);
    };
    assert_eq!(watch.method, "client/registerCapability");
    assert_eq!(
        watch.params,
        json!({"registrations": [{"id": "rcc-watch-jr",
            "method": "workspace/didChangeWatchedFiles",
            "registerOptions": {"watchers": [{"globPattern": "**/*.jr"}]}}]})
    );
    client.published();

    // The include breaks on disk: its error is published, and its includer is checked again;
    // the document that does not include it is not.
    std::fs::write(&inc, "module inc { class I { Nope x; } }\n").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&inc), "type": 2}]}),
    );
    // The server publishes what changed before it answers a request.
    client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&other)}}),
    );
    let published = client.published();
    let uris: Vec<&str> = published.iter().map(|(u, _)| u.as_str()).collect();
    assert_eq!(uris, [uri(&inc), uri(&main)], "{published:?}");
    let error = &published[0].1["diagnostics"][0];
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("unknown type `Nope`"),
        "{error}"
    );
    assert_eq!(
        error["range"],
        json!({"start": {"line": 0, "character": 23}, "end": {"line": 0, "character": 27}})
    );
    assert_eq!(published[1].1["version"], 1);

    // Fixed on disk: the error goes away.
    std::fs::write(&inc, "module inc { class I { int x; } }\n").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&inc), "type": 2}]}),
    );
    assert_eq!(client.diagnostics(&inc)["diagnostics"], json!([]));
    client.shut_down();
}

/// A workspace whose walk is held up: `a.jr` (open) declares `m.A`; `b.jr` (on disk)
/// names it and includes `slow.jr`, a named pipe that a walk reading `b.jr` waits on until
/// the test writes it; and the request for the references to `m.A`, whose walk waits.
#[cfg(unix)]
struct HeldUp {
    dir: tempfile::TempDir,
    client: Client,
    /// `a.jr`.
    a: std::path::PathBuf,
    /// The pipe.
    slow: std::path::PathBuf,
    /// The references request.
    references: RequestId,
}

#[cfg(unix)]
fn held_up_references() -> HeldUp {
    let a_text = "module m { class A { int x; } }\n";
    let dir = dir_with(&[
        ("a.jr", a_text),
        (
            "b.jr",
            "include \"a.jr\"\ninclude \"slow.jr\"\nmodule n { class B { m.A a; } }\n",
        ),
    ]);
    let a = dir.path().join("a.jr");
    let slow = dir.path().join("slow.jr");
    super::client::fifo(&slow);
    let mut client = Client::start(dir.path(), json!({}));
    client.open(&a, 1, a_text);
    assert_eq!(client.diagnostics(&a)["diagnostics"], json!([]));
    let mut params = at(&a, 0, 17);
    params["context"] = json!({"includeDeclaration": true});
    let references = client.send("textDocument/references", params);
    HeldUp {
        dir,
        client,
        a,
        slow,
        references,
    }
}

#[test]
#[cfg(unix)]
fn lsp_hover_is_answered_while_a_walk_of_the_workspace_is_held_up() {
    let HeldUp {
        dir,
        mut client,
        a,
        slow,
        references,
    } = held_up_references();
    let hover = client.send("textDocument/hover", at(&a, 0, 25));
    // The walk waits on the pipe: the hover is answered first.
    let first = client.next_response();
    assert_eq!(first.id, hover, "the hover waited for the walk: {first:?}");
    let value = first.response_result.unwrap()["contents"]["value"].clone();
    assert!(
        value.as_str().unwrap().starts_with("```ddl\nint x\n```"),
        "{value}"
    );
    // Let the walk go on: its answer follows, complete.
    std::fs::write(&slow, "module s { class S { int y; } }\n").unwrap();
    let found = client.response(&references).response_result.unwrap();
    let b = uri(&dir.path().join("b.jr"));
    assert_eq!(
        found,
        json!([
            {"uri": uri(&a), "range": {"start": {"line": 0, "character": 17},
                                       "end": {"line": 0, "character": 18}}},
            {"uri": b, "range": {"start": {"line": 2, "character": 23},
                                 "end": {"line": 2, "character": 24}}}
        ])
    );
    client.shut_down();
}

#[test]
#[cfg(unix)]
fn lsp_a_cancelled_walk_answers_request_cancelled_at_once_and_only_that() {
    let HeldUp {
        dir: _dir,
        mut client,
        slow,
        references,
        ..
    } = held_up_references();
    client.notify("$/cancelRequest", json!({"id": references}));
    let answer = client.next_response();
    assert_eq!(answer.id, references);
    let error = answer.response_result.unwrap_err();
    assert_eq!(error.code, -32800, "RequestCancelled: {}", error.message);
    // Let the walk go if it got as far as the pipe (if it stopped before, nobody reads
    // the pipe and this thread waits until the test ends).
    std::thread::spawn(move || std::fs::write(slow, "module s { }\n"));
    // Nothing more comes until the server and its walk have ended: the request was
    // answered once.
    let rest = client.shut_down();
    assert!(
        !rest
            .iter()
            .any(|m| matches!(m, Message::Response(r) if r.id == references)),
        "{rest:?}"
    );
}

#[test]
fn lsp_a_request_cancelled_before_its_turn_answers_request_cancelled() {
    // Everything is sent before the server starts: it reads the hover with its
    // cancellation already waiting.
    let text = "module m { class C { int x; } }\n";
    let dir = dir_with(&[("c.jr", text)]);
    let path = dir.path().join("c.jr");
    let (server, client) = lsp_server::Connection::memory();
    let send = |message: Message| client.sender.send(message).unwrap();
    let request = |id: i32, method: &str, params: Value| {
        Message::Request(Request::new(RequestId::from(id), method.to_owned(), params))
    };
    let notification = |method: &str, params: Value| {
        Message::Notification(Notification::new(method.to_owned(), params))
    };
    send(request(1, "initialize", json!({"capabilities": {}})));
    send(notification("initialized", json!({})));
    send(notification(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(&path), "languageId": "jr", "version": 1, "text": text}}),
    ));
    send(request(2, "textDocument/hover", at(&path, 0, 25)));
    send(notification("$/cancelRequest", json!({"id": 2})));
    send(request(3, "textDocument/hover", at(&path, 0, 25)));
    send(request(4, "shutdown", Value::Null));
    send(notification("exit", Value::Null));
    hadoop_record_cli::lsp::serve(&server, hadoop_record_compiler::LoadOptions::default()).unwrap();
    drop(server);
    let responses: Vec<_> = client
        .receiver
        .try_iter()
        .filter_map(|m| match m {
            Message::Response(r) => Some(r),
            _ => None,
        })
        .collect();
    let ids: Vec<_> = responses.iter().map(|r| r.id.clone()).collect();
    assert_eq!(ids, [1, 2, 3, 4].map(RequestId::from));
    let cancelled = responses[1].response_result.clone().unwrap_err();
    assert_eq!(cancelled.code, -32800, "{}", cancelled.message);
    // The hover not cancelled is answered.
    let hover = responses[2].response_result.clone().unwrap();
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("int x"),
        "{hover}"
    );
}

#[test]
fn lsp_workspace_symbols_come_nearest_first_without_hidden_target_or_node_modules() {
    // The bound of 10,000 directories is tested on the walk itself (`workspace.rs`):
    // making and removing that many directories takes half a minute on some disks.
    let skipped = "module skipped { class S { int x; } }\n";
    let dir = dir_with(&[
        ("a/deep/deeper.jr", "module deeper { class D { int x; } }\n"),
        ("a/near.jr", "module near { class Near { int x; } }\n"),
        ("top.jr", "module top { class Top { int x; } }\n"),
        (".hidden/s.jr", skipped),
        ("target/s.jr", skipped),
        ("node_modules/s.jr", skipped),
    ]);
    let root = dir.path();
    let mut client = Client::start(root, json!({}));
    let found = client.request("workspace/symbol", json!({"query": "e"}));
    // Nearest first: the root's file, then the folder's, then the folder's folder's.
    let names: Vec<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["near", "near.Near", "deeper", "deeper.D"]);
    client.shut_down();
}

#[test]
fn lsp_rename_names_document_versions_when_the_client_takes_them() {
    let shapes_text = "include \"common.jr\"\nmodule shapes { class P { common.Point p; } }\n";
    let dir = dir_with(&[
        ("common.jr", "module common { class Point { int x; } }\n"),
        ("shapes.jr", shapes_text),
    ]);
    let common = dir.path().join("common.jr");
    let shapes = dir.path().join("shapes.jr");
    let rename = |client: &mut Client| {
        client.open(&shapes, 7, shapes_text);
        client.diagnostics(&shapes);
        let mut params = at(&shapes, 1, 35);
        params["newName"] = json!("Vertex");
        client.request("textDocument/rename", params)
    };
    let common_edit = json!([{"range": {"start": {"line": 0, "character": 22},
                                        "end": {"line": 0, "character": 27}},
                              "newText": "Vertex"}]);
    let shapes_edit = json!([{"range": {"start": {"line": 1, "character": 33},
                                        "end": {"line": 1, "character": 38}},
                              "newText": "Vertex"}]);

    let versioned = json!({"workspace": {"workspaceEdit": {"documentChanges": true}}});
    let mut client = Client::start(dir.path(), versioned);
    assert_eq!(
        rename(&mut client),
        json!({"documentChanges": [
            {"textDocument": {"uri": uri(&common), "version": null}, "edits": common_edit},
            {"textDocument": {"uri": uri(&shapes), "version": 7}, "edits": shapes_edit},
        ]})
    );
    client.shut_down();

    let mut client = Client::start(dir.path(), json!({}));
    assert_eq!(
        rename(&mut client),
        json!({"changes": {uri(&common): common_edit, uri(&shapes): shapes_edit}})
    );
    client.shut_down();
}
