//! Exhaustive exploration: every schedule of a scenario, with state caching and sleep sets.
//!
//! The search is a depth-first walk over choice points (states with two or more runnable
//! lanes). Two reductions, both sound for the outcome set (a test compares them with the naive
//! search on the corpus):
//! - **State caching**: a choice point whose fingerprint was already explored with a sleep set no
//!   larger is not explored again; nor is one first explored at a greater depth, unless the
//!   `max-depth` bound has cut a branch in this work item (then the earlier visit may not have
//!   covered everything below it). Reached again with a sleep set that lacks some lanes of the
//!   stored one, it explores only those lanes (Godefroid's state caching with sleep sets: the
//!   others were explored from it before), and the stored set shrinks to the common lanes.
//! - **Sleep sets** (Godefroid): after exploring lane `a` from a state, a sibling lane `b` whose
//!   unit commutes with `a` carries `a` in its sleep set, so `b;a` is not explored again after
//!   `a;b`. A state with one runnable lane (stepped without a choice or a fingerprint) follows
//!   the same rule: when that lane is asleep, the walk stops there. Two units commute when
//!   their footprints do not conflict: neither writes a piece of state (`Resource`: an event
//!   loop's script state, its documents' lifecycle or tool maps, one task queue, a
//!   pending-executions map, the console) that the other reads or writes; agent and bfcache
//!   steps conflict with everything. A unit's footprint is recorded as it runs (docs/model.md
//!   lists who touches what).
//!
//! - **Order**: the order a choice point's lanes are explored in does not change which states
//!   and outcomes are found (any order is sound), only how many transitions reach a state seen
//!   before. By default (`LaneOrder::BroadestFirst`) the lanes whose unit wrote the most the
//!   last time this work item ran them go first: on the bench fixtures this explores 5 % to 11 %
//!   fewer transitions for the same distinct states than label order (docs/ARCHITECTURE.md).
//!
//! For parallel and sharded runs the tree is cut at `split_depth` choice points into work items
//! that are explored independently (each with its own cache), so the result does not depend on
//! how many threads or shards run them. A work item is its choice path; the thread that explores
//! it replays the path from the initial state (`replay_prefix`), so states never cross threads.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use sched::Lane;
use trace::{Exploration, OutcomeClass};

use crate::program::Program;
use crate::sim::{Footprint, RunError, Sim};

/// Which reductions to use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reduction {
    /// Every schedule, one by one.
    None,
    /// State caching plus sleep sets.
    Full,
}

/// The order a choice point's lanes are explored in. Sound either way; it decides how many
/// transitions reach a state seen before, and which witness schedules are found first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LaneOrder {
    /// By lane label.
    Label,
    /// The lanes whose unit wrote the most the last time this work item ran them first
    /// (`Footprint::breadth`: a unit that conflicts with everything, then more resources
    /// written), lanes not run yet last; ties by label. A measured heuristic, not a theorem:
    /// on the bench fixtures it explores 5 % (three) to 11 % (five) fewer transitions than label
    /// order (fewer re-expanded states, fewer transitions to states seen before); over the
    /// corpus the total is the same, and no scenario takes more than 3 transitions more.
    BroadestFirst,
}

/// Bounds and knobs of an exploration.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    pub reduction: Reduction,
    /// The order a choice point's lanes are explored in.
    pub lane_order: LaneOrder,
    /// Choice points visited per work item before the search stops (incomplete).
    pub max_states: u64,
    /// Choices along one schedule before that branch stops (incomplete).
    pub max_depth: usize,
    /// Units along one schedule before that branch stops (incomplete).
    pub max_units: usize,
    /// Wall-clock limit for the whole exploration (incomplete when hit; the only bound whose
    /// effect depends on the machine).
    pub time_limit: Option<Duration>,
    /// Choice points expanded without reduction to cut the tree into work items.
    pub split_depth: usize,
    /// Threads (1 = no rayon).
    pub jobs: usize,
    /// Explore only work items whose index is `k-1` modulo `n`.
    pub shard: (u64, u64),
    /// A counter of states visited so far, for a progress display (never read by the search).
    pub progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
    /// After a complete search, find each outcome's fewest-choice witness (`shortest_witnesses`:
    /// a breadth-first pass over the states). Off, the witnesses are the shortest the search met.
    pub shortest_witnesses: bool,
    /// With the full reduction: run inert tasks when they are queued (`crate::inert`); the
    /// witnesses are turned back into schedules of the faithful model (`faithful_schedule`).
    pub inert_tasks: bool,
    /// Set (by a Ctrl-C handler) to stop the search: it ends as if a bound were hit and says
    /// "interrupted".
    pub interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Default for ExploreOptions {
    fn default() -> ExploreOptions {
        ExploreOptions {
            reduction: Reduction::Full,
            lane_order: LaneOrder::BroadestFirst,
            max_states: 2_000_000,
            max_depth: 500,
            max_units: 5_000,
            time_limit: None,
            split_depth: 2,
            jobs: 1,
            shard: (1, 1),
            progress: None,
            shortest_witnesses: true,
            inert_tasks: true,
            interrupt: None,
        }
    }
}

impl ExploreOptions {
    /// The options that decide the result, for the report and for `merge`.
    pub fn describe(&self) -> Vec<String> {
        vec![
            format!(
                "reduction={}",
                match (self.reduction, self.inert_tasks) {
                    (Reduction::Full, true) => "state-caching+sleep-sets+inert-tasks",
                    (Reduction::Full, false) => "state-caching+sleep-sets",
                    _ => "none",
                }
            ),
            format!(
                "lane-order={}",
                match self.lane_order {
                    LaneOrder::Label => "label",
                    LaneOrder::BroadestFirst => "broadest-first",
                }
            ),
            format!("split-depth={}", self.split_depth),
            format!("max-states={}", self.max_states),
            format!("max-depth={}", self.max_depth),
            format!("max-units={}", self.max_units),
            format!("witnesses={}", if self.shortest_witnesses { "shortest" } else { "as-found" }),
        ]
    }
}

/// A subtree to explore, named by the choices that lead to it from the initial state. (A work
/// item carries no state: the thread that explores it replays the choices, so the state, with its
/// reference-counted parts, never crosses threads.)
struct WorkItem {
    path: Vec<Lane>,
}

/// The state a work item starts from: the initial state, then forced steps and the item's choices
/// in order, stopping right after the last choice.
fn replay_prefix<'p>(program: &'p Program, options: &ExploreOptions, path: &[Lane]) -> Result<Sim<'p>, RunError> {
    let mut sim = exploring_sim(program, options)?;
    let mut picks = path.iter();
    let Some(mut next) = picks.next() else { return Ok(sim) };
    loop {
        let lanes = sim.runnable();
        if lanes.len() == 1 {
            let (lane, lane_ref) = lanes.into_iter().next().expect("one lane");
            sim.step(&lane, lane_ref, Vec::new())?;
            continue;
        }
        let Some((lane, lane_ref)) = lanes.into_iter().find(|(lane, _)| lane == next) else {
            return Err(RunError::NotModelled(format!("work item choice {next} is not runnable on replay")));
        };
        sim.step(&lane, lane_ref, Vec::new())?;
        match picks.next() {
            Some(lane) => next = lane,
            None => return Ok(sim),
        }
    }
}

/// The initial state as the search sees it: not recorded, and with inert tasks run when queued
/// when `options` asks for it (`crate::inert`).
fn exploring_sim<'p>(program: &'p Program, options: &ExploreOptions) -> Result<Sim<'p>, RunError> {
    let mut sim = Sim::new(program)?;
    sim.record = false;
    if options.reduction == Reduction::Full && options.inert_tasks {
        sim.eager_inert = Some(std::rc::Rc::new(crate::inert::InertFacts::of(program)));
    }
    Ok(sim)
}

/// A schedule of the search (where inert tasks run when they are queued, `crate::inert`) as a
/// schedule of the faithful model, with its number of choices: the same picks, and at every
/// choice point where a lane's next task is inert, that lane first (the first such in label
/// order). Each inert task then runs as soon as it reaches the head of its queue, which leads to
/// the same outcome: it commutes with everything run in between.
pub fn faithful_schedule(program: &Program, searched: &str) -> Result<(usize, String), RunError> {
    let schedule = sched::Schedule::parse(searched)
        .map_err(|e| RunError::NotModelled(format!("simulator bug: witness {searched:?} does not parse: {e}")))?;
    let facts = crate::inert::InertFacts::of(program);
    let mut sim = Sim::new(program)?;
    sim.record = false;
    let mut picks = schedule.picks.iter();
    let mut out: Vec<Lane> = Vec::new();
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
        let inert = lanes.iter().position(|(_, lane_ref)| {
            sim.world
                .peek_task(*lane_ref)
                .is_some_and(|task| task.document.is_some_and(|doc| sim.inert_task(&facts, doc, &task.steps)))
        });
        let at = match inert {
            Some(at) => at,
            None => {
                let Some(next) = picks.next() else {
                    return Err(RunError::NotModelled(format!(
                        "simulator bug: witness {searched} ends before the faithful run does"
                    )));
                };
                lanes.iter().position(|(lane, _)| lane == next).ok_or_else(|| {
                    RunError::NotModelled(format!(
                        "simulator bug: witness {searched}: {next} is not runnable in the faithful run"
                    ))
                })?
            }
        };
        let (lane, lane_ref) = lanes.into_iter().nth(at).expect("a listed lane");
        out.push(lane.clone());
        sim.step(&lane, lane_ref, Vec::new())?;
    }
    if picks.next().is_some() {
        return Err(RunError::NotModelled(format!("simulator bug: witness {searched} outlives the faithful run")));
    }
    Ok((out.len(), sched::picks_text(&out)))
}

/// Explores every schedule of `program` within the bounds of `options`.
pub fn explore(program: &Program, options: &ExploreOptions) -> Result<Exploration, RunError> {
    explore_measured(program, options).map(|(exploration, _)| exploration)
}

/// `explore`, also measuring the visited tables (summed over work items).
pub fn explore_measured(program: &Program, options: &ExploreOptions) -> Result<(Exploration, VisitedMemory), RunError> {
    let start = Instant::now();
    let mut items = Vec::new();
    let mut split_counts = (0, 0);
    if options.split_depth == 0 {
        // One work item, the whole tree: `split` would only name it (the item's thread makes
        // the initial state).
        items.push(WorkItem { path: Vec::new() });
    } else {
        let root = exploring_sim(program, options)?;
        split(root, Vec::new(), options, &mut items, &mut split_counts)?;
    }
    let (k, n) = options.shard;
    let mine: Vec<(usize, WorkItem)> =
        items.into_iter().enumerate().filter(|(i, _)| (*i as u64) % n == k - 1).collect();
    // One budget of choice points for the whole search: threads share a counter; one thread
    // passes on what its earlier work items used (no atomic operation per state).
    let budget = (options.jobs > 1).then(|| std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0)));
    let run_item = |(_, item): (usize, WorkItem), used_before: u64| -> Result<(Exploration, VisitedMemory), RunError> {
        let mut ex = Explorer::new(options, start);
        ex.budget = budget.clone();
        ex.used_before = used_before;
        ex.lifecycles_fixed = options.inert_tasks && crate::inert::InertFacts::lifecycles_fixed(program);
        let mut sim = replay_prefix(program, options, &item.path)?;
        let mut path: Vec<LaneId> = item.path.iter().map(|lane| ex.lanes.id(lane)).collect();
        ex.dfs(&mut sim, &mut path, 0)?;
        let memory = ex.memory();
        Ok((ex.finish(program, options), memory))
    };
    let parts: Vec<(Exploration, VisitedMemory)> = if options.jobs > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.jobs)
            .stack_size(256 << 20)
            .build()
            .map_err(|e| RunError::Scenario(format!("cannot start {} threads: {e}", options.jobs)))?;
        pool.install(|| mine.into_par_iter().map(|item| run_item(item, 0)).collect::<Result<Vec<_>, _>>())?
    } else {
        let mut used = 0;
        let mut parts = Vec::with_capacity(mine.len());
        for item in mine {
            let part = run_item(item, used)?;
            used += part.0.states;
            parts.push(part);
        }
        parts
    };
    let mut memory = VisitedMemory::default();
    for (_, m) in &parts {
        memory.states += m.states;
        memory.bytes += m.bytes;
    }
    let parts: Vec<Exploration> = parts.into_iter().map(|(e, _)| e).collect();
    let mut merged = if parts.is_empty() {
        Explorer::new(options, start).finish(program, options)
    } else {
        Exploration::merge_owned(parts).map_err(RunError::Scenario)?
    };
    let inert = options.reduction == Reduction::Full && options.inert_tasks;
    if options.shortest_witnesses {
        // Every shard finds the same witness for an outcome (it depends on the scenario only),
        // so merged shards give what one run gives.
        merged.witnesses = fewest_choice_witnesses(program, options, start, inert, &mut merged)?;
    } else if inert {
        to_faithful_schedules(program, &mut merged)?;
    }
    merged.shard = format!("{k}/{n}");
    if k == 1 {
        // The choice points above the split are counted once, by shard 1.
        merged.states += split_counts.0;
        merged.transitions += split_counts.1;
    }
    Ok((merged, memory))
}

/// Expands the first `split_depth` choice points naively, in lane order, collecting work items.
fn split<'p>(
    mut sim: Sim<'p>,
    path: Vec<Lane>,
    options: &ExploreOptions,
    out: &mut Vec<WorkItem>,
    counts: &mut (u64, u64),
) -> Result<(), RunError> {
    loop {
        let lanes = sim.runnable();
        if path.len() >= options.split_depth || lanes.len() != 1 {
            if path.len() >= options.split_depth || lanes.is_empty() || sim.units_run >= options.max_units {
                out.push(WorkItem { path });
                return Ok(());
            }
            counts.0 += 1;
            for (lane, lane_ref) in lanes {
                let mut child = sim.clone();
                child.step(&lane, lane_ref, Vec::new())?;
                counts.1 += 1;
                let mut child_path = path.clone();
                child_path.push(lane);
                split(child, child_path, options, out, counts)?;
            }
            return Ok(());
        }
        if sim.units_run >= options.max_units {
            out.push(WorkItem { path });
            return Ok(());
        }
        let (lane, lane_ref) = lanes.into_iter().next().expect("one lane");
        sim.step(&lane, lane_ref, Vec::new())?;
    }
}

/// A state's 128-bit fingerprint as a visited-table key: two `u64`s (8-byte aligned, so a table
/// entry is 24 bytes, not the 32 a `u128` key's alignment would make it).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    lo: u64,
    hi: u64,
}

impl Key {
    fn new(fingerprint: u128) -> Key {
        Key { lo: fingerprint as u64, hi: (fingerprint >> 64) as u64 }
    }
}

impl std::hash::Hash for Key {
    /// The low half of an XXH3 digest is already uniformly distributed.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.lo);
    }
}

/// Passes a `Key`'s low half through as the table's hash (instead of running SipHash over it).
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Only `Key`s are hashed here (through `write_u64`); this is the fallback for any other.
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0 ^ u64::from_le_bytes(word)).rotate_left(29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = word;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type KeyMap<V> = HashMap<Key, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// A lane's number in one explorer (see `LaneTable`). Sleep sets, stored sleep sets and the
/// current path hold numbers instead of labels, so comparing, copying and hashing them is cheap.
type LaneId = u32;

/// The runnable lanes of a state, in label order.
type Lanes = Vec<browser::LaneRef>;

/// The hasher of the explorer's small tables (lane labels, sleep sets): foldhash with a fixed
/// seed (the tables are never iterated, so the seed cannot change a result).
type FastBuild = foldhash::fast::FixedState;

/// Numbers the lanes an explorer meets, in the order it meets them.
#[derive(Default)]
struct LaneTable {
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
    fn id_of(&mut self, world: &browser::World<crate::sim::Work>, lane: &browser::LaneRef) -> LaneId {
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
            LaneRef::Task { event_loop, source } => 4 + browser::task_lane_index(event_loop, source),
            LaneRef::Parallel(_) => return None,
        })
    }

    fn label(&self, id: LaneId) -> &Lane {
        &self.labels[id as usize]
    }
}

/// The distinct non-empty sleep sets of visited choice points, each a sorted list of lane
/// numbers, and their indices (few distinct sets recur across many states).
#[derive(Default)]
struct SleepSets {
    sets: Vec<Box<[LaneId]>>,
    index: HashMap<Box<[LaneId]>, u32, FastBuild>,
}

impl SleepSets {
    /// The set a `Visit::sleep` value names.
    fn get(&self, visit_sleep: u32) -> &[LaneId] {
        match visit_sleep {
            0 => &[],
            i => &self.sets[i as usize - 1],
        }
    }

    /// A sorted set's `Visit::sleep` value: 0 for the empty set, else 1 + its index.
    fn intern(&mut self, sorted: &[LaneId]) -> u32 {
        if sorted.is_empty() {
            return 0;
        }
        if let Some(&index) = self.index.get(sorted) {
            return index;
        }
        self.sets.push(sorted.into());
        let index = u32::try_from(self.sets.len()).expect("fewer than 2^32 sleep sets");
        self.index.insert(sorted.into(), index);
        index
    }
}

/// A sleep-set entry: a lane explored from an earlier state, and what its unit touched there.
type Asleep = (LaneId, Footprint);

/// Whether `lane` is in a sleep set.
fn is_asleep(sleep: &[Asleep], lane: LaneId) -> bool {
    sleep.iter().any(|(l, _)| *l == lane)
}

/// Keeps the entries of `stack[from..]` that `keep` accepts, in order.
fn retain_from(stack: &mut Vec<Asleep>, from: usize, mut keep: impl FnMut(&Asleep) -> bool) {
    let mut kept = from;
    for i in from..stack.len() {
        if keep(&stack[i]) {
            stack[kept] = stack[i];
            kept += 1;
        }
    }
    stack.truncate(kept);
}

/// A visited choice point: the smallest depth it was explored at, and its sleep set (0: empty,
/// otherwise 1 + an index into `SleepSets`; most sleep sets are empty).
#[derive(Clone, Copy)]
struct Visit {
    depth: u32,
    sleep: u32,
}

/// What the visited table costs, measured: the hash table's buckets (key, `Visit`, control
/// byte) at its real capacity, plus the stored non-empty sleep sets and the lane table their
/// numbers refer to.
#[derive(Clone, Copy, Debug, Default)]
pub struct VisitedMemory {
    pub states: u64,
    pub bytes: u64,
}

impl VisitedMemory {
    pub fn bytes_per_state(&self) -> f64 {
        self.bytes as f64 / self.states.max(1) as f64
    }
}

/// The bytes of a hashbrown table that can hold `capacity` entries of `entry` bytes: at most
/// 7/8 of a power-of-two number of buckets are full (all but one below 8 buckets), with one
/// control byte per bucket plus one group of 16.
fn table_bytes(capacity: usize, entry: usize) -> usize {
    let buckets = if capacity == 0 {
        0
    } else if capacity < 8 {
        (capacity + 1).next_power_of_two()
    } else {
        (capacity * 8 / 7).next_power_of_two()
    };
    buckets * (entry + 1) + if buckets > 0 { 16 } else { 0 }
}

struct Explorer<'o> {
    options: &'o ExploreOptions,
    start: Instant,
    visited: KeyMap<Visit>,
    sleep_sets: SleepSets,
    lanes: LaneTable,
    /// The sleep sets and explored siblings of the choice points on the current path, as one
    /// stack: a call of `dfs` owns the top, from the `base` it is given (its sleep set, then the
    /// lanes it has explored so far); a child's sleep set is pushed above.
    sleep: Vec<Asleep>,
    /// A buffer for a sleep set being sorted or narrowed.
    scratch: Vec<LaneId>,
    /// Spare buffers for the runnable lanes of a `dfs` call (one per level of the current path,
    /// reused so that listing the lanes before every step allocates nothing).
    lane_bufs: Vec<Lanes>,
    /// Distinct outcomes by the digest of the canonical outcome (the report orders them by
    /// witness, not by this key).
    outcomes: BTreeMap<u128, OutcomeClass>,
    /// End-state fingerprint → outcome key.
    end_states: KeyMap<u128>,
    states: u64,
    transitions: u64,
    bounds_hit: Vec<String>,
    /// The depth bound has cut a branch in this work item.
    depth_cut: bool,
    /// The max-states bound or the time limit has stopped this work item (see `stopped`).
    halted: bool,
    /// By lane number: `Footprint::breadth` of the lane's unit the last time this work item ran
    /// it from a choice point, plus one (0: not run yet). Orders lanes for
    /// `LaneOrder::BroadestFirst`.
    breadth: Vec<u32>,
    /// With inert tasks on: no unit of the scenario can change a lifecycle
    /// (`InertFacts::lifecycles_fixed`), so a unit that reads nothing else and writes nothing is
    /// explored alone from its choice point.
    lifecycles_fixed: bool,
    /// With several threads: choice points visited by every work item of the search so far.
    budget: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
    /// With one thread: choice points the earlier work items visited.
    used_before: u64,
}

impl<'o> Explorer<'o> {
    /// The visited table's first capacity (2,048 buckets, 50 KiB): growing a table from a
    /// handful of entries rehashes every entry several times over, a cost each small
    /// exploration would pay in full (1 % of the three-executions fixture's time, measured with
    /// perf), while a large one soon outgrows this capacity anyway.
    const INITIAL_STATES: usize = 1024;

    fn new(options: &'o ExploreOptions, start: Instant) -> Explorer<'o> {
        Explorer {
            options,
            start,
            visited: KeyMap::with_capacity_and_hasher(Self::INITIAL_STATES, Default::default()),
            sleep_sets: SleepSets::default(),
            lanes: LaneTable::default(),
            sleep: Vec::new(),
            scratch: Vec::new(),
            lane_bufs: Vec::new(),
            outcomes: BTreeMap::new(),
            end_states: KeyMap::default(),
            states: 0,
            transitions: 0,
            bounds_hit: Vec::new(),
            depth_cut: false,
            halted: false,
            breadth: Vec::new(),
            lifecycles_fixed: false,
            budget: None,
            used_before: 0,
        }
    }

    fn hit(&mut self, bound: &str) {
        self.halted |= bound.starts_with("max-states") || bound.starts_with("time") || bound == "Ctrl-C";
        if !self.bounds_hit.iter().any(|b| b == bound) {
            self.bounds_hit.push(bound.to_string());
        }
    }

    /// True (and the bound recorded) once the wall-clock limit has passed. Without a limit, a
    /// test of one field (asked at every choice point and child: not worth a call).
    #[inline(always)]
    fn out_of_time(&mut self) -> bool {
        match self.options.time_limit {
            None => false,
            Some(limit) => self.past(limit),
        }
    }

    /// `out_of_time` with a limit.
    #[inline(never)]
    fn past(&mut self, limit: Duration) -> bool {
        if self.start.elapsed() < limit {
            return false;
        }
        self.hit(&format!("time ({} s)", limit.as_secs_f64()));
        true
    }

    /// A max-states or time bound has been hit.
    fn stopped(&mut self) -> bool {
        if !self.halted {
            if let Some(flag) = &self.options.interrupt {
                if flag.load(std::sync::atomic::Ordering::Relaxed) {
                    self.hit("Ctrl-C");
                }
            }
        }
        self.halted
    }

    /// Explores the schedules from `sim`, reached by the choices `path`, with the sleep set
    /// `self.sleep[base..]` (which this call narrows and pushes above; the caller truncates).
    /// The state is borrowed, not owned: the last child steps it in place, and a state is never
    /// moved (a `Sim` is hundreds of bytes).
    fn dfs(&mut self, sim: &mut Sim, path: &mut Vec<LaneId>, base: usize) -> Result<(), RunError> {
        let mut lanes = self.lane_bufs.pop().unwrap_or_default();
        let result = self.dfs_with(sim, path, base, &mut lanes);
        self.lane_bufs.push(lanes);
        result
    }

    /// `dfs`, with a buffer for this call's runnable lanes.
    fn dfs_with(
        &mut self,
        sim: &mut Sim,
        path: &mut Vec<LaneId>,
        base: usize,
        lanes: &mut Lanes,
    ) -> Result<(), RunError> {
        let reduce = self.options.reduction == Reduction::Full;
        // Forced steps until the next choice point, the end, or a lane that is asleep.
        loop {
            sim.runnable_into(lanes);
            if lanes.len() != 1 {
                break;
            }
            if sim.units_run >= self.options.max_units {
                self.hit(&format!("max-units ({})", self.options.max_units));
                return Ok(());
            }
            let lane = lanes.pop().expect("one lane");
            // A state with one runnable lane is a choice point with one choice, and the sleep-set
            // rule holds there too: when that lane is asleep, every schedule from here begins with
            // a step explored from an earlier choice point (where it was explored, the steps since
            // then commute with it), so nothing below here is new.
            if reduce && self.sleep.len() > base && is_asleep(&self.sleep[base..], self.lanes.id_of(&sim.world, &lane))
            {
                return Ok(());
            }
            let fp = sim.step_listed(lane)?;
            if self.sleep.len() > base {
                retain_from(&mut self.sleep, base, |(_, f)| !f.conflicts(&fp));
            }
        }
        if lanes.is_empty() {
            self.record_outcome(sim, path);
            return Ok(());
        }
        if self.stopped() {
            return Ok(());
        }
        if self.out_of_time() {
            return Ok(());
        }
        if path.len() >= self.options.max_depth {
            if !self.depth_cut {
                self.depth_cut = true;
                self.hit(&format!("max-depth ({})", self.options.max_depth));
            }
            return Ok(());
        }
        if sim.units_run >= self.options.max_units {
            self.hit(&format!("max-units ({})", self.options.max_units));
            return Ok(());
        }
        // On a revisit, the lanes to explore: only those asleep at the earlier visit and awake
        // now (the others were explored from this state then). None: every awake lane.
        let mut revisit: Option<smallvec::SmallVec<[LaneId; 8]>> = None;
        if reduce {
            let key = Key::new(sim.fingerprint());
            let depth = path.len() as u32;
            let Explorer { visited, sleep_sets, sleep, scratch, depth_cut, .. } = self;
            let asleep = |lane: &LaneId| is_asleep(&sleep[base..], *lane);
            match visited.entry(key) {
                Entry::Occupied(mut entry) => {
                    let v = entry.get_mut();
                    let stored = sleep_sets.get(v.sleep);
                    // A visit at a greater depth covered everything below this state unless the
                    // depth bound cut some branch somewhere (then it may have cut one below here).
                    let depth_covered = v.depth <= depth || !*depth_cut;
                    if depth_covered && stored.iter().all(asleep) {
                        return Ok(());
                    }
                    // Remember the smaller depth and the common sleep set: the lanes asleep now
                    // that slept then too.
                    v.depth = v.depth.min(depth);
                    if v.sleep != 0 {
                        scratch.clear();
                        scratch.extend(stored.iter().copied().filter(asleep));
                        if depth_covered {
                            // Godefroid's state caching with sleep sets: explore the lanes that
                            // slept then and are awake now, with the sleep set both visits share.
                            revisit = Some(stored.iter().copied().filter(|l| !asleep(l)).collect());
                            retain_from(sleep, base, |(l, _)| scratch.contains(l));
                        }
                        v.sleep = sleep_sets.intern(scratch);
                    }
                }
                Entry::Vacant(entry) => {
                    scratch.clear();
                    scratch.extend(sleep[base..].iter().map(|(l, _)| *l));
                    scratch.sort_unstable();
                    entry.insert(Visit { depth, sleep: sleep_sets.intern(scratch) });
                }
            }
        }
        self.states += 1;
        // The progress display reads the count in steps of 1,024 states.
        if self.states.is_multiple_of(1024) {
            if let Some(counter) = &self.options.progress {
                counter.fetch_add(1024, std::sync::atomic::Ordering::Relaxed);
            }
        }
        // The whole search's count, across work items and threads (`max_states` bounds the run).
        let total = match &self.budget {
            Some(shared) => shared.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
            None => self.used_before + self.states,
        };
        if total > self.options.max_states {
            self.hit(&format!("max-states ({})", self.options.max_states));
            return Ok(());
        }
        // The awake lanes and their numbers, in label order, then in the exploration order.
        let mut awake: smallvec::SmallVec<[(browser::LaneRef, LaneId); 8]> = smallvec::SmallVec::new();
        {
            let Explorer { lanes: table, sleep, .. } = self;
            let world = &sim.world;
            for lane in lanes.drain(..) {
                let id = table.id_of(world, &lane);
                if !(reduce && is_asleep(&sleep[base..], id)) && revisit.as_ref().is_none_or(|only| only.contains(&id))
                {
                    awake.push((lane, id));
                }
            }
        }
        if self.options.lane_order == LaneOrder::BroadestFirst && awake.len() > 1 {
            let breadth = &self.breadth;
            // Stable: ties stay in label order.
            awake.sort_by_key(|(_, id)| std::cmp::Reverse(breadth.get(*id as usize).copied().unwrap_or(0)));
        }
        let last = awake.len().saturating_sub(1);
        for (i, (lane, id)) in awake.into_iter().enumerate() {
            if self.stopped() || self.out_of_time() {
                break;
            }
            // The last child takes the state itself instead of a copy.
            let mut copy;
            let child = if i == last {
                &mut *sim
            } else {
                copy = sim.clone();
                &mut copy
            };
            let fp = child.step_listed(lane)?;
            self.transitions += 1;
            if self.breadth.len() <= id as usize {
                self.breadth.resize(id as usize + 1, 0);
            }
            self.breadth[id as usize] = fp.breadth() + 1;
            // The child's sleep set: this state's sleep set and the siblings explored before,
            // those that commute with this step.
            let child_base = self.sleep.len();
            if reduce {
                for j in base..child_base {
                    let entry = self.sleep[j];
                    if !entry.1.conflicts(&fp) {
                        self.sleep.push(entry);
                    }
                }
            }
            // A unit that commutes with every unit of every state (it wrote nothing and read only
            // lifecycles no unit can change) is a persistent set on its own: every schedule from
            // here is equivalent to one that runs it first, so its siblings need no exploring.
            let alone = reduce && self.lifecycles_fixed && fp.reads_only_lifecycles();
            path.push(id);
            self.dfs(child, path, child_base)?;
            path.pop();
            self.sleep.truncate(child_base);
            if alone {
                break;
            }
            if reduce {
                self.sleep.push((id, fp));
            }
        }
        Ok(())
    }

    fn record_outcome(&mut self, sim: &Sim, path: &[LaneId]) {
        // The outcome is a function of the fingerprinted state: an end state seen before has the
        // outcome computed then.
        let end = Key::new(sim.fingerprint());
        let (outcome, key) = match self.end_states.get(&end) {
            Some(&key) => (None, key),
            None => {
                let outcome = sim.outcome(false).canonical();
                let key = browser::digest128(&outcome);
                self.end_states.insert(end, key);
                (Some(outcome), key)
            }
        };
        let lanes = &self.lanes;
        // The witness's text, written from the labels the lane table holds (no schedule built).
        let witness = || {
            let picks: smallvec::SmallVec<[&Lane; 32]> = path.iter().map(|&id| lanes.label(id)).collect();
            sched::picks_text(&picks)
        };
        match self.outcomes.get_mut(&key) {
            Some(class) => {
                class.end_states += 1;
                if path.len() > class.witness_choices {
                    return;
                }
                let witness = witness();
                if (path.len(), &witness) < (class.witness_choices, &class.witness) {
                    class.witness = witness;
                    class.witness_choices = path.len();
                }
            }
            None => {
                let outcome = match outcome {
                    Some(outcome) => outcome,
                    None => sim.outcome(false).canonical(),
                };
                let summary = outcome.summary();
                self.outcomes.insert(
                    key,
                    OutcomeClass { outcome, summary, end_states: 1, witness: witness(), witness_choices: path.len() },
                );
            }
        }
    }

    /// The visited table's memory: buckets at the table's real capacity, plus the stored sleep
    /// sets (each kept twice: in the list and as the index's key) and the lane table.
    fn memory(&self) -> VisitedMemory {
        let table = table_bytes(self.visited.capacity(), std::mem::size_of::<(Key, Visit)>());
        let sets = &self.sleep_sets;
        let sleep_sets = sets.sets.capacity() * std::mem::size_of::<Box<[LaneId]>>()
            + table_bytes(sets.index.capacity(), std::mem::size_of::<(Box<[LaneId]>, u32)>())
            + sets.sets.iter().map(|s| 2 * std::mem::size_of_val::<[LaneId]>(s)).sum::<usize>();
        // The labels' text is shared with the states, but the table keeps it alive: counted,
        // with the reference counts in front of it.
        let lanes = self.lanes.labels.capacity() * std::mem::size_of::<Lane>()
            + self.lanes.recent.capacity() * std::mem::size_of::<Option<(Lane, LaneId)>>()
            + table_bytes(self.lanes.ids.capacity(), std::mem::size_of::<(Lane, LaneId)>())
            + self.lanes.labels.iter().map(|l| 2 * std::mem::size_of::<usize>() + l.as_str().len()).sum::<usize>();
        VisitedMemory { states: self.visited.len() as u64, bytes: (table + sleep_sets + lanes) as u64 }
    }

    fn finish(self, program: &Program, options: &ExploreOptions) -> Exploration {
        let mut outcomes: Vec<OutcomeClass> = self.outcomes.into_values().collect();
        outcomes.sort_by(|a, b| (a.witness_choices, &a.witness).cmp(&(b.witness_choices, &b.witness)));
        Exploration {
            version: trace::VERSION,
            scenario: program.name.clone(),
            options: program.spec_options().into_iter().chain(options.describe()).collect(),
            shard: "1/1".into(),
            work_items: 1,
            states: self.states,
            transitions: self.transitions,
            complete: self.bounds_hit.is_empty(),
            bounds_hit: self.bounds_hit,
            witnesses: trace::WITNESSES_FOUND.into(),
            file: String::new(),
            outcomes,
        }
    }
}

/// The search's schedules (where inert tasks ran when queued) as schedules of the faithful model.
fn to_faithful_schedules(program: &Program, exploration: &mut Exploration) -> Result<(), RunError> {
    for class in &mut exploration.outcomes {
        (class.witness_choices, class.witness) = faithful_schedule(program, &class.witness)?;
    }
    exploration.outcomes.sort_by(|a, b| (a.witness_choices, &a.witness).cmp(&(b.witness_choices, &b.witness)));
    Ok(())
}

/// The witnesses, and what the report says of them (`Exploration::witnesses`). Without inert
/// tasks: the breadth-first pass over the faithful model, as before. With them: the pass over
/// the faithful model within a budget (4 times the search's states, at least 20,000, at most
/// `max_states` and `FAITHFUL_PASS_MAX_STATES`: inert tasks do not shrink that model, so its
/// pass can be far bigger than the search); when it does not finish, the pass over the model
/// the search walked (inert tasks run when queued), each witness then turned into a faithful
/// schedule, and the report says which it is. `--time-limit` and Ctrl-C stop either pass: the
/// witnesses are then the search's own.
fn fewest_choice_witnesses(
    program: &Program,
    options: &ExploreOptions,
    start: Instant,
    inert: bool,
    exploration: &mut Exploration,
) -> Result<String, RunError> {
    if !inert {
        return Ok(match shortest_witnesses_in(program, options, start, options.max_states, false, exploration)? {
            Ok(()) => trace::WITNESSES_FEWEST.into(),
            Err(why) => format!("{} ({why})", trace::WITNESSES_FOUND),
        });
    }
    if !exploration.complete {
        to_faithful_schedules(program, exploration)?;
        return Ok(format!("{} (the search was incomplete)", trace::WITNESSES_FOUND));
    }
    let searched = exploration.clone();
    let budget = options.max_states.min(exploration.states.saturating_mul(4).max(20_000)).min(FAITHFUL_PASS_MAX_STATES);
    let faithful_why = match shortest_witnesses_in(program, options, start, budget, false, exploration)? {
        Ok(()) => return Ok(trace::WITNESSES_FEWEST.into()),
        Err(why) => why,
    };
    *exploration = searched;
    if faithful_why.contains(PASS_STOPPED_BY_TIME) || faithful_why.contains(PASS_STOPPED_BY_CTRL_C) {
        to_faithful_schedules(program, exploration)?;
        return Ok(format!("{} ({faithful_why})", trace::WITNESSES_FOUND));
    }
    let result = shortest_witnesses_in(program, options, start, options.max_states, true, exploration)?;
    to_faithful_schedules(program, exploration)?;
    Ok(match result {
        Ok(()) => format!("{} (over every schedule, {faithful_why})", trace::WITNESSES_FEWEST_INERT_FIRST),
        Err(why) => {
            format!("{} (over every schedule, {faithful_why}; inert tasks first, {why})", trace::WITNESSES_FOUND)
        }
    })
}

/// The most choice points the witness pass over the faithful model may visit (with inert tasks):
/// inert tasks do not shrink that model, so where the search itself was large the pass cannot
/// finish and only delays the report (five-by-five: 2,000,000 choice points, minutes, for
/// nothing). A number, not a time, so that the witnesses shown do not depend on the machine.
const FAITHFUL_PASS_MAX_STATES: u64 = 250_000;

/// How a witness pass stopped by `--time-limit` or Ctrl-C says so.
const PASS_STOPPED_BY_TIME: &str = "the breadth-first pass stopped at the time limit";
const PASS_STOPPED_BY_CTRL_C: &str = "the breadth-first pass was stopped by Ctrl-C";

/// Fewest-choice witnesses for a complete exploration: a breadth-first search over choice
/// points without reduction, each state expanded once (the first time its fingerprint is met),
/// children in label order. It stops after the first level at which every outcome of
/// `exploration` has been reached, and gives each outcome the first schedule, in label order,
/// among its fewest-choice ones. Leaves the witnesses as they were, and says why, when the
/// exploration is incomplete (its outcome set is not known) or a bound (`max_states` choice
/// points, `max_units` per schedule) stops the pass first.
pub fn shortest_witnesses(
    program: &Program,
    options: &ExploreOptions,
    exploration: &mut Exploration,
) -> Result<Result<(), String>, RunError> {
    shortest_witnesses_in(program, options, Instant::now(), options.max_states, false, exploration)
}

/// `shortest_witnesses` with its own bound on choice points, over the faithful model or (with
/// `inert_first`) the model the search walks, where inert tasks run when queued.
fn shortest_witnesses_in(
    program: &Program,
    options: &ExploreOptions,
    start: Instant,
    max_states: u64,
    inert_first: bool,
    exploration: &mut Exploration,
) -> Result<Result<(), String>, RunError> {
    if !exploration.complete {
        return Ok(Err("the search was incomplete".into()));
    }
    let targets: Vec<u128> = exploration.outcomes.iter().map(|class| browser::digest128(&class.outcome)).collect();
    let mut pass = WitnessPass {
        options,
        deadline: options.time_limit.map(|limit| start + limit),
        max_states,
        found: KeyMap::default(),
        visited: KeyMap::default(),
        lanes: Lanes::new(),
        next: Vec::new(),
    };
    // The faithful model (no inert task runs early): its schedules are what `replay` runs, and
    // the fewest choices are counted there.
    let root = if inert_first {
        exploring_sim(program, &ExploreOptions { reduction: Reduction::Full, inert_tasks: true, ..options.clone() })?
    } else {
        let mut root = Sim::new(program)?;
        root.record = false;
        root
    };
    if let Err(why) = pass.arrive(root, Vec::new())? {
        return Ok(Err(why));
    }
    // Level by level: `frontier` holds the distinct choice points first reached with as many
    // choices as the level's number, in label order of their schedules.
    loop {
        if targets.iter().all(|&t| pass.found.contains_key(&Key::new(t))) {
            for (class, &t) in exploration.outcomes.iter_mut().zip(&targets) {
                let (choices, witness) = pass.found[&Key::new(t)].clone();
                class.witness_choices = choices;
                class.witness = witness;
            }
            exploration.outcomes.sort_by(|a, b| (a.witness_choices, &a.witness).cmp(&(b.witness_choices, &b.witness)));
            return Ok(Ok(()));
        }
        let frontier = std::mem::take(&mut pass.next);
        if frontier.is_empty() {
            break;
        }
        for (mut sim, path) in frontier {
            sim.runnable_into(&mut pass.lanes);
            let lanes = std::mem::take(&mut pass.lanes);
            // Children in label order; the last takes the state itself.
            let (&last, others) = lanes.split_last().expect("a choice point has lanes");
            for &lane in others {
                let mut child = sim.clone();
                let mut child_path = path.clone();
                child_path.push(child.world.lane_label(&lane).clone());
                child.step_listed(lane)?;
                if let Err(why) = pass.arrive(child, child_path)? {
                    return Ok(Err(why));
                }
            }
            let mut path = path;
            path.push(sim.world.lane_label(&last).clone());
            sim.step_listed(last)?;
            if let Err(why) = pass.arrive(sim, path)? {
                return Ok(Err(why));
            }
            pass.lanes = lanes;
        }
    }
    // Every state was expanded without reaching some outcome the search found: the two disagree
    // about the state space, which is a simulator bug (nondeterminism or a fingerprint clash).
    Err(RunError::NotModelled(
        "simulator bug: an outcome the search found is not reachable breadth-first; please report it with the scenario"
            .into(),
    ))
}

/// The state of `shortest_witnesses`' breadth-first pass.
struct WitnessPass<'a, 'p> {
    options: &'a ExploreOptions,
    /// When `--time-limit` runs out (the search's start plus the limit).
    deadline: Option<Instant>,
    /// Choice points the pass may reach before it gives up.
    max_states: u64,
    /// Each outcome reached so far (by its digest): its first schedule's choices and text.
    found: KeyMap<(usize, String)>,
    /// The choice points reached so far.
    visited: KeyMap<()>,
    lanes: Lanes,
    /// The next level's choice points (each with its schedule), in the order they were reached.
    next: Vec<(Sim<'p>, Vec<Lane>)>,
}

impl<'p> WitnessPass<'_, 'p> {
    /// Why the pass must stop now: `--time-limit` has run out or Ctrl-C was pressed (asked every
    /// 1,024 choice points).
    fn stopped(&self) -> Option<String> {
        if self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            let limit = self.options.time_limit.map_or(0.0, |l| l.as_secs_f64());
            return Some(format!("{PASS_STOPPED_BY_TIME} ({limit} s)"));
        }
        let interrupted =
            self.options.interrupt.as_ref().is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed));
        interrupted.then(|| PASS_STOPPED_BY_CTRL_C.to_string())
    }

    /// Takes a state reached by `path` through its forced steps, then records the outcome of an
    /// end state, or queues a choice point not reached before for the next level.
    fn arrive(&mut self, mut sim: Sim<'p>, path: Vec<Lane>) -> Result<Result<(), String>, RunError> {
        loop {
            sim.runnable_into(&mut self.lanes);
            if self.lanes.len() != 1 {
                break;
            }
            if sim.units_run >= self.options.max_units {
                return Ok(Err(format!("the breadth-first pass stopped at max-units ({})", self.options.max_units)));
            }
            sim.step_listed(self.lanes[0])?;
        }
        if self.lanes.is_empty() {
            let key = Key::new(browser::digest128(&sim.outcome(false).canonical()));
            self.found.entry(key).or_insert_with(|| (path.len(), sched::picks_text(&path)));
        } else if self.visited.insert(Key::new(sim.fingerprint()), ()).is_none() {
            if self.visited.len() as u64 > self.max_states {
                return Ok(Err(format!("the breadth-first pass stopped at max-states ({})", self.max_states)));
            }
            if self.visited.len().is_multiple_of(1024) {
                if let Some(why) = self.stopped() {
                    return Ok(Err(why));
                }
            }
            self.next.push((sim, path));
        }
        Ok(Ok(()))
    }
}
