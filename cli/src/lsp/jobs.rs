//! Requests answered off the main loop (those that walk the workspace: find references,
//! rename, workspace symbols), and cancellation. Each runs on a worker thread and is
//! answered exactly once: by its worker, or with `RequestCancelled` by the main loop when
//! the client cancels it first; whichever takes the request out of the pending set
//! answers. The worker of a cancelled request sees its [`Cancel`] set and stops at its next
//! directory or file.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crossbeam_channel::Sender;
use lsp_server::{ErrorCode, Message, RequestId, Response, ResponseError};
use serde_json::Value;

/// What a request answers: its result, or an error.
pub(crate) type Answer = Result<Value, ResponseError>;

/// The error of a request: `code` and a message for the user.
pub(crate) fn failure(code: ErrorCode, message: impl Into<String>) -> ResponseError {
    ResponseError {
        code: code as i32,
        message: message.into(),
        data: None,
    }
}

/// The answer to a request the client cancelled (-32800, `RequestCancelled`).
pub(crate) fn cancelled() -> ResponseError {
    failure(ErrorCode::RequestCanceled, "cancelled")
}

/// What `handler` answers, or an internal error when it panics.
pub(crate) fn answer(method: &str, handler: impl FnOnce() -> Answer) -> Answer {
    catch_unwind(AssertUnwindSafe(handler))
        .unwrap_or_else(|panic| Err(internal_error(method, panic.as_ref())))
}

/// The error for a handler that panicked, logged to standard error (the editor's log).
pub(crate) fn internal_error(what: &str, panic: &(dyn std::any::Any + Send)) -> ResponseError {
    let reason = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_owned());
    let message = format!("rcc lsp: internal error in `{what}`: {reason} (please report it)");
    eprintln!("{message}");
    failure(ErrorCode::InternalError, message)
}

/// Set when a request is cancelled (or the server stops); its worker checks it between
/// directories and files.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// `Err(RequestCancelled)` once the request is cancelled.
    pub fn check(&self) -> Result<(), ResponseError> {
        if self.0.load(Ordering::Relaxed) {
            Err(cancelled())
        } else {
            Ok(())
        }
    }

    fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The part of a request that runs on a worker thread; it gives `T`, by default the
/// encoded answer.
pub(crate) type Work<T = Value> = Box<dyn FnOnce(&Cancel) -> Result<T, ResponseError> + Send>;

/// The requests running on worker threads, by id.
pub(crate) struct Jobs {
    pending: Arc<Mutex<HashMap<RequestId, Cancel>>>,
    sender: Sender<Message>,
}

impl Jobs {
    /// No job yet; answers go to `sender`.
    pub fn new(sender: Sender<Message>) -> Self {
        Jobs {
            pending: Arc::default(),
            sender,
        }
    }

    /// Runs `work` for request `id` on a worker thread; it answers unless the request is
    /// cancelled first.
    pub fn spawn(&self, id: RequestId, method: String, work: Work) {
        let cancel = Cancel::default();
        lock(&self.pending).insert(id.clone(), cancel.clone());
        let pending = self.pending.clone();
        let sender = self.sender.clone();
        let worker_id = id.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("rcc lsp: {method}"))
            .spawn(move || {
                let result = answer(&method, || work(&cancel));
                // Answered only if still pending: not cancelled in the meantime.
                if lock(&pending).remove(&worker_id).is_some() {
                    let _ = sender.send(Message::Response(Response {
                        id: worker_id,
                        response_result: result,
                    }));
                }
            });
        if let Err(e) = spawned {
            if lock(&self.pending).remove(&id).is_some() {
                let error = failure(
                    ErrorCode::InternalError,
                    format!("rcc lsp: cannot start a thread: {e}"),
                );
                self.answer(id, Err(error));
            }
        }
    }

    /// Cancels request `id` if its worker has not answered yet: answers it with
    /// `RequestCancelled` and tells the worker to stop. False when it is not pending.
    pub fn cancel(&self, id: &RequestId) -> bool {
        let Some(cancel) = lock(&self.pending).remove(id) else {
            return false;
        };
        cancel.set();
        self.answer(id.clone(), Err(cancelled()));
        true
    }

    /// Cancels every pending request (at shutdown).
    pub fn cancel_all(&self) {
        let ids: Vec<RequestId> = lock(&self.pending).keys().cloned().collect();
        for id in ids {
            self.cancel(&id);
        }
    }

    fn answer(&self, id: RequestId, result: Answer) {
        // The client is gone when this fails; the main loop ends at its next receive.
        let _ = self.sender.send(Message::Response(Response {
            id,
            response_result: result,
        }));
    }
}

impl Drop for Jobs {
    /// Tells every worker to stop: the client went away, nobody waits for their answers.
    fn drop(&mut self) {
        for (_, cancel) in lock(&self.pending).drain() {
            cancel.set();
        }
    }
}

/// The pending set; a worker that panicked while holding it left it whole (each change is
/// one insert or remove).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
