//! The main loop: messages come in on a channel, notifications change the documents,
//! requests are answered by small handlers, and whenever no message is waiting the
//! documents that changed are analysed again and their diagnostics published. Several
//! quick changes thus cost one analysis, without a timer. A panic in a handler is caught:
//! the request gets an error, the server goes on.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use hadoop_record_compiler::query;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response, ResponseError};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest,
    PrepareRenameRequest, References, Rename, Request as _, WorkspaceSymbolRequest,
};
use lsp_types::{
    CompletionResponse, DocumentSymbolResponse, GotoDefinitionResponse, Hover, HoverContents,
    MarkupContent, MarkupKind, PrepareRenameResponse, PublishDiagnosticsParams,
    TextDocumentPositionParams, Url,
};
use serde_json::Value;

use super::documents::{Document, World};
use super::position::LineIndex;
use super::{complete, diagnostics, format, hover, navigate, rename, symbols};

/// The error of a request: `code` and a message for the user.
fn failure(code: ErrorCode, message: impl Into<String>) -> ResponseError {
    ResponseError {
        code: code as i32,
        message: message.into(),
        data: None,
    }
}

type Answer = Result<Value, ResponseError>;

/// The server: the documents and what was last published.
pub(crate) struct Server {
    world: World,
    published: HashMap<Url, Vec<lsp_types::Diagnostic>>,
}

impl Server {
    pub fn new(world: World) -> Self {
        Server {
            world,
            published: HashMap::new(),
        }
    }

    /// Serves `connection` until the client shuts the server down or goes away.
    pub fn run(mut self, connection: &Connection) -> Result<(), lsp_server::ProtocolError> {
        while let Ok(first) = connection.receiver.recv() {
            let mut next = Some(first);
            while let Some(message) = next {
                match message {
                    Message::Request(request) => {
                        // A request sees every change made before it.
                        self.publish(connection);
                        if connection.handle_shutdown(&request)? {
                            return Ok(());
                        }
                        let response = self.respond(request);
                        send(connection, Message::Response(response));
                    }
                    Message::Notification(notification) => {
                        if notification.method == "exit" {
                            return Ok(());
                        }
                        self.notify(notification);
                    }
                    Message::Response(_) => {}
                }
                next = connection.receiver.try_recv().ok();
            }
            self.publish(connection);
            if connection.receiver.is_empty() {
                self.prepare();
            }
        }
        Ok(())
    }

    /// Answers `request`, also when its handler panics.
    pub fn respond(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let method = request.method.clone();
        Response {
            id,
            response_result: answer(&method, || self.dispatch(request)),
        }
    }

    fn dispatch(&mut self, request: Request) -> Answer {
        match request.method.as_str() {
            HoverRequest::METHOD => handle::<HoverRequest>(self, request, Self::hover),
            GotoDefinition::METHOD => handle::<GotoDefinition>(self, request, Self::definition),
            References::METHOD => handle::<References>(self, request, Self::references),
            PrepareRenameRequest::METHOD => {
                handle::<PrepareRenameRequest>(self, request, Self::prepare_rename)
            }
            Rename::METHOD => handle::<Rename>(self, request, Self::rename),
            Completion::METHOD => handle::<Completion>(self, request, Self::completion),
            DocumentSymbolRequest::METHOD => {
                handle::<DocumentSymbolRequest>(self, request, Self::document_symbols)
            }
            WorkspaceSymbolRequest::METHOD => {
                handle::<WorkspaceSymbolRequest>(self, request, Self::workspace_symbols)
            }
            Formatting::METHOD => handle::<Formatting>(self, request, Self::formatting),
            method => Err(failure(
                ErrorCode::MethodNotFound,
                format!("rcc lsp does not answer `{method}`"),
            )),
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
            DidChangeWatchedFiles::METHOD => world.disk_changed(),
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
    ) -> Result<Option<Vec<lsp_types::Location>>, ResponseError> {
        let Some((analysis, occurrence)) = self.occurrence(&p.text_document_position)? else {
            return Ok(None);
        };
        let declaration = p.context.include_declaration;
        Ok(Some(match occurrence {
            query::Occurrence::RecordDeclaration { record, .. }
            | query::Occurrence::RecordReference { record, .. } => {
                let key = analysis.record_key(record);
                navigate::references(&mut self.world, &key, declaration)
            }
            // DDL names a field nowhere but in its declaration.
            query::Occurrence::Field { .. } if declaration => {
                navigate::definition(&self.world, &analysis, &occurrence)
                    .into_iter()
                    .collect()
            }
            _ => Vec::new(),
        }))
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

    fn rename(
        &mut self,
        p: lsp_types::RenameParams,
    ) -> Result<Option<lsp_types::WorkspaceEdit>, ResponseError> {
        let Some((analysis, occurrence)) = self.occurrence(&p.text_document_position)? else {
            return Err(failure(ErrorCode::RequestFailed, "nothing to rename here"));
        };
        let Some((target, _)) = rename::target(&analysis, &occurrence) else {
            return Err(failure(
                ErrorCode::RequestFailed,
                "only a record or a field can be renamed",
            ));
        };
        rename::rename(&mut self.world, &target, &p.new_name)
            .map(Some)
            .map_err(|message| failure(ErrorCode::RequestFailed, message))
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
    ) -> Result<Option<lsp_types::WorkspaceSymbolResponse>, ResponseError> {
        Ok(Some(lsp_types::WorkspaceSymbolResponse::Flat(
            symbols::workspace_symbols(&mut self.world, &p.query),
        )))
    }

    fn formatting(
        &mut self,
        p: lsp_types::DocumentFormattingParams,
    ) -> Result<Option<Vec<lsp_types::TextEdit>>, ResponseError> {
        let (_, text) = self.document(&p.text_document.uri)?;
        Ok(Some(format::formatting(&text)))
    }
}

/// What `handler` answers, or an internal error when it panics.
fn answer(method: &str, handler: impl FnOnce() -> Answer) -> Answer {
    catch_unwind(AssertUnwindSafe(handler))
        .unwrap_or_else(|panic| Err(internal_error(method, panic.as_ref())))
}

/// Decodes the parameters of `request`, runs `handler`, encodes its result.
fn handle<R: lsp_types::request::Request>(
    server: &mut Server,
    request: Request,
    handler: fn(&mut Server, R::Params) -> Result<R::Result, ResponseError>,
) -> Answer {
    let params: R::Params = serde_json::from_value(request.params)
        .map_err(|e| failure(ErrorCode::InvalidParams, format!("{}: {e}", R::METHOD)))?;
    let result = handler(server, params)?;
    serde_json::to_value(result).map_err(|e| failure(ErrorCode::InternalError, e.to_string()))
}

fn params<N: lsp_types::notification::Notification>(
    notification: Notification,
) -> Result<N::Params, serde_json::Error> {
    serde_json::from_value(notification.params)
}

/// The error for a handler that panicked, logged to standard error (the editor's log).
fn internal_error(what: &str, panic: &(dyn std::any::Any + Send)) -> ResponseError {
    let reason = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_owned());
    let message = format!("rcc lsp: internal error in `{what}`: {reason} (please report it)");
    eprintln!("{message}");
    failure(ErrorCode::InternalError, message)
}

fn send(connection: &Connection, message: Message) {
    // The client is gone when this fails; the main loop ends at its next receive.
    let _ = connection.sender.send(message);
}

#[cfg(test)]
mod tests {
    use super::*;
    use hadoop_record_compiler::LoadOptions;
    use lsp_server::RequestId;

    #[test]
    fn a_panicking_handler_answers_an_error_and_the_server_goes_on() {
        let mut server = Server::new(World::new(LoadOptions::default(), Vec::new()));
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
        let response = server.respond(hover);
        assert_eq!(
            response.response_result.unwrap_err().code,
            ErrorCode::InvalidParams as i32
        );
    }
}
