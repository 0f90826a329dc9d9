//! The main loop: messages come in on a channel, notifications change the documents,
//! requests are answered by small handlers, and whenever no message is waiting the
//! documents that changed are analysed again and their diagnostics published. Several
//! quick changes thus cost one analysis, without a timer. Requests that walk the
//! workspace (find references, rename, workspace symbols) are answered by a worker thread
//! (`jobs`), so that hover and the others never wait for a walk. A request the client
//! cancels before its answer is answered with `RequestCancelled`. A panic in a handler is
//! caught: the request gets an error, the server goes on.

use std::collections::{HashMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hadoop_record_compiler::{query, ParseCache};
use lsp_server::{
    Connection, ErrorCode, Message, Notification, Request, RequestId, Response, ResponseError,
};
use lsp_types::notification::{
    Cancel as CancelRequest, DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument,
    DidOpenTextDocument, Exit, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest,
    PrepareRenameRequest, References, Rename, Request as _, Shutdown, WorkspaceSymbolRequest,
};
use lsp_types::{
    CompletionResponse, DocumentSymbolResponse, GotoDefinitionResponse, Hover, HoverContents,
    MarkupContent, MarkupKind, PrepareRenameResponse, PublishDiagnosticsParams,
    TextDocumentPositionParams, Url,
};
use serde_json::Value;

use super::documents::{Document, Uris, World};
use super::jobs::{cancelled, failure, internal_error, Answer, Jobs, Work};
use super::position::LineIndex;
use super::workspace::Workspace;
use super::{complete, diagnostics, format, hover, navigate, rename, symbols};

/// How long the server waits for `exit` after `shutdown`.
const EXIT_TIMEOUT: Duration = Duration::from_secs(30);

/// How a request is answered: now, on the main loop, or by work on a worker thread.
pub(crate) enum Reply {
    Now(Answer),
    Later(Work),
}

/// What a walk handler gives: its result now, or the walk that computes it, for a worker
/// thread.
enum Outcome<T> {
    Ready(T),
    Walk(Work<T>),
}

/// What a walk handler returns.
type Walked<T> = Result<Outcome<T>, ResponseError>;

/// The server: the documents, what was last published, the requests on worker threads.
pub(crate) struct Server {
    world: World,
    published: HashMap<Url, Vec<lsp_types::Diagnostic>>,
    /// The client takes rename edits with documents' versions (`documentChanges`).
    versioned_edits: bool,
    jobs: Jobs,
    /// The walks' parse cache (the main loop's is the world's).
    walk_cache: Arc<Mutex<ParseCache>>,
    /// Messages read ahead of their turn, to see whether the client cancelled a request
    /// before it is answered.
    inbox: VecDeque<Message>,
}

impl Server {
    /// A server of `world` for the client of `connection`; `versioned_edits` when the
    /// client takes `documentChanges` in workspace edits.
    pub fn new(world: World, versioned_edits: bool, connection: &Connection) -> Self {
        Server {
            world,
            published: HashMap::new(),
            versioned_edits,
            jobs: Jobs::new(connection.sender.clone()),
            walk_cache: Arc::default(),
            inbox: VecDeque::new(),
        }
    }

    /// Serves `connection` until the client shuts the server down or goes away.
    pub fn run(mut self, connection: &Connection) -> Result<(), String> {
        loop {
            let message = match self.inbox.pop_front() {
                Some(message) => message,
                None => match connection.receiver.try_recv() {
                    Ok(message) => message,
                    Err(_) => {
                        // Nothing waiting: analyse what changed, then prepare hover.
                        self.publish(connection);
                        if connection.receiver.is_empty() {
                            self.prepare();
                        }
                        match connection.receiver.recv() {
                            Ok(message) => message,
                            Err(_) => return Ok(()),
                        }
                    }
                },
            };
            match message {
                Message::Request(request) => {
                    // A request sees every change made before it.
                    self.publish(connection);
                    if request.method == Shutdown::METHOD {
                        return self.shut_down(connection, request.id);
                    }
                    let id = request.id.clone();
                    self.inbox.extend(connection.receiver.try_iter());
                    if self.inbox.iter().any(|m| cancels(m, &id)) {
                        send(connection, response(id, Err(cancelled())));
                        continue;
                    }
                    let method = request.method.clone();
                    match self.respond(request) {
                        Reply::Now(result) => send(connection, response(id, result)),
                        Reply::Later(work) => self.jobs.spawn(id, method, work),
                    }
                }
                Message::Notification(notification) => match notification.method.as_str() {
                    Exit::METHOD => return Ok(()),
                    CancelRequest::METHOD => {
                        if let Ok(id) = serde_json::from_value(notification.params["id"].clone()) {
                            self.jobs.cancel(&id);
                        }
                    }
                    _ => self.notify(notification),
                },
                Message::Response(_) => {}
            }
        }
    }

    /// Answers `shutdown` (cancelling what runs on worker threads) and waits for `exit`;
    /// requests in between are refused, as the protocol says.
    fn shut_down(&mut self, connection: &Connection, id: RequestId) -> Result<(), String> {
        self.jobs.cancel_all();
        send(connection, response(id, Ok(Value::Null)));
        loop {
            let message = match self.inbox.pop_front() {
                Some(message) => message,
                None => connection
                    .receiver
                    .recv_timeout(EXIT_TIMEOUT)
                    .map_err(|e| format!("no `exit` after `shutdown`: {e}"))?,
            };
            match message {
                Message::Notification(n) if n.method == Exit::METHOD => return Ok(()),
                Message::Request(request) => send(
                    connection,
                    response(
                        request.id,
                        Err(failure(
                            ErrorCode::InvalidRequest,
                            "rcc lsp is shutting down: send `exit`",
                        )),
                    ),
                ),
                _ => {}
            }
        }
    }

    /// Answers `request`, or gives the work that will; a handler that panics answers an
    /// internal error.
    pub fn respond(&mut self, request: Request) -> Reply {
        let method = request.method.clone();
        match catch_unwind(AssertUnwindSafe(|| self.dispatch(request))) {
            Ok(reply) => reply,
            Err(panic) => Reply::Now(Err(internal_error(&method, panic.as_ref()))),
        }
    }

    fn dispatch(&mut self, request: Request) -> Reply {
        match request.method.as_str() {
            HoverRequest::METHOD => handle::<HoverRequest>(self, request, Self::hover),
            GotoDefinition::METHOD => handle::<GotoDefinition>(self, request, Self::definition),
            References::METHOD => walk::<References>(self, request, Self::references),
            PrepareRenameRequest::METHOD => {
                handle::<PrepareRenameRequest>(self, request, Self::prepare_rename)
            }
            Rename::METHOD => walk::<Rename>(self, request, Self::rename),
            Completion::METHOD => handle::<Completion>(self, request, Self::completion),
            DocumentSymbolRequest::METHOD => {
                handle::<DocumentSymbolRequest>(self, request, Self::document_symbols)
            }
            WorkspaceSymbolRequest::METHOD => {
                walk::<WorkspaceSymbolRequest>(self, request, Self::workspace_symbols)
            }
            Formatting::METHOD => handle::<Formatting>(self, request, Self::formatting),
            method => Reply::Now(Err(failure(
                ErrorCode::MethodNotFound,
                format!("rcc lsp does not answer `{method}`"),
            ))),
        }
    }

    /// Applies a notification; one that panics is logged and dropped.
    fn notify(&mut self, notification: Notification) {
        let method = notification.method.clone();
        let world = &mut self.world;
        let applied = catch_unwind(AssertUnwindSafe(|| match method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) = params::<DidOpenTextDocument>(notification) {
                    world.open(
                        p.text_document.uri,
                        p.text_document.version,
                        p.text_document.text,
                    );
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = params::<DidChangeTextDocument>(notification) {
                    world.change(
                        &p.text_document.uri,
                        p.text_document.version,
                        p.content_changes,
                    );
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = params::<DidCloseTextDocument>(notification) {
                    world.close(&p.text_document.uri);
                }
            }
            DidChangeWatchedFiles::METHOD => {
                if let Ok(p) = params::<DidChangeWatchedFiles>(notification) {
                    world.files_changed(&p.changes);
                }
            }
            _ => {}
        }));
        if let Err(panic) = applied {
            eprintln!("{}", internal_error(&method, panic.as_ref()).message);
        }
    }

    /// Analyses the changed documents again and publishes diagnostics: always for those
    /// documents, and for every other file whose diagnostics changed.
    fn publish(&mut self, connection: &Connection) {
        let refreshed = match catch_unwind(AssertUnwindSafe(|| self.world.refresh())) {
            Ok(Some(refreshed)) => refreshed,
            Ok(None) => return,
            Err(panic) => {
                eprintln!("{}", internal_error("analysis", panic.as_ref()).message);
                return;
            }
        };
        let mut current = diagnostics::collect(&self.world);
        let mut uris: Vec<Url> = refreshed
            .iter()
            .filter_map(|key| self.world.uri(key))
            .collect();
        for (uri, list) in &current {
            if self.published.get(uri) != Some(list) {
                uris.push(uri.clone());
            }
        }
        for uri in self.published.keys() {
            if !current.contains_key(uri) {
                uris.push(uri.clone());
            }
        }
        uris.sort();
        uris.dedup();
        for uri in uris {
            let list = current.remove(&uri).unwrap_or_default();
            let version = self.world.version(&uri);
            let params = PublishDiagnosticsParams::new(uri.clone(), list.clone(), version);
            send(
                connection,
                Message::Notification(Notification::new(
                    PublishDiagnostics::METHOD.to_owned(),
                    params,
                )),
            );
            if list.is_empty() {
                self.published.remove(&uri);
            } else {
                self.published.insert(uri, list);
            }
        }
    }

    /// Builds what hover needs for every open document, while the client has nothing
    /// waiting.
    fn prepare(&self) {
        let prepared = catch_unwind(AssertUnwindSafe(|| {
            for document in self.world.documents.values() {
                document.apis();
            }
        }));
        if let Err(panic) = prepared {
            eprintln!("{}", internal_error("hover", panic.as_ref()).message);
        }
    }

    /// What a walk of the workspace reads: a copy of the documents as they are now.
    fn workspace(&self) -> Workspace {
        Workspace::new(&self.world, self.walk_cache.clone())
    }

    /// The open document at `uri`, with its text.
    fn document(&self, uri: &Url) -> Result<(&Document, String), ResponseError> {
        let key = self.world.key(uri);
        match (self.world.documents.get(&key), self.world.fs.document(&key)) {
            (Some(document), Some(text)) => Ok((document, text.to_owned())),
            _ => Err(failure(
                ErrorCode::InvalidParams,
                format!("`{uri}` is not open"),
            )),
        }
    }

    /// What is at `at` of its document, with the document's analysis.
    fn occurrence(
        &self,
        at: &TextDocumentPositionParams,
    ) -> Result<Option<(std::sync::Arc<query::Analysis>, query::Occurrence)>, ResponseError> {
        let (document, text) = self.document(&at.text_document.uri)?;
        let analysis = document.analysis.clone();
        let key = self.world.key(&at.text_document.uri);
        let Some(file) = analysis.file_id(&key) else {
            return Ok(None);
        };
        let offset = LineIndex::new(&text).offset(at.position);
        Ok(query::at(&analysis, file, offset).map(|o| (analysis, o)))
    }

    fn hover(&mut self, p: lsp_types::HoverParams) -> Result<Option<Hover>, ResponseError> {
        let Some((analysis, occurrence)) = self.occurrence(&p.text_document_position_params)?
        else {
            return Ok(None);
        };
        let (document, _) = self.document(&p.text_document_position_params.text_document.uri)?;
        let (text, span) = hover::hover(&analysis, document.apis(), &occurrence);
        let file = analysis.file_id(
            &self
                .world
                .key(&p.text_document_position_params.text_document.uri),
        );
        let range = file.map(|f| LineIndex::new(analysis.model().file(f).text()).range(span));
        Ok(Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: text,
            }),
            range,
        }))
    }

    fn definition(
        &mut self,
        p: lsp_types::GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>, ResponseError> {
        let Some((analysis, occurrence)) = self.occurrence(&p.text_document_position_params)?
        else {
            return Ok(None);
        };
        Ok(navigate::definition(&self.world, &analysis, &occurrence)
            .map(GotoDefinitionResponse::Scalar))
    }

    fn references(
        &mut self,
        p: lsp_types::ReferenceParams,
    ) -> Walked<Option<Vec<lsp_types::Location>>> {
        let Some((analysis, occurrence)) = self.occurrence(&p.text_document_position)? else {
            return Ok(Outcome::Ready(None));
        };
        let declaration = p.context.include_declaration;
        Ok(match occurrence {
            query::Occurrence::RecordDeclaration { record, .. }
            | query::Occurrence::RecordReference { record, .. } => {
                let key = analysis.record_key(record);
                let workspace = self.workspace();
                Outcome::Walk(Box::new(move |cancel| {
                    navigate::references(&workspace, &key, declaration, cancel).map(Some)
                }))
            }
            // DDL names a field nowhere but in its declaration.
            query::Occurrence::Field { .. } if declaration => Outcome::Ready(Some(
                navigate::definition(&self.world, &analysis, &occurrence)
                    .into_iter()
                    .collect(),
            )),
            _ => Outcome::Ready(Some(Vec::new())),
        })
    }

    fn prepare_rename(
        &mut self,
        p: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>, ResponseError> {
        let Some((analysis, occurrence)) = self.occurrence(&p)? else {
            return Ok(None);
        };
        let Some((_, span)) = rename::target(&analysis, &occurrence) else {
            return Err(failure(
                ErrorCode::RequestFailed,
                "only a record or a field can be renamed",
            ));
        };
        let (_, text) = self.document(&p.text_document.uri)?;
        Ok(Some(PrepareRenameResponse::Range(
            LineIndex::new(&text).range(span),
        )))
    }

    fn rename(&mut self, p: lsp_types::RenameParams) -> Walked<Option<lsp_types::WorkspaceEdit>> {
        let Some((analysis, occurrence)) = self.occurrence(&p.text_document_position)? else {
            return Err(failure(ErrorCode::RequestFailed, "nothing to rename here"));
        };
        let Some((target, _)) = rename::target(&analysis, &occurrence) else {
            return Err(failure(
                ErrorCode::RequestFailed,
                "only a record or a field can be renamed",
            ));
        };
        let workspace = self.workspace();
        let versioned = self.versioned_edits;
        Ok(Outcome::Walk(Box::new(move |cancel| {
            rename::rename(&workspace, &target, &p.new_name, versioned, cancel).map(Some)
        })))
    }

    fn completion(
        &mut self,
        p: lsp_types::CompletionParams,
    ) -> Result<Option<CompletionResponse>, ResponseError> {
        let at = &p.text_document_position;
        let (document, text) = self.document(&at.text_document.uri)?;
        let items = complete::complete(document, &text, at.position);
        Ok(Some(CompletionResponse::Array(items)))
    }

    fn document_symbols(
        &mut self,
        p: lsp_types::DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>, ResponseError> {
        let (document, text) = self.document(&p.text_document.uri)?;
        let key = self.world.key(&p.text_document.uri);
        let analysis = &document.analysis;
        let Some(tree) = analysis.file_id(&key).and_then(|f| analysis.tree(f)) else {
            return Ok(None);
        };
        let index = LineIndex::new(&text);
        Ok(Some(DocumentSymbolResponse::Nested(
            symbols::document_symbols(&query::outline(tree), &index),
        )))
    }

    fn workspace_symbols(
        &mut self,
        p: lsp_types::WorkspaceSymbolParams,
    ) -> Walked<Option<lsp_types::WorkspaceSymbolResponse>> {
        let workspace = self.workspace();
        Ok(Outcome::Walk(Box::new(move |cancel| {
            let found = symbols::workspace_symbols(&workspace, &p.query, cancel)?;
            Ok(Some(lsp_types::WorkspaceSymbolResponse::Flat(found)))
        })))
    }

    fn formatting(
        &mut self,
        p: lsp_types::DocumentFormattingParams,
    ) -> Result<Option<Vec<lsp_types::TextEdit>>, ResponseError> {
        let (_, text) = self.document(&p.text_document.uri)?;
        Ok(Some(format::formatting(&text)))
    }
}

/// Decodes the parameters of `request`, runs `handler`, encodes its result.
fn handle<R: lsp_types::request::Request>(
    server: &mut Server,
    request: Request,
    handler: fn(&mut Server, R::Params) -> Result<R::Result, ResponseError>,
) -> Reply {
    Reply::Now(decode::<R>(request).and_then(|p| encode(handler(server, p)?)))
}

/// Decodes the parameters of `request` and runs `handler`; the walk it gives is the reply's
/// work, for a worker thread.
fn walk<R: lsp_types::request::Request>(
    server: &mut Server,
    request: Request,
    handler: fn(&mut Server, R::Params) -> Walked<R::Result>,
) -> Reply
where
    R::Result: 'static,
{
    match decode::<R>(request).and_then(|p| handler(server, p)) {
        Ok(Outcome::Ready(result)) => Reply::Now(encode(result)),
        Ok(Outcome::Walk(walk)) => Reply::Later(Box::new(move |cancel| encode(walk(cancel)?))),
        Err(e) => Reply::Now(Err(e)),
    }
}

fn decode<R: lsp_types::request::Request>(request: Request) -> Result<R::Params, ResponseError> {
    serde_json::from_value(request.params)
        .map_err(|e| failure(ErrorCode::InvalidParams, format!("{}: {e}", R::METHOD)))
}

fn encode(result: impl serde::Serialize) -> Answer {
    serde_json::to_value(result).map_err(|e| failure(ErrorCode::InternalError, e.to_string()))
}

/// Whether `message` cancels request `id`.
fn cancels(message: &Message, id: &RequestId) -> bool {
    match message {
        Message::Notification(n) if n.method == CancelRequest::METHOD => {
            serde_json::to_value(id).is_ok_and(|id| n.params.get("id") == Some(&id))
        }
        _ => false,
    }
}

fn response(id: RequestId, result: Answer) -> Message {
    Message::Response(Response {
        id,
        response_result: result,
    })
}

fn params<N: lsp_types::notification::Notification>(
    notification: Notification,
) -> Result<N::Params, serde_json::Error> {
    serde_json::from_value(notification.params)
}

fn send(connection: &Connection, message: Message) {
    // The client is gone when this fails; the main loop ends at its next receive.
    let _ = connection.sender.send(message);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::jobs::answer;
    use hadoop_record_compiler::LoadOptions;

    #[test]
    fn a_panicking_handler_answers_an_error_and_the_server_goes_on() {
        let (connection, _client) = Connection::memory();
        let world = World::new(LoadOptions::default(), Vec::new());
        let mut server = Server::new(world, false, &connection);
        let error = answer("test", || panic!("boom {}", 42)).unwrap_err();
        assert_eq!(error.code, ErrorCode::InternalError as i32);
        assert!(error.message.contains("boom 42"), "{}", error.message);
        // A request for a document that is not open is an error, not a panic.
        let hover = Request::new(
            RequestId::from(2),
            HoverRequest::METHOD.to_owned(),
            serde_json::json!({
                "textDocument": {"uri": "file:///nowhere.jr"},
                "position": {"line": 0, "character": 0}
            }),
        );
        let Reply::Now(Err(error)) = server.respond(hover) else {
            panic!("an error, now");
        };
        assert_eq!(error.code, ErrorCode::InvalidParams as i32);
    }
}
