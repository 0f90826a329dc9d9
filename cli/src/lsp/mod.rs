//! `rcc lsp`: a Language Server Protocol server over standard input and output, answering
//! from the same front end as `rcc check` (the compiler's `query` module).
//!
//! Data flow: `server` reads messages and feeds the documents to `documents` (the open
//! documents over the disk, one analysis per document); `diagnostics` publishes what the
//! analyses report; each request has a small module (`hover`, `navigate`, `rename`,
//! `complete`, `symbols`, `format`); those that walk the workspace folders read a copy of
//! the documents (`workspace`) on a worker thread (`jobs`), cancellable; `position`
//! converts byte offsets to the protocol's UTF-16 positions.

mod complete;
mod diagnostics;
mod documents;
mod format;
mod hover;
mod jobs;
mod navigate;
mod position;
mod rename;
mod server;
mod symbols;
mod workspace;

use std::path::PathBuf;

use clap::Args;
use hadoop_record_compiler::LoadOptions;
use lsp_server::{Connection, Message, Request, RequestId};
use lsp_types::notification::{DidChangeWatchedFiles, Notification as _};
use lsp_types::request::{RegisterCapability, Request as _};
use lsp_types::{
    ClientCapabilities, CompletionOptions, DidChangeWatchedFilesRegistrationOptions,
    FileSystemWatcher, GlobPattern, HoverProviderCapability, InitializeParams, OneOf, Registration,
    RegistrationParams, RenameOptions, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, WorkDoneProgressOptions,
};
use serde::Deserialize;

use super::{Context, LoadArgs};
use documents::{uri_path, World};

const HELP: &str = "\
Speaks the Language Server Protocol on standard input and output: an editor starts it and
gets what `rcc check` reports as diagnostics (on open and on every change, following
includes), hover with each field's Rust, Java and C++ types, go to definition, find
references, rename of records and fields across files, completion and symbols.

Include directories come from -I, then from the client's initialization options:
  {\"includeDirs\": [\"ddl/common\"], \"hadoopCompat\": false}
(relative directories are taken from the first workspace folder).

Editors (docs/editors.md has the details):
  Neovim   vim.lsp.start({ name = 'rcc', cmd = { 'rcc', 'lsp' }, root_dir = vim.fn.getcwd() })
           in a FileType autocommand for `jr` (`vim.filetype.add({ extension = { jr = 'jr' } })`)
  Helix    languages.toml: [language-server.rcc] command = \"rcc\", args = [\"lsp\"], and a
           [[language]] name = \"jr\" with file-types = [\"jr\"], language-servers = [\"rcc\"]
  Emacs    (add-to-list 'eglot-server-programs '(jr-mode \"rcc\" \"lsp\"))
  VS Code  a generic LSP client extension, with command `rcc` and arguments `lsp` for `*.jr`";

/// Arguments of `rcc lsp`.
#[derive(Debug, Args)]
#[command(after_long_help = HELP, after_help = HELP)]
pub(crate) struct LspArgs {
    #[command(flatten)]
    load: LoadArgs,

    /// Accepted for clients that pass it (e.g. vscode-languageclient); standard input and
    /// output are the only transport
    #[arg(long, hide = true)]
    stdio: bool,
}

/// The client's `initializationOptions`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct InitializationOptions {
    /// Include directories, after those of `-I`.
    include_dirs: Vec<PathBuf>,
    /// Hadoop compatibility problems as errors.
    hadoop_compat: bool,
}

/// Runs the server on standard input and output; true when it ended as the protocol says
/// (shutdown, then exit).
pub(crate) fn run(context: &Context, args: LspArgs) -> bool {
    let (connection, io_threads) = Connection::stdio();
    let options = args.load.into_options();
    let served = serve(&connection, options);
    drop(connection);
    let joined = io_threads.join();
    match served.and(joined.map_err(Into::into)) {
        Ok(()) => true,
        Err(e) => {
            context.error(&format!("rcc lsp: {e}"));
            false
        }
    }
}

/// Serves one client on `connection`, from its `initialize` request to `exit`. `options`
/// are the command line's; the client's initialization options add to them.
pub fn serve(
    connection: &Connection,
    options: LoadOptions,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = serde_json::from_value(params)?;
    let folders = workspace_folders(&params);
    let init: InitializationOptions = params
        .initialization_options
        .clone()
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    let base = folders.first().cloned().unwrap_or_default();
    let compat = options.hadoop_compat() || init.hadoop_compat;
    let options = options
        .with_include_dirs(init.include_dirs.iter().map(|dir| base.join(dir)))
        .with_hadoop_compat(compat);
    let result = lsp_types::InitializeResult {
        capabilities: capabilities(),
        server_info: Some(ServerInfo {
            name: "rcc".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
    };
    connection.initialize_finish(id, serde_json::to_value(result)?)?;
    let client = &params.capabilities;
    if watches_files(client) {
        connection.sender.send(watch_request())?;
    }
    let versioned_edits = client
        .workspace
        .as_ref()
        .and_then(|w| w.workspace_edit.as_ref())
        .and_then(|e| e.document_changes)
        == Some(true);
    server::Server::new(World::new(options, folders), versioned_edits, connection)
        .run(connection)?;
    Ok(())
}

/// Whether the client registers file watchers the server asks for.
fn watches_files(client: &ClientCapabilities) -> bool {
    client
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|w| w.dynamic_registration)
        == Some(true)
}

/// The request that asks the client to report changes to `.jr` files on disk (an include
/// edited outside the editor): `workspace/didChangeWatchedFiles` for `**/*.jr`.
fn watch_request() -> Message {
    let options = DidChangeWatchedFilesRegistrationOptions {
        watchers: vec![FileSystemWatcher {
            glob_pattern: GlobPattern::String("**/*.jr".to_owned()),
            kind: None,
        }],
    };
    let params = RegistrationParams {
        registrations: vec![Registration {
            id: "rcc-watch-jr".to_owned(),
            method: DidChangeWatchedFiles::METHOD.to_owned(),
            register_options: serde_json::to_value(options).ok(),
        }],
    };
    Message::Request(Request::new(
        RequestId::from("rcc-watch-jr".to_owned()),
        RegisterCapability::METHOD.to_owned(),
        params,
    ))
}

/// The folders to look for DDL files in: the workspace folders, else the root.
fn workspace_folders(params: &InitializeParams) -> Vec<PathBuf> {
    match &params.workspace_folders {
        Some(folders) if !folders.is_empty() => folders.iter().map(|f| uri_path(&f.uri)).collect(),
        #[allow(deprecated)] // older clients send only the root
        _ => params.root_uri.iter().map(uri_path).collect(),
    }
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["<".to_owned(), ",".to_owned(), ".".to_owned()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: format::AVAILABLE.then_some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}
