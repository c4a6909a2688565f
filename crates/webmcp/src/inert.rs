//! Inert tasks: the event-driven part of the reduction.
//!
//! Two posts to one FIFO task queue do not commute in general: their order is the order the
//! tasks run in. But many tasks the WebMCP algorithms queue are *inert*: running them commutes
//! with every unit that can ever run, and nothing can stop them from running:
//!
//! - "fire `toolchange`" (notify documents of a tool change 3.3) at a document that has no
//!   `ontoolchange` handler and that no script of the scenario can give one;
//! - "resolve or reject a promise" (registerTool 21.2, getTools 9.5, executeTool 15) for a
//!   promise that has no reactions, that no script reads (unnamed, or named but never used by
//!   `then` or `fromGetTools`), and that no abort algorithm can settle (its call had no signal,
//!   or a signal whose controller no step aborts, as far as the scenario's text tells: see
//!   `InertFacts::promise_name_inert`);
//!
//! both on a document that stays fully active for the rest of every run: neither it nor any
//! navigable above it is the target of a navigation, an iframe removal or a bfcache step anywhere
//! in the scenario.
//!
//! Such a task writes only what no other unit reads or writes (a promise's state, read only by
//! the outcome; nothing at all for an unheard event), so every schedule is equivalent to the one
//! that runs it at the moment it is queued: moving it earlier swaps it only with units it commutes
//! with, and it cannot be disabled. While exploring (`Sim::eager_inert`), `Sim::queue_global_task`
//! therefore runs an inert task's steps at once instead of queueing it, and the posting unit's
//! footprint notes no queue write for it. Posts that differ only in inert tasks then commute, and
//! the states that differed only in the order of inert tasks in a queue are one state.
//!
//! The outcome set is unchanged (the naive search, which never runs tasks early, is the oracle in
//! `crates/cli/tests/it/explore.rs` and `webmcp-sim fuzz`). Schedules found this way are turned
//! back into schedules of the faithful model by `explore::faithful_schedule`, which runs each
//! inert task as soon as it reaches the head of its queue.

use crate::program::{ControllerSlot, Op, Program, ScriptId, Settle, ToolRef};
use crate::sim::{CompletionSteps, Sim, Uuid, Work};
use browser::DocId;
use scenario::Variant;

/// What the scenario's scripts can ever do, as far as inertness depends on it.
#[derive(Debug, Default)]
pub struct InertFacts {
    /// By promise slot: some script reads the promise held by that name (`then`, `fromGetTools`).
    read_slots: Vec<bool>,
    /// By promise slot: some `registerTool` or `executeTool` with a signal that some step aborts
    /// names its promise so (an abort algorithm may settle it).
    signal_slots: Vec<bool>,
    /// The methods (`registerTool`, `executeTool`) called with a signal that some step aborts
    /// and without `as` somewhere: their unnamed promises are never inert.
    signal_unnamed: Vec<&'static str>,
    /// Navigables some script or user step navigates, removes, or puts in (or takes out of) the
    /// back/forward cache.
    lifecycle_targets: Vec<String>,
    /// Navigables whose document some script may give an `ontoolchange` handler.
    toolchange_targets: Vec<String>,
    /// Tool names whose every registration is *plain* (see `InertFacts::plain_tool`): sorted.
    plain_tools: Vec<String>,
    /// No step of any run changes a lifecycle (`InertFacts::lifecycles_fixed`), and no variant
    /// changes the steps of a tool execution: tool executions may be inert.
    executions_may_be_inert: bool,
}

impl InertFacts {
    /// Reads every script of `program` once.
    pub fn of(program: &Program) -> InertFacts {
        let slots = program.promise_names.len();
        let mut facts =
            InertFacts { read_slots: vec![false; slots], signal_slots: vec![false; slots], ..Default::default() };
        // Every script, with the navigable whose document runs it where it is known.
        let mut owners: Vec<Option<String>> = vec![None; program.scripts.len()];
        fn own(program: &Program, owners: &mut [Option<String>], spec: &crate::program::DocSpec, name: &str) {
            mark(program, owners, spec.script, name);
            for frame in &spec.frames {
                own(program, owners, &frame.document, &frame.id);
            }
        }
        fn mark(program: &Program, owners: &mut [Option<String>], script: ScriptId, name: &str) {
            let slot = &mut owners[script.0 as usize];
            if slot.is_some() {
                return;
            }
            *slot = Some(name.to_string());
            for op in program.ops(script) {
                for nested in nested_scripts(program, op) {
                    mark(program, owners, nested, name);
                }
            }
        }
        for tab in &program.tabs {
            own(program, &mut owners, &tab.document, &tab.id);
        }
        for nav in &program.navigations {
            own(program, &mut owners, &nav.document, &nav.navigable);
        }
        // Every op of every script; a timed user step (`at`, `within`) holds its step: read that
        // too.
        let flat: Vec<Vec<&Op>> = program
            .scripts
            .iter()
            .map(|ops| {
                ops.iter()
                    .map(|op| {
                        let mut op = op;
                        while let Op::Timed { step, .. } = op {
                            op = step;
                        }
                        op
                    })
                    .collect()
            })
            .collect();
        // The controllers some step can abort: a signal no step aborts never runs its abort
        // algorithms (an AbortController's signal is aborted only by `abort()`).
        let mut aborted: Vec<ControllerSlot> = flat
            .iter()
            .flatten()
            .filter_map(|op| if let Op::Abort { controller, .. } = op { Some(*controller) } else { None })
            .collect();
        aborted.sort();
        aborted.dedup();
        let abortable = |signal: &Option<ControllerSlot>| signal.is_some_and(|c| aborted.binary_search(&c).is_ok());
        for (i, ops) in flat.iter().enumerate() {
            for &op in ops {
                match op {
                    Op::Then { promise, .. } => facts.read_slots[promise.0 as usize] = true,
                    Op::RegisterTool { signal, as_, .. } | Op::ExecuteTool { signal, as_, .. } if abortable(signal) => {
                        match as_ {
                            Some(slot) => facts.signal_slots[slot.0 as usize] = true,
                            None => facts.signal_unnamed.push(if matches!(op, Op::RegisterTool { .. }) {
                                "registerTool"
                            } else {
                                "executeTool"
                            }),
                        }
                        if let Op::ExecuteTool { tool: ToolRef::FromGetTools { promise, .. }, .. } = op {
                            facts.read_slots[promise.0 as usize] = true;
                        }
                    }
                    Op::ExecuteTool { tool: ToolRef::FromGetTools { promise, .. }, .. } => {
                        facts.read_slots[promise.0 as usize] = true
                    }
                    Op::Navigate(id) => {
                        facts.lifecycle_targets.push(program.navigations[id.0 as usize].navigable.clone())
                    }
                    Op::RemoveIframe(n) | Op::EnterBfcache(n) | Op::RestoreFromBfcache(n) => {
                        facts.lifecycle_targets.push(n.clone())
                    }
                    Op::OnToolchange { target: Some(t), .. } => facts.toolchange_targets.push(t.clone()),
                    // A handler on the script's own document: its navigable, or (a script whose
                    // document is not known here) every document.
                    Op::OnToolchange { target: None, .. } => {
                        facts.toolchange_targets.push(owners[i].clone().unwrap_or_else(|| "*".into()))
                    }
                    _ => {}
                }
            }
        }
        // Tool names: plain when every registration of the name is plain and none can be
        // unregistered (no registerTool of it has a signal some step aborts).
        let mut names: Vec<(&str, bool)> = flat
            .iter()
            .flatten()
            .filter_map(|op| match op {
                Op::RegisterTool { tool, signal, .. } => {
                    let dict = &program.tool_dicts[tool.0 as usize];
                    Some((dict.name.as_str(), !abortable(signal) && InertFacts::plain_tool(program, dict)))
                }
                _ => None,
            })
            .collect();
        names.sort();
        for registrations in names.chunk_by(|a, b| a.0 == b.0) {
            if registrations.iter().all(|(_, plain)| *plain) {
                facts.plain_tools.push(registrations[0].0.to_string());
            }
        }
        facts.executions_may_be_inert = facts.no_lifecycle_changes(program)
            && !program.has_variant(Variant::ToolEvents)
            && !program.has_variant(Variant::CompletionStepsInParallel);
        facts
    }

    /// A tool whose execution touches only what it makes itself: its `execute` runs no
    /// statements and logs no input, and its promise settles at once or after 0 ms (never
    /// later, never on abort, never not at all: a later timer waits in the timer list, in the
    /// order it was set).
    fn plain_tool(program: &Program, dict: &crate::program::ToolDict) -> bool {
        let settles_now = |s: &Settle| matches!(s, Settle::Resolve(_) | Settle::Reject(_) | Settle::Throw(_));
        program.ops(dict.execute_body).is_empty()
            && !dict.log_input
            && match &dict.result {
                Settle::After(0, then) => settles_now(then),
                other => settles_now(other),
            }
    }

    /// True when no unit of any run can change a document's lifecycle or what a navigable shows:
    /// no navigation, iframe removal or bfcache step, and no agent (whose steps count as touching
    /// everything).
    pub fn lifecycles_fixed(program: &Program) -> bool {
        InertFacts::of(program).no_lifecycle_changes(program)
    }

    /// `lifecycles_fixed`, from facts already read.
    fn no_lifecycle_changes(&self, program: &Program) -> bool {
        self.lifecycle_targets.is_empty() && program.agent.is_empty()
    }

    /// A promise of this name has no reader and no abort algorithm: its name is a slot no script
    /// reads and no call with a signal binds, or an unnamed API promise (`registerTool#2@top`) of
    /// a method never called with a signal and without `as`.
    fn promise_name_inert(&self, program: &Program, name: &str) -> bool {
        match program.promise_names.iter().position(|n| n == name) {
            Some(slot) => !self.read_slots[slot] && !self.signal_slots[slot],
            None => name.split_once('#').is_some_and(|(method, _)| {
                matches!(method, "registerTool" | "getTools" | "executeTool") && !self.signal_unnamed.contains(&method)
            }),
        }
    }

    /// Every registration of a tool of this name is plain (`InertFacts::plain_tool`).
    fn plain(&self, tool_name: &str) -> bool {
        self.plain_tools.binary_search_by(|n| n.as_str().cmp(tool_name)).is_ok()
    }

    fn names(list: &[String], name: &str) -> bool {
        list.iter().any(|n| n == name || n == "*")
    }
}

/// The scripts an op can run later (its callbacks and a tool's `execute` and `onAbort` bodies).
fn nested_scripts(program: &Program, op: &Op) -> Vec<ScriptId> {
    match op {
        Op::SetTimeout { body, .. } | Op::OnToolchange { body, .. } | Op::OnAbort { body, .. } => vec![*body],
        Op::Then { on_fulfilled, on_rejected, .. } => vec![*on_fulfilled, *on_rejected],
        Op::RegisterTool { tool, .. } => {
            let dict = &program.tool_dicts[tool.0 as usize];
            vec![dict.execute_body, dict.on_abort]
        }
        _ => Vec::new(),
    }
}

impl Sim<'_> {
    /// True when `work`, queued as a task for `doc`, is inert (see the module doc).
    pub fn inert_task(&self, facts: &InertFacts, doc: DocId, work: &Work) -> bool {
        let commutes = match work {
            Work::FireToolchange { doc: target } => {
                self.model_contexts[target.index()].ontoolchange.is_none()
                    && !InertFacts::names(
                        &facts.toolchange_targets,
                        &self.world.nav(self.world.doc_info(*target).navigable).info.name,
                    )
            }
            // Decided by what the promise's name says (fixed when it is created), never by the
            // state at the time of the post, so that two units that commute reach the same state
            // in either order (`webmcp-sim audit` checks it).
            Work::SettlePromise { promise, .. } => {
                let p = &self.world.promises[*promise];
                p.reactions.is_empty()
                    && p.name.as_deref().is_some_and(|name| facts.promise_name_inert(self.program, name))
            }
            Work::ToolExecuteSteps { tool_name, completion, .. } => {
                facts.plain(tool_name) && self.inert_completion(facts, completion)
            }
            // The timer of an inert execution's tool (`after` 0 ms): its one reaction is the
            // execution's, whose entry in the pending tool executions map (set at executeTool
            // 15.12, removed only by its completion steps, since nothing cancels it) names a
            // plain tool.
            Work::SettleLater { promise, .. } => match &self.world.promises[*promise].reactions[..] {
                [Work::ReactToToolPromise {
                    completion: c @ CompletionSteps::ExecuteTool { target, uuid, .. }, ..
                }] => {
                    self.inert_completion(facts, c) && {
                        let traversable = self.world.traversable_of(*target);
                        self.pending_tool_executions
                            .get(&traversable)
                            .is_some_and(|map| map.iter().any(|(u, e)| u == uuid && facts.plain(&e.tool_name)))
                    }
                }
                _ => false,
            },
            _ => false,
        };
        commutes && self.stays_fully_active(facts, doc)
    }

    /// The completion steps of a tool execution nothing can cancel and whose result nobody
    /// reads: the call's promise is inert (no script reads it; no step aborts its signal, so
    /// "cancel a pending tool execution" never runs for it from executeTool 14.4.2), and no
    /// lifecycle changes (nor from the unloading document cleanup steps). Its tasks then touch
    /// only the execution's own entries (the pending and local pending tool executions maps'
    /// entries for its uuid), the objects it makes (named by its uuid: `scoped_number`) and the
    /// inert settling of the call's promise.
    fn inert_completion(&self, facts: &InertFacts, completion: &CompletionSteps) -> bool {
        let CompletionSteps::ExecuteTool { promise, uuid, .. } = completion else {
            return false;
        };
        facts.executions_may_be_inert
            && scoped_number_fits(*uuid)
            && self.world.promises[*promise]
                .name
                .as_deref()
                .is_some_and(|name| facts.promise_name_inert(self.program, name))
    }

    /// The document is fully active now and no step of the scenario can change that: neither its
    /// navigable nor any above it is navigated, removed or put in the back/forward cache.
    fn stays_fully_active(&self, facts: &InertFacts, doc: DocId) -> bool {
        if !self.world.is_fully_active(doc) {
            return false;
        }
        let mut nav = Some(self.world.doc_info(doc).navigable);
        while let Some(n) = nav {
            let info = self.world.nav(n).info;
            if InertFacts::names(&facts.lifecycle_targets, &info.name) {
                return false;
            }
            nav = info.parent;
        }
        true
    }
}

/// Whether an execution's objects can be numbered from its uuid (`scoped_number`).
pub fn scoped_number_fits(uuid: Uuid) -> bool {
    uuid.realm().is_some_and(|d| d.0 < 1 << 10) && uuid.seq < 1 << 16
}

/// The number of the `made`-th object an inert tool execution makes (a promise or an abort
/// controller, in the realm of the tool's document): from the execution's uuid, never from the
/// order executions run in (`browser::PerRealm::SCOPED`).
pub fn scoped_number(uuid: Uuid, made: u32) -> u32 {
    debug_assert!(scoped_number_fits(uuid) && made < 1 << 5);
    let realm = uuid.realm().map_or(0, |d| d.0);
    browser::PerRealm::<()>::SCOPED | realm << 21 | uuid.seq << 5 | made
}

#[cfg(test)]
mod tests;
