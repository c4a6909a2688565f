//! The WebMCP algorithms, one function each, named after the spec's definitions, with the spec's
//! step numbers as comments. Every trace event cites its algorithm and step.

use std::rc::Rc;

use browser::policy::TOOLS;
use browser::value::{parse_a_json_string_to_a_javascript_value, serialize_a_javascript_value_to_a_json_string};
use browser::{DocId, JsValue, NavId, Origin, PromiseId, PromiseState, SignalId, TaskSource};
use trace::EventKind;

use crate::program::{PromiseSlot, Settle, ToolDictId};
use crate::sim::{
    Annotations, Caller, CompletionSteps, Context, PendingToolExecution, Resource, RunError, Sim, ToolDefinition, Uuid,
    Work,
};
use scenario::Variant;

pub const REGISTER_TOOL: &str = "registerTool";
pub const GET_TOOLS: &str = "getTools";
pub const EXECUTE_TOOL: &str = "executeTool";
pub const NOTIFY: &str = "notify documents of a tool change";
pub const EXPOSED: &str = "tool is exposed to an origin";
pub const UNREGISTER: &str = "unregister a tool";
pub const TOOL_EXECUTE_STEPS: &str = "tool execute steps";
pub const IMPERATIVE: &str = "imperative execute steps";
pub const CANCEL: &str = "cancel a pending tool execution";
pub const CLEANUP: &str = "unloading document cleanup steps";
pub const OBSERVE: &str = "perform an observation";
pub const AGENT_CALL: &str = "agent tool call";

/// Arguments of `registerTool(tool, options)`.
pub struct RegisterToolArgs<'a> {
    pub tool: ToolDictId,
    pub exposed_to: Option<&'a [String]>,
    pub signal: Option<SignalId>,
    pub as_: Option<PromiseSlot>,
}

/// A `RegisteredTool` dictionary as `executeTool` reads it.
pub struct RegisteredToolArg {
    pub name: Rc<str>,
    pub origin: String,
    /// The document whose Window the `window` member is when executeTool converts it (WebIDL:
    /// a WindowProxy converts to its [[Window]], the Window of the document its navigable shows).
    pub window: DocId,
}

/// Infra "code unit less than" on strings.
fn code_unit_less_than(a: &str, b: &str) -> std::cmp::Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// A `RegisteredTool` dictionary's `name` (its first member, as `registered_tool` builds it).
fn registered_tool_name(tool: &JsValue) -> &str {
    match tool {
        JsValue::Object(members) => match members.first() {
            Some((_, JsValue::String(name))) => name,
            _ => "",
        },
        _ => "",
    }
}

/// Tool name rule of registerTool step 11 (length in code units 1..=128; ASCII alphanumeric, `_`, `-`, `.`).
fn tool_name_is_invalid(name: &str) -> bool {
    let len = name.encode_utf16().count();
    len == 0 || len > 128 || !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// URL-parse `origin` and take its origin, for registerTool 16.1 and getTools 7.1.
fn parse_origin(sim: &mut Sim, text: &str) -> Option<Origin> {
    thread_local! {
        /// Text → tuple origin (or no URL): a pure function of the text, so it is remembered
        /// (exploration parses the same few strings millions of times). A scenario names a few
        /// origins, so a short list searched in order costs less than hashing the text. Opaque
        /// origins are not remembered: their ids depend on the state.
        static TUPLE_ORIGINS: std::cell::RefCell<Vec<(Box<str>, Option<Origin>)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let known = TUPLE_ORIGINS.with_borrow(|m| m.iter().find(|(t, _)| **t == *text).map(|(_, o)| o.clone()));
    if let Some(known) = known {
        return known;
    }
    let origin = url::Url::parse(text).ok().map(|url| {
        let mut next = 1_000_000 + sim.world.document_count() as u32;
        Origin::of_url(&url, &mut next)
    });
    if !origin.as_ref().is_some_and(Origin::is_opaque) {
        TUPLE_ORIGINS.with_borrow_mut(|m| {
            if m.len() >= 64 {
                m.clear();
            }
            m.push((text.into(), origin.clone()));
        });
    }
    origin
}

impl Sim<'_> {
    /// Checks a document's agent cluster and scheme, as registerTool 4, getTools 4 and executeTool 3 do.
    fn origin_keyed_or_file(&self, doc: DocId) -> bool {
        let d = self.world.doc_info(doc);
        d.origin_keyed || d.origin.scheme() == Some("file")
    }

    /// <https://webmachinelearning.github.io/webmcp/#dom-modelcontext-registertool>
    pub fn model_context_register_tool(&mut self, this: DocId, args: RegisterToolArgs) -> PromiseId {
        let a = REGISTER_TOOL;
        let program = self.program;
        let dict = &program.tool_dicts[args.tool.0 as usize];
        // WebIDL: `inputSchema` is an `object`; converting a primitive throws a TypeError, which a
        // promise-returning operation turns into a rejected promise.
        // WebIDL dictionary conversion: a member whose value is undefined is not present.
        let input_schema = dict.input_schema.as_ref().filter(|s| **s != JsValue::Undefined);
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
        let tool_name = &dict.name;
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
        let tool_name: Rc<str> = Rc::from(tool_name.as_str());
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
            title: dict.title.clone(),
            description: dict.description.clone(),
            input_schema: stringified_input_schema,
            execute: args.tool,
            annotations: dict.annotations.as_ref().map(|an| Annotations {
                read_only_hint: an.read_only_hint,
                untrusted_content_hint: an.untrusted_content_hint,
                consequential_hint: an.consequential_hint,
            }),
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
    fn tools_check(&mut self, document: DocId, step: (&'static str, &'static str)) -> bool {
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
        self.count_event(doc, "toolchange");
        if self.record {
            std::hint::cold_path();
            let target = format!("{}.modelContext", self.label(doc));
            self.event(
                (NOTIFY, "3.3"),
                EventKind::Fired { event: "toolchange".into(), target, handled: handler.is_some() },
            );
        }
        if let Some((script_doc, script)) = handler {
            self.run_callback(script_doc, script, "toolchange handler");
        }
    }

    /// Variant `tool-events` (issue #146, PR #245): fires `toolactivated` or `toolcancel` at
    /// `doc`'s ModelContext, synchronously, in the running task.
    pub fn fire_tool_event(
        &mut self,
        doc: DocId,
        event: crate::program::ToolEvent,
        step: (&'static str, &'static str),
    ) {
        let context = &self.model_contexts[doc.index()];
        let handler = match event {
            crate::program::ToolEvent::Activated => context.ontoolactivated,
            crate::program::ToolEvent::Cancel => context.ontoolcancel,
        };
        self.count_event(doc, event.name());
        if self.record {
            std::hint::cold_path();
            self.interpretation(
                step,
                "variant tool-events (issue #146): the event is fired at the target's ModelContext, synchronously, here",
            );
            let target = format!("{}.modelContext", self.label(doc));
            self.event(step, EventKind::Fired { event: event.name().into(), target, handled: handler.is_some() });
        }
        if let Some((script_doc, script)) = handler {
            self.run_script(script_doc, script);
        }
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

    /// <https://webmachinelearning.github.io/webmcp/#dom-modelcontext-gettools>
    pub fn model_context_get_tools(
        &mut self,
        this: DocId,
        from_origins_text: Option<&[String]>,
        as_: Option<PromiseSlot>,
    ) -> PromiseId {
        let a = GET_TOOLS;
        // Step 1. Let global be this's relevant global object.
        // Step 2. Let toolRequestor be global's associated Document.
        let tool_requestor = this;
        // Step 3. If toolRequestor is not fully active, then return a promise rejected with an "InvalidStateError" DOMException.
        if !self.world.is_fully_active(tool_requestor) {
            return self.rejected_promise(this, a, as_, JsValue::dom_exception("InvalidStateError"), (a, "3"));
        }
        // Step 4. If this's surrounding agent's agent cluster's is origin-keyed is false and … scheme is not "file", then return a promise rejected with a "SecurityError" DOMException.
        if !self.origin_keyed_or_file(this) {
            return self.rejected_promise(this, a, as_, JsValue::dom_exception("SecurityError"), (a, "4"));
        }
        // Step 5. If toolRequestor is not allowed to use the "tools" feature, then return a promise rejected with a "NotAllowedError" DOMException.
        if !self.world.is_allowed_to_use(tool_requestor, TOOLS) {
            return self.rejected_promise(this, a, as_, JsValue::dom_exception("NotAllowedError"), (a, "5"));
        }
        // Step 6. Let from origins be an empty list of origins.
        let mut from_origins = Vec::new();
        // Step 7. If options's fromOrigins exists, then: for each origin of options's fromOrigins:
        for text in from_origins_text.unwrap_or(&[]) {
            // Step 7.1.1. Let parsedURL be the result of running the URL parser on origin.
            // Step 7.1.2. If parsedURL is failure or its origin is not potentially trustworthy, then return a promise rejected with a "SecurityError" DOMException.
            match parse_origin(self, text) {
                // Step 7.1.3. Append parsedURL's origin to from origins.
                Some(origin) if origin.is_potentially_trustworthy() => from_origins.push(origin),
                _ => {
                    note!(self, (a, "7.1.2"), "fromOrigins entry {text:?} is not a potentially trustworthy URL");
                    return self.rejected_promise(this, a, as_, JsValue::dom_exception("SecurityError"), (a, "7.1.2"));
                }
            }
        }
        // Step 8. Let promise be a new promise created in this's relevant realm.
        let promise = self.api_promise(this, a, as_);
        // Step 9. Run the following steps in parallel: …
        self.in_parallel(Work::GetToolsInParallel { requestor: tool_requestor, from_origins, promise }, (a, "9"));
        // Step 10. Return promise.
        promise
    }

    /// getTools step 9, the in-parallel steps.
    pub fn get_tools_in_parallel(&mut self, tool_requestor: DocId, from_origins: &[Origin], promise: PromiseId) {
        let a = GET_TOOLS;
        // Step 9.1. Let tools be an empty list of RegisteredTool dictionaries.
        let mut tools: Vec<JsValue> = Vec::new();
        // Step 9.2. Let navigables be toolRequestor's node navigable's traversable navigable's inclusive descendant navigables.
        let traversable = self.node_navigables_traversable(tool_requestor, "toolRequestor", (a, "9.2"));
        let navigables = self.world.inclusive_descendant_navigables(traversable);
        // Step 9.3. For each navigable of navigables:
        for navigable in navigables {
            // Step 9.3.1. Let targetDocument be navigable's active document.
            let Some(target_document) = self.world.nav(navigable).active_document else { continue };
            self.touch_lifecycle_of(target_document);
            // Step 9.3.2. If targetDocument is not allowed to use the "tools" feature, then continue.
            if !self.tools_check(target_document, (a, "9.3.2")) {
                note!(self, (a, "9.3.2"), "{} is not allowed to use \"tools\": skipped", self.label(target_document));
                continue;
            }
            // Step 9.3.3. Let targetOrigin be targetDocument's origin.
            let target_origin = self.world.doc_info(target_document).origin.clone();
            // Step 9.3.4. Let callerOrigin be toolRequestor's origin.
            let caller_origin = self.world.doc_info(tool_requestor).origin.clone();
            // Step 9.3.5. Let toolOwnerIsRequested be true if targetOrigin is same origin with callerOrigin, or if from origins contains targetOrigin; otherwise, false.
            let mut tool_owner_is_requested =
                target_origin.same_origin(&caller_origin) || from_origins.iter().any(|o| o.same_origin(&target_origin));
            if !tool_owner_is_requested
                && target_origin.is_opaque()
                && self.program.has_variant(Variant::GetToolsRequestsOpaqueOrigins)
            {
                // Variant (finding 8's fix, "yes"): "… or if targetOrigin is an opaque origin"
                // (no fromOrigins entry can name it); step 9.3.8.1 still checks exposure.
                note!(
                    self,
                    (a, "9.3.5"),
                    "variant get-tools-requests-opaque-origins (finding 8): {}'s origin is opaque: requested",
                    self.label(target_document)
                );
                tool_owner_is_requested = true;
            }
            // Step 9.3.6. If toolOwnerIsRequested is false, then continue.
            if !tool_owner_is_requested {
                note!(self, (a, "9.3.6"), "{} is not requested: skipped", self.label(target_document));
                continue;
            }
            // Step 9.3.7. Let targetToolMap be targetDocument's associated ModelContext's internal context's tool map.
            // (The model context is shared, not copied: this block only reads it.)
            self.touch_tool_map(target_document, false);
            let model_context = self.model_contexts[target_document.index()].clone();
            // Step 9.3.8. For each tool name → tool definition of targetToolMap:
            for (_, tool_definition) in model_context.tool_map.iter() {
                // Step 9.3.8.1. If tool is exposed to an origin given targetOrigin, tool definition's exposed origins, and callerOrigin returns false, then continue.
                if !self.tool_is_exposed_to_an_origin(&target_origin, &tool_definition.exposed_origins, &caller_origin)
                {
                    note!(
                        self,
                        (a, "9.3.8.1"),
                        "tool {:?} of {} is not exposed to the caller",
                        tool_definition.name,
                        self.label(target_document)
                    );
                    continue;
                }
                // Step 9.3.8.2. Let registeredTool be a new RegisteredTool dictionary, with the following fields: …
                let registered_tool = self.registered_tool(tool_definition, target_document, &target_origin);
                // Step 9.3.8.3. Append registeredTool to tools.
                tools.push(registered_tool);
            }
        }
        // Step 9.4. Sort in ascending order tools, with a being less than b if a["name"] is code unit less than b["name"].
        tools.sort_by(|x, y| code_unit_less_than(registered_tool_name(x), registered_tool_name(y)));
        note!(self, (a, "9.4"), "tools: [{}]", tools.iter().map(registered_tool_name).collect::<Vec<_>>().join(", "));
        // Step 9.5. Queue a global task on the webmcp task source given global to resolve promise with tools.
        self.queue_global_task(
            TaskSource::WebMcp,
            tool_requestor,
            Work::SettlePromise { promise, result: Ok(JsValue::Array(tools)), step: (a, "9.5") },
            (a, "9.5"),
        );
    }

    /// getTools step 9.3.8.2: the `RegisteredTool` dictionary.
    fn registered_tool(&mut self, def: &ToolDefinition, target_document: DocId, target_origin: &Origin) -> JsValue {
        let mut members = Vec::with_capacity(7);
        members.push(("name".into(), JsValue::string(&*def.name)));
        // title: tool definition's title if it is non-null; otherwise the empty string.
        match (&def.title, self.program.has_variant(Variant::TitleUndefined)) {
            (Some(t), _) => members.push(("title".into(), JsValue::string(t.as_str()))),
            (None, false) => members.push(("title".into(), JsValue::string(""))),
            (None, true) => self.note((GET_TOOLS, "9.3.8.2"), "variant title-undefined (issue #224): title left out"),
        }
        members.push(("description".into(), JsValue::string(def.description.as_str())));
        // inputSchema: parse the stored string if it is not the empty string; otherwise undefined.
        if !def.input_schema.is_empty() {
            match parse_a_json_string_to_a_javascript_value(&def.input_schema) {
                Ok(v) => members.push(("inputSchema".into(), v)),
                Err(_) => self.spec_assert(
                    false,
                    (GET_TOOLS, "9.3.8.2"),
                    "the stored input schema is a valid JSON string (the spec's note says parsing never throws)",
                ),
            }
        }
        // window: targetDocument's relevant global object, which script sees through its
        // navigable's WindowProxy (HTML), so the value names the navigable.
        let navigable = self.world.doc_info(target_document).navigable;
        members.push(("window".into(), JsValue::WindowProxy(navigable.0)));
        members.push(("origin".into(), JsValue::string(target_origin.serialize())));
        if let Some(an) = &def.annotations {
            let mut hints = vec![
                ("readOnlyHint".into(), JsValue::Bool(an.read_only_hint)),
                ("untrustedContentHint".into(), JsValue::Bool(an.untrusted_content_hint)),
                ("consequentialHint".into(), JsValue::Bool(an.consequential_hint)),
            ];
            // Deviation (chromium profile): Chromium 156's ToolAnnotations has a fourth member,
            // `debugging` (false unless set), that the spec text does not define; docs/chromium.md.
            if self.program.has_variant(Variant::ChromiumAnnotationsDebugging) {
                hints.push(("debugging".into(), JsValue::Bool(false)));
            }
            members.push(("annotations".into(), JsValue::Object(hints)));
        }
        JsValue::Object(members)
    }

    /// <https://webmachinelearning.github.io/webmcp/#dom-modelcontext-executetool>
    pub fn model_context_execute_tool(
        &mut self,
        this: DocId,
        tool: RegisteredToolArg,
        input_object: Option<&JsValue>,
        signal: Option<SignalId>,
        as_: Option<PromiseSlot>,
    ) -> PromiseId {
        let a = EXECUTE_TOOL;
        // WebIDL overload resolution: `optional object inputObject = {}` not passed, or passed as
        // undefined, is the default value `{}`.
        let default = JsValue::Object(Vec::new());
        let input_object = match input_object {
            None => &default,
            Some(JsValue::Undefined) => {
                self.note(("WebIDL", "overload resolution algorithm"), "inputObject undefined: the default {} is used");
                &default
            }
            Some(v) => v,
        };
        // WebIDL: `inputObject` is an `object`; converting a primitive throws a TypeError, which a
        // promise-returning operation turns into a rejected promise.
        if !input_object.is_object() {
            note!(self, ("WebIDL", "converting to object"), "inputObject {input_object} is not an object");
            return self.rejected_promise(
                this,
                a,
                as_,
                JsValue::type_error("inputObject is not an object"),
                ("WebIDL", "converting to object"),
            );
        }
        // Step 1. Let callerDocument be this's relevant global object's associated Document.
        let caller_document = this;
        // Step 2. If callerDocument is not fully active, then return a promise rejected with an "InvalidStateError" DOMException.
        if !self.world.is_fully_active(caller_document) {
            return self.rejected_promise(this, a, as_, JsValue::dom_exception("InvalidStateError"), (a, "2"));
        }
        // Step 3. If this's surrounding agent's agent cluster's is origin-keyed is false and … scheme is not "file", then return a promise rejected with a "SecurityError" DOMException.
        if !self.origin_keyed_or_file(this) {
            return self.rejected_promise(this, a, as_, JsValue::dom_exception("SecurityError"), (a, "3"));
        }
        // Step 4. If callerDocument is not allowed to use the "tools" feature, then return a promise rejected with a "NotAllowedError" DOMException.
        if !self.world.is_allowed_to_use(caller_document, TOOLS) {
            return self.rejected_promise(this, a, as_, JsValue::dom_exception("NotAllowedError"), (a, "4"));
        }
        // Step 5. Let expectedTargetOriginURL be the result of parsing tool's origin.
        // Step 6. If expectedTargetOriginURL is failure, or expectedTargetOriginURL's origin is an opaque origin, then return a promise rejected with a "NotSupportedError" DOMException.
        let expected_target_origin = match parse_origin(self, &tool.origin) {
            Some(o) if !o.is_opaque() => o,
            _ => {
                note!(self, (a, "6"), "tool origin {:?} does not parse to a tuple origin", tool.origin);
                return self.rejected_promise(this, a, as_, JsValue::dom_exception("NotSupportedError"), (a, "6"));
            }
        };
        // Step 7. Let expectedTargetOrigin be expectedTargetOriginURL's origin.
        // Step 8. Assert: expectedTargetOrigin is not an opaque origin.
        self.spec_assert(!expected_target_origin.is_opaque(), (a, "8"), "expectedTargetOrigin is not an opaque origin");
        // Step 9. Let inputArguments be the result of serializing a JavaScript value to a JSON string given inputObject. If this threw an exception, then return a promise rejected with that exception.
        let input_arguments = match serialize_a_javascript_value_to_a_json_string(input_object) {
            Ok(s) => s,
            Err(e) => return self.rejected_promise(this, a, as_, e, (a, "9")),
        };
        // Step 10. Let promise be a new promise created in this's relevant realm.
        let promise = self.api_promise(this, a, as_);
        // Step 11. Let targetWindow be tool's window.
        // Step 12. Let targetDocument be targetWindow's associated Document.
        let target_document = tool.window;
        // Step 13. Let uuid be a new unique internal value.
        let uuid = self.new_uuid(Some(this));
        // Step 14. If options's signal exists, then:
        if let Some(signal) = signal {
            // Step 14.1. Let signal be options's signal.
            // Step 14.2. If signal is aborted, then return a promise rejected with signal's abort reason.
            if self.world.signals[signal].aborted {
                // The promise made in step 10 is dropped, as the spec does.
                self.promise_labels.remove(&promise);
                let reason = self.world.signals[signal].reason.clone();
                return self.rejected_promise(this, a, as_, reason, (a, "14.2"));
            }
            // Step 14.3. Let traversable be targetDocument's node navigable's traversable navigable.
            let traversable = self.node_navigables_traversable(target_document, "targetDocument", (a, "14.3"));
            // Step 14.4. Add the following abort steps to signal: …
            self.world.add_abort_algorithm(signal, Work::AbortExecution { promise, signal, traversable, uuid });
            self.note((a, "14.4"), "abort steps added to the signal");
        }
        // Step 15. Run the following steps in parallel: …
        self.in_parallel(
            Work::ExecuteToolInParallel {
                caller: caller_document,
                target: target_document,
                expected_target_origin,
                tool_name: tool.name,
                input_arguments,
                promise,
                uuid,
            },
            (a, "15"),
        );
        // Step 16. Return promise.
        promise
    }

    /// Abort steps added by executeTool step 14.4.
    pub fn execute_tool_abort_steps(&mut self, promise: PromiseId, signal: SignalId, traversable: NavId, uuid: Uuid) {
        // Step 14.4.1. Reject promise with signal's abort reason.
        let reason = self.world.signals[signal].reason.clone();
        self.settle(promise, Err(reason), (EXECUTE_TOOL, "14.4.1"));
        // Step 14.4.2. In parallel, cancel a pending tool execution given traversable and uuid.
        self.in_parallel(Work::CancelInParallel { traversable, uuid }, (EXECUTE_TOOL, "14.4.2"));
    }

    /// executeTool step 15, the in-parallel steps.
    #[allow(clippy::too_many_arguments)]
    pub fn execute_tool_in_parallel(
        &mut self,
        caller_document: DocId,
        target_document: DocId,
        expected_target_origin: &Origin,
        tool_name: Rc<str>,
        input_arguments: String,
        promise: PromiseId,
        uuid: Uuid,
    ) {
        let a = EXECUTE_TOOL;
        let reject_unknown = |sim: &mut Self, step: &'static str| {
            sim.queue_global_task(
                TaskSource::WebMcp,
                caller_document,
                Work::SettlePromise { promise, result: Err(JsValue::dom_exception("UnknownError")), step: (a, step) },
                (a, step),
            );
        };
        // Step 15.1. If targetDocument's node navigable's traversable navigable is not callerDocument's node navigable's traversable navigable, then queue a global task … to reject promise with an "UnknownError" DOMException, and abort these steps.
        let target_traversable = self.node_navigables_traversable(target_document, "targetDocument", (a, "15.1"));
        let caller_traversable = self.node_navigables_traversable(caller_document, "callerDocument", (a, "15.1"));
        if target_traversable != caller_traversable {
            if self.program.has_variant(Variant::CrossTraversableExecution) {
                self.note(
                    (a, "15.1"),
                    "variant cross-traversable-execution (issue #227): different traversables allowed",
                );
            } else {
                self.note((a, "15.1"), "target is in another traversable");
                return reject_unknown(self, "15.1");
            }
        }
        self.touch_lifecycle_of(target_document);
        // Step 15.2. Let targetOrigin be targetDocument's origin.
        let target_origin = self.world.doc_info(target_document).origin.clone();
        // Step 15.3. Let callerOrigin be callerDocument's origin.
        let caller_origin = self.world.doc_info(caller_document).origin.clone();
        // Step 15.4. If targetOrigin is not same origin with expectedTargetOrigin, then queue a global task … to reject promise with an "UnknownError" DOMException, and abort these steps.
        if !target_origin.same_origin(expected_target_origin) {
            note!(
                self,
                (a, "15.4"),
                "target origin {} is not the expected {}",
                target_origin.serialize(),
                expected_target_origin.serialize()
            );
            return reject_unknown(self, "15.4");
        }
        // Step 15.5. Let targetToolMap be targetDocument's associated ModelContext's internal context's tool map.
        // Step 15.6. Let toolName be tool's name.
        // Step 15.7. If targetToolMap[toolName] does not exist, then queue a global task … to reject promise with an "UnknownError" DOMException, and abort these steps.
        self.touch_tool_map(target_document, false);
        let model_context = self.model_contexts[target_document.index()].clone();
        let Some(tool_definition) = model_context.tool(&tool_name) else {
            note!(self, (a, "15.7"), "{} has no tool {tool_name:?}", self.label(target_document));
            return reject_unknown(self, "15.7");
        };
        // Step 15.8. Let tool definition be targetToolMap[toolName].
        // Step 15.9. If tool is exposed to an origin given targetOrigin, tool definition's exposed origins, and callerOrigin returns false, then queue a global task … to reject promise with an "UnknownError" DOMException, and abort these steps.
        if !self.tool_is_exposed_to_an_origin(&target_origin, &tool_definition.exposed_origins, &caller_origin) {
            self.note((a, "15.9"), "tool is not exposed to the caller's origin");
            return reject_unknown(self, "15.9");
        }
        if self.program.has_variant(Variant::InputSchemaValidation) {
            // Variant (issues #92, #289): "validate inputArguments against tool definition's input
            // schema; if it is not valid, queue a global task … to reject promise with a
            // "DataError" DOMException, and abort these steps."
            if let Err(why) = validate_input_against_input_schema(&tool_definition.input_schema, &input_arguments) {
                note!(self, (a, "15.9"), "variant input-schema-validation (issues #92, #289): {why}");
                self.queue_global_task(
                    TaskSource::WebMcp,
                    caller_document,
                    Work::SettlePromise {
                        promise,
                        result: Err(JsValue::dom_exception("DataError")),
                        step: (a, "15.9"),
                    },
                    (a, "15.9"),
                );
                return;
            }
            self.note((a, "15.9"), "variant input-schema-validation (issues #92, #289): input is valid");
        }
        // Step 15.10. Let completionSteps be an algorithm … (CompletionSteps::ExecuteTool).
        let completion_steps =
            CompletionSteps::ExecuteTool { target: target_document, caller: caller_document, promise, uuid };
        // Step 15.11. Let execution be a new pending tool execution …
        let execution = PendingToolExecution {
            caller_document: Caller::Document(caller_document),
            target_document,
            tool_name: tool_name.clone(),
            completion_steps,
        };
        if self.program.has_variant(Variant::CancelledExecutions) {
            // Variant (finding 5's fix): "If targetDocument's node navigable's traversable
            // navigable's cancelled executions set contains uuid, then remove it from the set and
            // abort these steps" (14.4.1 already rejected promise).
            let traversable = self.world.traversable_of(target_document);
            self.footprint.touch(crate::sim::Resource::Pending(traversable), false);
            let at = self.seldom.cancelled_executions.iter().position(|&e| e == (traversable, uuid));
            if let Some(at) = at {
                self.footprint.touch(crate::sim::Resource::Pending(traversable), true);
                self.seldom.cancelled_executions.remove(at);
                let msg = format!(
                    "variant cancelled-executions (finding 5): {} is in the cancelled executions set: removed, abort these steps",
                    self.uuid_label(uuid)
                );
                self.note((a, "15.12"), msg);
                return;
            }
        }
        if self.program.has_variant(Variant::ExecuteChecksTargetFullyActive) {
            // Variant (finding 3's fix): "If targetDocument is not fully active, then queue a
            // global task … to reject promise with an "UnknownError" DOMException, and abort these steps."
            if !self.world.is_fully_active(target_document) {
                let msg = format!(
                    "variant execute-checks-target-fully-active (finding 3): {} is not fully active",
                    self.label(target_document)
                );
                self.note((a, "15.12"), msg);
                return reject_unknown(self, "15.12");
            }
        }
        if self.program.has_variant(Variant::ExecuteChecksCallerFullyActive) {
            // Variant (finding P1's fix): "If callerDocument is not fully active, then abort these
            // steps" (nobody is left to settle promise for).
            self.touch_lifecycle_of(caller_document);
            if !self.world.is_fully_active(caller_document) {
                let msg = format!(
                    "variant execute-checks-caller-fully-active (finding P1): {} is not fully active: abort these steps",
                    self.label(caller_document)
                );
                self.note((a, "15.12"), msg);
                return;
            }
        }
        // Step 15.12. Set targetDocument's node navigable's traversable navigable's pending tool executions map[uuid] to execution.
        let traversable = self.node_navigables_traversable(target_document, "targetDocument", (a, "15.12"));
        self.set_pending_execution(traversable, uuid, execution);
        note!(self, (a, "15.12"), "pending tool executions map[{}] set", self.uuid_label(uuid));
        // Step 15.13. Queue a global task on the webmcp task source given targetWindow to run the tool execute steps given toolName, targetDocument, inputArguments, completionSteps, and uuid.
        match self.world.doc(target_document).state {
            browser::DocumentState::Destroyed => {
                let msg = format!("{} is destroyed: the task will never run", self.label(target_document));
                self.note((a, "15.13"), msg);
            }
            _ if !self.world.is_fully_active(target_document) => {
                let msg = format!(
                    "{} is not fully active: the task waits until it is (the spec's bfcache note)",
                    self.label(target_document)
                );
                self.note((a, "15.13"), msg);
            }
            _ => {}
        }
        let inert = self.queue_global_task(
            TaskSource::WebMcp,
            target_document,
            Work::ToolExecuteSteps {
                tool_name,
                target: target_document,
                input_arguments,
                completion: completion_steps,
                uuid,
            },
            (a, "15.13"),
        );
        if inert {
            // An inert execution: this block commutes with every unit (`Footprint::mark_private`).
            self.footprint.mark_private();
        }
    }

    /// A traversable's pending tool executions map, to change.
    pub fn pending_map(&mut self, traversable: NavId) -> &mut Vec<(Uuid, PendingToolExecution)> {
        self.footprint.touch(crate::sim::Resource::Pending(traversable), true);
        self.pending_tool_executions.entry(traversable).or_default()
    }

    /// A traversable's pending tool executions map, to read: not copied when another state shares
    /// it, and noted as a read (two units that only read a map commute).
    pub fn pending_executions(&mut self, traversable: NavId) -> &[(Uuid, PendingToolExecution)] {
        self.footprint.touch(crate::sim::Resource::Pending(traversable), false);
        self.pending_tool_executions.get(&traversable).map_or(&[], Vec::as_slice)
    }

    /// Sets a traversable's pending tool executions map[uuid] (a new entry: uuids are unique).
    /// Where the map is kept in uuid order (`Sim::pending_keyed`), the entry goes to its place and
    /// only the entry is noted as written.
    pub fn set_pending_execution(&mut self, traversable: NavId, uuid: Uuid, execution: PendingToolExecution) {
        if !self.pending_keyed {
            self.pending_map(traversable).push((uuid, execution));
            return;
        }
        self.footprint.touch(crate::sim::Resource::PendingEntry(traversable, uuid), true);
        let map = self.pending_tool_executions.entry(traversable).or_default();
        let at = map.partition_point(|(u, _)| *u < uuid);
        map.insert(at, (uuid, execution));
    }

    /// Removes a traversable's pending tool executions map[uuid]; None if it does not exist (then
    /// the map is not copied).
    fn remove_pending_execution(&mut self, traversable: NavId, uuid: Uuid) -> Option<PendingToolExecution> {
        if self.pending_keyed {
            self.footprint.touch(crate::sim::Resource::PendingEntry(traversable, uuid), true);
            let map = self.pending_tool_executions.get(&traversable)?;
            let at = map.binary_search_by(|(u, _)| u.cmp(&uuid)).ok()?;
            return Some(self.pending_tool_executions.entry(traversable).or_default().remove(at).1);
        }
        let pos = self.pending_executions(traversable).iter().position(|(u, _)| *u == uuid)?;
        Some(self.pending_map(traversable).remove(pos).1)
    }

    /// Runs an execution's completion steps, where the spec says to run them.
    pub fn run_completion_steps(
        &mut self,
        completion: CompletionSteps,
        result: Option<String>,
        success: bool,
        step: (&'static str, &'static str),
    ) {
        match (&result, success) {
            (Some(r), true) => note!(self, step, "run completionSteps given {r:?} and true"),
            _ => self.note(step, "run completionSteps given null and false"),
        }
        if self.context != Context::InParallel && self.program.has_variant(Variant::CompletionStepsInParallel) {
            self.note(step, "variant completion-steps-in-parallel: completionSteps run in a new in-parallel block");
            self.in_parallel(Work::CompletionInParallel { completion, result, success, from: step }, step);
            return;
        }
        // `step` is the completion steps' call site (for findings).
        self.invoked_from(step, |sim| sim.completion_steps(completion, result, success));
    }

    /// The completion steps themselves, run where the caller is.
    fn completion_steps(&mut self, completion: CompletionSteps, result: Option<String>, success: bool) {
        match completion {
            CompletionSteps::ExecuteTool { target, caller, promise, uuid } => {
                self.execute_tool_completion_steps(target, caller, promise, uuid, result, success)
            }
            CompletionSteps::Agent { target, call, uuid } => {
                self.agent_completion_steps(target, call, uuid, result, success)
            }
        }
    }

    /// executeTool step 15.10: completionSteps.
    pub fn execute_tool_completion_steps(
        &mut self,
        target: DocId,
        caller: DocId,
        promise: PromiseId,
        uuid: Uuid,
        result: Option<String>,
        success: bool,
    ) {
        let a = EXECUTE_TOOL;
        // Step 15.10.1. Assert: these steps are running in parallel.
        self.assert_in_parallel((a, "15.10.1"));
        // Step 15.10.2. If targetDocument's node navigable's traversable navigable's pending tool executions map[uuid] does not exist, then return.
        // Step 15.10.3. Remove targetDocument's node navigable's traversable navigable's pending tool executions map[uuid].
        // (Both steps read the same node navigable; a null one is reported once, at 15.10.2.)
        let traversable = self.node_navigables_traversable(target, "targetDocument", (a, "15.10.2"));
        if self.remove_pending_execution(traversable, uuid).is_none() {
            note!(
                self,
                (a, "15.10.2"),
                "pending tool executions map[{}] does not exist: return",
                self.uuid_label(uuid)
            );
            return;
        }
        note!(self, (a, "15.10.3"), "pending tool executions map[{}] removed", self.uuid_label(uuid));
        if success {
            // Step 15.10.4. If success is true, then queue a global task … to resolve promise with result.
            let value = JsValue::string(result.unwrap_or_default());
            self.queue_global_task(
                TaskSource::WebMcp,
                caller,
                Work::SettlePromise { promise, result: Ok(value), step: (a, "15.10.4") },
                (a, "15.10.4"),
            );
        } else {
            // Step 15.10.5. Otherwise, queue a global task … to reject promise with an "UnknownError" DOMException.
            self.queue_global_task(
                TaskSource::WebMcp,
                caller,
                Work::SettlePromise {
                    promise,
                    result: Err(JsValue::dom_exception("UnknownError")),
                    step: (a, "15.10.5"),
                },
                (a, "15.10.5"),
            );
        }
    }

    /// <https://webmachinelearning.github.io/webmcp/#tool-execute-steps>
    pub fn tool_execute_steps(
        &mut self,
        tool_name: &str,
        target_document: DocId,
        input_arguments: &str,
        completion_steps: CompletionSteps,
        uuid: Uuid,
    ) {
        let a = TOOL_EXECUTE_STEPS;
        // Step 1. Assert: these steps are running on targetDocument's relevant agent's event loop.
        self.assert_on_event_loop_of(target_document, (a, "1"));
        // Step 2. Let toolMap be targetDocument's associated ModelContext's internal context's tool map.
        // Step 3. If toolMap[toolName] does not exist, then run completionSteps given null and false, and abort these steps.
        let Some(execute) = self.model_contexts[target_document.index()].tool(tool_name).map(|t| t.execute) else {
            note!(self, (a, "3"), "tool map[{tool_name:?}] does not exist (unregistered since executeTool 15.7)");
            return self.run_completion_steps(completion_steps, None, false, (a, "3"));
        };
        // Step 4. Let tool be toolMap[toolName].
        // Step 5. Run tool's execute steps given targetDocument, inputArguments, completionSteps, and uuid.
        self.imperative_execute_steps(execute, target_document, input_arguments, completion_steps, uuid);
    }

    /// <https://webmachinelearning.github.io/webmcp/#imperative-execute-steps>
    pub fn imperative_execute_steps(
        &mut self,
        tool: ToolDictId,
        target_document: DocId,
        input_arguments: &str,
        completion_steps: CompletionSteps,
        uuid: Uuid,
    ) {
        let a = IMPERATIVE;
        // Step 1. Assert: these steps are running on targetDocument's relevant agent's event loop.
        self.assert_on_event_loop_of(target_document, (a, "1"));
        // Step 2. Let inputObject be the result of parse a JSON string to a JavaScript value given inputArguments and targetDocument's relevant realm. If exception was thrown, then run completionSteps given null and false, and abort these steps.
        let input_object = match parse_a_json_string_to_a_javascript_value(input_arguments) {
            Ok(v) => v,
            Err(_) => {
                note!(self, (a, "2"), "inputArguments {input_arguments:?} is not JSON");
                return self.run_completion_steps(completion_steps, None, false, (a, "2"));
            }
        };
        // Step 3. If inputObject is not an Object is false, then run completionSteps given null and false, and abort these steps.
        // (Read as "if inputObject is not an Object"; see docs/model.md.)
        if !input_object.is_object() {
            self.interpretation(
                (a, "3"),
                "\"If inputObject is not an Object is false\" read as \"if inputObject is not an Object\"",
            );
            return self.run_completion_steps(completion_steps, None, false, (a, "3"));
        }
        // Step 4. Let controller be a new AbortController created in targetDocument's relevant realm.
        let mut name = String::from("execution ");
        self.push_uuid_label(&mut name, uuid);
        let controller = self.new_abort_controller_in(target_document, Some(name));
        // Step 5. Let localExecution be a new local pending tool execution with the following items: abort controller: controller.
        // Step 6. Set targetDocument's associated ModelContext's internal context's local pending tool executions map[uuid] to localExecution.
        // Kept in uuid order: the map is only ever looked up by uuid, so two executions that set
        // their entries in either order leave one map.
        let map = &mut self.model_contexts[target_document.index()].local_pending_tool_executions;
        let at = map.partition_point(|(u, _)| *u < uuid);
        map.insert(at, (uuid, controller));
        note!(self, (a, "6"), "local pending tool executions map[{}] set", self.uuid_label(uuid));
        // Step 7. Let options be a new ToolExecuteCallbackOptions dictionary, with signal: controller's signal.
        if self.program.has_variant(Variant::ToolEvents) {
            self.fire_tool_event(target_document, crate::program::ToolEvent::Activated, (a, "8"));
        }
        // Step 8. Let toolPromise be the result of invoking tool's execute with inputObject and options.
        let tool_promise = self.invoke_execute_callback(tool, target_document, controller, input_arguments);
        // Step 9. React to toolPromise: …
        self.world.react(
            tool_promise,
            Work::ReactToToolPromise { target: target_document, tool_promise, completion: completion_steps, uuid },
        );
    }

    /// WebIDL "invoke a callback function" for the tool's `execute`: runs the scenario's `do`
    /// statements, wires `onAbort`, and returns the callback's promise.
    fn invoke_execute_callback(
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
        if let Err(e) = self.run_ops(doc, dict.execute_body) {
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
            // Inside an inert tool execution (`crate::inert`; only `after` 0 ms qualifies): the
            // timer is due at once (HTML "run steps after a timeout" queues its task on the timer
            // task source now), and its task is inert too, so it runs after this one. The
            // document's timer count is not advanced: it only orders timers of one deadline,
            // which it still does (docs/model.md).
            Settle::After(0, then) if self.running_inert_tasks() => {
                self.note(("HTML", "setTimeout"), "the tool settles after 0 ms");
                let work = Work::SettleLater { promise: tool_promise, settle: (**then).clone() };
                self.run_inert_task(doc, work);
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

    /// The imperative execute steps, step 9: the reaction to toolPromise.
    pub fn react_to_tool_promise(
        &mut self,
        target_document: DocId,
        tool_promise: PromiseId,
        completion_steps: CompletionSteps,
        uuid: Uuid,
    ) {
        let a = IMPERATIVE;
        // The promise is shared, not copied: the reaction only reads its state.
        let promise = self.world.promises[tool_promise].clone();
        let local = |sim: &mut Self| {
            let map = &mut sim.model_contexts[target_document.index()].local_pending_tool_executions;
            let pos = map.iter().position(|(u, _)| *u == uuid);
            pos.map(|p| map.remove(p))
        };
        match &promise.state {
            PromiseState::Fulfilled(v) => {
                // Step 9.1.1. Let localExecutions be targetDocument's … local pending tool executions map.
                // Step 9.1.2. If localExecutions[uuid] does not exist, then return.
                // Step 9.1.3. Remove localExecutions[uuid].
                if local(self).is_none() {
                    note!(
                        self,
                        (a, "9.1.2"),
                        "local pending tool executions map[{}] does not exist (cancelled): return",
                        self.uuid_label(uuid)
                    );
                    return;
                }
                // Step 9.1.4. Let serializedResult be the result of serializing a JavaScript value to a JSON string given v. If this throws an exception, run completionSteps given null and false, and abort these steps.
                if matches!(v, JsValue::Undefined) && self.program.has_variant(Variant::UndefinedResultIsNull) {
                    // Variant undefined-result-is-null (finding 6): "If v is undefined, let serializedResult be "null"".
                    self.note(
                        (a, "9.1.4"),
                        "variant undefined-result-is-null (finding 6): undefined serializes as \"null\"",
                    );
                    return self.run_completion_steps(completion_steps, Some("null".into()), true, (a, "9.1.5"));
                }
                // Deviation (chromium profile): Chromium 156 gives the caller the string
                // `undefined` for a result of undefined, where serializing it throws; docs/chromium.md.
                if matches!(v, JsValue::Undefined) && self.program.has_variant(Variant::ChromiumUndefinedResultString) {
                    self.note(
                        (a, "9.1.4"),
                        "variant chromium-undefined-result-string: undefined reaches the caller as the string \"undefined\"",
                    );
                    return self.run_completion_steps(completion_steps, Some("undefined".into()), true, (a, "9.1.5"));
                }
                // Deviation (chromium profile): Chromium 156 passes a string result on raw instead
                // of its JSON serialization (`success`, not `"success"`); docs/chromium.md.
                if let (true, JsValue::String(raw)) = (self.program.has_variant(Variant::ChromiumRawStringResult), v) {
                    let raw = raw.to_string();
                    self.note((a, "9.1.4"), "variant chromium-raw-string-result: the string result is not serialized");
                    self.run_completion_steps(completion_steps, Some(raw), true, (a, "9.1.5"));
                    return;
                }
                match serialize_a_javascript_value_to_a_json_string(v) {
                    Err(e) => {
                        note!(self, (a, "9.1.4"), "result {v} does not serialize: {e}");
                        self.run_completion_steps(completion_steps, None, false, (a, "9.1.4"));
                    }
                    // Step 9.1.5. Run completionSteps given serializedResult and true.
                    Ok(s) => self.run_completion_steps(completion_steps, Some(s), true, (a, "9.1.5")),
                }
            }
            PromiseState::Rejected(r) => {
                // Step 9.2.1. Optionally report a warning to the console describing r.
                note!(self, (a, "9.2.1"), "tool promise rejected with {r}");
                // Step 9.2.2–9.2.4. Let localExecutions be …; if localExecutions[uuid] does not exist, then return; remove it.
                if local(self).is_none() {
                    note!(
                        self,
                        (a, "9.2.3"),
                        "local pending tool executions map[{}] does not exist (cancelled): return",
                        self.uuid_label(uuid)
                    );
                    return;
                }
                // Step 9.2.5. Run completionSteps given null and false.
                self.run_completion_steps(completion_steps, None, false, (a, "9.2.5"));
            }
            PromiseState::Pending => {
                self.spec_assert(false, (a, "9"), "a reaction runs only once toolPromise is settled")
            }
        }
    }

    /// <https://webmachinelearning.github.io/webmcp/#cancel-a-pending-tool-execution>
    pub fn cancel_a_pending_tool_execution(&mut self, traversable: NavId, uuid: Uuid) {
        let a = CANCEL;
        // Step 1. Assert: these steps are running in parallel.
        self.assert_in_parallel((a, "1"));
        // Step 2. If traversable's pending tool executions map[uuid] does not exist, then return.
        // Step 3. Let execution be traversable's pending tool executions map[uuid].
        // Step 4. Remove traversable's pending tool executions map[uuid].
        let Some(execution) = self.remove_pending_execution(traversable, uuid) else {
            note!(self, (a, "2"), "pending tool executions map[{}] does not exist: return", self.uuid_label(uuid));
            if self.program.has_variant(Variant::CancelledExecutions) {
                // Variant (finding 5's fix): "If traversable's pending tool executions map[uuid]
                // does not exist, then append uuid to traversable's cancelled executions set and
                // return."
                self.footprint.touch(crate::sim::Resource::Pending(traversable), true);
                self.seldom.cancelled_executions.push((traversable, uuid));
                note!(
                    self,
                    (a, "2"),
                    "variant cancelled-executions (finding 5): {} appended to the cancelled executions set",
                    self.uuid_label(uuid)
                );
            }
            return;
        };
        note!(self, (a, "4"), "pending tool executions map[{}] removed", self.uuid_label(uuid));
        // Step 5. Let targetDocument be execution's target document.
        let target_document = execution.target_document;
        self.touch_lifecycle_of(target_document);
        let alive = self.world.doc(target_document).state != browser::DocumentState::Destroyed;
        if !alive && self.program.has_variant(Variant::CancelToleratesDestroyedTarget) {
            // Variant (finding 2's second fix): the note is dropped and step 6 is skipped for a
            // destroyed target, whose tasks would never run.
            let msg = format!(
                "variant cancel-tolerates-destroyed-target (finding 2): {} was destroyed: return",
                self.label(target_document)
            );
            self.note((a, "5"), msg);
            return;
        }
        self.spec_assert(
            alive,
            (a, "5"),
            "the note after step 5 says targetDocument still exists (is not unloaded or destroyed) here; it was destroyed",
        );
        // Step 6. Queue a global task on the webmcp task source given targetDocument's relevant global object to run the following steps: …
        self.queue_global_task(
            TaskSource::WebMcp,
            target_document,
            Work::CancelLocal { target: target_document, uuid },
            (a, "6"),
        );
    }

    /// cancel a pending tool execution step 6, the task.
    pub fn cancel_local(&mut self, target_document: DocId, uuid: Uuid) {
        let a = CANCEL;
        // Step 6.1. Let localExecutions be targetDocument's … local pending tool executions map.
        let map = &mut self.model_contexts[target_document.index()].local_pending_tool_executions;
        // Step 6.2. If localExecutions[uuid] does not exist, then return.
        let Some(pos) = map.iter().position(|(u, _)| *u == uuid) else {
            note!(
                self,
                (a, "6.2"),
                "local pending tool executions map[{}] does not exist: return",
                self.uuid_label(uuid)
            );
            return;
        };
        // Step 6.3. Let localExecution be localExecutions[uuid].
        // Step 6.4. Remove localExecutions[uuid].
        let (_, controller) = map.remove(pos);
        // Step 6.5. Signal abort on localExecution's abort controller.
        self.note((a, "6.5"), "signal abort on the tool's abort controller");
        self.signal_abort(controller, None, (a, "6.5"));
        // Issue #146: fire "toolcancel" — not in today's text; fired only under the variant.
        if self.program.has_variant(Variant::ToolEvents) {
            self.fire_tool_event(target_document, crate::program::ToolEvent::Cancel, (a, "6.5"));
        }
    }

    /// <https://webmachinelearning.github.io/webmcp/#target-destroyed-cleanup>
    ///
    /// This specification's unloading document cleanup steps, given `document`.
    pub fn unloading_document_cleanup_steps(&mut self, document: DocId) {
        let a = CLEANUP;
        // Step 1. Let traversable be document's node navigable's traversable navigable.
        let traversable = self.node_navigables_traversable(document, "document", (a, "1"));
        // Step 2. Run the following steps in parallel: …
        self.in_parallel(Work::UnloadCleanupInParallel { document, traversable }, (a, "2"));
    }

    /// Unloading document cleanup steps 2, the in-parallel steps.
    pub fn unloading_document_cleanup_in_parallel(&mut self, document: DocId, traversable: NavId) {
        let a = CLEANUP;
        // Step 2.1. Let executionsToRemove be an empty list.
        // Step 2.2. For each uuid → execution of traversable's pending tool executions map: if document is execution's target document or caller document, append uuid.
        let executions_to_remove: Vec<Uuid> = self
            .pending_executions(traversable)
            .iter()
            .filter(|(_, e)| e.target_document == document || e.caller_document == Caller::Document(document))
            .map(|(u, _)| *u)
            .collect();
        if executions_to_remove.is_empty() {
            note!(self, (a, "2.2"), "no pending tool executions involve {}", self.label(document));
        }
        // Step 2.3. For each uuid of executionsToRemove:
        for uuid in executions_to_remove {
            // Step 2.3.1. Let execution be traversable's pending tool executions map[uuid].
            let Some(execution) =
                self.pending_executions(traversable).iter().find(|(u, _)| *u == uuid).map(|(_, e)| e.clone())
            else {
                self.spec_assert(false, (a, "2.3.1"), "traversable's pending tool executions map[uuid] exists");
                continue;
            };
            let is_target = execution.target_document == document;
            let is_caller = execution.caller_document == Caller::Document(document);
            if is_target && !is_caller {
                // Step 2.3.2. If document is execution's target document and is not execution's caller document, then run execution's completion steps given null and false.
                note!(
                    self,
                    (a, "2.3.2"),
                    "{} was the target of execution {}",
                    self.label(document),
                    self.uuid_label(uuid)
                );
                self.run_completion_steps(execution.completion_steps, None, false, (a, "2.3.2"));
            } else if is_caller && !is_target {
                // Step 2.3.3. Otherwise, if document is execution's caller document and is not execution's target document, then cancel a pending tool execution given traversable and uuid.
                note!(
                    self,
                    (a, "2.3.3"),
                    "{} was the caller of execution {}",
                    self.label(document),
                    self.uuid_label(uuid)
                );
                self.invoked_from((a, "2.3.3"), |sim| sim.cancel_a_pending_tool_execution(traversable, uuid));
            } else {
                // Step 2.3.4. Otherwise, remove traversable's pending tool executions map[uuid].
                note!(
                    self,
                    (a, "2.3.4"),
                    "{} was both caller and target of execution {}",
                    self.label(document),
                    self.uuid_label(uuid)
                );
                let map = self.pending_map(traversable);
                map.retain(|(u, _)| *u != uuid);
            }
            // Step 2.3.5. Assert: traversable's pending tool executions map[uuid] does not exist.
            let gone = !self.pending_executions(traversable).iter().any(|(u, _)| *u == uuid);
            self.spec_assert(gone, (a, "2.3.5"), "traversable's pending tool executions map[uuid] does not exist");
        }
    }

    /// DOM "signal abort" on a controller's signal: run its abort algorithms, then fire `abort`.
    pub fn signal_abort(&mut self, signal: SignalId, reason: Option<JsValue>, step: (&'static str, &'static str)) {
        let Some((algorithms, listeners)) = self.world.signal_abort(signal, reason) else {
            self.note(("DOM", "signal abort 1"), "signal is already aborted: return");
            return;
        };
        for algorithm in algorithms {
            self.run_work_unchecked(algorithm);
        }
        let name = self.world.signals[signal].name.clone().unwrap_or_else(|| "signal".into());
        self.event(
            step,
            EventKind::Fired {
                event: "abort".into(),
                target: format!("{name}.signal"),
                handled: !listeners.is_empty(),
            },
        );
        for listener in listeners {
            self.run_work_unchecked(listener);
        }
    }
}

/// Runs an execution's completion steps for an agent caller: the result goes back to the agent.
impl Sim<'_> {
    pub fn agent_completion_steps(
        &mut self,
        target: DocId,
        call: u32,
        uuid: Uuid,
        result: Option<String>,
        success: bool,
    ) {
        let a = AGENT_CALL;
        self.assert_in_parallel((a, "completion 1"));
        let traversable = self.world.traversable_of(target);
        if self.remove_pending_execution(traversable, uuid).is_none() {
            note!(
                self,
                (a, "completion 2"),
                "pending tool executions map[{}] does not exist: return",
                self.uuid_label(uuid)
            );
            return;
        }
        self.world.enqueue_on_agent_queue(Work::AgentResult { call, result, success });
        self.note((a, "completion 4"), "result enqueued on the AI agent queue");
    }

    /// Dispatches `Work` that is not a whole unit (abort algorithms, listeners): errors are impossible here.
    /// Its call site is the work's own (`invoked_at`), as when it runs as a unit, so an inert
    /// task run when queued reports the same findings as when it runs later.
    pub fn run_work_unchecked(&mut self, work: Work) {
        let outer = self.call_site;
        self.call_site = self.invoked_at(&work);
        if let Err(e) = self.run_work(work) {
            note!(self, ("webmcp-sim", "internal"), "{e}");
        }
        self.call_site = outer;
    }

    pub fn run_work(&mut self, work: Work) -> Result<(), RunError> {
        match work {
            Work::RunScript { doc, script } | Work::Timer { doc, script } => self.run_script(doc, script),
            Work::SettleLater { promise, settle } => {
                let doc = promise.realm;
                // After a timer, `rejectOnAbort` waits on a new signal that nothing aborts (the
                // execution's own is not at hand): the promise never settles. Made only then.
                let dummy = matches!(settle, Settle::RejectOnAbort).then(|| self.new_abort_controller_in(doc, None));
                self.settle_tool_promise(promise, &settle, doc, dummy);
            }
            Work::Then { doc, promise, on_fulfilled, on_rejected } => {
                let fulfilled = matches!(self.world.promises[promise].state, PromiseState::Fulfilled(_));
                self.run_callback(doc, if fulfilled { on_fulfilled } else { on_rejected }, "promise reaction");
            }
            Work::SettlePromise { promise, result, step } => self.settle(promise, result, step),
            Work::RegisterToolInParallel { tool_owner, exposed_origins, promise } => {
                self.register_tool_in_parallel(tool_owner, &exposed_origins, promise)
            }
            Work::NotifyInParallel { tool_owner, exposed_origins } => {
                self.notify_documents_of_a_tool_change(tool_owner, &exposed_origins)
            }
            Work::FireToolchange { doc } => self.fire_toolchange(doc),
            Work::GetToolsInParallel { requestor, from_origins, promise } => {
                self.get_tools_in_parallel(requestor, &from_origins, promise)
            }
            Work::ExecuteToolInParallel {
                caller,
                target,
                expected_target_origin,
                tool_name,
                input_arguments,
                promise,
                uuid,
            } => self.execute_tool_in_parallel(
                caller,
                target,
                &expected_target_origin,
                tool_name,
                input_arguments,
                promise,
                uuid,
            ),
            Work::ToolExecuteSteps { tool_name, target, input_arguments, completion, uuid } => {
                self.tool_execute_steps(&tool_name, target, &input_arguments, completion, uuid)
            }
            Work::ReactToToolPromise { target, tool_promise, completion, uuid } => {
                self.react_to_tool_promise(target, tool_promise, completion, uuid)
            }
            // The block's call site is the step that started it (`from`), set with the unit.
            Work::CompletionInParallel { completion, result, success, from: _ } => {
                let step = ("webmcp-sim", "variant completion-steps-in-parallel");
                match (&result, success) {
                    (Some(r), true) => note!(self, step, "run completionSteps given {r:?} and true"),
                    _ => self.note(step, "run completionSteps given null and false"),
                }
                self.completion_steps(completion, result, success)
            }
            Work::CancelInParallel { traversable, uuid } => self.cancel_a_pending_tool_execution(traversable, uuid),
            Work::CancelLocal { target, uuid } => self.cancel_local(target, uuid),
            Work::UnloadCleanupInParallel { document, traversable } => {
                self.unloading_document_cleanup_in_parallel(document, traversable)
            }
            Work::AbortUnregister { model_context, tool_name, promise, signal } => {
                self.register_tool_abort_steps(model_context, &tool_name, promise, signal)
            }
            Work::AbortExecution { promise, signal, traversable, uuid } => {
                self.execute_tool_abort_steps(promise, signal, traversable, uuid)
            }
            Work::AbortRejectsToolPromise { promise, signal } => {
                let reason = self.world.signals[signal].reason.clone();
                self.settle(promise, Err(reason), ("tool", "execute: reject with signal.reason"));
            }
            Work::AbortListener { doc, script } => self.run_callback(doc, script, "abort listener"),
            Work::LogAbortReason { doc, signal } => {
                let reason = self.world.signals[signal].reason.clone();
                let mut text = String::from("signal aborted: ");
                match reason.error_name() {
                    Some(name) => text.push_str(name),
                    None => self.render_into(&mut text, &reason),
                }
                let line = trace::ConsoleLine { document: self.label(doc), text };
                self.console_line(("console", "log"), line, false);
            }
            Work::CompleteNavigation { navigation } => {
                let program = self.program;
                self.navigate(&program.navigations[navigation.0 as usize])?
            }
            Work::User { script, index } => self.run_user_step(script, index)?,
            Work::Agent { index } => self.run_agent_step(index)?,
            Work::AgentResult { call, result, success } => {
                let label = self
                    .seldom
                    .agent_call_labels
                    .get(call as usize)
                    .cloned()
                    .unwrap_or_else(|| format!("call #{call}"));
                let text = match (&result, success) {
                    (Some(r), true) => format!("{label} succeeded: {r}"),
                    _ => format!("{label} failed"),
                };
                self.note((AGENT_CALL, "result"), text.clone());
                self.seldom.agent_results.push(text);
            }
        }
        Ok(())
    }

    /// What a piece of work is, for the trace's unit line.
    pub fn describe(&self, work: &Work) -> (String, (&'static str, &'static str)) {
        match work {
            Work::RunScript { .. } => ("run the document's script".into(), ("HTML", "run a classic script")),
            Work::Timer { .. } => ("run a setTimeout callback".into(), ("HTML", "timer initialization steps")),
            Work::SettleLater { .. } => {
                ("the tool's timer settles its promise".into(), ("HTML", "timer initialization steps"))
            }
            Work::Then { .. } => ("promise reaction".into(), ("ECMAScript", "PromiseReactionJob")),
            Work::SettlePromise { promise, result, step } => {
                let verb = if result.is_ok() { "resolve" } else { "reject" };
                (format!("{verb} {}", self.promise_label(*promise)), *step)
            }
            Work::RegisterToolInParallel { .. } => {
                ("notify documents, then queue the resolve task".into(), (REGISTER_TOOL, "21"))
            }
            Work::NotifyInParallel { .. } => ("notify documents of a tool change".into(), (UNREGISTER, "7")),
            Work::FireToolchange { .. } => ("fire toolchange".into(), (NOTIFY, "3.3")),
            Work::GetToolsInParallel { .. } => ("collect exposed tools".into(), (GET_TOOLS, "9")),
            Work::ExecuteToolInParallel { tool_name, .. } => {
                (format!("route the call to tool {tool_name:?}"), (EXECUTE_TOOL, "15"))
            }
            Work::ToolExecuteSteps { tool_name, completion: CompletionSteps::Agent { .. }, .. } => {
                (format!("tool execute steps for {tool_name:?}"), (AGENT_CALL, "4"))
            }
            Work::ToolExecuteSteps { tool_name, .. } => {
                (format!("tool execute steps for {tool_name:?}"), (EXECUTE_TOOL, "15.13"))
            }
            Work::ReactToToolPromise { .. } => ("react to toolPromise".into(), (IMPERATIVE, "9")),
            Work::CompletionInParallel { .. } => {
                ("completion steps".into(), ("webmcp-sim", "variant completion-steps-in-parallel"))
            }
            Work::CancelInParallel { .. } => ("cancel a pending tool execution".into(), (EXECUTE_TOOL, "14.4.2")),
            Work::CancelLocal { .. } => ("abort the tool's local execution".into(), (CANCEL, "6")),
            Work::UnloadCleanupInParallel { document, .. } => {
                (format!("clean up executions of {}", self.label(*document)), (CLEANUP, "2"))
            }
            Work::AbortUnregister { .. } => ("abort steps: unregister the tool".into(), (REGISTER_TOOL, "18.3")),
            Work::AbortExecution { .. } => ("abort steps: reject and cancel".into(), (EXECUTE_TOOL, "14.4")),
            Work::AbortRejectsToolPromise { .. } => ("the tool rejects on abort".into(), ("tool", "execute")),
            Work::AbortListener { .. } | Work::LogAbortReason { .. } => {
                ("abort event listener".into(), ("DOM", "signal abort 4.3"))
            }
            Work::CompleteNavigation { navigation } => {
                let spec = &self.program.navigations[navigation.0 as usize];
                (
                    format!("navigate {} to {} (started by a script)", spec.navigable, spec.document.url),
                    ("HTML", "navigate"),
                )
            }
            Work::User { script, index } => (self.describe_user_step(*script, *index), ("user", "browser UI")),
            Work::Agent { index } => (self.describe_agent_step(*index), ("browser agent", "AI agent queue")),
            Work::AgentResult { call, .. } => {
                let label = self
                    .seldom
                    .agent_call_labels
                    .get(*call as usize)
                    .cloned()
                    .unwrap_or_else(|| format!("call #{call}"));
                (format!("agent receives the result of {label}"), (AGENT_CALL, "result"))
            }
        }
    }
}

/// Variant `input-schema-validation` (issues #92, #289): validates a serialized input against a
/// tool's stringified input schema (JSON Schema draft 2020-12, with the `jsonschema` crate).
/// `Err` says why the input is rejected. A tool without a schema accepts any input. PR #289's
/// keyword subset (and registerTool's meta-validation) is not modelled: a schema the validator
/// cannot compile validates nothing, and the error says so.
pub fn validate_input_against_input_schema(input_schema: &str, input_arguments: &str) -> Result<(), String> {
    if input_schema.is_empty() {
        return Ok(());
    }
    let (Ok(schema), Ok(input)) = (
        serde_json::from_str::<serde_json::Value>(input_schema),
        serde_json::from_str::<serde_json::Value>(input_arguments),
    ) else {
        return Err("the input or the schema is not JSON".into());
    };
    let validator = match jsonschema::validator_for(&schema) {
        Ok(v) => v,
        Err(e) => {
            return Err(format!(
                "the input schema is not a valid JSON Schema ({e}): not modelled (PR #289 rejects it at registerTool)"
            ))
        }
    };
    let first_error = validator.iter_errors(&input).next().map(|e| e.to_string());
    match first_error {
        None => Ok(()),
        Some(e) => Err(format!("input {input_arguments} does not match the input schema: {e}")),
    }
}
