//! Exhaustive exploration of a scenario: the adapter between the simulator and the generic
//! engine (the `explore` crate). The engine's search (state caching, sleep sets, the
//! persistent-set rule, budgets, work items, shards, threads, the breadth-first witness pass)
//! knows nothing of browsers; this module implements its `Model` trait for `Sim`
//! (`SimModel`: runnable lanes, a step with its `Footprint`, the fingerprint, the outcome),
//! turns `ExploreOptions` into the engine's options and its report into a `trace::Exploration`.
//!
//! What belongs to the model stays here: two units commute when their footprints do not
//! conflict: neither writes a piece of state (`Resource`: an event loop's script state, its
//! documents' lifecycle or tool maps, one task queue, a pending-executions map, the console)
//! that the other reads or writes; agent and bfcache steps conflict with everything. A unit's
//! footprint is recorded as it runs (docs/model.md lists who touches what). With inert tasks, a
//! unit that reads only lifecycles and writes nothing, in a scenario where no unit can change a
//! lifecycle, commutes with every unit of every state (`Model::alone`). Lanes are numbered by
//! `LaneTable` (interned labels and fixed slots, cheaper than hashing labels). Witnesses of the
//! search (where inert tasks ran when queued) are turned back into schedules of the faithful
//! model (`faithful_schedule`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use ::explore::LaneId;

use sched::Lane;
use trace::{Exploration, OutcomeClass};

use crate::footprint::Footprint;
use crate::inert::facts::InertFacts;
use crate::inert::learned::Learned;
use crate::kernel::{RunError, Sim};
use crate::program::Program;

mod witnesses;

pub use witnesses::shortest_witnesses;

/// What the visited tables cost (summed over work items).
pub use ::explore::Memory as VisitedMemory;
pub use ::explore::{Estimate, LaneOrder, Progress, SearchKind};

/// The engine's bounds and knobs: reduction, lane order, the budget (`max_states`, `time_limit`),
/// `max_depth`, `max_units`, the split into work items, threads, shard, progress, interrupt,
/// delay bound.
pub use ::explore::Options as SearchOptions;
pub use ::explore::Traces;

/// Bounds and knobs of an exploration: the engine's, and the simulator's own.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    /// The search's (`explore::Options`): `reduce` off explores every schedule one by one;
    /// on, state caching, sleep sets and the persistent-set rule (and inert tasks, below).
    pub search: SearchOptions,
    /// After a complete search, find each outcome's fewest-choice witness (`shortest_witnesses`:
    /// a breadth-first pass over the states). Off, the witnesses are the shortest the search met.
    pub shortest_witnesses: bool,
    /// Run those passes on a thread of their own while the search runs (`witnesses::Ahead`);
    /// off, after it. The report is the same either way; on by default where the machine has a
    /// second core (on one, the passes would only take turns with the search and hold their
    /// states while it runs).
    pub witnesses_beside_search: bool,
    /// With the full reduction: run inert tasks when they are queued (`crate::inert`); the
    /// witnesses are turned back into schedules of the faithful model (`faithful_schedule`).
    pub inert_tasks: bool,
    /// Which search runs: the stateful one (copies and fingerprints of states) or the
    /// stateless one (every schedule run from the start, optimal DPOR; docs/model.md,
    /// "Stateless exploration").
    pub kind: SearchKind,
    /// Whether the user chose `kind` (`--search`). When not, a scenario with JavaScript pages is
    /// explored by the stateless search, the only one that can (a page's heap cannot be copied).
    pub kind_given: bool,
}

impl Default for ExploreOptions {
    fn default() -> ExploreOptions {
        ExploreOptions {
            search: SearchOptions::default(),
            shortest_witnesses: true,
            witnesses_beside_search: has_a_second_core(),
            inert_tasks: true,
            kind: SearchKind::Stateful,
            kind_given: false,
        }
    }
}

/// Whether the machine has more than one core, asked once per process (the answer reads the
/// cgroup's CPU limits: about 30 µs, and options are made for every fuzzed scenario).
fn has_a_second_core() -> bool {
    static SECOND_CORE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SECOND_CORE.get_or_init(|| std::thread::available_parallelism().is_ok_and(|cores| cores.get() > 1))
}

impl From<SearchOptions> for ExploreOptions {
    /// The engine's options, with the simulator's own at their defaults.
    fn from(search: SearchOptions) -> ExploreOptions {
        ExploreOptions { search, ..Default::default() }
    }
}

impl ExploreOptions {
    /// Inert tasks run when they are queued (`crate::inert`): with the full reduction, unless
    /// asked otherwise or a delay bound counts the faithful model's choices.
    pub fn inert(&self) -> bool {
        self.search.reduce && self.inert_tasks && self.search.delay_bound.is_none()
    }

    /// The options that decide the result, for the report and for `merge`.
    pub fn describe(&self) -> Vec<String> {
        let search = &self.search;
        let mut described = vec![format!(
            "reduction={}",
            match (search.reduce, self.inert_tasks, search.delay_bound) {
                // The stateless search caches no state: source sets, wakeup trees and
                // sleep sets (docs/model.md, "Stateless exploration").
                (true, true, _) if self.kind == SearchKind::Stateless => "optimal-dpor+inert-tasks",
                (true, false, _) if self.kind == SearchKind::Stateless => "optimal-dpor",
                (true, _, Some(_)) => "state-caching",
                (true, true, None) => "state-caching+sleep-sets+inert-tasks",
                (true, false, None) => "state-caching+sleep-sets",
                _ => "none",
            }
        )];
        // The stateless search orders no lanes, splits nothing and stores no states: it names
        // only the options it uses (its executions' bound is said below).
        if self.kind == SearchKind::Stateful {
            described.push(format!("lane-order={}", search.lane_order.name()));
            described.push(format!("split-depth={}", search.split_depth));
            described.push(format!("max-states={}", search.max_states));
        }
        described.push(format!("max-depth={}", search.max_depth));
        described.push(format!("max-units={}", search.max_units));
        described.push(format!("witnesses={}", if self.shortest_witnesses { "shortest" } else { "as-found" }));
        if let Some(k) = search.delay_bound {
            described.push(format!("delay-bound={k}"));
        }
        if self.kind == SearchKind::Stateless {
            // Said only for the stateless search, so that stateful reports stay as they were.
            described.push(format!("search=stateless, max-executions={}", search.max_executions));
        }
        if search.table_per_work_item || search.shard.1 > 1 {
            // Shards always do; one process only when asked (to compare with merged shards).
            described.push("visited-table=per-work-item".into());
        }
        described
    }
}

/// A schedule of the search (where inert tasks run when they are queued, `crate::inert`) as a
/// schedule of the faithful model, with its number of choices: the same picks, and at every
/// choice point where a lane's next task was inert when it was queued, that lane first (the
/// first such in label order). Each inert task then runs as soon as it reaches the head of its
/// queue, which leads to the same outcome: it commutes with everything run in between. (Judged
/// when it heads its queue instead, a task queued for a document in the back/forward cache would
/// count as inert once the document is back, although the search queued it: an incomplete
/// search of `js/history-back-restores-caller` failed that way.)
pub fn faithful_schedule(program: &Program, searched: &str) -> Result<(usize, String), RunError> {
    FaithfulRuns::new(program, &None)?.schedule(searched)
}

/// The faithful runs of a search's schedules (`faithful_schedule`), with the facts the search
/// learned from the scenario's pages (`crate::inert::learned`: the tasks it ran when queued are
/// the ones inert under them). Runs made one after the other share their common beginning: the
/// run keeps its state at each pick it took, and the next schedule starts from the state where
/// its picks stop agreeing with the last one's (each run is deterministic, so the state after the
/// same picks is the same). Sorted schedules share most of it: on four-calls-unload the 2,660
/// witnesses ran 3 % of the search's instructions, each from the initial state. Not on pages
/// with scripts: their JavaScript heap is not part of a copy of the state (`Sim::engine`), so
/// each of their runs starts anew.
struct FaithfulRuns<'p> {
    program: &'p Program,
    facts: std::rc::Rc<InertFacts>,
    /// The last run's picks, and after each pick it took, the state and the faithful schedule so
    /// far (one entry per pick, in order; none on pages with scripts).
    picks: Vec<Lane>,
    at_pick: Vec<(Sim<'p>, Vec<Lane>)>,
}

impl<'p> FaithfulRuns<'p> {
    fn new(program: &'p Program, learned: &Option<Arc<Learned>>) -> Result<FaithfulRuns<'p>, RunError> {
        let facts = std::rc::Rc::new(InertFacts::sharing(program, learned));
        Ok(FaithfulRuns { program, facts, picks: Vec::new(), at_pick: Vec::new() })
    }

    /// The initial state of a faithful run.
    fn initial(&self) -> Result<Sim<'p>, RunError> {
        let mut sim = Sim::new(self.program)?;
        sim.record = false;
        sim.note_inert = Some(self.facts.clone());
        Ok(sim)
    }

    /// The faithful schedule of the search's schedule `searched`, and its number of choices.
    fn schedule(&mut self, searched: &str) -> Result<(usize, String), RunError> {
        let schedule = sched::Schedule::parse(searched)
            .map_err(|e| RunError::NotModelled(format!("simulator bug: witness {searched:?} does not parse: {e}")))?;
        // Start from the state after the last pick the two runs share.
        let shared = self.picks.iter().zip(&schedule.picks).take_while(|(a, b)| a == b).count();
        self.picks.truncate(shared);
        self.at_pick.truncate(shared);
        let (mut sim, mut out) = match self.at_pick.last() {
            Some((sim, out)) => (sim.clone(), out.clone()),
            None => (self.initial()?, Vec::new()),
        };
        let keep = sim.engine.is_none();
        let mut picks = schedule.picks[shared..].iter();
        loop {
            let lanes = sim.runnable();
            if lanes.is_empty() {
                break;
            }
            if lanes.len() == 1 {
                let (lane, lane_ref) = lanes.into_iter().next().expect("one lane");
                sim.step(&lane, lane_ref, Vec::new())?;
                continue;
            }
            // A task the search ran when it was queued: inert then (a task queued by the browser
            // itself, a timer's, is judged now, as the search judged it when it came due).
            let facts = &self.facts;
            let inert = lanes.iter().position(|(_, lane_ref)| {
                sim.world.peek_task(*lane_ref).is_some_and(|task| {
                    task.document.is_some_and(|doc| {
                        task.inert_when_queued.unwrap_or_else(|| sim.inert_task(facts, doc, &task.steps))
                    })
                })
            });
            let (at, pick) = match inert {
                Some(at) => (at, None),
                None => {
                    let Some(next) = picks.next() else {
                        return Err(RunError::NotModelled(format!(
                            "simulator bug: witness {searched} ends before the faithful run does"
                        )));
                    };
                    let at = lanes.iter().position(|(lane, _)| lane == next).ok_or_else(|| {
                        RunError::NotModelled(format!(
                            "simulator bug: witness {searched}: {next} is not runnable in the faithful run"
                        ))
                    })?;
                    (at, Some(next))
                }
            };
            let (lane, lane_ref) = lanes.into_iter().nth(at).expect("a listed lane");
            out.push(lane.clone());
            sim.step(&lane, lane_ref, Vec::new())?;
            if let Some(pick) = pick.filter(|_| keep) {
                self.at_pick.push((sim.clone(), out.clone()));
                self.picks.push(pick.clone());
            }
        }
        if picks.next().is_some() {
            return Err(RunError::NotModelled(format!("simulator bug: witness {searched} outlives the faithful run")));
        }
        Ok((out.len(), sched::picks_text(&out)))
    }
}

/// Knuth's random-probe estimate of the choice points in the tree of schedules the search walks
/// (`explore::knuth_estimate`: `probes` schedules from a fixed seed), before state caching and
/// sleep sets, which make the search itself far smaller.
pub fn estimate_tree(program: &Program, options: &ExploreOptions, probes: u32) -> Result<Estimate, RunError> {
    let model = SimModel::exploring(program, options);
    ::explore::knuth_estimate(&model, probes, 0, options.search.max_units)
}

/// The leaves of `program`'s sleep-set tree under the stateless search's footprints
/// (`explore::count_traces`, one count per (state, sleep set) pair, so it finishes where that
/// search runs too long), within `options`' bounds. The stateless search runs as many complete
/// executions on most of the corpus; fewer where a queue append's footprint depends on the
/// order, and one more where a step alone sits in the FIFO parallel queue
/// (`crates/cli/tests/it/stateless.rs`). Needs the state's fingerprint, so a scenario with
/// JavaScript pages (whose heaps are not in it) is an error.
pub fn count_traces(program: &Program, options: &ExploreOptions) -> Result<Traces, RunError> {
    if program.has_page_scripts() {
        return Err(RunError::Scenario(
            "counting traces needs every state's fingerprint, and a JavaScript page's heap is not in it: count a scenario in the action language".into(),
        ));
    }
    let stateless = ExploreOptions { kind: SearchKind::Stateless, ..options.clone() };
    let model = SimModel::exploring(program, &stateless);
    ::explore::count_traces(&model, &stateless.search)
}

/// Explores every schedule of `program` within the bounds of `options`.
pub fn explore(program: &Program, options: &ExploreOptions) -> Result<Exploration, RunError> {
    explore_measured(program, options).map(|(exploration, _)| exploration)
}

/// `explore`, also measuring the visited tables (summed over work items).
pub fn explore_measured(program: &Program, options: &ExploreOptions) -> Result<(Exploration, VisitedMemory), RunError> {
    // A JavaScript page's heap cannot be cloned, and the stateful search clones states; the
    // stateless search runs every schedule from a new `Sim` (with new realms) instead.
    let stateless_pages;
    let options = if program.has_page_scripts() {
        if options.kind != SearchKind::Stateless && options.kind_given {
            return Err(RunError::NotModelled(
                "exploring a scenario with JavaScript pages needs the stateless search: drop `--search stateful` (`run`, `replay` and `explore --sample` work too)".into(),
            ));
        }
        let search = &options.search;
        let unsupported = [
            (!search.reduce, "--naive"),
            (search.delay_bound.is_some(), "--delay-bound"),
            (search.shard.1 > 1, "--shard"),
        ];
        if let Some((_, flag)) = unsupported.iter().find(|(set, _)| *set) {
            return Err(RunError::NotModelled(format!(
                "{flag}: a scenario with JavaScript pages is explored by the stateless search, which does not support {flag} yet"
            )));
        }
        // Inert tasks are learned from the pages as the search runs (`crate::inert::learned`).
        // The fewest-choice pass copies states: it is not used for pages, and the report says
        // its witnesses are the ones the search met.
        stateless_pages = ExploreOptions { kind: SearchKind::Stateless, shortest_witnesses: false, ..options.clone() };
        &stateless_pages
    } else {
        options
    };
    // The stateless search does not split the search into work items (its threads run
    // executions ahead, `explore::stateless`): the split depth that `--jobs` implies for the
    // stateful search would only change what the report says of its options.
    let unsplit;
    let options = if options.kind == SearchKind::Stateless && options.search.split_depth != 0 {
        unsplit =
            ExploreOptions { search: SearchOptions { split_depth: 0, ..options.search.clone() }, ..options.clone() };
        &unsplit
    } else {
        options
    };
    // A task suspended mid-script keeps its loop busy across units, which the inert-task facts
    // do not know: the variant explores without them (`SimModel::exploring`), and says so.
    let without_inert;
    let options = if program.has_variant(scenario::Variant::InParallelReadsMidTask) && options.inert_tasks {
        without_inert = ExploreOptions { inert_tasks: false, ..options.clone() };
        &without_inert
    } else {
        options
    };
    // The search's start: `--time-limit` bounds the search and the witness passes together.
    let start = Instant::now();
    // The fewest-choice witness passes run on a thread of their own while the search runs
    // (`witnesses::Ahead`): what they give does not depend on when the search ends.
    let targets = std::sync::OnceLock::new();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let inert = options.inert();
    let (searched, ahead) = std::thread::scope(|scope| {
        let ahead = (options.shortest_witnesses && options.witnesses_beside_search)
            .then(|| scope.spawn(|| witnesses::Ahead::run(program, options, start, inert, &targets, &cancel)));
        // Should the search panic (a simulator bug), the passes stop too instead of waiting for
        // outcomes that never come, and the panic reaches the caller once they have.
        let _stop_the_passes = scopeguard::guard((), |()| cancel.store(true, Ordering::Relaxed));
        let searched = search_and_merge(program, options, start);
        match &searched {
            Ok((merged, _)) if merged.complete => {
                let _ = targets.set(witnesses::targets(merged));
            }
            _ => cancel.store(true, Ordering::Relaxed),
        }
        let ahead = ahead.map(|thread| thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        (searched, ahead)
    });
    let (mut merged, split) = searched?;
    if options.shortest_witnesses {
        // Every shard finds the same witness for an outcome (it depends on the scenario only),
        // so merged shards give what one run gives.
        let ahead = ahead.unwrap_or_default();
        merged.witnesses = witnesses::fewest_choice_witnesses(program, options, start, inert, ahead, &mut merged)?;
    }
    let (k, n) = options.search.shard;
    merged.shard = format!("{k}/{n}");
    if k == 1 {
        // The choice points above the split are counted once, by shard 1.
        merged.states += split.states;
        merged.transitions += split.transitions;
    }
    Ok((merged, split.memory))
}

/// The search of `explore_measured`, its report as an exploration, with the witnesses the search
/// met (made faithful, unless the witness passes follow).
fn search_and_merge(
    program: &Program,
    options: &ExploreOptions,
    start: Instant,
) -> Result<(Exploration, Split), RunError> {
    let model = SimModel::exploring(program, options);
    // A search that meets a page contradicting a learned fact starts again, within what is left
    // of the time limit (`crate::inert::learned`); the executions thrown away are counted.
    let (mut restarts, mut thrown_away) = (0u32, 0u64);
    let searched = loop {
        let mut search = options.search.clone();
        search.time_limit = search.time_limit.map(|limit| limit.saturating_sub(start.elapsed()));
        let searched = match options.kind {
            SearchKind::Stateful => ::explore::search(&model, &search),
            SearchKind::Stateless => ::explore::stateless::search(&model, &search),
        };
        match searched {
            Err(RunError::Contradicted) => {
                restarts += 1;
                thrown_away = model.started.load(Ordering::Relaxed);
            }
            searched => break searched?,
        }
    };
    let mut merged = exploration_of(program, options, searched.report);
    if let Some(learned) = &model.learned {
        merged.options.push(match learned.count() {
            0 => "inert-tasks=learned from the pages (no fact contradicted)".to_string(),
            n => format!(
                "inert-tasks=learned from the pages ({n} fact(s) contradicted: {}; {restarts} restart(s), {thrown_away} execution(s) thrown away)",
                learned.describe()
            ),
        });
    }
    if searched.counts_vary {
        // Not an option that decides the outcomes, but what the counts are: said where the
        // report states its options, so no one takes them for exact.
        merged.options.push(format!(
            "jobs={} (the threads share one visited table and split the work as they go: states, transitions, work items, end states and the witnesses the search met vary from run to run)",
            options.search.jobs
        ));
    }
    if !options.shortest_witnesses && options.inert() {
        to_faithful_schedules(program, &model.learned, &mut merged)?;
    }
    Ok((
        merged,
        Split { states: searched.split_states, transitions: searched.split_transitions, memory: searched.memory },
    ))
}

/// What `search_and_merge` gives besides the exploration: the choice points and transitions
/// above the split (counted by shard 1 only) and the visited tables' memory.
struct Split {
    states: u64,
    transitions: u64,
    memory: VisitedMemory,
}

/// The engine's report as the simulator's exploration report (witnesses as the search met
/// them; shard 1/1).
fn exploration_of(
    program: &Program,
    options: &ExploreOptions,
    report: ::explore::Report<trace::Outcome>,
) -> Exploration {
    Exploration {
        version: trace::VERSION,
        scenario: program.name.clone(),
        options: program.spec_options().into_iter().chain(options.describe()).collect(),
        shard: "1/1".into(),
        work_items: report.work_items,
        states: report.states,
        transitions: report.transitions,
        complete: report.complete(),
        bounds_hit: report.bounds_hit,
        witnesses: trace::WITNESSES_FOUND.into(),
        file: String::new(),
        stateless: (report.search == SearchKind::Stateless)
            .then_some(trace::Executions { executions: report.executions, redundant: report.redundant }),
        outcomes: report
            .outcomes
            .into_iter()
            .map(|class| OutcomeClass {
                summary: class.outcome.summary(),
                outcome: class.outcome,
                end_states: class.end_states,
                witness: class.witness,
                witness_choices: class.witness_choices,
            })
            .collect(),
    }
}

/// The simulator as the engine's model: a `Sim` is a state, a lane is a `LaneRef`, its label a
/// `sched::Lane`, a step one unit with its `Footprint`.
pub struct SimModel<'p> {
    program: &'p Program,
    /// Initial states run inert tasks when they are queued (`crate::inert`).
    inert_tasks: bool,
    /// With inert tasks on: no unit of the scenario can change a lifecycle
    /// (`InertFacts::lifecycles_fixed`), so a unit that reads nothing else and writes nothing is
    /// explored alone from its choice point.
    lifecycles_fixed: bool,
    /// For the stateless search: a task's run also reads its queue (see `step`).
    stateless: bool,
    /// With inert tasks on, in a scenario with JavaScript pages: the facts learned from the
    /// pages, shared by every execution (`crate::inert::learned`); a step that contradicts one
    /// ends the search with `RunError::Contradicted`, and `explore_measured` starts it again.
    learned: Option<Arc<Learned>>,
    /// Executions (initial states) made so far, to count those a restart throws away.
    started: AtomicU64,
}

impl<'p> SimModel<'p> {
    /// The model the search walks with `options`.
    pub fn exploring(program: &'p Program, options: &ExploreOptions) -> SimModel<'p> {
        // A task suspended mid-script (variant `in-parallel-reads-mid-task`) keeps its event loop
        // busy across units, which the inert-task facts and the units explored alone do not
        // take into account: the variant explores without either (docs/model.md).
        let split = program.has_variant(scenario::Variant::InParallelReadsMidTask);
        SimModel {
            program,
            inert_tasks: options.inert() && !split,
            lifecycles_fixed: !split
                && options.inert_tasks
                && crate::inert::facts::InertFacts::lifecycles_fixed(program),
            stateless: options.kind == SearchKind::Stateless,
            learned: (options.inert() && program.has_page_scripts()).then(Default::default),
            started: AtomicU64::new(0),
        }
    }
}

/// What `user.wait` touches: the user's queue, written (`Unit::UserWait` in `Sim::step_on`).
fn user_wait_footprint() -> Footprint {
    let mut fp = Footprint::default();
    fp.touch(crate::footprint::Resource::UserQueue, true);
    fp
}

impl ::explore::Footprint for Footprint {
    #[inline(always)]
    fn conflicts(&self, other: &Footprint) -> bool {
        Footprint::conflicts(self, other)
    }

    #[inline(always)]
    fn breadth(&self) -> u32 {
        Footprint::breadth(self)
    }
}

impl From<::explore::Failure> for RunError {
    fn from(failure: ::explore::Failure) -> RunError {
        match failure {
            ::explore::Failure::Nondeterministic(m) => RunError::NotModelled(m),
            ::explore::Failure::Threads(m) => RunError::Scenario(m),
        }
    }
}

impl<'p> ::explore::Model for SimModel<'p> {
    type State = Sim<'p>;
    type Lane = browser::LaneRef;
    type Label = Lane;
    type Footprint = Footprint;
    type Outcome = trace::Outcome;
    type Error = RunError;
    type Numbering = LaneTable;

    fn initial(&self) -> Result<Sim<'p>, RunError> {
        let mut sim = Sim::new(self.program)?;
        sim.record = false;
        // The search's outcomes are canonical (`SimModel::outcome`): each finding once.
        sim.findings.drop_repeats();
        sim.name_queued_tasks = self.stateless;
        if self.inert_tasks {
            sim.eager_inert = Some(std::rc::Rc::new(InertFacts::sharing(self.program, &self.learned)));
        }
        self.started.fetch_add(1, Ordering::Relaxed);
        Ok(sim)
    }

    #[inline(always)]
    fn runnable(&self, sim: &mut Sim<'p>, out: &mut Vec<browser::LaneRef>) {
        sim.runnable_into(out)
    }

    #[inline(always)]
    fn step(&self, sim: &mut Sim<'p>, lane: browser::LaneRef) -> Result<Footprint, RunError> {
        let mut fp = sim.step_listed(lane)?;
        if self.learned.as_ref().is_some_and(|learned| learned.take_contradicted()) {
            // A page did what the search assumed no page does: it starts again.
            return Err(RunError::Contradicted);
        }
        if self.stateless {
            // The stateless search orders steps by happens-before, and a task taken from a queue
            // needs the step that appended it: when the queue was empty that step made the lane
            // runnable (the search sees it), but when it was not, only a conflict can say so.
            // Taking a task from the head of its queue therefore conflicts with the append of the
            // task right behind it (which writes the taken task's `Resource::QueuedTask` bit and
            // the queue) and with no other append: the task taken is ahead of any other in either
            // order, and the appended task runs after this take. A take that skipped a task (of a
            // document not fully active) or a suspended task's rest reads its queue as a whole, as
            // a block taken from the FIFO parallel queue reads that queue, which every append
            // writes (docs/model.md, "Stateless exploration"). The stateful search, which
            // compares states, does without.
            match lane {
                browser::LaneRef::Task { event_loop, source } => match sim.taken_task {
                    Some(hash) => fp.take_task(event_loop, source, hash),
                    None => fp.touch(crate::footprint::Resource::Queue(event_loop, source), false),
                },
                browser::LaneRef::ParallelQueue => fp.touch(crate::footprint::Resource::ParallelQueue, false),
                // The search trusts `lane_bound` for steps it has not run where it schedules
                // them: a step outside its bound is a simulator bug, not a schedule to explore.
                browser::LaneRef::UserWait if fp != user_wait_footprint() => {
                    return Err(RunError::NotModelled(
                        "user.wait touched more than the user's queue, its bound for the stateless search (SimModel::lane_bound)"
                            .into(),
                    ));
                }
                _ => {}
            }
        }
        Ok(fp)
    }

    /// `user.wait` only puts the user's next step off (`Resource::UserQueue`), in every state:
    /// the stateless search can then tell that a lane asleep covers a `user.wait` it schedules
    /// before a user step that disabled it (every redundant execution of four-calls-unload was
    /// such a `user.wait`). No other lane has a bound: what a task or a block touches depends on
    /// the state.
    fn lane_bound(&self, label: &Lane) -> Option<Footprint> {
        (label.as_str() == "user.wait").then(user_wait_footprint)
    }

    fn label<'a>(&'a self, sim: &'a Sim<'p>, lane: &browser::LaneRef) -> &'a Lane {
        sim.world.lane_label(lane)
    }

    #[inline(always)]
    fn units(&self, sim: &Sim<'p>) -> usize {
        sim.units_run
    }

    fn outcome(&self, sim: &Sim<'p>) -> trace::Outcome {
        sim.outcome(false).canonical()
    }

    fn outcome_key(&self, outcome: &trace::Outcome) -> u128 {
        browser::digest128(outcome)
    }

    fn schedule_text(&self, picks: &[&Lane]) -> String {
        sched::picks_text(picks)
    }

    #[inline(always)]
    fn alone(&self, fp: &Footprint) -> bool {
        self.lifecycles_fixed && (fp.reads_only_lifecycles() || fp.is_private())
    }

    /// The moments nothing could run (`Sim::moments`): virtual time advancing, or fetches put
    /// off arriving at once because it had nowhere to go. Both happen only when nothing else can
    /// run, so no step on either side can be moved to the other (the virtual time alone would
    /// miss the second: `webmcp-sim fuzz` seed 397 with a navigation from a script).
    fn clock(&self, sim: &Sim<'p>) -> u64 {
        sim.moments
    }

    /// A copy with the facts learned so far, its own (`Learned::snapshot`), and no execution
    /// counted yet.
    fn detached(&self) -> Option<SimModel<'p>> {
        Some(SimModel {
            program: self.program,
            inert_tasks: self.inert_tasks,
            lifecycles_fixed: self.lifecycles_fixed,
            stateless: self.stateless,
            learned: self.learned.as_ref().map(|learned| Arc::new(learned.snapshot())),
            started: AtomicU64::new(0),
        })
    }

    /// The facts the copy's execution contradicted, and the execution counted.
    fn adopt(&self, detached: SimModel<'p>) {
        if let (Some(learned), Some(copy)) = (&self.learned, &detached.learned) {
            learned.absorb(copy);
        }
        self.started.fetch_add(detached.started.load(Ordering::Relaxed), Ordering::Relaxed);
    }
}

impl<'p> ::explore::Stateful for SimModel<'p> {
    fn fingerprint(&self, sim: &Sim<'p>) -> u128 {
        sim.fingerprint()
    }
}

/// The hasher of the lane table: foldhash with a fixed seed (the tables are never iterated, so the seed cannot change a result).
type FastBuild = foldhash::fast::FixedState;

/// Numbers the lanes an explorer meets, in the order it meets them (the engine's
/// `LaneNumbering` for `SimModel`).
#[derive(Default)]
pub struct LaneTable {
    ids: HashMap<Lane, LaneId, FastBuild>,
    labels: Vec<Lane>,
    /// Recently numbered labels by the address of their text: labels are interned
    /// (`sched::Name`, one copy of each text), so most look-ups compare a pointer instead of
    /// hashing and comparing text.
    recent: Vec<Option<(Lane, LaneId)>>,
    /// The numbers of the lanes whose label follows from their `LaneRef` alone (an event loop's
    /// task sources: `el<index>.<source>`; the FIFO parallel queue, the agent, the user), by
    /// `fixed_slot`: found once by label, then without looking at the label.
    fixed: Vec<Option<LaneId>>,
}

impl LaneTable {
    /// Slots of `recent` (a power of two).
    const RECENT: usize = 64;

    #[inline]
    fn id(&mut self, lane: &Lane) -> LaneId {
        let address = lane.as_str().as_ptr() as usize;
        // Interned texts are allocations, at least 8-byte aligned: the low bits say nothing.
        let slot = (address >> 4 ^ address >> 10) & (Self::RECENT - 1);
        if let Some(Some((recent, id))) = self.recent.get(slot) {
            if std::ptr::eq(recent.as_str(), lane.as_str()) {
                return *id;
            }
        }
        self.id_by_label(lane, slot)
    }

    /// `id` when the label is not in its `recent` slot.
    #[cold]
    #[inline(never)]
    fn id_by_label(&mut self, lane: &Lane, slot: usize) -> LaneId {
        let id = match self.ids.get(lane) {
            Some(&id) => id,
            None => {
                let id = LaneId::try_from(self.labels.len()).expect("fewer than 2^32 lanes");
                self.labels.push(lane.clone());
                self.ids.insert(lane.clone(), id);
                id
            }
        };
        if self.recent.is_empty() {
            self.recent.resize(Self::RECENT, None);
        }
        self.recent[slot] = Some((lane.clone(), id));
        id
    }

    /// The number of a lane `world` lists (see `World::runnable_into`).
    #[inline(always)]
    fn id_of(&mut self, world: &browser::World<crate::work::Work>, lane: &browser::LaneRef) -> LaneId {
        let Some(slot) = Self::fixed_slot(lane) else { return self.id(world.lane_label(lane)) };
        if let Some(Some(id)) = self.fixed.get(slot) {
            return *id;
        }
        let id = self.id(world.lane_label(lane));
        if self.fixed.len() <= slot {
            self.fixed.resize(slot + 1, None);
        }
        self.fixed[slot] = Some(id);
        id
    }

    /// Where a lane with a fixed label is in `fixed` (None for an in-parallel block's lane).
    fn fixed_slot(lane: &browser::LaneRef) -> Option<usize> {
        use browser::LaneRef;
        Some(match *lane {
            LaneRef::ParallelQueue => 0,
            LaneRef::Agent => 1,
            LaneRef::User => 2,
            LaneRef::UserWait => 3,
            LaneRef::AgentWait => 4,
            LaneRef::NetWait => 5,
            LaneRef::Task { event_loop, source } => 6 + browser::task_lane_index(event_loop, source),
            LaneRef::Parallel(_) => return None,
        })
    }

    fn label(&self, id: LaneId) -> &Lane {
        &self.labels[id as usize]
    }
}

/// The search's schedules (where inert tasks ran when queued) as schedules of the faithful model.
fn to_faithful_schedules(
    program: &Program,
    learned: &Option<Arc<Learned>>,
    exploration: &mut Exploration,
) -> Result<(), RunError> {
    // In the order of their picks, so that each run shares the most with the one before it.
    let mut order: Vec<usize> = (0..exploration.outcomes.len()).collect();
    order.sort_by(|&a, &b| exploration.outcomes[a].witness.cmp(&exploration.outcomes[b].witness));
    let mut runs = FaithfulRuns::new(program, learned)?;
    for i in order {
        let class = &mut exploration.outcomes[i];
        (class.witness_choices, class.witness) = runs.schedule(&class.witness)?;
    }
    exploration.outcomes.sort_by(|a, b| (a.witness_choices, &a.witness).cmp(&(b.witness_choices, &b.witness)));
    Ok(())
}

impl<'p> ::explore::LaneNumbering<SimModel<'p>> for LaneTable {
    #[inline(always)]
    fn id_of(&mut self, _: &SimModel<'p>, sim: &Sim<'p>, lane: &browser::LaneRef) -> LaneId {
        LaneTable::id_of(self, &sim.world, lane)
    }

    fn id(&mut self, label: &Lane) -> LaneId {
        LaneTable::id(self, label)
    }

    fn label(&self, id: LaneId) -> &Lane {
        LaneTable::label(self, id)
    }

    /// The labels' text is shared with the states, but the table keeps it alive: counted, with
    /// the reference counts in front of it.
    fn bytes(&self) -> usize {
        self.labels.capacity() * std::mem::size_of::<Lane>()
            + self.recent.capacity() * std::mem::size_of::<Option<(Lane, LaneId)>>()
            + ::explore::table_bytes(self.ids.capacity(), std::mem::size_of::<(Lane, LaneId)>())
            + self.labels.iter().map(|l| 2 * std::mem::size_of::<usize>() + l.as_str().len()).sum::<usize>()
    }
}
