//! Cancel a pending tool execution, the unloading document cleanup steps, and DOM's signal abort.

use browser::{DocId, JsValue, NavId, SignalId, TaskSource};
use scenario::Variant;
use trace::EventKind;

use crate::cite::{CANCEL, CLEANUP};
use crate::footprint::Resource;
use crate::kernel::{Caller, Sim};
use crate::uuid::Uuid;
use crate::work::Work;

impl Sim<'_> {
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
                self.footprint.touch(Resource::Pending(traversable), true);
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
            note!(
                self,
                (a, "5"),
                "variant cancel-tolerates-destroyed-target (finding 2): {} was destroyed: return",
                self.label(target_document)
            );
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
            Work::CancelLocal { target: target_document, uuid, tool_name: execution.tool_name.clone() },
            (a, "6"),
        );
    }

    /// cancel a pending tool execution step 6, the task.
    pub fn cancel_local(&mut self, target_document: DocId, uuid: Uuid, tool_name: &str) {
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
            self.fire_tool_event(target_document, crate::program::ToolEvent::Cancel, tool_name, (a, "6.5"));
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

    /// The calls of caller `document` in the pending tool executions maps of the other traversables
    /// of its browsing context group, which step 2.2 does not iterate: only the variant
    /// `cross-traversable-execution` (issue #227) lets executeTool 15.12 put one there, and only
    /// within one group. Reads those maps, so it is called only under that variant. Which
    /// traversables exist is read too (`Resource::Documents`, which counts as a write: it
    /// conflicts with every unit that creates a document), so that a window opened meanwhile is
    /// ordered with these steps.
    fn calls_in_other_traversables(&mut self, document: DocId, traversable: NavId) -> Vec<(NavId, Uuid)> {
        self.footprint.touch(Resource::Documents, false);
        let group = self.world.nav(traversable).group;
        let others: Vec<NavId> = (0u32..)
            .map(NavId)
            .take_while(|n| self.world.get_nav_info(*n).is_some())
            .filter(|n| *n != traversable && self.world.nav(*n).traversable == *n && self.world.nav(*n).group == group)
            .collect();
        let mut calls = Vec::new();
        for other in others {
            let caller = Caller::Document(document);
            calls.extend(
                self.pending_executions(other)
                    .iter()
                    .filter(|(_, e)| e.caller_document == caller)
                    .map(|(u, _)| (other, *u)),
            );
        }
        calls
    }

    /// Unloading document cleanup steps 2, the in-parallel steps.
    pub fn unloading_document_cleanup_in_parallel(&mut self, document: DocId, traversable: NavId) {
        let a = CLEANUP;
        // Step 2.1. Let executionsToRemove be an empty list.
        // Step 2.2. For each uuid → execution of traversable's pending tool executions map: if document is execution's target document or caller document, append uuid.
        let mut executions_to_remove: Vec<(NavId, Uuid)> = self
            .pending_executions(traversable)
            .iter()
            .filter(|(_, e)| e.target_document == document || e.caller_document == Caller::Document(document))
            .map(|(u, _)| (traversable, *u))
            .collect();
        if executions_to_remove.is_empty() {
            note!(self, (a, "2.2"), "no pending tool executions involve {}", self.label(document));
        }
        if self.program.has_variant(Variant::CrossTraversableExecution) {
            let fixed = self.program.has_variant(Variant::CleanupIteratesEveryTraversable);
            for (other, uuid) in self.calls_in_other_traversables(document, traversable) {
                let name = self.world.nav(other).name.clone();
                let (uuid_label, caller) = (self.uuid_label(uuid), self.label(document));
                if fixed {
                    note!(
                        self,
                        (a, "2.2"),
                        "variant cleanup-iterates-every-traversable (finding 13): traversable {name}'s map holds \
                         {uuid_label} for caller {caller}; appended"
                    );
                    executions_to_remove.push((other, uuid));
                } else {
                    note!(
                        self,
                        (a, "2.2"),
                        "variant cross-traversable-execution (issue #227): traversable {name}'s map holds \
                         {uuid_label} for caller {caller}, which these steps do not iterate, so the call is not \
                         cancelled (docs/findings.md finding 13)"
                    );
                }
            }
        }
        // Step 2.3. For each uuid of executionsToRemove (with the variant above, each in the map it
        // was found in; otherwise always traversable's):
        for (traversable, uuid) in executions_to_remove {
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

    /// DOM "signal abort" on a controller's signal (steps 1–2 and 3–4 in `World`): run its abort
    /// steps, then those of the dependent signals it aborted (`AbortSignal.any`).
    pub fn signal_abort(&mut self, signal: SignalId, reason: Option<JsValue>, step: (&'static str, &'static str)) {
        let Some((algorithms, listeners)) = self.world.signal_abort(signal, reason) else {
            self.note(("DOM", "signal abort 1"), "signal is already aborted: return");
            return;
        };
        let dependents = self.world.abort_dependent_signals(signal);
        // Step 5. Run the abort steps for signal.
        self.run_the_abort_steps(signal, algorithms, listeners, step);
        // Step 6. For each dependentSignal of dependentSignalsToAbort, run the abort steps for dependentSignal.
        for (dependent, algorithms, listeners) in dependents {
            self.run_the_abort_steps(dependent, algorithms, listeners, ("DOM", "signal abort 6"));
        }
    }

    /// DOM "run the abort steps": 1. For each algorithm of signal's abort algorithms: run
    /// algorithm. 2. Empty signal's abort algorithms (done by `World`). 3. Fire an event named
    /// abort at signal.
    fn run_the_abort_steps(
        &mut self,
        signal: SignalId,
        algorithms: Vec<Work>,
        listeners: Vec<Work>,
        step: (&'static str, &'static str),
    ) {
        for algorithm in algorithms {
            self.run_work_unchecked(algorithm);
        }
        if self.record {
            // The event's target is named only for the trace (not while exploring).
            let name = self.world.signals[signal].name.clone().unwrap_or_else(|| "signal".into());
            self.event(
                step,
                EventKind::Fired {
                    event: "abort".into(),
                    target: format!("{name}.signal"),
                    handled: !listeners.is_empty(),
                },
            );
        }
        for listener in listeners {
            self.run_work_unchecked(listener);
        }
    }
}
