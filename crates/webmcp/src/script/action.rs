//! The action language: a scenario's statements (`crate::program::Op`), run in a document the
//! way a page's script would call the APIs. A thrown exception stops the rest of the statement
//! list. This is the script interface's implementation today (`crate::script`).

use browser::{DocId, JsValue, PromiseId, PromiseState, SignalId};
use scenario::Variant;
use trace::ConsoleLine;

use crate::callback::{Callback, ToolExecute};
use crate::cite::{EXECUTE_TOOL, IMPERATIVE};
use crate::footprint::Resource;
use crate::idl::{ModelContextTool, RegisterToolArgs, RegisteredToolArg};
use crate::kernel::Annotations;
use crate::kernel::Sim;
use crate::program::{ControllerSlot, Op, PromiseSlot, ScriptId, Settle, ToolDictId, ToolRef};
use crate::work::Work;

const SCRIPT: &str = "script";

impl Sim<'_> {
    /// Runs a statement list in `doc`, returning the first exception thrown.
    pub(crate) fn run_statements(&mut self, doc: DocId, script: ScriptId) -> Result<(), JsValue> {
        self.run_statements_from(doc, script, 0, false).map(|_| ())
    }

    /// Runs `script`'s statements from the one at `from`. With `split`, stops after a
    /// registerTool statement that has statements after it and returns the index of the next
    /// (`Sim::run_task_script`); otherwise runs to the end and returns None.
    pub(crate) fn run_statements_from(
        &mut self,
        doc: DocId,
        script: ScriptId,
        from: u32,
        split: bool,
    ) -> Result<Option<u32>, JsValue> {
        let ops = self.program.ops(script);
        for (i, op) in ops.iter().enumerate().skip(from as usize) {
            self.run_op(doc, op)?;
            if split && matches!(op, Op::RegisterTool { .. }) && i + 1 < ops.len() {
                return Ok(Some(i as u32 + 1));
            }
        }
        Ok(None)
    }

    fn run_op(&mut self, doc: DocId, op: &Op) -> Result<(), JsValue> {
        match op {
            Op::Log(text) => {
                let line = ConsoleLine { document: self.label(doc), text: text.clone() };
                self.console_line(("console", "log"), line, false);
            }
            Op::RegisterTool { document, tool, exposed_to, signal, as_ } => {
                let this = self.model_context_of(doc, document.as_deref(), "registerTool")?;
                let signal = match signal {
                    Some(slot) => Some(self.controller_or_throw(doc, *slot)?),
                    None => None,
                };
                let program = self.program;
                let dict = &program.tool_dicts[tool.0 as usize];
                let tool = ModelContextTool {
                    name: &dict.name,
                    title: dict.title.as_deref(),
                    description: &dict.description,
                    input_schema: dict.input_schema.as_ref(),
                    annotations: dict.annotations.as_ref().map(|an| Annotations {
                        read_only_hint: an.read_only_hint,
                        untrusted_content_hint: an.untrusted_content_hint,
                        consequential_hint: an.consequential_hint,
                    }),
                    execute: ToolExecute::Action(*tool),
                };
                self.model_context_register_tool(
                    this,
                    RegisterToolArgs { tool, exposed_to: exposed_to.as_deref(), signal, as_: *as_ },
                );
            }
            Op::GetTools { document, from_origins, as_ } => {
                let this = self.model_context_of(doc, document.as_deref(), "getTools")?;
                self.model_context_get_tools(this, from_origins.as_deref(), *as_);
            }
            Op::ExecuteTool { document, tool, input_object, signal, as_ } => {
                let this = self.model_context_of(doc, document.as_deref(), "executeTool")?;
                let tool = self.registered_tool_argument(doc, tool)?;
                let signal = match signal {
                    Some(slot) => Some(self.controller_or_throw(doc, *slot)?),
                    None => None,
                };
                self.model_context_execute_tool(this, tool, input_object.as_ref(), signal, *as_);
            }
            Op::NewAbortController(slot) => {
                let name = self.program.controller_names[slot.0 as usize].clone();
                let id = self.world.new_abort_controller(doc, Some(name));
                self.seldom.controller_slots[slot.0 as usize] = Some(id);
            }
            Op::Abort { controller, reason } => {
                let signal = self.controller_or_throw(doc, *controller)?;
                let name = &self.program.controller_names[controller.0 as usize];
                note!(self, ("DOM", "AbortController abort()"), "{name}.abort()");
                // WebIDL: `abort(optional any reason)` given undefined is given no reason, so signal
                // abort makes an "AbortError" DOMException; null is a reason like any other value.
                let reason = reason.clone().filter(|r| *r != JsValue::Undefined);
                self.signal_abort(signal, reason, ("DOM", "signal abort 4.3"));
            }
            Op::SetTimeout { ms, body } => {
                note!(self, ("HTML", "setTimeout"), "timer set for {ms} ms");
                self.world.run_steps_after_a_timeout(doc, *ms, Work::Timer { doc, script: *body });
            }
            Op::Then { promise, on_fulfilled, on_rejected } => {
                let p = self.promise_or_throw(doc, *promise)?;
                self.world
                    .react(p, Work::Then { doc, promise: p, on_fulfilled: *on_fulfilled, on_rejected: *on_rejected });
            }
            Op::OnToolchange { target, body } => {
                let this = self.model_context_of(doc, target.as_deref(), "ontoolchange")?;
                self.model_contexts[this.index()].ontoolchange = Some((doc, Callback::Action(*body)));
            }
            Op::OnToolEvent { event, target, body } => {
                let this = self.model_context_of(doc, target.as_deref(), &format!("on{}", event.name()))?;
                let context = &mut self.model_contexts[this.index()];
                match event {
                    crate::program::ToolEvent::Activated => context.ontoolactivated = Some((doc, *body)),
                    crate::program::ToolEvent::Cancel => context.ontoolcancel = Some((doc, *body)),
                }
                if !self.program.has_variant(Variant::ToolEvents) {
                    note!(
                        self,
                        ("webmcp-sim", "issue #146"),
                        "on{} is not in today's text: the handler is set but never called (variant tool-events fires it)",
                        event.name()
                    );
                }
            }
            Op::OnAbort { controller, body } => {
                let signal = self.controller_or_throw(doc, *controller)?;
                self.world.signals[signal].listeners.push(Work::AbortListener { doc, script: *body });
            }
            Op::Throw { name, message } => {
                return Err(if browser::value::DOM_EXCEPTION_NAMES.contains(&name.as_str()) {
                    JsValue::DomException { name: name.clone(), message: message.clone() }
                } else {
                    JsValue::Error { name: name.clone(), message: message.clone() }
                });
            }
            Op::Navigate(id) => {
                // HTML "navigate": the fetch and the unloading of the old document happen after
                // this task (in parallel, then in tasks on the navigation and traversal task
                // source); the document that navigates stays fully active for the rest of its
                // task. Modelled as one task of the navigating script's document, so that the
                // navigations one task starts complete in the order it started them.
                self.interpretation(
                    ("HTML", "navigate"),
                    "a script-started navigation completes in a later task (navigation and traversal task source); this task goes on in the old document",
                );
                self.queue_navigation_completion(
                    doc,
                    Work::CompleteNavigation { navigation: *id },
                    ("HTML", "navigate"),
                );
            }
            Op::RemoveIframe(name) => {
                let nav = self.seldom.nav_by_name[name];
                if self.world.nav(nav).container_document != Some(doc) {
                    return Err(JsValue::type_error(format!("iframe {name} is not in this document")));
                }
                self.remove_iframe(nav);
            }
            Op::EnterBfcache(_) | Op::RestoreFromBfcache(_) => {
                return Err(JsValue::type_error("the back/forward cache is the user's: use it in `user` steps"));
            }
            Op::Timed { .. } => {
                return Err(JsValue::type_error("`at` and `within` time the user's steps: use them in `user` steps"));
            }
        }
        Ok(())
    }

    /// `document.modelContext` of the script's own document, or of another document the script
    /// reaches as `iframe.contentDocument` / `parent.document` (same origin, same event loop).
    pub(crate) fn model_context_of(
        &mut self,
        doc: DocId,
        document: Option<&str>,
        member: &str,
    ) -> Result<DocId, JsValue> {
        let target = match document {
            None => doc,
            Some(name) => self.same_origin_document(doc, name)?,
        };
        // [SecureContext]: `document.modelContext` is undefined outside secure contexts.
        if !self.world.doc_info(target).secure_context {
            note!(
                self,
                ("WebIDL", "[SecureContext]"),
                "{} is not a secure context: document.modelContext is undefined",
                self.label(target)
            );
            return Err(JsValue::type_error(format!("Cannot read properties of undefined (reading '{member}')")));
        }
        Ok(target)
    }

    /// The document of navigable `name` as a script in `doc` reaches it (`iframe.contentDocument`,
    /// `parent.document`): same origin and same event loop, or a SecurityError.
    pub(crate) fn same_origin_document(&mut self, doc: DocId, name: &str) -> Result<DocId, JsValue> {
        let nav = self.seldom.nav_by_name.get(name).copied();
        let Some(target) = nav.and_then(|n| self.world.nav(n).active_document) else {
            // A navigation may yet create the navigable or its document: this depends on
            // every unit.
            self.footprint.touch(Resource::Global, false);
            return Err(JsValue::type_error(format!("navigable {name} has no document")));
        };
        // Which document the navigable shows is its lifecycle: a navigation of it (on
        // another event loop) does not commute with this script.
        self.touch_lifecycle_of(target);
        let (d, t) = (self.world.doc_info(doc), self.world.doc_info(target));
        if target != doc && (!d.origin.same_origin(&t.origin) || d.event_loop != t.event_loop) {
            let (from, to, origin) = (d.label.clone(), t.label.clone(), d.origin.serialize());
            note!(self, (SCRIPT, "cross-origin access"), "{from} cannot reach {to}'s document");
            // Chromium's wording, which a JavaScript page's prelude writes too
            // (crates/js/src/prelude/window.js): it names the accessing frame's origin, not the
            // document reached (which a navigation of that frame changes).
            return Err(JsValue::DomException {
                name: "SecurityError".into(),
                message: format!(
                    "Blocked a frame with origin \"{}\" from accessing a cross-origin frame (Window.document).",
                    origin
                ),
            });
        }
        Ok(target)
    }

    /// The controller a script names. Script objects live in one agent: a name made in another
    /// agent cluster is not reachable (a `ReferenceError`, as an unshared variable would be).
    fn controller_or_throw(&mut self, doc: DocId, slot: ControllerSlot) -> Result<browser::SignalId, JsValue> {
        let found = self.controller(slot).filter(|s| self.same_agent(doc, s.realm));
        found.ok_or_else(|| self.not_reachable(doc, &self.program.controller_names[slot.0 as usize]))
    }

    /// The promise a script names (see `controller_or_throw`).
    fn promise_or_throw(&mut self, doc: DocId, slot: PromiseSlot) -> Result<browser::PromiseId, JsValue> {
        let found = self.promise_slots[slot.0 as usize].filter(|p| self.same_agent(doc, p.realm));
        found.ok_or_else(|| self.not_reachable(doc, &self.program.promise_names[slot.0 as usize]))
    }

    fn same_agent(&self, a: DocId, b: DocId) -> bool {
        self.world.doc_info(a).event_loop == self.world.doc_info(b).event_loop
    }

    fn not_reachable(&self, doc: DocId, name: &str) -> JsValue {
        let message = format!(
            "{name} is not defined in {}'s agent (not created yet, or created in another agent cluster)",
            self.label(doc)
        );
        JsValue::Error { name: "ReferenceError".into(), message }
    }

    /// The `RegisteredTool` a script passes to `executeTool`.
    fn registered_tool_argument(&mut self, doc: DocId, tool: &ToolRef) -> Result<RegisteredToolArg, JsValue> {
        match tool {
            ToolRef::Dictionary { name, origin, window, .. } => {
                let nav = self.seldom.nav_by_name.get(window).copied();
                let Some(doc) = nav.and_then(|n| self.world.nav(n).active_document) else {
                    // As in `model_context_of`: this depends on every unit.
                    self.footprint.touch(Resource::Global, false);
                    return Err(JsValue::type_error(format!("navigable {window} has no window")));
                };
                // The navigable's active document is its lifecycle (see `model_context_of`).
                self.touch_lifecycle_of(doc);
                Ok(RegisteredToolArg { name: name.as_str().into(), origin: origin.clone(), window: doc })
            }
            ToolRef::FromGetTools { promise, name } => {
                let p = self.promise_or_throw(doc, *promise)?;
                let program = self.program;
                let label = &program.promise_names[promise.0 as usize];
                let PromiseState::Fulfilled(JsValue::Array(tools)) = &self.world.promises[p].state else {
                    return Err(JsValue::type_error(format!(
                        "{label} is not a fulfilled getTools() result (use executeTool inside `then` of {label})"
                    )));
                };
                fn member<'v>(v: &'v JsValue, key: &str) -> Option<&'v JsValue> {
                    match v {
                        JsValue::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
                        _ => None,
                    }
                }
                let found =
                    tools.iter().find(|t| matches!(member(t, "name"), Some(JsValue::String(n)) if **n == **name));
                let Some(found) = found else {
                    note!(self, (EXECUTE_TOOL, "argument"), "{label} has no tool named {name:?}");
                    return Err(JsValue::type_error("Cannot read properties of undefined (reading 'name')"));
                };
                let origin = match member(found, "origin") {
                    Some(JsValue::String(s)) => s.to_string(),
                    _ => String::new(),
                };
                let window = match member(found, "window") {
                    Some(JsValue::WindowProxy(n)) => self.window_proxy_window(browser::NavId(*n))?,
                    _ => return Err(JsValue::type_error("RegisteredTool has no window")),
                };
                Ok(RegisteredToolArg { name: name.as_str().into(), origin, window })
            }
        }
    }

    /// WebIDL's conversion of a WindowProxy to `Window`: the proxy's [[Window]], the Window of the
    /// document its navigable shows now (HTML: navigating to a new document sets the WindowProxy's
    /// [[Window]] to the new Window), or of the last document it showed once the navigable is
    /// destroyed (HTML leaves [[Window]] as it was when a browsing context is discarded).
    pub(crate) fn window_proxy_window(&mut self, nav: browser::NavId) -> Result<DocId, JsValue> {
        let (active, destroyed) = (self.world.nav(nav).active_document, self.world.nav(nav).destroyed);
        let Some(doc) = active else {
            // Not reachable: a RegisteredTool names the navigable of a document it showed.
            self.footprint.touch(Resource::Global, false);
            return Err(JsValue::type_error(format!("navigable {} has no window", self.world.nav(nav).name)));
        };
        // Which document the navigable shows is its lifecycle (see `model_context_of`).
        self.touch_lifecycle_of(doc);
        // Said in the trace when it matters: the navigable no longer shows its first document
        // (whose label is the navigable's name), or it is destroyed.
        if self.record && (destroyed || *self.world.nav(nav).name != *self.world.doc_info(doc).label) {
            note!(
                self,
                ("WebIDL", "converting to Window"),
                "the WindowProxy of {} is the Window of {}{}",
                self.world.nav(nav).name,
                self.label(doc),
                if destroyed { " (its navigable is destroyed)" } else { "" }
            );
        }
        Ok(doc)
    }

    /// WebIDL "invoke a callback function" for the tool's `execute`: runs the scenario's `do`
    /// statements, wires `onAbort`, and returns the callback's promise.
    pub(crate) fn invoke_action_execute_callback(
        &mut self,
        tool: ToolDictId,
        doc: DocId,
        controller: SignalId,
        input_arguments: &str,
    ) -> PromiseId {
        let program = self.program;
        let dict = &program.tool_dicts[tool.0 as usize];
        let tool_promise = self.new_unnamed_promise(doc);
        note!(self, (IMPERATIVE, "8"), "invoke execute of tool {:?}", dict.name);
        if dict.log_input {
            let line = trace::ConsoleLine { document: self.label(doc), text: format!("input: {input_arguments}") };
            self.console_line(("console", "log"), line, false);
        }
        if dict.log_abort {
            self.world.signals[controller].listeners.push(Work::LogAbortReason { doc, signal: controller });
        }
        if !self.program.ops(dict.on_abort).is_empty() {
            self.world.signals[controller].listeners.push(Work::AbortListener { doc, script: dict.on_abort });
        }
        // Statements before the result; a throw rejects the callback's promise (WebIDL converts the
        // exception of a promise-returning callback into a rejected promise).
        if let Err(e) = self.run_statements(doc, dict.execute_body) {
            self.settle(tool_promise, Err(e), (IMPERATIVE, "8"));
            return tool_promise;
        }
        self.settle_tool_promise(tool_promise, &dict.result, doc, Some(controller));
        tool_promise
    }

    /// `controller`: the signal `rejectOnAbort` waits on (None only where `how` is not
    /// `rejectOnAbort`).
    fn settle_tool_promise(&mut self, tool_promise: PromiseId, how: &Settle, doc: DocId, controller: Option<SignalId>) {
        match how {
            Settle::Resolve(v) => self.settle(tool_promise, Ok(v.clone()), (IMPERATIVE, "8")),
            Settle::Reject(v) => self.settle(tool_promise, Err(v.clone()), (IMPERATIVE, "8")),
            Settle::Throw(m) => self.settle(tool_promise, Err(JsValue::type_error(m.clone())), (IMPERATIVE, "8")),
            Settle::Never => self.note((IMPERATIVE, "8"), "the tool's promise never settles"),
            // Inside an inert tool execution (`crate::inert`), a 0 ms timer: the
            // timer is due at once (HTML "run steps after a timeout" queues its task on the timer
            // task source now), and its task is inert too, so it runs after this one. The
            // document's timer count is not advanced: it only orders timers of one deadline,
            // which it still does (docs/model.md).
            Settle::After(0, then) if self.running_inert_tasks() => {
                self.note(("HTML", "setTimeout"), "the tool settles after 0 ms");
                let work = Work::SettleLater { promise: tool_promise, settle: (**then).clone() };
                self.run_inert_task(doc, work);
            }
            // Inside an inert tool execution, a later timer: it waits in the timer list placed
            // by the execution's uuid, not counted among the document's timers (so two
            // executions leave one list in either order), and its task, inert too, runs when it
            // comes due (`Sim::run_due_inert_timers`; docs/model.md, "Inert tool executions").
            Settle::After(ms, then) if self.running_inert_tasks() && self.scope.is_some() => {
                note!(self, ("HTML", "setTimeout"), "the tool settles after {ms} ms");
                let (uuid, _) = self.scope.expect("inside an inert tool execution");
                self.world.run_steps_after_a_timeout_keyed(
                    doc,
                    *ms,
                    crate::inert::facts::timer_key(uuid),
                    Work::SettleLater { promise: tool_promise, settle: (**then).clone() },
                );
            }
            Settle::After(ms, then) => {
                note!(self, ("HTML", "setTimeout"), "the tool settles after {ms} ms");
                self.world.run_steps_after_a_timeout(
                    doc,
                    *ms,
                    Work::SettleLater { promise: tool_promise, settle: (**then).clone() },
                );
            }
            Settle::RejectOnAbort => {
                let controller = controller.expect("rejectOnAbort is given a signal");
                self.world.add_abort_algorithm(
                    controller,
                    Work::AbortRejectsToolPromise { promise: tool_promise, signal: controller },
                );
            }
        }
    }

    /// A tool's own timer fires (`Work::SettleLater`).
    pub(crate) fn settle_tool_promise_later(&mut self, promise: PromiseId, settle: Settle) {
        let doc = promise.realm;
        // After a timer, `rejectOnAbort` waits on a new signal that nothing aborts (the
        // execution's own is not at hand): the promise never settles. Made only then.
        let dummy = matches!(settle, Settle::RejectOnAbort).then(|| self.new_abort_controller_in(doc, None));
        self.settle_tool_promise(promise, &settle, doc, dummy);
    }

    /// `rejectOnAbort`: the tool's promise rejects with its signal's reason.
    pub(crate) fn reject_tool_promise_with_reason(&mut self, promise: PromiseId, signal: SignalId) {
        let reason = self.world.signals[signal].reason.clone();
        self.settle(promise, Err(reason), ("tool", "execute: reject with signal.reason"));
    }

    /// `logAbort`: the tool's abort listener logs its signal's reason.
    pub(crate) fn log_abort_reason(&mut self, doc: DocId, signal: SignalId) {
        let reason = self.world.signals[signal].reason.clone();
        let mut text = String::from("signal aborted: ");
        match reason.error_name() {
            Some(name) => text.push_str(name),
            None => self.render_into(&mut text, &reason),
        }
        let line = trace::ConsoleLine { document: self.label(doc), text };
        self.console_line(("console", "log"), line, false);
    }
}
