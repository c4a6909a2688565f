//! getTools: collecting the tools exposed to the requestor, and the `RegisteredTool` dictionaries
//! it returns.

use browser::policy::TOOLS;
use browser::value::parse_a_json_string_to_a_javascript_value;
use browser::{DocId, JsValue, Origin, PromiseId, TaskSource};
use scenario::Variant;

use crate::cite::GET_TOOLS;
use crate::kernel::{Sim, ToolDefinition};
use crate::program::PromiseSlot;
use crate::work::Work;

use super::{code_unit_less_than, parse_origin, registered_tool_name};

impl Sim<'_> {
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
    pub(crate) fn registered_tool(
        &mut self,
        def: &ToolDefinition,
        target_document: DocId,
        target_origin: &Origin,
    ) -> JsValue {
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
}
