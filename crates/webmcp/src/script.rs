//! The script interface: how the WebMCP algorithms and the run loop run page script, and the one
//! place that knows how script is written. The algorithms and the run loop call only the entry
//! points here; script calls back into the algorithms only through the IDL method steps
//! (`model_context_register_tool`, `model_context_get_tools`, `model_context_execute_tool`,
//! with arguments from `crate::idl`) and the kernel's primitives (abort signals, timers,
//! promise reactions, console lines, navigation).
//!
//! Two implementations: the scenario's action language (`action`), and a page-script engine
//! plugged in through `engine::Engine` (JavaScript, in `crates/js`). An exception that escapes
//! an action list is reported here, as HTML's "report an exception"; an engine reports its own.

use browser::{DocId, LoopId, PromiseId, SignalId};
use scenario::Variant;
use trace::ConsoleLine;

use crate::callback::{Callback, ToolExecute};
use crate::kernel::Sim;
use crate::program::{ScriptId, Settle};

mod action;
mod engine;

pub use crate::callback::Engine;
pub use engine::{link_engine, EngineFactory};

const SCRIPT: &str = "script";

impl Sim<'_> {
    /// Runs a document's script (an action list, or a page script an engine runs); an exception
    /// that escapes is reported as uncaught.
    pub fn run_script(&mut self, doc: DocId, script: ScriptId) {
        if let Some(page) = self.program.page_script(script) {
            if let Some(engine) = self.engine() {
                engine.run_script(self, doc, page);
            }
            return;
        }
        if let Err(error) = self.run_statements(doc, script) {
            self.report_uncaught(doc, error);
        }
    }

    /// Runs a task's whole script from statement `from`: a document's script, a timer's
    /// callback, or the rest of a task suspended mid-script. With the variant
    /// `in-parallel-reads-mid-task`, the action language stops after a registerTool statement
    /// that has statements after it, and the run loop keeps the task's rest on its event loop
    /// (`Sim::suspended_script`, `World::suspend_task`): in-parallel steps and other event loops
    /// may run before the next statement, the loop itself runs nothing else. A page script is
    /// never suspended (`Sim::new` refuses the variant for pages).
    pub(crate) fn run_task_script(&mut self, doc: DocId, script: ScriptId, from: u32) {
        let split = self.program.has_variant(Variant::InParallelReadsMidTask);
        if !split || self.program.page_script(script).is_some() {
            return self.run_script(doc, script);
        }
        match self.run_statements_from(doc, script, from, true) {
            Ok(None) => {}
            Ok(Some(next)) => {
                note!(
                    self,
                    (Variant::InParallelReadsMidTask.name(), "suspend"),
                    "registerTool returned: the task stops before statement {} of its script; its event loop runs nothing else until the task goes on, while in-parallel steps may read {}'s tool map (variant, docs/findings.md finding 12)",
                    next + 1,
                    self.label(doc)
                );
                self.suspended_script = Some((doc, script, next));
            }
            Err(error) => self.report_uncaught(doc, error),
        }
    }

    /// HTML "report an exception" for an exception that escaped an action list.
    fn report_uncaught(&mut self, doc: DocId, error: browser::JsValue) {
        let line = ConsoleLine { document: self.label(doc), text: error.to_string() };
        self.console_line((SCRIPT, "uncaught exception"), line, true);
    }

    /// ECMAScript NewPromiseReactionJob for an action-language `then`: runs `handler` (the
    /// reaction's onFulfilled or onRejected action list) in `doc`'s realm. An exception that
    /// escapes it rejects the promise `then` returned, which no script can reach to handle: it is
    /// an unhandled rejection, which HTML reports at the end of the microtask checkpoint
    /// ("notify about rejected promises"), not an uncaught exception (as a JavaScript page's is).
    pub(crate) fn run_promise_reaction(&mut self, doc: DocId, handler: ScriptId) {
        // WebIDL "invoke a callback function" asks HTML "check if we can run script" first.
        if !self.can_run_script(doc, "promise reaction") {
            return;
        }
        // NewPromiseReactionJob 1.e. Let handlerResult be Completion(HostCallJobCallback(handler, undefined, « argument »)).
        if let Err(reason) = self.run_statements(doc, handler) {
            // 1.h. If handlerResult is an abrupt completion, then return ? Call(promiseCapability.[[Reject]], undefined, « handlerResult.[[Value]] »).
            note!(
                self,
                ("ECMAScript", "NewPromiseReactionJob 1.h"),
                "the reaction threw {reason}: the promise `then` returned is rejected with it"
            );
            // HTML HostPromiseRejectionTracker(promise, "reject") 5.1. Append promise to settings object's about-to-be-notified rejected promises list.
            // (An action list cannot reach the promise `then` returned: it stays unhandled.)
            note!(
                self,
                ("HTML", "HostPromiseRejectionTracker 5.1"),
                "the rejected promise is about to be notified in {}",
                self.label(doc)
            );
            self.about_to_be_notified.push((doc, reason));
        }
    }

    /// HTML "notify about rejected promises", for each action-language realm of event loop
    /// `el` (HTML "perform a microtask checkpoint" step 4).
    pub(crate) fn notify_about_rejected_promises(&mut self, el: LoopId) {
        if self.about_to_be_notified.is_empty() {
            return;
        }
        let mut docs: Vec<DocId> = Vec::new();
        for (doc, _) in &self.about_to_be_notified {
            if self.world.doc_info(*doc).event_loop == el && !docs.contains(doc) {
                docs.push(*doc);
            }
        }
        for doc in docs {
            // 1. Let list be a clone of global's about-to-be-notified rejected promises list.
            // 3. Empty global's about-to-be-notified rejected promises list.
            let (list, rest): (Vec<_>, Vec<_>) =
                std::mem::take(&mut self.about_to_be_notified).into_iter().partition(|(d, _)| *d == doc);
            self.about_to_be_notified = rest;
            // 2. If list is empty, then return. (It is not: `doc` has one.)
            let reasons = list.into_iter().map(|(_, reason)| reason).collect();
            // 4. Queue a global task on the DOM manipulation task source given global to run the following step: …
            self.queue_global_task(
                browser::TaskSource::DomManipulation,
                doc,
                crate::work::Work::NotifyRejectedPromises { doc, reasons },
                ("HTML", "notify about rejected promises 4"),
            );
        }
    }

    /// The task HTML "notify about rejected promises" step 4 queues, for an action-language
    /// realm: each reason, of a promise no script can reach, is reported as a JavaScript page's
    /// unhandled rejection is (`Uncaught (in promise) …`, crates/js/src/rejections.rs).
    pub(crate) fn report_rejected_promises(&mut self, doc: DocId, reasons: Vec<browser::JsValue>) {
        // 4.1. For each promise p of list:
        for reason in reasons {
            // 4.1.1. If p.[[PromiseIsHandled]] is true, then continue. (No script can reach p.)
            // 4.1.2. Let notCanceled be the result of firing an event named unhandledrejection at global, using PromiseRejectionEvent, with the cancelable attribute initialized to true, the promise attribute initialized to p, and the reason attribute initialized to p.[[PromiseResult]].
            note!(
                self,
                ("HTML", "notify about rejected promises 4.1.2"),
                "unhandledrejection at {}'s Window: an action list has no listener, so nothing cancels it",
                self.label(doc)
            );
            // 4.1.3. If notCanceled is true, then the user agent may report p.[[PromiseResult]] to a developer console.
            let line = ConsoleLine { document: self.label(doc), text: format!("Uncaught (in promise) {reason}") };
            self.console_line(("HTML", "notify about rejected promises 4.1.3"), line, true);
            // 4.1.4. If p.[[PromiseIsHandled]] is false, then append p to global's outstanding rejected promises weak set.
            // (Nothing can handle p later: no rejectionhandled event follows.)
        }
    }

    /// Runs a callback (a promise reaction, an event handler, an abort listener, a timer's)
    /// whose realm is `doc`'s: WebIDL's "invoke a callback function" and "call a user object's
    /// operation" first ask HTML's "check if we can run script" of the callback's realm, and
    /// return when it says "do not run".
    pub fn run_callback(&mut self, doc: DocId, callback: impl Into<Callback>, what: &str) {
        if !self.can_run_script(doc, what) {
            return;
        }
        match callback.into() {
            Callback::Action(script) => self.run_script(doc, script),
            Callback::Engine(handle) => {
                if let Some(engine) = self.engine() {
                    engine.run_callback(self, doc, handle, what);
                }
            }
        }
    }

    /// HTML "check if we can run script" for a callback of `doc`'s realm, from an engine that
    /// finds a callback's realm itself (a listener of another realm on an event target's list,
    /// an event handler set from another realm): false when it says "do not run".
    pub fn script_can_run_script(&mut self, doc: DocId, what: &str) -> bool {
        self.can_run_script(doc, what)
    }

    /// HTML "check if we can run script" for a callback of `doc`'s realm (`what`, for the trace).
    fn can_run_script(&mut self, doc: DocId, what: &str) -> bool {
        // Whether the document is fully active is its lifecycle.
        self.touch_lifecycle_of(doc);
        // HTML "check if we can run script" step 1. If the global object specified by settings is a Window object whose Document object is not fully active, then return "do not run".
        if !self.world.is_fully_active(doc) {
            note!(
                self,
                ("HTML", "check if we can run script 1"),
                "{} is not fully active: its {what} does not run",
                self.label(doc)
            );
            return false;
        }
        true
    }

    /// DOM "fire an event" named `event` at a ModelContext whose listeners an engine keeps: the
    /// engine's dispatcher runs DOM "dispatch", whose listeners are callbacks of `listeners`'
    /// realm (WebIDL "call a user object's operation" checks that realm can run script).
    pub(crate) fn fire_engine_event(
        &mut self,
        listeners: crate::callback::EngineListeners,
        event: &str,
        tool_name: Option<&str>,
    ) {
        if !self.can_run_script(listeners.realm, "event listeners") {
            return;
        }
        if let Some(engine) = self.engine() {
            engine.fire_event(self, listeners.realm, listeners.dispatcher, event, tool_name);
        }
    }

    /// HTML "fire a page transition event" named `event` at `doc`'s Window with `persisted`
    /// (only a page's script can listen for it), if its realm can run script.
    pub(crate) fn fire_page_transition_event(&mut self, doc: DocId, event: &str, persisted: bool) {
        let Some(engine) = self.engine() else { return };
        // "unload a document" 10: only a document whose page showing is true gets pagehide; a
        // document that is not fully active (in the back/forward cache, or below one) is not
        // showing. (Checked before "check if we can run script", which would note it.)
        if !self.world.is_fully_active(doc) {
            return;
        }
        if !self.can_run_script(doc, "pageshow or pagehide listener") {
            return;
        }
        engine.fire_page_transition_event(self, doc, event, persisted);
    }

    /// WebIDL "invoke a callback function" for a tool's `execute` (the imperative execute steps,
    /// step 8), given the execution's `controller`: returns the callback's promise.
    pub(crate) fn invoke_execute_callback(
        &mut self,
        tool: ToolExecute,
        doc: DocId,
        controller: SignalId,
        input_arguments: &str,
    ) -> PromiseId {
        match (tool, self.engine()) {
            (ToolExecute::Action(dict), _) => {
                self.invoke_action_execute_callback(dict, doc, controller, input_arguments)
            }
            (ToolExecute::Engine(handle), Some(engine)) => {
                engine.invoke_execute(self, handle, doc, controller, input_arguments)
            }
            (ToolExecute::Engine(_), None) => {
                // Unreachable: an engine's tool is registered only by a run that holds the engine.
                let p = self.new_unnamed_promise(doc);
                self.note((SCRIPT, "engine"), "no engine to run the tool's execute: its promise never settles");
                p
            }
        }
    }

    /// A promise an engine mirrors has settled (`Work::EngineSettle`).
    pub(crate) fn engine_promise_settled(&mut self, promise: PromiseId) {
        if let Some(engine) = self.engine() {
            engine.promise_settled(self, promise);
        }
    }

    /// Runs one of the engine's promise jobs of event loop `el`, if there is an engine and a job.
    pub(crate) fn run_one_engine_job(&mut self, el: LoopId) -> bool {
        match self.engine() {
            Some(engine) => engine.run_one_job(self, el),
            None => false,
        }
    }

    /// A tool's own timer (`"result": {"after": …}`) fires: its promise settles as the tool says.
    pub(crate) fn run_tool_timer(&mut self, promise: PromiseId, settle: Settle) {
        self.settle_tool_promise_later(promise, settle)
    }

    /// A tool that rejects its promise when aborted sees its signal abort (an abort algorithm).
    pub(crate) fn tool_promise_aborted(&mut self, promise: PromiseId, signal: SignalId) {
        self.reject_tool_promise_with_reason(promise, signal)
    }

    /// A tool's abort listener that logs its signal's reason runs.
    pub(crate) fn run_abort_reason_logger(&mut self, doc: DocId, signal: SignalId) {
        self.log_abort_reason(doc, signal)
    }
}
