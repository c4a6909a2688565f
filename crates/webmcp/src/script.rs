//! The script interface: how the WebMCP algorithms and the run loop run page script, and the one
//! place that knows how script is written. The algorithms and the run loop call only the entry
//! points here; script calls back into the algorithms only through the IDL method steps
//! (`model_context_register_tool`, `model_context_get_tools`, `model_context_execute_tool`,
//! with arguments from `crate::idl`) and the kernel's primitives (abort signals, timers,
//! promise reactions, console lines, navigation).
//!
//! Today's implementation is the scenario's action language (`action`); JavaScript comes next.
//! An exception that escapes a script is reported here, as HTML's "report an exception".

use browser::{DocId, PromiseId, SignalId};
use trace::ConsoleLine;

use crate::kernel::Sim;
use crate::program::{ScriptId, Settle, ToolDictId};

mod action;

const SCRIPT: &str = "script";

impl Sim<'_> {
    /// Runs a statement list in `doc`; an exception that escapes is reported as uncaught.
    pub fn run_script(&mut self, doc: DocId, script: ScriptId) {
        if let Err(error) = self.run_statements(doc, script) {
            let line = ConsoleLine { document: self.label(doc), text: error.to_string() };
            self.console_line((SCRIPT, "uncaught exception"), line, true);
        }
    }

    /// Runs a callback (a promise reaction, an event handler, an abort listener) whose realm is
    /// `doc`'s: WebIDL's "invoke a callback function" and "call a user object's operation" first
    /// ask HTML's "check if we can run script" of the callback's realm, and return when it says
    /// "do not run".
    pub fn run_callback(&mut self, doc: DocId, script: ScriptId, what: &str) {
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
            return;
        }
        self.run_script(doc, script);
    }

    /// WebIDL "invoke a callback function" for a tool's `execute` (the imperative execute steps,
    /// step 8), given the execution's `controller`: returns the callback's promise.
    pub(crate) fn invoke_execute_callback(
        &mut self,
        tool: ToolDictId,
        doc: DocId,
        controller: SignalId,
        input_arguments: &str,
    ) -> PromiseId {
        self.invoke_action_execute_callback(tool, doc, controller, input_arguments)
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
