//! What a scenario's scripts can ever do, as far as inert tasks depend on it (`InertFacts`, read
//! from the program once), and how an inert tool execution numbers the objects it makes.

use scenario::Variant;

use crate::inert::learned::Learned;
use crate::program::{ControllerSlot, Op, Program, ScriptId, Settle, ToolRef};
use crate::uuid::Uuid;

/// What the scenario's scripts can ever do, as far as inertness depends on it.
#[derive(Debug, Default)]
pub struct InertFacts {
    /// By promise slot: some script reads the promise held by that name (`then`, `fromGetTools`).
    pub(crate) read_slots: Vec<bool>,
    /// By promise slot: some `registerTool` or `executeTool` with a signal that some step aborts
    /// names its promise so (an abort algorithm may settle it).
    pub(crate) signal_slots: Vec<bool>,
    /// The methods (`registerTool`, `executeTool`) called with a signal that some step aborts
    /// and without `as` somewhere: their unnamed promises are never inert.
    pub(crate) signal_unnamed: Vec<&'static str>,
    /// Navigables some script or user step navigates, removes, or puts in (or takes out of) the
    /// back/forward cache.
    pub(crate) lifecycle_targets: Vec<String>,
    /// Navigables whose document some script may give an `ontoolchange` handler.
    pub(crate) toolchange_targets: Vec<String>,
    /// Tool names whose every registration is *plain* (see `InertFacts::plain_tool`): sorted.
    pub(crate) plain_tools: Vec<String>,
    /// No step of any run changes a lifecycle (`InertFacts::lifecycles_fixed`), and no variant
    /// changes the steps of a tool execution: tool executions may be inert.
    pub(crate) executions_may_be_inert: bool,
    /// For a scenario with JavaScript pages, whose scripts cannot be read here: the facts
    /// executions have contradicted so far (`crate::inert::learned`); everything else a page
    /// could do is assumed not done. None for a scenario without pages.
    pub learned: Option<std::sync::Arc<Learned>>,
}

impl InertFacts {
    /// Reads every script of `program` once.
    pub fn of(program: &Program) -> InertFacts {
        let slots = program.promise_names.len();
        let mut facts = InertFacts {
            read_slots: vec![false; slots],
            signal_slots: vec![false; slots],
            learned: program.has_page_scripts().then(Default::default),
            ..Default::default()
        };
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

    /// `of`, with the facts learned from pages shared with the other executions of one
    /// exploration (`crate::inert::learned`; a scenario without pages learns none).
    pub fn sharing(program: &Program, learned: &Option<std::sync::Arc<Learned>>) -> InertFacts {
        let mut facts = InertFacts::of(program);
        if facts.learned.is_some() {
            facts.learned.clone_from(learned);
        }
        facts
    }

    /// A tool whose execution touches only what it makes itself: its `execute` runs no
    /// statements and logs no input, and its promise settles at once or after a timer (never on
    /// abort, never not at all). A timer of 0 ms is due at once; a later one waits in the timer
    /// list, placed by the execution's uuid rather than in the order it was set
    /// (`browser::World::run_steps_after_a_timeout_keyed`).
    pub(crate) fn plain_tool(program: &Program, dict: &crate::program::ToolDict) -> bool {
        let settles_now = |s: &Settle| matches!(s, Settle::Resolve(_) | Settle::Reject(_) | Settle::Throw(_));
        program.ops(dict.execute_body).is_empty()
            && !dict.log_input
            && match &dict.result {
                Settle::After(_, then) => settles_now(then),
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
    pub(crate) fn no_lifecycle_changes(&self, program: &Program) -> bool {
        // The facts are read off the action language's statements; a JavaScript page's script
        // cannot be read that way and can remove an iframe (`iframe.remove()`), so a scenario
        // with pages may always change a lifecycle. (Taking it as fixed kept the pending maps
        // keyed by entry while a page's removal iterated them: the stateless search lost
        // outcomes of scenarios/js/execute-15-1-target-removed and target-iframe-removed-mid-call.)
        self.lifecycle_targets.is_empty() && program.agent.is_empty() && !program.has_page_scripts()
    }

    /// A promise of this name has no reader and no abort algorithm: its name is a slot no script
    /// reads and no call with a signal binds, or an unnamed API promise (`registerTool#2@top`) of
    /// a method never called with a signal and without `as`.
    pub(crate) fn promise_name_inert(&self, program: &Program, name: &str) -> bool {
        match program.promise_names.iter().position(|n| n == name) {
            Some(slot) => !self.read_slots[slot] && !self.signal_slots[slot],
            None => name.split_once('#').is_some_and(|(method, _)| {
                matches!(method, "registerTool" | "getTools" | "executeTool") && !self.signal_unnamed.contains(&method)
            }),
        }
    }

    /// Every registration of a tool of this name is plain (`InertFacts::plain_tool`).
    pub(crate) fn plain(&self, tool_name: &str) -> bool {
        self.plain_tools.binary_search_by(|n| n.as_str().cmp(tool_name)).is_ok()
    }

    pub(crate) fn names(list: &[String], name: &str) -> bool {
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

/// Whether an execution's objects can be numbered from its uuid (`scoped_number`).
pub(crate) fn scoped_number_fits(uuid: Uuid) -> bool {
    uuid.realm().is_some_and(|d| d.0 < 1 << 10) && uuid.seq < 1 << 16
}

/// Where an inert tool execution's own timer goes among the timers of its deadline and document
/// (`browser::World::run_steps_after_a_timeout_keyed`): from the execution's uuid, never from the
/// order executions run in.
pub(crate) fn timer_key(uuid: Uuid) -> u32 {
    debug_assert!(scoped_number_fits(uuid));
    uuid.realm().map_or(0, |d| d.0) << 16 | uuid.seq
}

/// The number of the `made`-th object an inert tool execution makes (a promise or an abort
/// controller, in the realm of the tool's document): from the execution's uuid, never from the
/// order executions run in (`browser::PerRealm::SCOPED`).
pub(crate) fn scoped_number(uuid: Uuid, made: u32) -> u32 {
    debug_assert!(scoped_number_fits(uuid) && made < 1 << 5);
    let realm = uuid.realm().map_or(0, |d| d.0);
    browser::PerRealm::<()>::SCOPED | realm << 21 | uuid.seq << 5 | made
}
