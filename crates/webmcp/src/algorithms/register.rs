//! registerTool, its abort steps, unregister a tool, notify documents of a tool change and the
//! events fired at a ModelContext (toolchange; toolactivated and toolcancel under a variant).

use std::rc::Rc;

use browser::policy::TOOLS;
use browser::value::serialize_a_javascript_value_to_a_json_string;
use browser::{DocId, JsValue, NavId, Origin, PromiseId, SignalId, TaskSource};
use scenario::Variant;
use trace::EventKind;

use crate::cite::{EXPOSED, NOTIFY, REGISTER_TOOL, UNREGISTER};
use crate::footprint::Resource;
use crate::idl::RegisterToolArgs;
use crate::kernel::{Sim, ToolDefinition};
use crate::work::Work;

use super::{parse_origin, tool_name_is_invalid};

impl Sim<'_> {
    /// <https://webmachinelearning.github.io/webmcp/#dom-modelcontext-registertool>
    pub fn model_context_register_tool(&mut self, this: DocId, args: RegisterToolArgs) -> PromiseId {
        let a = REGISTER_TOOL;
        let dict = &args.tool;
        // WebIDL: `inputSchema` is an `object`; converting a primitive throws a TypeError, which a
        // promise-returning operation turns into a rejected promise.
        // WebIDL dictionary conversion: a member whose value is undefined is not present.
        let input_schema = dict.input_schema.filter(|s| **s != JsValue::Undefined);
        if dict.input_schema.is_some() && input_schema.is_none() {
            self.note(("WebIDL", "converting to a dictionary"), "inputSchema is undefined: the member is not present");
        }
        if let Some(schema) = input_schema.filter(|s| !s.is_object()) {
            let rendered = self.render(schema);
            note!(self, ("WebIDL", "converting to object"), "inputSchema {rendered} is not an object");
            let error = JsValue::type_error("inputSchema is not an object");
            return self.rejected_promise(this, a, args.as_, error, ("WebIDL", "converting to object"));
        }
        // Step 1. Let global be this's relevant global object.
        // Step 2. Let tool owner be global's associated Document.
        let tool_owner = this;
        // Step 3. If tool owner is not fully active, then return a promise rejected with an "InvalidStateError" DOMException.
        if !self.world.is_fully_active(tool_owner) {
            return self.rejected_promise(this, a, args.as_, JsValue::dom_exception("InvalidStateError"), (a, "3"));
        }
        // Step 4. If this's surrounding agent's agent cluster's is origin-keyed is false and this's relevant settings object's origin's scheme is not "file", then return a promise rejected with a "SecurityError" DOMException.
        if !self.origin_keyed_or_file(this) {
            return self.rejected_promise(this, a, args.as_, JsValue::dom_exception("SecurityError"), (a, "4"));
        }
        // Step 5. If tool owner is not allowed to use the "tools" feature, then return a promise rejected with a "NotAllowedError" DOMException.
        if !self.world.is_allowed_to_use(tool_owner, TOOLS) {
            return self.rejected_promise(this, a, args.as_, JsValue::dom_exception("NotAllowedError"), (a, "5"));
        }
        // Step 6. Let tool map be this's internal context's tool map.
        // Step 7. Let tool name be tool's name.
        // Step 8. Let tool title be tool's title.
        let tool_name = dict.name;
        // Deviation (chromium profile): Chromium 156 checks the name's validity (steps 10 and 11)
        // before the duplicate check (step 9); docs/chromium.md.
        if self.program.has_variant(Variant::ChromiumNameBeforeDuplicate) {
            if tool_name.is_empty() || dict.description.is_empty() {
                self.note((a, "10"), "variant chromium-name-before-duplicate: step 10 before step 9");
                return self.rejected_promise(
                    this,
                    a,
                    args.as_,
                    JsValue::dom_exception("InvalidStateError"),
                    (a, "10"),
                );
            }
            if tool_name_is_invalid(tool_name) {
                self.note((a, "11"), "variant chromium-name-before-duplicate: step 11 before step 9");
                return self.rejected_promise(
                    this,
                    a,
                    args.as_,
                    JsValue::dom_exception("InvalidStateError"),
                    (a, "11"),
                );
            }
        }
        // Step 9. If tool map[tool name] exists, then return a promise rejected with an InvalidStateError DOMException.
        if self.model_contexts[this.index()].tool(tool_name).is_some() {
            note!(self, (a, "9"), "tool map[{tool_name:?}] exists");
            return self.rejected_promise(this, a, args.as_, JsValue::dom_exception("InvalidStateError"), (a, "9"));
        }
        // Step 10. If tool name or description is an empty string, then return a promise rejected with an InvalidStateError DOMException.
        if tool_name.is_empty() || dict.description.is_empty() {
            return self.rejected_promise(this, a, args.as_, JsValue::dom_exception("InvalidStateError"), (a, "10"));
        }
        // Step 11. If either tool name is the empty string, or its length is greater than 128, or if tool name contains a code point that is not an ASCII alphanumeric, U+005F (_), U+002D (-), or U+002E (.), then return a promise rejected with an InvalidStateError DOMException.
        if tool_name_is_invalid(tool_name) {
            return self.rejected_promise(this, a, args.as_, JsValue::dom_exception("InvalidStateError"), (a, "11"));
        }
        // Step 12. Let stringified input schema be the empty string.
        let mut stringified_input_schema = String::new();
        // Step 13. If tool's inputSchema exists, then set stringified input schema to the result of serializing a JavaScript value to a JSON string, given tool's inputSchema. If this threw an exception, then return a promise rejected with that exception.
        if let Some(schema) = input_schema {
            match serialize_a_javascript_value_to_a_json_string(schema) {
                Ok(s) => stringified_input_schema = s,
                Err(e) => return self.rejected_promise(this, a, args.as_, e, (a, "13")),
            }
        }
        // Step 14. If options's signal exists and is aborted, then return a promise rejected with options's signal's abort reason.
        let signal = args.signal;
        if let Some(s) = signal {
            if self.world.signals[s].aborted {
                let reason = self.world.signals[s].reason.clone();
                return self.rejected_promise(this, a, args.as_, reason, (a, "14"));
            }
        }
        // Step 15. Let exposed origins be an empty list of origins.
        let mut exposed_origins = Vec::new();
        // Step 16. If options's exposedTo exists, then:
        if let Some(list) = args.exposed_to {
            // Step 16.1. For each origin of options's exposedTo:
            for text in list {
                // Step 16.1.1. Let parsedURL be the result of running the URL parser on origin.
                // Step 16.1.2. If parsedURL is failure or its origin is not potentially trustworthy, then return a promise rejected with a "SecurityError" DOMException.
                match parse_origin(self, text) {
                    Some(origin) if origin.is_potentially_trustworthy() => {
                        // Step 16.1.3. Append parsedURL's origin to exposed origins.
                        exposed_origins.push(origin);
                    }
                    _ => {
                        note!(self, (a, "16.1.2"), "exposedTo entry {text:?} is not a potentially trustworthy URL");
                        return self.rejected_promise(
                            this,
                            a,
                            args.as_,
                            JsValue::dom_exception("SecurityError"),
                            (a, "16.1.2"),
                        );
                    }
                }
            }
        }
        // Step 17. Let promise be a new promise created in this's relevant realm.
        let promise = self.api_promise(this, a, args.as_);
        // (The tool name is made once, shared by the abort steps, the definition and the tool map.)
        let tool_name: Rc<str> = Rc::from(tool_name);
        // Step 18. If options's signal exists, then:
        if let Some(signal) = signal {
            // Step 18.1. Let signal be options's signal.
            // Step 18.2. If signal is aborted, then return a promise rejected with signal's abort reason.
            // (Unreachable after step 14: nothing runs between the two checks.)
            // Step 18.3. Add the following abort steps to signal:
            self.world.add_abort_algorithm(
                signal,
                Work::AbortUnregister { model_context: this, tool_name: tool_name.clone(), promise, signal },
            );
            self.note((a, "18.3"), "abort steps added to the signal");
        }
        // (The list is made once, shared by the definition and the in-parallel steps.)
        let exposed_origins: Rc<[Origin]> = exposed_origins.into();
        // Step 19. Let tool definition be a new tool definition, with the following items: …
        let definition = browser::Shared::new(ToolDefinition {
            name: tool_name.clone(),
            title: dict.title.map(str::to_string),
            description: dict.description.to_string(),
            input_schema: stringified_input_schema,
            execute: dict.execute,
            annotations: dict.annotations.clone(),
            exposed_origins: exposed_origins.clone(),
        });
        // Step 20. Set this's internal context's tool map[tool name] to tool definition.
        self.touch_tool_map(this, true);
        self.model_contexts[this.index()].tool_map.push((tool_name.clone(), definition));
        note!(self, (a, "20"), "tool map[{tool_name:?}] set in {}", self.label(this));
        // Step 21. Run the following steps in parallel: …
        self.in_parallel(Work::RegisterToolInParallel { tool_owner, exposed_origins, promise }, (a, "21"));
        // Step 22. Return promise.
        promise
    }

    /// registerTool step 21, the in-parallel steps.
    pub fn register_tool_in_parallel(&mut self, tool_owner: DocId, exposed_origins: &[Origin], promise: PromiseId) {
        // Step 21.1. Notify documents of a tool change given tool owner and exposed origins.
        self.notify_documents_of_a_tool_change(tool_owner, exposed_origins);
        // Step 21.2. Queue a global task on the webmcp task source given global to resolve promise with undefined.
        self.queue_global_task(
            TaskSource::WebMcp,
            tool_owner,
            Work::SettlePromise { promise, result: Ok(JsValue::Undefined), step: (REGISTER_TOOL, "21.2") },
            (REGISTER_TOOL, "21.2"),
        );
    }

    /// Abort steps added by registerTool step 18.3.
    pub fn register_tool_abort_steps(
        &mut self,
        model_context: DocId,
        tool_name: &str,
        promise: PromiseId,
        signal: SignalId,
    ) {
        // Step 18.3.1. Unregister a tool given this and tool name.
        self.unregister_a_tool(model_context, tool_name);
        // Step 18.3.2. Reject promise with signal's abort reason.
        let reason = self.world.signals[signal].reason.clone();
        self.settle(promise, Err(reason), (REGISTER_TOOL, "18.3.2"));
    }

    /// <https://webmachinelearning.github.io/webmcp/#model-context-unregister-a-tool>
    pub fn unregister_a_tool(&mut self, model_context: DocId, tool_name: &str) {
        let a = UNREGISTER;
        // Step 1. Assert: these steps are running on modelContext's relevant agent's event loop.
        self.assert_on_event_loop_of(model_context, (a, "1"));
        // Step 2. Let tool map be modelContext's internal context's tool map.
        self.touch_tool_map(model_context, true);
        let tool_map = &mut self.model_contexts[model_context.index()].tool_map;
        // Step 3. If tool map[tool name] does not exist, then return.
        let Some(pos) = tool_map.iter().position(|(n, _)| **n == *tool_name) else {
            note!(self, (a, "3"), "tool map[{tool_name:?}] does not exist");
            return;
        };
        // Step 4. Let exposed origins be tool map[tool name]'s exposed origins.
        // Step 5. Remove tool map[tool name].
        let (_, definition) = tool_map.remove(pos);
        note!(self, (a, "5"), "tool map[{tool_name:?}] removed from {}", self.label(model_context));
        // Step 6. Let targetDocument be modelContext's relevant global object's associated Document.
        // Step 7. In parallel, notify documents of a tool change given targetDocument and exposed origins.
        self.in_parallel(
            Work::NotifyInParallel { tool_owner: model_context, exposed_origins: definition.exposed_origins.clone() },
            (a, "7"),
        );
    }

    /// <https://webmachinelearning.github.io/webmcp/#notify-documents-of-a-tool-change>
    pub fn notify_documents_of_a_tool_change(&mut self, tool_owner: DocId, exposed_origins: &[Origin]) {
        let a = NOTIFY;
        // Step 1. Assert: these steps are running in parallel.
        self.assert_in_parallel((a, "1"));
        // Step 2. Let navigablesToNotify be tool owner's node navigable's traversable navigable's inclusive descendant navigables.
        let traversable = self.node_navigables_traversable(tool_owner, "tool owner", (a, "2"));
        thread_local! {
            /// The list step 2 is written into, reused (no allocation per notification).
            static NAVIGABLES: std::cell::RefCell<Vec<NavId>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        NAVIGABLES.with_borrow_mut(|navigables_to_notify| {
            self.world.inclusive_descendant_navigables_into(traversable, navigables_to_notify);
            let owner_origin = self.world.doc_info(tool_owner).origin.clone();
            // Step 3. For each navigable of navigablesToNotify:
            // (Footprint: a navigable this step queues a task for is read as which document it
            // shows, its lifecycle; one it skips, only as what the skip depends on,
            // `Resource::Shown`.)
            for &navigable in navigables_to_notify.iter() {
                // Step 3.1. Let targetDocument be navigable's active document.
                let Some(target_document) = self.world.nav(navigable).active_document else { continue };
                // Step 3.2. If targetDocument is not allowed to use the "tools" feature, then continue.
                if !self.tools_check(target_document, (a, "3.2")) {
                    self.footprint.touch(Resource::Shown(navigable), false);
                    note!(self, (a, "3.2"), "{} is not allowed to use \"tools\": skipped", self.label(target_document));
                    continue;
                }
                // Step 3.3. If tool is exposed to an origin given tool owner's origin, exposed origins, and targetDocument's origin, then queue a global task on the webmcp task source given targetDocument's relevant global object to fire an event named toolchange at targetDocument's associated ModelContext.
                let target_origin = self.world.doc_info(target_document).origin.clone();
                if self.tool_is_exposed_to_an_origin(&owner_origin, exposed_origins, &target_origin) {
                    self.touch_lifecycle_of(target_document);
                    self.queue_global_task(
                        TaskSource::WebMcp,
                        target_document,
                        Work::FireToolchange { doc: target_document },
                        (a, "3.3"),
                    );
                } else {
                    self.footprint.touch(Resource::Shown(navigable), false);
                    note!(self, (a, "3.3"), "tool is not exposed to {}: no toolchange", self.label(target_document));
                }
            }
        });
    }

    /// getTools 9.3.2 and notify 3.2: "allowed to use" the "tools" feature; under the variant
    /// `tools-policy-only` (finding 4's fix), "is feature enabled in document for origin" only, so
    /// a document that is not fully active (in the bfcache) is not skipped.
    pub(crate) fn tools_check(&mut self, document: DocId, step: (&'static str, &'static str)) -> bool {
        if !self.program.has_variant(Variant::ToolsPolicyOnly) {
            return self.world.is_allowed_to_use(document, TOOLS);
        }
        let info = self.world.doc_info(document);
        let enabled = browser::policy::enabled_for_own_origin(&info.features_enabled, TOOLS);
        if enabled && !self.world.is_allowed_to_use(document, TOOLS) {
            note!(
                self,
                step,
                "variant tools-policy-only (finding 4): {} is not fully active, but \"tools\" is enabled for its origin: not skipped",
                self.label(document)
            );
        }
        enabled
    }

    /// The task queued by notify documents of a tool change step 3.3.
    pub fn fire_toolchange(&mut self, doc: DocId) {
        let handler = self.model_contexts[doc.index()].ontoolchange;
        let listeners = self.engine_listeners_for(doc, "toolchange");
        self.count_event(doc, "toolchange");
        if self.record {
            std::hint::cold_path();
            let target = format!("{}.modelContext", self.label(doc));
            self.event(
                (NOTIFY, "3.3"),
                EventKind::Fired {
                    event: "toolchange".into(),
                    target,
                    handled: handler.is_some() || listeners.is_some(),
                },
            );
        }
        if let Some((script_doc, script)) = handler {
            self.run_callback(script_doc, script, "toolchange handler");
        }
        if let Some(listeners) = listeners {
            self.fire_engine_event(listeners, "toolchange", None);
        }
    }

    /// Variant `tool-events` (issue #146, PR #245): fires `toolactivated` or `toolcancel` (a
    /// `ToolActivatedEvent` or `ToolCancelEvent` whose `toolName` is `tool_name`) at `doc`'s
    /// ModelContext, synchronously, in the running task.
    pub fn fire_tool_event(
        &mut self,
        doc: DocId,
        event: crate::program::ToolEvent,
        tool_name: &str,
        step: (&'static str, &'static str),
    ) {
        let context = &self.model_contexts[doc.index()];
        let handler = match event {
            crate::program::ToolEvent::Activated => context.ontoolactivated,
            crate::program::ToolEvent::Cancel => context.ontoolcancel,
        };
        let listeners = self.engine_listeners_for(doc, event.name());
        self.count_event(doc, event.name());
        if self.record {
            std::hint::cold_path();
            self.interpretation(
                step,
                "variant tool-events (issue #146): the event is fired at the target's ModelContext, synchronously, here",
            );
            let target = format!("{}.modelContext", self.label(doc));
            self.event(
                step,
                EventKind::Fired {
                    event: event.name().into(),
                    target,
                    handled: handler.is_some() || listeners.is_some(),
                },
            );
        }
        if let Some((script_doc, script)) = handler {
            self.run_script(script_doc, script);
        }
        if let Some(listeners) = listeners {
            self.fire_engine_event(listeners, event.name(), Some(tool_name));
        }
    }

    /// The engine's listeners on `doc`'s ModelContext, if one of them is for `event`.
    fn engine_listeners_for(&self, doc: DocId, event: &str) -> Option<crate::callback::EngineListeners> {
        let listeners = self.model_contexts[doc.index()].engine_listeners?;
        (listeners.types & crate::callback::EngineListeners::bit(event) != 0).then_some(listeners)
    }

    /// <https://webmachinelearning.github.io/webmcp/#tool-is-exposed-to-an-origin>
    #[inline]
    pub fn tool_is_exposed_to_an_origin(
        &mut self,
        tool_owner_origin: &Origin,
        exposed_origins: &[Origin],
        accessing_origin: &Origin,
    ) -> bool {
        // Step 1. If tool owner origin is same origin with accessing origin, then return true.
        if tool_owner_origin.same_origin(accessing_origin) {
            return true;
        }
        // Step 2. For each allowed origin of exposed origins:
        //   Step 2.1. If accessing origin is same origin with allowed origin, then return true.
        if exposed_origins.iter().any(|allowed| accessing_origin.same_origin(allowed)) {
            note!(self, (EXPOSED, "2.1"), "{} is in exposed origins", accessing_origin.serialize());
            return true;
        }
        // Step 3. Return false.
        false
    }
}
