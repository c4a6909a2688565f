//! executeTool, its in-parallel steps and abort steps, the pending tool executions maps, the
//! completion steps (of a script caller and of the agent), the tool execute steps and the
//! imperative execute steps.

use std::rc::Rc;

use browser::policy::TOOLS;
use browser::value::{parse_a_json_string_to_a_javascript_value, serialize_a_javascript_value_to_a_json_string};
use browser::{DocId, JsValue, NavId, Origin, PromiseId, PromiseState, SignalId, TaskSource};
use scenario::Variant;

use crate::cite::{AGENT_CALL, EXECUTE_TOOL, IMPERATIVE, TOOL_EXECUTE_STEPS};
use crate::footprint::Resource;
use crate::idl::RegisteredToolArg;
use crate::kernel::{Caller, Context, PendingToolExecution, Sim};
use crate::program::PromiseSlot;
use crate::uuid::Uuid;
use crate::work::{CompletionSteps, Work};

use super::parse_origin;

impl Sim<'_> {
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
            // Issue #227 proposes execution "across top-level documents in the same browsing
            // context group": traversables of two groups stay apart under the variant too.
            let one_group = self.world.nav(target_traversable).group == self.world.nav(caller_traversable).group;
            let variant = self.program.has_variant(Variant::CrossTraversableExecution);
            if variant && one_group {
                self.note(
                    (a, "15.1"),
                    "variant cross-traversable-execution (issue #227): different traversables of one browsing context group allowed",
                );
            } else {
                let why = match variant {
                    true => {
                        "target is in another traversable and another browsing context group (variant \
                         cross-traversable-execution, issue #227, allows one group only)"
                    }
                    false => "target is in another traversable",
                };
                self.note((a, "15.1"), why);
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
            self.footprint.touch(Resource::Pending(traversable), false);
            let at = self.seldom.cancelled_executions.iter().position(|&e| e == (traversable, uuid));
            if let Some(at) = at {
                self.footprint.touch(Resource::Pending(traversable), true);
                self.seldom.cancelled_executions.remove(at);
                note!(
                    self,
                    (a, "15.12"),
                    "variant cancelled-executions (finding 5): {} is in the cancelled executions set: removed, abort these steps",
                    self.uuid_label(uuid)
                );
                return;
            }
        }
        if self.program.has_variant(Variant::ExecuteChecksTargetFullyActive) {
            // Variant (finding 3's fix): "If targetDocument is not fully active, then queue a
            // global task … to reject promise with an "UnknownError" DOMException, and abort these steps."
            if !self.world.is_fully_active(target_document) {
                note!(
                    self,
                    (a, "15.12"),
                    "variant execute-checks-target-fully-active (finding 3): {} is not fully active",
                    self.label(target_document)
                );
                return reject_unknown(self, "15.12");
            }
        }
        if self.program.has_variant(Variant::ExecuteChecksCallerFullyActive) {
            // Variant (finding P1's fix): "If callerDocument is not fully active, then abort these
            // steps" (nobody is left to settle promise for).
            self.touch_lifecycle_of(caller_document);
            if !self.world.is_fully_active(caller_document) {
                note!(
                    self,
                    (a, "15.12"),
                    "variant execute-checks-caller-fully-active (finding P1): {} is not fully active: abort these steps",
                    self.label(caller_document)
                );
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
                note!(self, (a, "15.13"), "{} is destroyed: the task will never run", self.label(target_document));
            }
            _ if !self.world.is_fully_active(target_document) => {
                note!(
                    self,
                    (a, "15.13"),
                    "{} is not fully active: the task waits until it is (the spec's bfcache note)",
                    self.label(target_document)
                );
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
        self.footprint.touch(Resource::Pending(traversable), true);
        self.pending_tool_executions.entry(traversable).or_default()
    }

    /// A traversable's pending tool executions map, to read: not copied when another state shares
    /// it, and noted as a read (two units that only read a map commute).
    pub fn pending_executions(&mut self, traversable: NavId) -> &[(Uuid, PendingToolExecution)] {
        self.footprint.touch(Resource::Pending(traversable), false);
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
        self.footprint.touch(Resource::PendingEntry(traversable, uuid), true);
        let map = self.pending_tool_executions.entry(traversable).or_default();
        let at = map.partition_point(|(u, _)| *u < uuid);
        map.insert(at, (uuid, execution));
    }

    /// Removes a traversable's pending tool executions map[uuid]; None if it does not exist (then
    /// the map is not copied).
    pub(crate) fn remove_pending_execution(&mut self, traversable: NavId, uuid: Uuid) -> Option<PendingToolExecution> {
        if self.pending_keyed {
            self.footprint.touch(Resource::PendingEntry(traversable, uuid), true);
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
    pub(crate) fn completion_steps(&mut self, completion: CompletionSteps, result: Option<String>, success: bool) {
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
        tool: crate::callback::ToolExecute,
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
            // The event's toolName: the name tool is registered under in the target's tool map.
            let context = &self.model_contexts[target_document.index()];
            let name = context.tool_map.iter().find(|(_, t)| t.execute == tool).map(|(n, _)| n.clone());
            let name = name.unwrap_or_else(|| "".into());
            self.fire_tool_event(target_document, crate::program::ToolEvent::Activated, &name, (a, "8"));
        }
        // Step 8. Let toolPromise be the result of invoking tool's execute with inputObject and options.
        let tool_promise = self.invoke_execute_callback(tool, target_document, controller, input_arguments);
        // Step 9. React to toolPromise: …
        self.world.react(
            tool_promise,
            Work::ReactToToolPromise { target: target_document, tool_promise, completion: completion_steps, uuid },
        );
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

    pub fn agent_completion_steps(
        &mut self,
        target: DocId,
        call: u32,
        uuid: Uuid,
        result: Option<String>,
        success: bool,
    ) {
        let a = AGENT_CALL;
        // Completion 1, an interpretation rather than an assert: these steps are the simulator's own (the spec has no agent-call
        // algorithm), modelled on executeTool's completionSteps, whose 15.10.1 asserts they run in
        // parallel. Ours run where the tool's steps call them, on the target's event loop, as the
        // spec's own callers run completionSteps (finding 1): an interpretation, never a finding.
        if self.context != Context::InParallel {
            self.interpretation(
                (a, "completion 1"),
                "the agent call's completion steps (the simulator's, modelled on executeTool 15.10) run on the target's event loop, where the tool's steps call them; not a spec assert",
            );
        }
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
