//! Invariants that hold for every run of every valid scenario under every schedule, checked after
//! each unit and at quiescence, so property tests and `webmcp-sim fuzz` can tell a simulator bug
//! (a `Violation`) from a spec-level finding (a failed spec `Assert:`, or a `Leak` the spec's notes
//! say cannot happen).
//!
//! What is checked:
//! - **Settled once.** A promise that is settled never changes state again (WebIDL's second
//!   resolve/reject is a no-op, traced as `SettleNoOp`), and every settlement of a labelled
//!   promise is traced by exactly one `Settled` event in the unit that made it, with its state.
//! - **Fully active.** A task runs only for a document that was fully active when it was picked.
//! - **Pending maps.** The traversable's pending tool executions map (T) and each document's local
//!   pending tool executions map (L) are allowed to disagree only as the spec's steps make them, in
//!   between tasks and in-parallel blocks. Precisely, after every unit: a uuid is in at most one
//!   T, under the traversable of its target; and for a document d that is not destroyed, every
//!   uuid in L(d) is in T with target d, or a task of d that runs "cancel a pending tool
//!   execution" step 6 for it is queued (cancel 4 removed it from T first). At quiescence, also:
//!   every entry of T whose target t is alive is in L(t), or t is not fully active and the task
//!   that runs the tool execute steps for it waits; an entry whose target or caller document was
//!   destroyed is a `Leak`, which is a spec-level finding only when the entry was added after that
//!   document was destroyed (its unloading cleanup steps ran before executeTool 15.12 and could
//!   not see it), and a violation otherwise.
//! - **executeTool settles.** At quiescence every `executeTool` promise is settled, unless a named
//!   reason holds (`PendingReason`).
//! - **Ends.** A run reaches quiescence within the unit limit, and never panics.
//! - **Replay.** Replaying a run's schedule gives the same trace, byte for byte (text and JSON),
//!   and uses every choice.
//! - **JSON.** The JSON trace reads back into an equal `Trace`.
//!
//! `Fault` deliberately breaks the engine from the outside (between units), so tests can show
//! that each check catches what it is for.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

use browser::{DocId, DocumentState, JsValue, LaneRef, NavId, PromiseId, PromiseState};
use sched::{Chooser, RandomChooser, Recorder, ReplayChooser, Schedule};
use trace::{EventKind, Trace};

use crate::kernel::{Caller, PendingToolExecution, RunError, Sim};
use crate::program::{Op, Program, PromiseSlot, Settle};
use crate::run::Limits;
use crate::uuid::Uuid;
use crate::work::{CompletionSteps, Work};
use scenario::Variant;

#[cfg(test)]
mod tests;

/// A deliberate engine bug, injected between units, for tests of the checks themselves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Fault {
    /// No fault: the engine as it is.
    #[default]
    None,
    /// The engine forgets to remove entries from the traversable's pending tool executions map:
    /// every entry a unit removes is put back after it.
    KeepPendingExecutions,
    /// A settled API promise changes state once more, one unit after it settled, with no trace.
    ResettleSilently,
    /// Tasks of documents in the back/forward cache are runnable.
    RunTasksOfBfcachedDocuments,
}

/// Which invariant a violation breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Invariant {
    /// The engine panicked.
    Panic,
    /// The engine returned an error for a scenario that validated and compiled.
    RunError,
    /// The run did not reach quiescence within the unit limit.
    UnitLimit,
    /// A settled promise changed state.
    SettledOnce,
    /// Promise state changes and `Settled` trace events disagree.
    SettlementTraced,
    /// A task ran for a document that was not fully active.
    FullyActive,
    /// The traversable's and the documents' pending tool executions maps disagree.
    PendingMaps,
    /// An `executeTool` promise is pending at quiescence with no named reason.
    ExecuteToolSettles,
    /// Replaying the schedule gave a different trace, or did not use every choice.
    Replay,
    /// The JSON trace does not read back equal.
    JsonRoundTrip,
    /// Exploration failed, or disagrees with runs of its own witnesses.
    Exploration,
}

impl Invariant {
    /// A short kebab-case name, used in file names and reports.
    pub fn name(self) -> &'static str {
        match self {
            Invariant::Panic => "no-panic",
            Invariant::RunError => "no-run-error",
            Invariant::UnitLimit => "ends-within-unit-limit",
            Invariant::SettledOnce => "settled-once",
            Invariant::SettlementTraced => "settlement-traced",
            Invariant::FullyActive => "task-for-fully-active-document",
            Invariant::PendingMaps => "pending-maps-agree",
            Invariant::ExecuteToolSettles => "execute-tool-settles",
            Invariant::Replay => "replay-same-trace",
            Invariant::JsonRoundTrip => "json-trace-round-trips",
            Invariant::Exploration => "exploration-consistent",
        }
    }
}

impl fmt::Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A simulator bug: an invariant that does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub invariant: Invariant,
    /// Units run when it was seen.
    pub unit: usize,
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (after unit {}): {}", self.invariant, self.unit, self.message)
    }
}

/// Why an `executeTool` promise may still be pending at quiescence. None of these is a bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PendingReason {
    /// The caller document was destroyed: the task that would settle the promise was removed
    /// with its tasks, or the caller's unloading cleanup cancelled the execution.
    CallerDestroyed,
    /// The task that settles the promise waits for the caller to be fully active (bfcache).
    CallerNotFullyActive,
    /// The target document is not fully active (bfcache): the tool execute steps, or the tool's
    /// own timer, wait for it.
    TargetNotFullyActive,
    /// The target document was destroyed and its unloading cleanup steps ran before executeTool
    /// 15.12 added the execution, so nothing ever completes it (a `Leak`).
    TargetDestroyedBefore15_12,
    /// The tool's promise never settles and nobody cancelled the execution.
    ToolNeverSettles,
    /// The caller document was unloaded into the back/forward cache: its unloading cleanup steps
    /// removed the execution (cleanup 2.3.3 cancels it, 2.3.4 removes a call to its own tool)
    /// and nothing settles the promise, even after the restore (docs/findings.md 11).
    CallerUnloadedIntoBfcache,
}

impl PendingReason {
    pub fn describe(self) -> &'static str {
        match self {
            PendingReason::CallerDestroyed => "caller document destroyed",
            PendingReason::CallerNotFullyActive => "caller not fully active (its settle task waits)",
            PendingReason::TargetNotFullyActive => "target not fully active (bfcache): the tool waits",
            PendingReason::TargetDestroyedBefore15_12 => {
                "target destroyed, its cleanup ran before executeTool 15.12 (leaked entry)"
            }
            PendingReason::ToolNeverSettles => "the tool never settles and nobody cancelled",
            PendingReason::CallerUnloadedIntoBfcache => {
                "caller unloaded into the bfcache: its cleanup steps removed the execution"
            }
        }
    }
}

impl fmt::Display for PendingReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// An `executeTool` promise pending at quiescence, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedPending {
    pub promise: String,
    pub reason: PendingReason,
}

/// A [`Leak`]'s role when the destroyed caller document is in another traversable than the map
/// that holds the entry (`Sim::caller_leak_role`).
pub use crate::run::CALLER_IN_ANOTHER_TRAVERSABLE;

/// A pending tool executions map entry left at quiescence for a destroyed document: it was added
/// after the document's unloading cleanup steps ran, or (variant `cross-traversable-execution`)
/// it is in another traversable's map than the one those steps iterate, so nothing will ever
/// remove it. The spec's note in "cancel a pending tool execution" says this cannot happen; it is
/// a spec-level finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leak {
    pub uuid: String,
    /// `target`, `caller`, or [`CALLER_IN_ANOTHER_TRAVERSABLE`].
    pub role: &'static str,
    /// The destroyed document's label.
    pub document: String,
    pub tool: String,
}

/// The result of one checked run.
#[derive(Clone, Debug)]
pub struct Checked {
    pub trace: Trace,
    pub schedule: Schedule,
    pub violations: Vec<Violation>,
    /// `executeTool` promises pending at quiescence, each with its named reason.
    pub pending: Vec<NamedPending>,
    pub leaks: Vec<Leak>,
    /// The run stopped at the unit limit.
    pub stopped: bool,
}

/// What the state was before a unit, for the checks after it.
struct Before {
    promises: BTreeMap<PromiseId, PromiseState>,
    fully_active: BTreeSet<String>,
    units: usize,
    pending: litemap::LiteMap<NavId, Vec<(Uuid, PendingToolExecution)>>,
}

/// The checker's memory of the run so far.
struct Checker {
    fault: Fault,
    /// Promise slots that `executeTool` statements name with `as`.
    execute_slots: Vec<PromiseSlot>,
    /// Every `executeTool` promise seen so far.
    execute_promises: BTreeSet<PromiseId>,
    /// Names of tools whose promise can stay pending (`never`, `rejectOnAbort`).
    can_stay_pending: BTreeSet<String>,
    /// When (in units run) each document was destroyed.
    destroyed_at: BTreeMap<DocId, usize>,
    /// When (in units run) each uuid entered a traversable's pending tool executions map.
    entry_added_at: BTreeMap<Uuid, usize>,
    /// Whether entering the back/forward cache runs the unloading document cleanup steps (not
    /// under the variant `bfcache-keeps-executions`).
    bfcache_unloads: bool,
    /// Documents that were unloaded into the back/forward cache (not fully active, not
    /// destroyed, after some unit): their cleanup steps removed their executions from the
    /// traversable's map while the tool may still run in them (its local map keeps the entry
    /// until it settles), so the two maps may disagree for them.
    unloaded_alive: BTreeSet<DocId>,
    /// Promises the `ResettleSilently` fault already changed.
    resettled: BTreeSet<PromiseId>,
    violations: Vec<Violation>,
}

/// Runs `program` to quiescence (or the unit limit) like `webmcp::run`, checking the invariants
/// after every unit and at the end. `fault` breaks the engine on purpose (tests only).
pub fn run_checked(
    program: &Program,
    chooser: &mut dyn Chooser,
    limits: Limits,
    fault: Fault,
) -> Result<Checked, RunError> {
    let mut recorder = Recorder::new(chooser);
    let mut sim = Sim::new(program)?;
    let mut checker = Checker::new(program, fault);
    checker.after_unit(&mut sim, None);
    // The loop of `Sim::run`, with checks between units.
    while sim.units_run < limits.max_units {
        let before = checker.before(&sim);
        let flipped = if fault == Fault::RunTasksOfBfcachedDocuments { flip_bfcached(&mut sim) } else { Vec::new() };
        let lanes = sim.runnable();
        if lanes.is_empty() {
            unflip(&mut sim, &flipped);
            break;
        }
        let (index, choice_among) = crate::run::choose_lane(&lanes, &mut recorder)?;
        let (lane, lane_ref) = lanes[index].clone();
        if !matches!(lane_ref, LaneRef::Task { .. }) {
            unflip(&mut sim, &flipped);
        }
        sim.step(&lane, lane_ref, choice_among)?;
        unflip(&mut sim, &flipped);
        checker.after_unit(&mut sim, Some(&before));
    }
    let stopped = sim.units_run >= limits.max_units && !sim.is_quiescent();
    let (pending, leaks) = if stopped {
        checker.violate(
            &sim,
            Invariant::UnitLimit,
            format!("the run did not reach quiescence within {} units", limits.max_units),
        );
        (Vec::new(), Vec::new())
    } else {
        checker.at_quiescence(&sim)
    };
    let mut violations = std::mem::take(&mut checker.violations);
    let schedule = recorder.schedule.clone();
    let trace = sim.into_trace(&schedule, stopped);
    violations.extend(json_round_trip(&trace));
    Ok(Checked { trace, schedule, violations, pending, leaks, stopped })
}

/// One seeded run, checked, then replayed from its schedule: every violation, including a panic
/// (caught) and a replay that differs. `Err` only for a panic or error before any trace exists.
pub fn check_seed(program: &Program, seed: u64, limits: Limits, fault: Fault) -> Result<Checked, Violation> {
    let mut checked = guarded(|| run_checked(program, &mut RandomChooser::new(seed), limits, fault))?;
    let replayed = check_replay(program, &checked.schedule, limits, fault, &checked.trace);
    checked.violations.extend(replayed);
    Ok(checked)
}

/// Replays `schedule` (with the same fault) and compares the trace with `expected`; without a
/// fault, also through `webmcp::run`, the path `webmcp-sim replay` takes.
pub fn check_replay(
    program: &Program,
    schedule: &Schedule,
    limits: Limits,
    fault: Fault,
    expected: &Trace,
) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut compare = |what: &str, result: Result<Result<(Trace, usize), RunError>, Violation>| match result {
        Err(v) => out.push(v),
        Ok(Err(e)) => out.push(violation_at(0, Invariant::Replay, format!("{what}: {e}"))),
        Ok(Ok((trace, remaining))) => {
            if remaining > 0 {
                let msg = format!("{what}: {remaining} schedule choice(s) unused");
                out.push(violation_at(trace.units.len(), Invariant::Replay, msg));
            }
            if trace.render_text() != expected.render_text() || trace.render_json() != expected.render_json() {
                let at = first_difference(&trace.render_text(), &expected.render_text());
                out.push(violation_at(
                    trace.units.len(),
                    Invariant::Replay,
                    format!("{what}: the trace differs ({at})"),
                ));
            }
        }
    };
    compare(
        "checked replay",
        guarded_any(|| {
            let mut chooser = ReplayChooser::new(schedule);
            run_checked(program, &mut chooser, limits, fault).map(|c| (c.trace, chooser.remaining()))
        }),
    );
    if fault == Fault::None {
        compare(
            "webmcp::run replay",
            guarded_any(|| {
                let mut chooser = ReplayChooser::new(schedule);
                crate::run::run(program, &mut chooser, limits).map(|t| (t, chooser.remaining()))
            }),
        );
    }
    out
}

/// The line where two texts first differ, for a message.
fn first_difference(a: &str, b: &str) -> String {
    match a.lines().zip(b.lines()).enumerate().find(|(_, (x, y))| x != y) {
        Some((i, (x, y))) => format!("line {}: {x:?} vs {y:?}", i + 1),
        None => format!("{} vs {} lines", a.lines().count(), b.lines().count()),
    }
}

/// Runs `f`, turning a panic into a `Panic` violation and an error into a `RunError` violation.
pub fn guarded<T>(f: impl FnOnce() -> Result<T, RunError>) -> Result<T, Violation> {
    match guarded_any(f) {
        Ok(Ok(t)) => Ok(t),
        Ok(Err(e)) => Err(violation_at(0, Invariant::RunError, e.to_string())),
        Err(v) => Err(v),
    }
}

/// Runs `f`, turning a panic into a `Panic` violation.
pub fn guarded_any<T>(f: impl FnOnce() -> T) -> Result<T, Violation> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with a non-string payload".to_string());
        violation_at(0, Invariant::Panic, message)
    })
}

fn violation_at(unit: usize, invariant: Invariant, message: String) -> Violation {
    Violation { invariant, unit, message }
}

/// The JSON trace reads back into an equal `Trace`, which renders the same JSON again.
pub fn json_round_trip(trace: &Trace) -> Option<Violation> {
    let json = trace.render_json();
    let problem = match serde_json::from_str::<Trace>(&json) {
        Err(e) => Some(format!("the JSON trace does not read back: {e}")),
        Ok(back) if back != *trace => Some("the JSON trace reads back as a different trace".to_string()),
        Ok(back) if back.render_json() != json => Some("the JSON trace renders differently once read back".into()),
        Ok(_) => None,
    };
    problem.map(|m| violation_at(trace.units.len(), Invariant::JsonRoundTrip, m))
}

/// Makes every bfcached document active (the `RunTasksOfBfcachedDocuments` fault); returns them.
fn flip_bfcached(sim: &mut Sim) -> Vec<DocId> {
    let mut flipped = Vec::new();
    for i in 0..sim.world.document_count() as u32 {
        if sim.world.doc(DocId(i)).state == DocumentState::Bfcached {
            sim.world.set_document_state(DocId(i), DocumentState::Active);
            flipped.push(DocId(i));
        }
    }
    flipped
}

fn unflip(sim: &mut Sim, flipped: &[DocId]) {
    for d in flipped {
        if sim.world.doc(*d).state == DocumentState::Active {
            sim.world.set_document_state(*d, DocumentState::Bfcached);
        }
    }
}

/// Every queued task's steps, with its document.
fn queued_work<'a>(sim: &'a Sim) -> impl Iterator<Item = (Option<DocId>, &'a Work)> + 'a {
    sim.world.waiting_tasks().into_iter().map(|(_, _, t)| (t.document, &t.steps))
}

fn describe_state(sim: &Sim, state: &PromiseState) -> String {
    match state {
        PromiseState::Pending => "pending".to_string(),
        PromiseState::Fulfilled(v) => sim.describe_settlement(&Ok(v.clone())),
        PromiseState::Rejected(e) => sim.describe_settlement(&Err(e.clone())),
    }
}

impl Checker {
    fn new(program: &Program, fault: Fault) -> Checker {
        let mut execute_slots = Vec::new();
        for ops in &program.scripts {
            for op in ops {
                if let Op::ExecuteTool { as_: Some(slot), .. } = op {
                    execute_slots.push(*slot);
                }
            }
        }
        let can_stay_pending = program
            .tool_dicts
            .iter()
            .filter(|d| matches!(d.result, Settle::Never | Settle::RejectOnAbort))
            .map(|d| d.name.clone())
            .collect();
        Checker {
            fault,
            execute_slots,
            execute_promises: BTreeSet::new(),
            can_stay_pending,
            destroyed_at: BTreeMap::new(),
            entry_added_at: BTreeMap::new(),
            bfcache_unloads: !program.has_variant(Variant::BfcacheKeepsExecutions),
            unloaded_alive: BTreeSet::new(),
            resettled: BTreeSet::new(),
            violations: Vec::new(),
        }
    }

    fn violate(&mut self, sim: &Sim, invariant: Invariant, message: String) {
        self.violations.push(violation_at(sim.units_run, invariant, message));
    }

    fn before(&self, sim: &Sim) -> Before {
        let fully_active = (0..sim.world.document_count() as u32)
            .map(DocId)
            .filter(|d| sim.world.is_fully_active(*d))
            .map(|d| sim.label(d))
            .collect();
        let pending = if self.fault == Fault::KeepPendingExecutions {
            (*sim.pending_tool_executions).clone()
        } else {
            Default::default()
        };
        Before {
            promises: sim
                .world
                .promises
                .iter()
                .map(|(realm, seq, p)| (PromiseId { realm, seq }, p.state.clone()))
                .collect(),
            fully_active,
            units: sim.units.len(),
            pending,
        }
    }

    /// Checks after a unit (or, with `before` None, the initial state).
    fn after_unit(&mut self, sim: &mut Sim, before: Option<&Before>) {
        if let Some(before) = before {
            self.inject_fault(sim, before);
            self.check_settlements(sim, before);
            self.check_fully_active(sim, before);
        }
        self.remember(sim);
        self.check_pending_maps_always(sim);
    }

    fn inject_fault(&mut self, sim: &mut Sim, before: &Before) {
        match self.fault {
            Fault::None | Fault::RunTasksOfBfcachedDocuments => {}
            Fault::KeepPendingExecutions => {
                for (nav, entries) in before.pending.iter() {
                    let map = sim.pending_tool_executions.entry(*nav).or_default();
                    for (uuid, execution) in entries {
                        if !map.iter().any(|(u, _)| u == uuid) {
                            map.push((*uuid, execution.clone()));
                        }
                    }
                }
            }
            Fault::ResettleSilently => {
                for (&p, state) in &before.promises {
                    if *state == PromiseState::Pending
                        || !sim.promise_labels.contains_key(&p)
                        || !self.resettled.insert(p)
                    {
                        continue;
                    }
                    sim.world.promises[p].state = match state {
                        PromiseState::Fulfilled(_) => PromiseState::Rejected(JsValue::type_error("resettled")),
                        _ => PromiseState::Fulfilled(JsValue::Undefined),
                    };
                }
            }
        }
    }

    /// Settled once, and settlements traced.
    fn check_settlements(&mut self, sim: &Sim, before: &Before) {
        let mut changed: Vec<(String, String)> = Vec::new();
        for (realm, seq, promise) in sim.world.promises.iter() {
            let p = PromiseId { realm, seq };
            let was = before.promises.get(&p).cloned().unwrap_or(PromiseState::Pending);
            if was == promise.state {
                continue;
            }
            if was != PromiseState::Pending {
                let msg = format!(
                    "promise {} was {} and became {}",
                    sim.promise_label(p),
                    describe_state(sim, &was),
                    describe_state(sim, &promise.state)
                );
                self.violate(sim, Invariant::SettledOnce, msg);
                continue;
            }
            if sim.promise_labels.contains_key(&p) {
                changed.push((sim.promise_label(p), describe_state(sim, &promise.state)));
            }
        }
        if !sim.record {
            return;
        }
        let mut traced: Vec<(String, String)> = sim.units[before.units..]
            .iter()
            .flat_map(|u| &u.events)
            .filter_map(|e| match &e.kind {
                EventKind::Settled { promise, state } => Some((promise.clone(), state.clone())),
                _ => None,
            })
            .collect();
        changed.sort();
        traced.sort();
        if changed != traced {
            let show = |v: &[(String, String)]| {
                let items: Vec<String> = v.iter().map(|(p, s)| format!("{p} {s}")).collect();
                format!("[{}]", items.join(", "))
            };
            let msg = format!("promises settled: {}; Settled events: {}", show(&changed), show(&traced));
            self.violate(sim, Invariant::SettlementTraced, msg);
        }
    }

    /// No task ran for a document that was not fully active when it was picked.
    fn check_fully_active(&mut self, sim: &Sim, before: &Before) {
        if !sim.record {
            return;
        }
        let ran: Vec<String> = sim.units[before.units..]
            .iter()
            .filter(|u| u.lane.starts_with("el"))
            .filter_map(|u| u.document.clone())
            .filter(|d| !before.fully_active.contains(d))
            .collect();
        for doc in ran {
            self.violate(sim, Invariant::FullyActive, format!("a task ran for {doc}, which was not fully active"));
        }
    }

    /// Notes destroyed documents, new pending entries and `executeTool` promises.
    fn remember(&mut self, sim: &Sim) {
        for (i, d) in sim.world.documents().enumerate() {
            if d.state == DocumentState::Destroyed {
                self.destroyed_at.entry(DocId(i as u32)).or_insert(sim.units_run);
            } else if self.bfcache_unloads && !sim.world.is_fully_active(DocId(i as u32)) {
                self.unloaded_alive.insert(DocId(i as u32));
            }
        }
        for entries in sim.pending_tool_executions.values() {
            for (uuid, _) in entries {
                self.entry_added_at.entry(*uuid).or_insert(sim.units_run);
            }
        }
        for slot in &self.execute_slots {
            if let Some(p) = sim.promise_slots[slot.0 as usize] {
                self.execute_promises.insert(p);
            }
        }
        for (p, label) in sim.promise_labels.iter() {
            if label.label.starts_with("executeTool#") {
                self.execute_promises.insert(*p);
            }
        }
    }

    /// The pending-map invariants that hold after every unit.
    fn check_pending_maps_always(&mut self, sim: &Sim) {
        let mut seen: BTreeMap<Uuid, NavId> = BTreeMap::new();
        let mut problems = Vec::new();
        for (nav, entries) in sim.pending_tool_executions.iter() {
            for (uuid, execution) in entries {
                if let Some(other) = seen.insert(*uuid, *nav) {
                    problems.push(format!(
                        "uuid {} is in the maps of traversables #{} and #{}",
                        sim.uuid_label(*uuid),
                        other.0,
                        nav.0
                    ));
                }
                let home = sim.world.traversable_of(execution.target_document);
                if home != *nav {
                    problems.push(format!(
                        "uuid {} is in traversable #{}'s map, but its target {} is in traversable #{}",
                        sim.uuid_label(*uuid),
                        nav.0,
                        sim.label(execution.target_document),
                        home.0
                    ));
                }
            }
        }
        for (i, mc) in sim.model_contexts.iter().enumerate() {
            let d = DocId(i as u32);
            if sim.world.doc(d).state == DocumentState::Destroyed || self.unloaded_alive.contains(&d) {
                continue;
            }
            let mut local_seen = BTreeSet::new();
            for (uuid, _) in &mc.local_pending_tool_executions {
                if !local_seen.insert(*uuid) {
                    problems.push(format!("uuid {} is twice in {}'s local map", sim.uuid_label(*uuid), sim.label(d)));
                }
                if self.in_traversable_map(sim, *uuid, d) || cancel_queued(sim, d, *uuid) {
                    continue;
                }
                problems.push(format!(
                    "{}'s local pending tool executions map holds uuid {}, which no traversable's map holds \
                     (with {} as target), and no task to cancel it is queued",
                    sim.label(d),
                    sim.uuid_label(*uuid),
                    sim.label(d)
                ));
            }
        }
        for p in problems {
            self.violate(sim, Invariant::PendingMaps, p);
        }
    }

    fn in_traversable_map(&self, sim: &Sim, uuid: Uuid, target: DocId) -> bool {
        sim.pending_tool_executions.values().flatten().any(|(u, e)| *u == uuid && e.target_document == target)
    }

    /// The invariants of the end state.
    fn at_quiescence(&mut self, sim: &Sim) -> (Vec<NamedPending>, Vec<Leak>) {
        let leaks = self.check_pending_maps_at_quiescence(sim);
        let pending = self.classify_pending_execute_tool_promises(sim);
        (pending, leaks)
    }

    fn check_pending_maps_at_quiescence(&mut self, sim: &Sim) -> Vec<Leak> {
        let mut leaks = Vec::new();
        let mut problems = Vec::new();
        let destroyed = |d: DocId| sim.world.doc(d).state == DocumentState::Destroyed;
        for (traversable, entries) in sim.pending_tool_executions.iter() {
            for (uuid, execution) in entries {
                let target = execution.target_document;
                let added = self.entry_added_at.get(uuid).copied().unwrap_or(0);
                let mut gone = Vec::new();
                if destroyed(target) {
                    gone.push(("target", target));
                }
                if let Caller::Document(caller) = execution.caller_document {
                    if destroyed(caller) && caller != target {
                        gone.push((sim.caller_leak_role(caller, *traversable), caller));
                    }
                }
                if !gone.is_empty() {
                    for (role, d) in gone {
                        let destroyed_at = self.destroyed_at.get(&d).copied().unwrap_or(usize::MAX);
                        if added > destroyed_at || role == CALLER_IN_ANOTHER_TRAVERSABLE {
                            leaks.push(Leak {
                                uuid: sim.uuid_label(*uuid),
                                role,
                                document: sim.label(d),
                                tool: execution.tool_name.to_string(),
                            });
                        } else {
                            problems.push(format!(
                                "uuid {} ({role} {} destroyed after unit {destroyed_at}) was added after unit \
                                 {added}, before the document was destroyed, yet its unloading cleanup steps did \
                                 not remove it",
                                sim.uuid_label(*uuid),
                                sim.label(d)
                            ));
                        }
                    }
                    continue;
                }
                let local =
                    sim.model_contexts[target.index()].local_pending_tool_executions.iter().any(|(u, _)| u == uuid);
                let waits = !sim.world.is_fully_active(target) && tool_execute_steps_queued(sim, target, *uuid);
                if !local && !waits {
                    problems.push(format!(
                        "the traversable's map holds uuid {} (tool {:?} of {}), but {}'s local map does not \
                         and no task will run the tool",
                        sim.uuid_label(*uuid),
                        execution.tool_name,
                        sim.label(target),
                        sim.label(target)
                    ));
                }
            }
        }
        for (i, mc) in sim.model_contexts.iter().enumerate() {
            let d = DocId(i as u32);
            if destroyed(d) || !sim.world.is_fully_active(d) || self.unloaded_alive.contains(&d) {
                continue;
            }
            for (uuid, _) in &mc.local_pending_tool_executions {
                if !self.in_traversable_map(sim, *uuid, d) {
                    problems.push(format!(
                        "at quiescence {}'s local map holds uuid {}, which no traversable's map holds",
                        sim.label(d),
                        sim.uuid_label(*uuid)
                    ));
                }
            }
        }
        for p in problems {
            self.violate(sim, Invariant::PendingMaps, p);
        }
        leaks
    }

    fn classify_pending_execute_tool_promises(&mut self, sim: &Sim) -> Vec<NamedPending> {
        let mut named = Vec::new();
        let promises: Vec<PromiseId> = self.execute_promises.iter().copied().collect();
        for p in promises {
            if !sim.promise_labels.contains_key(&p) || sim.world.promises[p].state != PromiseState::Pending {
                continue;
            }
            match self.pending_reason(sim, p) {
                Ok(reason) => named.push(NamedPending { promise: sim.promise_label(p), reason }),
                Err(why) => {
                    let msg = format!("executeTool promise {} is pending at quiescence: {why}", sim.promise_label(p));
                    self.violate(sim, Invariant::ExecuteToolSettles, msg);
                }
            }
        }
        named
    }

    fn pending_reason(&self, sim: &Sim, p: PromiseId) -> Result<PendingReason, String> {
        let caller = p.realm;
        if sim.world.doc(caller).state == DocumentState::Destroyed {
            return Ok(PendingReason::CallerDestroyed);
        }
        let settles_p = |w: &Work| matches!(w, Work::SettlePromise { promise, .. } if *promise == p);
        if let Some((doc, _)) = queued_work(sim).find(|(_, w)| settles_p(w)) {
            return match doc {
                Some(d) if !sim.world.is_fully_active(d) => Ok(PendingReason::CallerNotFullyActive),
                _ => Err("a task that settles it is queued and runnable, yet the run is quiescent".into()),
            };
        }
        let entry =
            sim.pending_tool_executions.values().flatten().find(
                |(_, e)| matches!(e.completion_steps, CompletionSteps::ExecuteTool { promise, .. } if promise == p),
            );
        let Some((uuid, execution)) = entry else {
            if self.unloaded_alive.contains(&caller) {
                return Ok(PendingReason::CallerUnloadedIntoBfcache);
            }
            return Err("no pending tool execution and no queued task will settle it".into());
        };
        let target = execution.target_document;
        if sim.world.doc(target).state == DocumentState::Destroyed {
            return Ok(PendingReason::TargetDestroyedBefore15_12);
        }
        if !sim.world.is_fully_active(target) {
            return Ok(PendingReason::TargetNotFullyActive);
        }
        let local = sim.model_contexts[target.index()].local_pending_tool_executions.iter().any(|(u, _)| u == uuid);
        let tool_promise_pending = sim.world.promises.iter().any(|(_, _, tp)| {
            tp.state == PromiseState::Pending
                && tp.reactions.iter().any(|r| matches!(r, Work::ReactToToolPromise { uuid: u, .. } if u == uuid))
        });
        if local && tool_promise_pending && self.can_stay_pending.contains(&*execution.tool_name) {
            return Ok(PendingReason::ToolNeverSettles);
        }
        if local && tool_promise_pending {
            return Err(format!(
                "the promise of tool {:?} is pending, but no tool of that name is written to stay pending",
                execution.tool_name
            ));
        }
        Err(format!(
            "its execution (uuid {}) is pending with target {} fully active, but {}",
            sim.uuid_label(*uuid),
            sim.label(target),
            if local { "no pending tool promise reacts to it" } else { "the target's local map does not hold it" }
        ))
    }
}

fn cancel_queued(sim: &Sim, target: DocId, uuid: Uuid) -> bool {
    queued_work(sim)
        .any(|(_, w)| matches!(w, Work::CancelLocal { target: t, uuid: u, .. } if *t == target && *u == uuid))
}

fn tool_execute_steps_queued(sim: &Sim, target: DocId, uuid: Uuid) -> bool {
    queued_work(sim)
        .any(|(_, w)| matches!(w, Work::ToolExecuteSteps { target: t, uuid: u, .. } if *t == target && *u == uuid))
}

/// One replayed witness of an exploration.
#[derive(Clone, Debug)]
pub struct WitnessRun {
    pub witness: String,
    /// The checked run (None when the witness did not parse or the run panicked).
    pub checked: Option<Checked>,
    /// Every violation: the run's own, and disagreements with the exploration.
    pub violations: Vec<Violation>,
}

/// Replays each outcome's witness schedule with the checks on, and compares the outcome the
/// replay reaches with the one the explorer recorded for it.
pub fn check_witnesses(program: &Program, exploration: &trace::Exploration, limits: Limits) -> Vec<WitnessRun> {
    let mut out = Vec::new();
    for class in &exploration.outcomes {
        let mut run = WitnessRun { witness: class.witness.clone(), checked: None, violations: Vec::new() };
        let schedule = match Schedule::parse(&class.witness) {
            Ok(s) => s,
            Err(e) => {
                let msg = format!("witness {:?} does not parse: {e}", class.witness);
                run.violations.push(violation_at(0, Invariant::Exploration, msg));
                out.push(run);
                continue;
            }
        };
        let result = guarded(|| {
            let mut chooser = ReplayChooser::new(&schedule);
            run_checked(program, &mut chooser, limits, Fault::None).map(|c| (c, chooser.remaining()))
        });
        match result {
            Err(v) => run.violations.push(v),
            Ok((checked, remaining)) => {
                run.violations.extend(checked.violations.iter().cloned());
                if remaining > 0 {
                    let msg = format!("witness {:?} leaves {remaining} choice(s) unused", class.witness);
                    run.violations.push(violation_at(0, Invariant::Exploration, msg));
                }
                if !checked.stopped && checked.trace.outcome.canonical() != class.outcome {
                    let msg = format!(
                        "replaying witness {:?} reaches outcome {} but exploration recorded {}",
                        class.witness,
                        checked.trace.outcome.canonical().summary(),
                        class.summary
                    );
                    run.violations.push(violation_at(0, Invariant::Exploration, msg));
                }
                run.checked = Some(checked);
            }
        }
        out.push(run);
    }
    out
}
