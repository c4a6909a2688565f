//! Work items: every unit of work (tasks, microtasks, in-parallel blocks, abort algorithms,
//! promise reactions, agent and user steps) as data, and a pending execution's completion steps.

use std::rc::Rc;

use browser::{DocId, JsValue, NavId, PromiseId, SignalId};

use crate::cite::Step;
use crate::program::{NavigateId, ScriptId, Settle};
use crate::uuid::Uuid;

/// A pending tool execution's completion steps, as data.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CompletionSteps {
    /// executeTool 15.10, settling `promise` in the caller document.
    ExecuteTool { target: DocId, caller: DocId, promise: PromiseId, uuid: Uuid },
    /// An agent-initiated call (see docs/model.md): the result goes back to the AI agent queue.
    Agent { target: DocId, call: u32, uuid: Uuid },
}

/// HTML's `NavigationHistoryBehavior` of a navigation a page starts (`"auto"`, `"push"`,
/// `"replace"`), and `"reload"` for `location.reload()`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum HistoryHandling {
    Auto,
    Push,
    Replace,
    Reload,
}

impl HistoryHandling {
    /// The value as HTML writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            HistoryHandling::Auto => "auto",
            HistoryHandling::Push => "push",
            HistoryHandling::Replace => "replace",
            HistoryHandling::Reload => "reload",
        }
    }
}

/// Every unit of work, as data: tasks, microtasks, in-parallel blocks, abort algorithms,
/// promise reactions, agent and user steps.
///
/// A tool's exposed origins are shared (`Rc`, hashing as the list): queues and in-parallel blocks
/// are copied whenever a state that shares them changes them, and copying a unit copies a pointer.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Work {
    /// Run a document's script (HTML: the parser runs it from a networking task).
    RunScript { doc: DocId, script: ScriptId },
    /// Run the script of a document an iframe a page inserted shows (a scenario resource), then
    /// queue the iframe's load event on its container document (HTML "completely finish
    /// loading" 6): the load event comes after the document's script, as it does in a browser.
    RunResourceScript { doc: DocId, script: ScriptId, container: DocId, on_load: crate::callback::EngineHandle },
    /// A `setTimeout` callback.
    Timer { doc: DocId, script: ScriptId },
    /// The rest of a task's script, suspended after statement `from - 1` (a registerTool) by the
    /// variant `in-parallel-reads-mid-task`: runs on as the same task (`World::suspend_task`).
    ResumeScript { doc: DocId, script: ScriptId, from: u32 },
    /// Settle a tool's own promise after a timer (`"result": {"after": …}`).
    SettleLater { promise: PromiseId, settle: Settle },
    /// `promise.then(onFulfilled, onRejected)` in `doc`.
    Then { doc: DocId, promise: PromiseId, on_fulfilled: ScriptId, on_rejected: ScriptId },
    /// HTML "notify about rejected promises" step 4's task, for the action language: the
    /// rejection reasons of `doc`'s promises nobody handled (the promises a `then` made, whose
    /// reaction threw; `Sim::run_promise_reaction`).
    NotifyRejectedPromises { doc: DocId, reasons: Vec<JsValue> },
    /// Resolve or reject a promise (a queued task's whole body).
    SettlePromise { promise: PromiseId, result: Result<JsValue, JsValue>, step: Step },
    /// registerTool 21.
    RegisterToolInParallel { tool_owner: DocId, exposed_origins: Rc<[browser::Origin]>, promise: PromiseId },
    /// unregister a tool 7.
    NotifyInParallel { tool_owner: DocId, exposed_origins: Rc<[browser::Origin]> },
    /// notify documents of a tool change 3.3: fire `toolchange`.
    FireToolchange { doc: DocId },
    /// getTools 9.
    GetToolsInParallel { requestor: DocId, from_origins: Vec<browser::Origin>, promise: PromiseId },
    /// executeTool 15.
    ExecuteToolInParallel {
        caller: DocId,
        target: DocId,
        expected_target_origin: browser::Origin,
        tool_name: Rc<str>,
        input_arguments: String,
        promise: PromiseId,
        uuid: Uuid,
    },
    /// executeTool 15.13: the tool execute steps, on the target's event loop.
    ToolExecuteSteps {
        tool_name: Rc<str>,
        target: DocId,
        input_arguments: String,
        completion: CompletionSteps,
        uuid: Uuid,
    },
    /// The imperative execute steps' reaction to toolPromise (step 9).
    ReactToToolPromise { target: DocId, tool_promise: PromiseId, completion: CompletionSteps, uuid: Uuid },
    /// Run completion steps in a new in-parallel block (variant `completion-steps-in-parallel`).
    CompletionInParallel { completion: CompletionSteps, result: Option<String>, success: bool, from: Step },
    /// executeTool 14.4.2: cancel a pending tool execution, in parallel.
    CancelInParallel { traversable: NavId, uuid: Uuid },
    /// cancel a pending tool execution 6: the task on the target's event loop.
    CancelLocal { target: DocId, uuid: Uuid, tool_name: std::rc::Rc<str> },
    /// This spec's unloading document cleanup steps 2.
    UnloadCleanupInParallel { document: DocId, traversable: NavId },
    // Abort algorithms.
    /// registerTool 18.3.
    AbortUnregister { model_context: DocId, tool_name: Rc<str>, promise: PromiseId, signal: SignalId },
    /// executeTool 14.4.
    AbortExecution { promise: PromiseId, signal: SignalId, traversable: NavId, uuid: Uuid },
    /// A tool that rejects its promise with the signal's reason when aborted.
    AbortRejectsToolPromise { promise: PromiseId, signal: SignalId },
    /// An `abort` event listener running a script in `doc`.
    AbortListener { doc: DocId, script: ScriptId },
    /// A tool's `execute.logAbort` listener: logs its signal's reason.
    LogAbortReason { doc: DocId, signal: SignalId },
    /// The rest of a navigation a script started, as a task of the script's document (HTML
    /// "navigate": the navigating document stays fully active for the rest of its task; the
    /// navigation completes in later tasks).
    CompleteNavigation { navigation: NavigateId },
    /// The rest of a navigation a page script started through its `Location` object (HTML
    /// "navigate" 23, or "reload" 4): `navigable` gets the document the scenario's server holds
    /// at `url` (`Program::served_document`), as a task of the navigating script's document, as
    /// `CompleteNavigation` does.
    CompleteScriptNavigation { navigable: NavId, url: Rc<str>, history_handling: HistoryHandling },
    /// A navigation's fetch (HTML "navigate" 23, "in parallel"), with `options.network`
    /// "unbounded": its response arrives, and the task that completes the navigation
    /// (`completion`: `CompleteNavigation` or `CompleteScriptNavigation`) is queued on the
    /// navigation and traversal task source of `source`, the navigating script's document.
    NavigationResponse { source: DocId, completion: Rc<Work> },
    /// HTML "traverse the history by a delta" 4: the session history traversal steps, in
    /// parallel (the traversable's session history traversal queue); `source` is the
    /// document whose History called it.
    TraverseHistoryByDelta { traversable: NavId, delta: i64, source: DocId },
    /// HTML "apply the history step" 12 (with 14's continuation): `navigable` goes to its
    /// entry at step `entry_step`, as a task of its active window.
    ApplyHistoryStep { navigable: NavId, entry_step: u32 },
    /// HTML "update document for history step application" of a document restored from the
    /// back/forward cache ("apply the history step" 14.12.5's task): `pageshow`.
    UpdateDocumentForHistoryStep { doc: DocId },
    /// A user step.
    User { script: ScriptId, index: u32 },
    /// An agent step.
    Agent { index: u32 },
    /// A callback of a page-script engine (`crate::script::Engine`): a timer's, an abort
    /// listener; `what` says which, for the trace.
    EngineCallback { doc: DocId, callback: crate::callback::EngineHandle, what: &'static str },
    /// A promise an engine mirrors has settled: the engine settles its own (a microtask).
    EngineSettle { promise: PromiseId },
    /// DOM `AbortSignal.timeout(ms)` step 3.1: signal abort on `signal` with a new "TimeoutError"
    /// DOMException (a task on the timer task source).
    AbortSignalTimeout { signal: SignalId },
    /// The agent receives a tool call's result.
    AgentResult { call: u32, result: Option<String>, success: bool },
}
