//! The script interpreter: runs a scenario's statements in a document, the way a page's script
//! would call the APIs. A thrown exception stops the rest of the statement list.

use browser::{DocId, DocumentState, JsValue, PromiseState};
use trace::ConsoleLine;

use crate::algorithms::{RegisterToolArgs, RegisteredToolArg, EXECUTE_TOOL};
use crate::program::{ControllerSlot, Op, PromiseSlot, ScriptId, ToolRef};
use crate::sim::{Context, Resource, RunError, Sim, Work};
use scenario::Variant;

const SCRIPT: &str = "script";

impl Sim<'_> {
    /// Runs a statement list in `doc`; an exception that escapes is reported as uncaught.
    pub fn run_script(&mut self, doc: DocId, script: ScriptId) {
        if let Err(error) = self.run_ops(doc, script) {
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

    /// Runs a statement list in `doc`, returning the first exception thrown.
    pub fn run_ops(&mut self, doc: DocId, script: ScriptId) -> Result<(), JsValue> {
        let ops = self.program.ops(script);
        for op in ops {
            self.run_op(doc, op)?;
        }
        Ok(())
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
                self.model_context_register_tool(
                    this,
                    RegisterToolArgs { tool: *tool, exposed_to: exposed_to.as_deref(), signal, as_: *as_ },
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
                self.model_contexts[this.index()].ontoolchange = Some((doc, *body));
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
                self.queue_global_task(
                    browser::TaskSource::NavigationAndTraversal,
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
    fn model_context_of(&mut self, doc: DocId, document: Option<&str>, member: &str) -> Result<DocId, JsValue> {
        let target = match document {
            None => doc,
            Some(name) => {
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
                    let (from, to) = (d.label.clone(), t.label.clone());
                    note!(self, (SCRIPT, "cross-origin access"), "{from} cannot reach {to}'s document");
                    return Err(JsValue::DomException {
                        name: "SecurityError".into(),
                        message: format!("Blocked a frame from accessing the cross-origin document {to}"),
                    });
                }
                target
            }
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
    fn window_proxy_window(&mut self, nav: browser::NavId) -> Result<DocId, JsValue> {
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

    /// Runs the `index`-th user step.
    pub fn run_user_step(&mut self, script: ScriptId, index: u32) -> Result<(), RunError> {
        let program = self.program;
        let mut op = &program.ops(script)[index as usize];
        // `at` and `within` only said when the step may run (`browser::UserQueue`).
        if let Op::Timed { step, .. } = op {
            op = step;
        }
        match op {
            Op::Navigate(id) => {
                self.navigate(&program.navigations[id.0 as usize])
            }
            Op::RemoveIframe(name) => {
                let nav = self.seldom.nav_by_name[name];
                self.remove_iframe(nav);
                Ok(())
            }
            Op::EnterBfcache(name) => {
                let nav = self.seldom.nav_by_name[name];
                self.enter_bfcache(nav);
                Ok(())
            }
            Op::RestoreFromBfcache(name) => {
                let nav = self.seldom.nav_by_name[name];
                self.restore_from_bfcache(nav);
                Ok(())
            }
            // Validation rejects these with a position (scenario::validate); a program built
            // without validation still gets an error here, never a silent skip.
            _ => Err(RunError::Scenario(format!(
                "user step {} is a script statement; user steps can navigate, removeIframe, enterBfcache and restoreFromBfcache",
                index + 1
            ))),
        }
    }

    pub fn describe_user_step(&self, script: ScriptId, index: u32) -> String {
        self.describe_user_op(&self.program.ops(script)[index as usize])
    }

    fn describe_user_op(&self, op: &Op) -> String {
        match op {
            Op::Timed { from, to, step } if from == to => {
                format!("{} (at {from} ms)", self.describe_user_op(step))
            }
            Op::Timed { from, to, step } => {
                format!("{} (within {from}..{to} ms)", self.describe_user_op(step))
            }
            Op::Navigate(id) => {
                let spec = &self.program.navigations[id.0 as usize];
                format!("navigate {} to {}", spec.navigable, spec.document.url)
            }
            Op::RemoveIframe(n) => format!("remove iframe {n}"),
            Op::EnterBfcache(n) => format!("{n}'s document enters the back/forward cache"),
            Op::RestoreFromBfcache(n) => format!("{n}'s document is restored from the back/forward cache"),
            _ => "script statement".to_string(),
        }
    }

    /// True when the document is still around to run script.
    pub fn is_alive(&self, doc: DocId) -> bool {
        self.world.doc(doc).state != DocumentState::Destroyed
    }

    /// For assertions in tests: the context now running.
    pub fn current_context(&self) -> Context {
        self.context
    }
}
