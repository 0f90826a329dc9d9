//! `rcc lsp`: over standard input and output, as an editor starts it; and in this process
//! (`client`), for what needs the order of answers or a server held up (`requests`).

mod client;
mod requests;

use crate::support::{dir_with, help_with, rcc_in, stderr, stdout, CRATE_DIR};

#[test]
fn lsp_help_says_what_it_does_and_how_to_hook_it_up() {
    help_with(
        &["lsp", "--help"],
        &[
            "Language Server Protocol",
            "includeDirs",
            "--include-dir <DIR>",
            "Neovim",
            "Helix",
            "eglot",
            "VS Code",
            "docs/editors.md",
        ],
    );
    help_with(&["--help"], &["rcc lsp"]);
}

/// One LSP message as `Content-Length` framing carries it.
fn lsp_frame(message: &serde_json::Value) -> Vec<u8> {
    let body = message.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

#[test]
fn lsp_over_stdio_publishes_rcc_checks_diagnostics_and_exits_cleanly() {
    use serde_json::json;
    let text = "module m { class C { Nope n; } }\n";
    let dir = dir_with(&[("a.jr", text)]);
    let path = dir.path().join("a.jr");
    let uri = format!("file://{}", path.display());
    let mut input = Vec::new();
    for message in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
            {"uri": uri, "languageId": "jr", "version": 1, "text": text}}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
        json!({"jsonrpc": "2.0", "method": "exit"}),
    ] {
        input.extend(lsp_frame(&message));
    }
    let out = rcc_in(dir.path(), &["lsp"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let stdout = stdout(&out);
    // The diagnostic `rcc check` reports, at its range (line 0, characters 21..25).
    let published = stdout
        .split("Content-Length")
        .find(|m| m.contains("publishDiagnostics"))
        .unwrap_or_else(|| panic!("{stdout}"));
    let body: serde_json::Value =
        serde_json::from_str(&published[published.find('{').unwrap()..]).unwrap();
    let diagnostic = &body["params"]["diagnostics"][0];
    assert!(diagnostic["message"]
        .as_str()
        .unwrap()
        .starts_with("unknown type `Nope`"));
    assert_eq!(
        diagnostic["range"],
        json!({"start": {"line": 0, "character": 21}, "end": {"line": 0, "character": 25}})
    );
    assert!(stdout.contains(r#""id":2,"result":null"#), "{stdout}");
}

/// Every request the server answers, at the end of the text (the cursor of someone typing).
fn lsp_requests_at(uri: &str, text: &str, id: &mut i64) -> Vec<serde_json::Value> {
    use serde_json::json;
    let line = text.matches('\n').count();
    let character = text
        .rsplit('\n')
        .next()
        .map_or(0, |l| l.encode_utf16().count());
    let at =
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
    let mut with = |method: &str, extra: serde_json::Value| {
        *id += 1;
        let mut params = at.clone();
        params
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        json!({"jsonrpc": "2.0", "id": *id, "method": method, "params": params})
    };
    vec![
        with("textDocument/hover", json!({})),
        with("textDocument/completion", json!({})),
        with("textDocument/definition", json!({})),
        with(
            "textDocument/references",
            json!({"context": {"includeDeclaration": true}}),
        ),
        with("textDocument/prepareRename", json!({})),
        with("textDocument/rename", json!({"newName": "Renamed"})),
        with("textDocument/documentSymbol", json!({})),
    ]
}

#[test]
fn lsp_answers_every_request_on_every_prefix_of_a_file_without_failing() {
    use serde_json::json;
    // Typed from the first character to the last: each prefix is a half-typed file.
    let text = std::fs::read_to_string(format!("{CRATE_DIR}/tests/ddl/hadoop/test.jr")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let uri = format!("file://{}/typed.jr", dir.path().display());
    let mut input = Vec::new();
    let mut id = 1;
    let mut messages = vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
            {"uri": uri, "languageId": "jr", "version": 1, "text": ""}}}),
    ];
    let cuts: Vec<usize> = (0..text.len())
        .step_by(7)
        .chain([text.len()])
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    for (version, &cut) in cuts.iter().enumerate() {
        let prefix = &text[..cut];
        messages.push(
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version + 2},
            "contentChanges": [{"text": prefix}]}}),
        );
        messages.extend(lsp_requests_at(&uri, prefix, &mut id));
    }
    id += 1;
    messages.push(json!({"jsonrpc": "2.0", "id": id, "method": "shutdown"}));
    messages.push(json!({"jsonrpc": "2.0", "method": "exit"}));
    for message in &messages {
        input.extend(lsp_frame(message));
    }
    let out = rcc_in(dir.path(), &["lsp"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "nothing went wrong inside the server");
    let stdout = stdout(&out);
    // Every request is answered; none with an internal error (rename and prepareRename
    // may refuse, with RequestFailed, where nothing can be renamed).
    let answered = stdout.matches(r#""id":"#).count();
    assert_eq!(answered as i64, id, "every request answered");
    assert!(!stdout.contains("-32603"), "an internal error:\n{stdout}");
    // The complete file checks: its last diagnostics are empty.
    let last = stdout.rsplit("publishDiagnostics").next().unwrap();
    assert!(last.contains(r#""diagnostics":[]"#), "{last}");
}
