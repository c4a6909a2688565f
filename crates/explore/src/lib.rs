//! A generic exploration engine: every schedule of a model, explored depth-first with state
//! caching, sleep sets and a persistent-set rule over footprints; one budget for the whole
//! search; work items, shards and threads; fewest-choice witnesses; merge of results.
//!
//! The engine knows nothing of browsers: a model implements [`Model`] (its runnable lanes, a step
//! with the [`Footprint`] of what it touched, a fingerprint of a state, the outcome of an end
//! state), and [`search`] explores it within [`Options`].
//!
//! The search is a depth-first walk over choice points (states with two or more runnable
//! lanes). Two reductions, both sound for the outcome set:
//! - **State caching**: a choice point whose fingerprint was already explored with a sleep set no
//!   larger is not explored again; nor is one first explored at a greater depth, unless the
//!   `max_depth` bound has cut a branch in this work item (then the earlier visit may not have
//!   covered everything below it). Reached again with a sleep set that lacks some lanes of the
//!   stored one, it explores only those lanes (Godefroid's state caching with sleep sets: the
//!   others were explored from it before), and the stored set shrinks to the common lanes.
//! - **Sleep sets** (Godefroid): after exploring lane `a` from a state, a sibling lane `b` whose
//!   step commutes with `a` carries `a` in its sleep set, so `b;a` is not explored again after
//!   `a;b`. A state with one runnable lane (stepped without a choice or a fingerprint) follows
//!   the same rule: when that lane is asleep, the walk stops there. Two steps commute when their
//!   footprints do not conflict ([`Footprint::conflicts`]).
//! - **A persistent set of one**: a step the model says commutes with every step of every state
//!   ([`Model::alone`]) is explored alone from its choice point.
//!
//! For parallel and sharded runs the tree is cut at `split_depth` choice points into work items.
//! A work item is its choice path; the thread that explores it replays the path from the initial
//! state, so states never cross threads. The work items of one process share one visited table
//! (one thread: one explorer runs them in order; several: a table sharded under locks, see
//! `Explorer::visit_shared` for why that stays sound), so splitting never multiplies the
//! states. Threads that share a table also split the work as they go (`share`): a thread with
//! nothing left to explore waits, and another donates the untried children of its shallowest
//! open choice point, with the sleep set they would have had. With several threads which thread
//! reaches a state first depends on timing: the
//! outcomes are the same, but the counts (states, transitions, end states) and the witnesses the
//! search met vary from run to run ([`Searched::counts_vary`]). Shards on different machines
//! cannot share a table: each of their work items has its own
//! ([`Options::table_per_work_item`]), so the merged shards are a function of the model and the
//! options.

mod bfs;
mod dfs;
mod progress;
mod share;
mod split;
pub mod stateless;
mod table;
mod traces;

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

pub use bfs::{reachable, shortest_witnesses, witness_pass, PassBounds, Reachable, WitnessPass, Witnesses};
pub use dfs::search;
pub use progress::{fraction_done, knuth_estimate, Estimate, Level, Progress};
pub use table::{table_bytes, Memory};
pub use traces::{count_traces, Traces};

/// A lane's number in one explorer (see [`LaneNumbering`]). Sleep sets, stored sleep sets and the
/// current path hold numbers instead of labels, so comparing, copying and hashing them is cheap.
pub type LaneId = u32;

/// What one step touched, and the dependence test between two steps.
pub trait Footprint: Copy + Default + Send {
    /// Whether two steps with these footprints may not commute (one writes what the other reads
    /// or writes). Must be symmetric; `false` promises that both orders reach the same state.
    fn conflicts(&self, other: &Self) -> bool;
    /// How much the step wrote (for [`LaneOrder::BroadestFirst`]; 0 when the model has no
    /// measure).
    fn breadth(&self) -> u32 {
        0
    }
}

/// A system to explore: its states, the lanes that can run in a state, and one step of a lane.
/// What the stateless search ([`stateless::search`]) needs: a fresh state, and steps along a
/// schedule; a state is never copied, hashed or compared. The stateful search needs more
/// ([`Stateful`]).
///
/// A model is shared by the threads of a search (`Sync`); its states are not (each thread makes
/// its own from [`Model::initial`]).
pub trait Model: Sync + Send {
    /// A state of the system (the stateful search clones it at every choice point but the last
    /// child's; the stateless search never does).
    type State;
    /// A runnable lane as [`Model::runnable`] lists it.
    type Lane: Copy;
    /// A lane's name, stable across states (schedules and work items are lists of labels).
    type Label: Clone + Eq + Send + Sync + std::fmt::Display;
    type Footprint: Footprint;
    /// What an end state is reported as.
    type Outcome: Send;
    type Error: From<Failure> + Send;
    /// How the explorer numbers lanes ([`Labels`] for any model with hashable labels).
    type Numbering: LaneNumbering<Self>;

    fn initial(&self) -> Result<Self::State, Self::Error>;
    /// The lanes that can run in `state`, in label order, into `out` (cleared first). Empty: the
    /// run is over. (Mutable: a model may advance time to reach the next runnable lane.)
    fn runnable(&self, state: &mut Self::State, out: &mut Vec<Self::Lane>);
    /// Runs the next step of `lane` and returns what it touched.
    fn step(&self, state: &mut Self::State, lane: Self::Lane) -> Result<Self::Footprint, Self::Error>;
    fn label<'a>(&'a self, state: &'a Self::State, lane: &Self::Lane) -> &'a Self::Label;
    /// Steps run so far (for the `max_units` bound).
    fn units(&self, state: &Self::State) -> usize;
    fn outcome(&self, state: &Self::State) -> Self::Outcome;
    /// Equal for equal outcomes, distinct otherwise (outcomes are merged by this key).
    fn outcome_key(&self, outcome: &Self::Outcome) -> u128;
    /// A schedule (the labels chosen at choice points) as text; witnesses are compared by
    /// (choices, text).
    fn schedule_text(&self, picks: &[&Self::Label]) -> String;
    /// Whether a step with this footprint commutes with every step of every state, so that it
    /// is a persistent set on its own (its siblings need no exploring). Only asked when the
    /// search reduces.
    fn alone(&self, _footprint: &Self::Footprint) -> bool {
        false
    }
    /// The model's clock, for a model whose [`Model::runnable`] may advance time (0 for one that
    /// has none). The stateless search orders every step after a change of the clock after every
    /// step before it: time advances only when nothing can run, so no step on either side of
    /// that moment can be moved to the other.
    fn clock(&self, _state: &Self::State) -> u64 {
        0
    }
    /// Whether a step's footprint depends only on the earlier steps of its own lane, never on
    /// what other lanes did (as in a program whose threads touch fixed variables). The stateless
    /// search then knows the footprint of a step it moves before a step it races with (the one
    /// it had), and runs one execution per class. Otherwise (false, the default) it takes that
    /// footprint as unknown and conflicting with every step: still sound, but some executions
    /// it schedules then end with every lane asleep (counted as redundant).
    fn footprints_fixed(&self) -> bool {
        false
    }
    /// A footprint that conflicts with everything the step of a lane with this label conflicts
    /// with, in every state where the lane can run (None, the default: no such bound). The
    /// stateless search uses it for a step it schedules where it has not seen it run: a lane
    /// that a step disabled, scheduled before that step, and a step moved before one it races
    /// with. Without a bound such a step counts as conflicting with every step, which is sound
    /// and costs executions that sleep sets then block (counted as redundant).
    fn lane_bound(&self, _label: &Self::Label) -> Option<Self::Footprint> {
        None
    }
    /// For the stateless search's worker threads: a copy of the model for executions run on
    /// another thread, sharing nothing those executions change (None, the default: the model
    /// cannot, and the search runs on one thread).
    fn detached(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
    /// An execution a [`Model::detached`] copy ran is taken into the search, at the place the
    /// search would have run it: what it changed in that copy is done to `self`, as if `self`
    /// had run it.
    fn adopt(&self, _detached: Self)
    where
        Self: Sized,
    {
    }
}

/// A model whose states can be copied and hashed: what the stateful search ([`search`]), the
/// breadth-first passes ([`reachable`], [`shortest_witnesses`]) and [`knuth_estimate`] need.
pub trait Stateful: Model<State: Clone> {
    /// A 128-bit fingerprint of everything that decides the rest of the run and its outcome,
    /// uniformly distributed (a hash such as XXH3's, or an exact packing passed through a
    /// bijective mixer): the visited tables use its low half as their hash.
    fn fingerprint(&self, state: &Self::State) -> u128;
}

/// Numbers the lanes an explorer meets, in the order it meets them.
pub trait LaneNumbering<M: Model + ?Sized>: Default {
    /// The number of a lane `model` lists in `state`.
    fn id_of(&mut self, model: &M, state: &M::State, lane: &M::Lane) -> LaneId;
    /// The number of a label.
    fn id(&mut self, label: &M::Label) -> LaneId;
    fn label(&self, id: LaneId) -> &M::Label;
    /// The memory the numbering holds, in bytes.
    fn bytes(&self) -> usize {
        0
    }
}

/// A [`LaneNumbering`] for any model whose labels hash.
pub struct Labels<L> {
    ids: std::collections::HashMap<L, LaneId, foldhash::fast::FixedState>,
    labels: Vec<L>,
}

impl<L> Default for Labels<L> {
    fn default() -> Self {
        Labels { ids: Default::default(), labels: Vec::new() }
    }
}

impl<M: Model + ?Sized> LaneNumbering<M> for Labels<M::Label>
where
    M::Label: std::hash::Hash,
{
    fn id_of(&mut self, model: &M, state: &M::State, lane: &M::Lane) -> LaneId {
        <Self as LaneNumbering<M>>::id(self, model.label(state, lane))
    }

    fn id(&mut self, label: &M::Label) -> LaneId {
        if let Some(&id) = self.ids.get(label) {
            return id;
        }
        let id = LaneId::try_from(self.labels.len()).expect("fewer than 2^32 lanes");
        self.labels.push(label.clone());
        self.ids.insert(label.clone(), id);
        id
    }

    fn label(&self, id: LaneId) -> &M::Label {
        &self.labels[id as usize]
    }
}

/// What the engine itself can fail with (a model turns it into its own error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The model did not behave as a deterministic system: a replayed choice was not runnable,
    /// or an outcome the search found is not reachable breadth-first.
    Nondeterministic(String),
    /// The thread pool could not start.
    Threads(String),
}

/// The order a choice point's lanes are explored in. Each is sound; it decides how many
/// transitions reach a state seen before, how many choice points are revisited, and which
/// witness schedules are found first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LaneOrder {
    /// By lane label.
    Label,
    /// The lanes whose step wrote the most the last time this work item ran them first
    /// ([`Footprint::breadth`]), lanes not run yet last; ties by label. A measured heuristic,
    /// not a theorem: on the simulator's bench fixtures it explores 5 % (three) to 11 % (five)
    /// fewer transitions than label order (fewer re-expanded states, fewer transitions to states
    /// seen before); over its corpus the total is the same, and no scenario takes more than 3
    /// transitions more.
    ///
    /// A lane with a footprint bound ([`Model::lane_bound`]) comes after every other lane. Such
    /// a lane's steps commute with every step that does not touch what its bound touches (the
    /// simulator's `user.wait`: every task and block). Explored last, its child's sleep set holds
    /// every sibling explored before it, so below it only the steps it conflicts with or enables
    /// are new, and a child with every lane asleep ends there, uncounted. Explored first, its
    /// child's subtree is searched in full (every interleaving of the other lanes after its
    /// step), and then the siblings' subtrees (the same interleavings without its step): twice
    /// the choice points where nothing else it conflicts with runs (`tests/it/order.rs`: 38 %
    /// fewer choice points over random programs with one such lane; the simulator's
    /// `four-calls-unload`: 32 %).
    BroadestFirst,
    /// Broadest first, but the lanes that revisits explored come before the rest, the lanes
    /// revisits explored most first (the default). A revisit is Godefroid's rule for state
    /// caching with sleep sets: a stored choice point reached again with a sleep set that lacks
    /// some lanes of the stored one explores those lanes, and counts as a choice point again.
    /// The explorer counts, per lane, how often a revisit explored it, and orders by that count
    /// as the search goes (ties: broadest first, as above; a lane with a footprint bound still
    /// last). Where no state is revisited (most of the simulator's scenarios) it is broadest
    /// first. A measured heuristic, not a theorem: on the simulator's `four-calls-unload`,
    /// 1,133,297 choice points (367,871 of them revisits) become 965,887 (202,075), and
    /// transitions fall 4 %; on the Promela race of 3 and 4 calls 9 to 16 % fewer choice points
    /// (its variant with one FIFO queue 2 % more); five-by-five 321 → 334 (docs/performance.md,
    /// "Revisits").
    RevisitedFirst,
}

impl LaneOrder {
    /// Every order, by its name (`--lane-order`, and the report's options line), the default
    /// first.
    pub const NAMED: [(&'static str, LaneOrder); 3] = [
        ("revisited-first", LaneOrder::RevisitedFirst),
        ("broadest-first", LaneOrder::BroadestFirst),
        ("label", LaneOrder::Label),
    ];

    /// The order's name.
    pub fn name(self) -> &'static str {
        Self::NAMED.iter().find(|(_, order)| *order == self).map_or("", |(name, _)| name)
    }

    /// The order a name names, if any.
    pub fn named(name: &str) -> Option<LaneOrder> {
        Self::NAMED.iter().find(|(n, _)| *n == name).map(|(_, order)| *order)
    }
}

/// Bounds and knobs of a search.
#[derive(Clone, Debug)]
pub struct Options {
    /// State caching, sleep sets and the persistent-set rule (off: every schedule, one by one).
    pub reduce: bool,
    pub lane_order: LaneOrder,
    /// Choice points visited by the whole search before it stops (incomplete).
    pub max_states: u64,
    /// Choices along one schedule before that branch stops (incomplete).
    pub max_depth: usize,
    /// Steps along one schedule before that branch stops (incomplete).
    pub max_units: usize,
    /// Wall-clock limit for the whole search (incomplete when hit; the only bound whose effect
    /// depends on the machine).
    pub time_limit: Option<Duration>,
    /// Choice points expanded without reduction to cut the tree into work items.
    pub split_depth: usize,
    /// Threads (1 = no thread pool).
    pub jobs: usize,
    /// Explore only work items whose index is `k-1` modulo `n`.
    pub shard: (u64, u64),
    /// What the search shows of itself while it runs, for a progress display (never read by
    /// the search; states advanced in steps of 1,024).
    pub progress: Option<Arc<Progress>>,
    /// Set (by a Ctrl-C handler) to stop the search: it ends as if a bound were hit and says
    /// "Ctrl-C".
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Explore only the schedules that deviate at most K times from the default order (at each
    /// choice point, the first runnable lane in label order), as in CHESS (Musuvathi and Qadeer,
    /// PLDI 2007). A choice cut by the bound makes the search incomplete
    /// (`delay-bound (K)`). With a delay bound the search keeps state caching (a state reached
    /// again with no fewer delays used is not explored again) but not sleep sets nor the
    /// persistent-set rule, which could replace a schedule within the bound by an equivalent
    /// one beyond it: what is covered is exactly every schedule with at most K delays.
    pub delay_bound: Option<u32>,
    /// Give each work item a visited table of its own, as shards on different machines must
    /// (and do: a search with `shard.1 > 1` always does). Off, the work items of one search
    /// share one table, on one thread or many, so splitting never multiplies the states. On,
    /// the merged report of N shards equals the report of one process with this on, byte for
    /// byte.
    pub table_per_work_item: bool,
    /// The stateless search's budget: executions (schedules run from the initial state to
    /// their end) before it stops (incomplete). The stateful search ignores it.
    pub max_executions: u64,
    /// With several threads sharing one table (dynamic splitting): the fewest choice points a
    /// thread visits between two donations of its open work to a thread that waits (and before
    /// its first). A donated work item costs its taker a replay of the choices to its choice
    /// point, so the default, 256, keeps replays a small part of the work, while a thread waits
    /// no longer than another takes to visit 256 choice points (well under a millisecond on the
    /// simulator's fixtures); a search smaller than that (300 sequential registrations: 299
    /// choice points) runs on one thread. Decides the counts, never the outcomes.
    pub donate_every: u64,
    /// The stateless search's threads run branches ahead whatever an execution costs (off: only
    /// while executions take 200 µs or more on average, below which handing them out costs more
    /// than it saves), and the search waits for every branch it handed out rather than run it
    /// itself (so that which executions the threads ran does not depend on timing). Decides the
    /// speed, never the report; for tests and measurements.
    pub always_run_ahead: bool,
}

impl Options {
    /// Whether several threads share one visited table (then the counts of a search vary with
    /// thread timing, [`Searched::counts_vary`]): several threads, one shard, one table for
    /// the search, and the reduction whose table it is (the delay bound keeps its own table
    /// per work item on several threads).
    pub fn threads_share_a_table(&self) -> bool {
        self.jobs > 1 && self.shard.1 == 1 && !self.table_per_work_item && self.reduce && self.delay_bound.is_none()
    }
}

impl Default for Options {
    /// Reduced, revisited first, 2,000,000 choice points, 500 choices and 5,000 steps along a
    /// schedule, no time limit, split at depth 2, one thread, the whole search.
    fn default() -> Options {
        Options {
            reduce: true,
            lane_order: LaneOrder::RevisitedFirst,
            max_states: 2_000_000,
            max_depth: 500,
            max_units: 5_000,
            time_limit: None,
            split_depth: 2,
            jobs: 1,
            shard: (1, 1),
            progress: None,
            interrupt: None,
            delay_bound: None,
            table_per_work_item: false,
            max_executions: 10_000_000,
            donate_every: 256,
            always_run_ahead: false,
        }
    }
}

/// One distinct outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class<O> {
    pub outcome: O,
    /// [`Model::outcome_key`] of the outcome.
    pub key: u128,
    /// End states (after the last choice) that had this outcome.
    pub end_states: u64,
    /// The schedule with the fewest choices, then least in text order, among those the search
    /// met.
    pub witness: String,
    pub witness_choices: usize,
}

impl<O> Class<O> {
    /// Counts an end state of this outcome reached by a schedule of `choices` choices, which
    /// becomes the witness if it comes first in (choices, text) order. Its text (`witness`) is
    /// made only when it has no more choices than the witness.
    pub(crate) fn met(&mut self, choices: usize, witness: impl FnOnce() -> String) {
        self.end_states += 1;
        if choices > self.witness_choices {
            return;
        }
        let witness = witness();
        if (choices, &witness) < (self.witness_choices, &self.witness) {
            self.witness = witness;
            self.witness_choices = choices;
        }
    }
}

/// Which search made a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SearchKind {
    /// [`search`]: depth-first over copied states, with state caching and sleep sets.
    #[default]
    Stateful,
    /// [`stateless::search`]: every schedule run from the initial state, optimal dynamic
    /// partial-order reduction.
    Stateless,
}

impl SearchKind {
    pub fn name(self) -> &'static str {
        match self {
            SearchKind::Stateful => "stateful",
            SearchKind::Stateless => "stateless",
        }
    }
}

/// What a search (or one work item of it) found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report<O> {
    pub search: SearchKind,
    /// The stateless search: the schedules it ran from the initial state (to their end, or
    /// until a bound or a sleep set stopped them). 0 for the stateful search.
    pub executions: u64,
    /// The stateless search: executions stopped because every lane that could run was asleep
    /// (each is equivalent to an execution run before: work spent for nothing). Optimal DPOR
    /// has none; the count shows it.
    pub redundant: u64,
    pub work_items: u64,
    /// Choice points explored.
    pub states: u64,
    pub transitions: u64,
    /// The bounds that cut the search short, sorted (empty: complete).
    pub bounds_hit: Vec<String>,
    /// In witness order: fewest choices, then text.
    pub outcomes: Vec<Class<O>>,
}

impl<O> Report<O> {
    /// Every schedule was covered.
    pub fn complete(&self) -> bool {
        self.bounds_hit.is_empty()
    }

    /// Combines the reports of work items (or shards): outcomes united by key, counts added, the
    /// shortest witness kept. Merging every part of a search gives the whole search. (No parts:
    /// one empty work item.)
    pub fn merge(mut parts: Vec<Report<O>>) -> Report<O> {
        let mut merged = Report {
            search: parts.first().map_or(SearchKind::Stateful, |p| p.search),
            executions: 0,
            redundant: 0,
            work_items: 0,
            states: 0,
            transitions: 0,
            bounds_hit: Vec::new(),
            outcomes: Vec::new(),
        };
        if parts.len() <= 1 {
            let Some(mut only) = parts.pop() else {
                merged.work_items = 1;
                return merged;
            };
            // One part is already merged (its outcomes distinct and in witness order).
            only.bounds_hit.sort();
            return only;
        }
        let mut by_key: BTreeMap<u128, Class<O>> = BTreeMap::new();
        for part in parts {
            merged.work_items += part.work_items;
            merged.executions += part.executions;
            merged.redundant += part.redundant;
            merged.states += part.states;
            merged.transitions += part.transitions;
            for b in part.bounds_hit {
                if !merged.bounds_hit.contains(&b) {
                    merged.bounds_hit.push(b);
                }
            }
            for class in part.outcomes {
                match by_key.get_mut(&class.key) {
                    Some(existing) => {
                        existing.end_states += class.end_states;
                        if (class.witness_choices, &class.witness) < (existing.witness_choices, &existing.witness) {
                            existing.witness = class.witness;
                            existing.witness_choices = class.witness_choices;
                        }
                    }
                    None => {
                        by_key.insert(class.key, class);
                    }
                }
            }
        }
        merged.bounds_hit.sort();
        merged.outcomes = by_key.into_values().collect();
        merged.sort_outcomes();
        merged
    }

    /// Puts the outcomes in witness order (a schedule reaches one outcome, so the order is
    /// total).
    pub fn sort_outcomes(&mut self) {
        self.outcomes.sort_by(|a, b| (a.witness_choices, &a.witness).cmp(&(b.witness_choices, &b.witness)));
    }
}

/// A search's result: the merged report of its work items, the choice points and transitions
/// expanded above the split (counted by shard 1 only, not in `report`), and the visited tables'
/// memory summed over work items.
pub struct Searched<O> {
    pub report: Report<O>,
    /// Several threads shared one visited table: the counts in `report` (states, transitions,
    /// end states) and the witnesses it met depend on thread timing; its outcomes do not.
    pub counts_vary: bool,
    pub split_states: u64,
    pub split_transitions: u64,
    pub memory: Memory,
    /// The stateless search: executions a worker thread ran ahead that the search took (they
    /// depend on thread timing; the report does not).
    pub run_ahead: u64,
}
