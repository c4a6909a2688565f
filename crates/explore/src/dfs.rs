//! The depth-first search: work items, the explorer of one work item, and the search over all.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

mod cache;

use crate::progress::{fraction_done, Level, WHOLE};
use crate::share::{FailOnUnwind, Pool};
use crate::split::{replay_choice_point, replay_prefix, split, WorkItem};
use crate::table::{table_bytes, Key, KeyMap, Memory, SharedTable, SleepSets, Visit};
use crate::{Class, Failure, Footprint, LaneId, LaneNumbering, LaneOrder, Options, Report, Searched, Stateful};

/// Explores every schedule of `model` within the bounds of `options`: the work items of the
/// split, those of this shard, on `options.jobs` threads, merged. The work items share one
/// visited table (one thread: one explorer runs them in order; several: `SharedTable`), unless
/// this is a shard of several or `options.table_per_work_item` asks for one table each.
pub fn search<M: Stateful>(model: &M, options: &Options) -> Result<Searched<M::Outcome>, M::Error> {
    let start = Instant::now();
    let mut items = Vec::new();
    // Choice points and transitions above the split, and whether the delay bound cut a choice
    // there.
    let mut split_counts = (0, 0, false);
    if options.split_depth == 0 {
        // One work item, the whole tree: `split` would only name it (the item's thread makes
        // the initial state).
        items.push(WorkItem::subtree(Vec::new(), Vec::new(), 0));
    } else {
        let root = model.initial()?;
        split(model, root, Vec::new(), Vec::new(), 0, options, &mut items, &mut split_counts)?;
    }
    let (k, n) = options.shard;
    let mine: Vec<(usize, WorkItem<_, _>)> =
        items.into_iter().enumerate().filter(|(i, _)| (*i as u64) % n == k - 1).collect();
    let per_item = options.table_per_work_item || n > 1;
    // Each work item's share of the progress display's fraction done.
    let item_weight = 1.0 / mine.len().max(1) as f64;
    // One budget of choice points for the whole search: threads share a counter; one thread
    // passes on what its earlier work items used (no atomic operation per state).
    let budget = (options.jobs > 1).then(|| Arc::new(AtomicU64::new(0)));
    // With several threads and one table for the search, the table they share (the delay
    // bound's table, kept without sleep sets, stays per work item on several threads).
    let shared = options.threads_share_a_table().then(SharedTable::<M::Label>::new);
    let run_item = |(_, item): (usize, WorkItem<M::Label, M::Footprint>),
                    used_before: u64|
     -> Result<(Report<M::Outcome>, Memory), M::Error> {
        let mut ex = Explorer::new(model, options, start, shared.as_ref());
        ex.budget = budget.clone();
        ex.used_before = used_before;
        ex.item_weight = item_weight;
        ex.explore_item(&item)?;
        let memory = ex.memory();
        Ok((ex.finish(), memory))
    };
    let parts: Vec<(Report<M::Outcome>, Memory)> = if let (Some(table), Some(budget)) = (&shared, &budget) {
        share_work(model, options, start, table, budget, mine.into_iter().map(|(_, item)| item), item_weight)?
    } else if options.jobs > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.jobs)
            .stack_size(256 << 20)
            .build()
            .map_err(|e| Failure::Threads(format!("cannot start {} threads: {e}", options.jobs)))?;
        pool.install(|| mine.into_par_iter().map(|item| run_item(item, 0)).collect::<Result<Vec<_>, _>>())?
    } else if per_item {
        let mut used = 0;
        let mut parts = Vec::with_capacity(mine.len());
        for item in mine {
            let part = run_item(item, used)?;
            used += part.0.states;
            parts.push(part);
        }
        parts
    } else {
        // One thread, one table: the work items one after another through one explorer, which
        // keeps its visited table (and its counts, so the budget is the whole search's).
        let mut ex = Explorer::new(model, options, start, None);
        ex.item_weight = item_weight;
        for (_, item) in &mine {
            ex.explore_item(item)?;
        }
        let memory = ex.memory();
        let mut report = ex.finish();
        report.work_items = mine.len() as u64;
        vec![(report, memory)]
    };
    if let Some(progress) = &options.progress {
        progress.end();
    }
    let mut memory = Memory::default();
    for (_, m) in &parts {
        memory.states += m.states;
        memory.bytes += m.bytes;
    }
    let mut report = Report::merge(parts.into_iter().map(|(r, _)| r).collect());
    if split_counts.2 {
        // The split cut a choice beyond the delay bound.
        let bound = format!("delay-bound ({})", options.delay_bound.expect("cut only with a delay bound"));
        if !report.bounds_hit.contains(&bound) {
            report.bounds_hit.push(bound);
            report.bounds_hit.sort();
        }
    }
    Ok(Searched {
        report,
        counts_vary: shared.is_some(),
        split_states: split_counts.0,
        split_transitions: split_counts.1,
        memory,
        run_ahead: 0,
    })
}

/// A part of a search's result: a report, and the visited table's memory it accounts for.
type Part<O> = (Report<O>, Memory);

/// Several threads and one visited table: the work items in a `Pool`, and on each thread one
/// explorer that takes items until none is left, donating part of its open work to a thread that
/// waits (dynamic splitting, `crate::share`). Returns each thread's report, and the table's
/// memory once.
fn share_work<M: Stateful>(
    model: &M,
    options: &Options,
    start: Instant,
    table: &SharedTable<M::Label>,
    budget: &Arc<AtomicU64>,
    items: impl Iterator<Item = WorkItem<M::Label, M::Footprint>>,
    item_weight: f64,
) -> Result<Vec<Part<M::Outcome>>, M::Error> {
    let items = items.map(|item| WorkItem { weight: item_weight, ..item }).collect();
    let pool = Pool::new(items, options.jobs);
    let work = || -> Result<Report<M::Outcome>, M::Error> {
        let _unwind = FailOnUnwind(&pool);
        let mut ex = Explorer::new(model, options, start, Some(table));
        ex.budget = Some(budget.clone());
        ex.pool = Some(&pool);
        let mut items = 0;
        while let Some(item) = pool.take() {
            items += 1;
            ex.item_weight = item.weight;
            if let Err(error) = ex.explore_item(&item) {
                pool.fail();
                return Err(error);
            }
        }
        let mut report = ex.finish();
        report.work_items = items;
        Ok(report)
    };
    let results: Vec<Result<Report<M::Outcome>, M::Error>> = std::thread::scope(|scope| {
        let mut threads = Vec::with_capacity(options.jobs);
        let mut results = Vec::new();
        for i in 0..options.jobs {
            // The search recurses once per choice point on a schedule: a large stack, as before.
            let thread = std::thread::Builder::new().name(format!("explore-{i}")).stack_size(256 << 20);
            match thread.spawn_scoped(scope, work) {
                Ok(thread) => threads.push(thread),
                Err(e) => {
                    // The threads started would wait for this one: they stop.
                    pool.fail();
                    let failure = Failure::Threads(format!("cannot start {} threads: {e}", options.jobs));
                    results.push(Err(failure.into()));
                    break;
                }
            }
        }
        for thread in threads {
            results.push(thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        results
    });
    let mut parts = Vec::with_capacity(results.len());
    for result in results {
        parts.push((result?, Memory::default()));
    }
    // One table: its memory once.
    if let Some(first) = parts.first_mut() {
        first.1 = table.memory();
    }
    Ok(parts)
}

/// A sleep-set entry: a lane explored from an earlier state, and what its step touched there.
pub(crate) type Asleep<F> = (LaneId, F);

/// Whether `lane` is in a sleep set.
pub(crate) fn is_asleep<F>(sleep: &[Asleep<F>], lane: LaneId) -> bool {
    sleep.iter().any(|(l, _)| *l == lane)
}

/// Keeps the entries of `stack[from..]` that `keep` accepts, in order.
fn retain_from<F: Copy>(stack: &mut Vec<Asleep<F>>, from: usize, mut keep: impl FnMut(&Asleep<F>) -> bool) {
    let mut kept = from;
    for i in from..stack.len() {
        if keep(&stack[i]) {
            stack[kept] = stack[i];
            kept += 1;
        }
    }
    stack.truncate(kept);
}

/// A choice point on the current path whose children are being explored, as dynamic splitting
/// sees it (kept only with a `Pool`): what a donation of its untried children needs.
struct Open<F> {
    /// The choices that lead to it (a prefix of the current path).
    depth: u32,
    /// Where its sleep set begins in `Explorer::sleep`, and where the current child's begins
    /// (between them: its own sleep set, then the siblings explored before the current one).
    base: u32,
    mid: u32,
    /// The child being explored and its step's footprint.
    current: Option<(LaneId, F)>,
    /// Its awake lanes in exploration order; `next` is the first not yet stepped, `end` the
    /// first this explorer will not step (the rest were donated, or a persistent set of one
    /// made them unneeded).
    lanes: smallvec::SmallVec<[LaneId; 8]>,
    next: u32,
    end: u32,
}

/// Whether a lane has a footprint bound (`Model::lane_bound`), as an explorer learns it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bounded {
    Unknown,
    No,
    Yes,
}

/// An explorer: one work item's, or (one thread, one table) every work item's in turn.
struct Explorer<'o, M: Stateful> {
    model: &'o M,
    options: &'o Options,
    start: Instant,
    visited: KeyMap<Visit>,
    sleep_sets: SleepSets,
    lanes: M::Numbering,
    /// The sleep sets and explored siblings of the choice points on the current path, as one
    /// stack: a call of `dfs` owns the top, from the `base` it is given (its sleep set, then the
    /// lanes it has explored so far); a child's sleep set is pushed above.
    sleep: Vec<Asleep<M::Footprint>>,
    /// A buffer for a sleep set being sorted or narrowed.
    scratch: Vec<LaneId>,
    /// Spare buffers for the runnable lanes of a `dfs` call (one per level of the current path,
    /// reused so that listing the lanes before every step allocates nothing).
    lane_bufs: Vec<Vec<M::Lane>>,
    /// Distinct outcomes by their key (the report orders them by witness, not by this key).
    outcomes: BTreeMap<u128, Class<M::Outcome>>,
    /// End-state fingerprint → outcome key.
    end_states: KeyMap<u128>,
    states: u64,
    transitions: u64,
    bounds_hit: Vec<String>,
    /// The depth bound has cut a branch in this work item.
    depth_cut: bool,
    /// The max-states bound or the time limit has stopped this work item (see `stopped`).
    halted: bool,
    /// By lane number: `Footprint::breadth` of the lane's step the last time this work item ran
    /// it from a choice point, plus one (0: not run yet). Orders lanes for
    /// `LaneOrder::BroadestFirst` and `RevisitedFirst`.
    breadth: Vec<u32>,
    /// By lane number: whether the lane has a footprint bound (`Model::lane_bound`), asked the
    /// first time the lane is ordered. Orders lanes for `LaneOrder::BroadestFirst` and
    /// `RevisitedFirst`.
    bounded: Vec<Bounded>,
    /// By lane number: how many times a revisit of a stored choice point explored the lane
    /// (it slept at the first visit and is awake now). Orders lanes for
    /// `LaneOrder::RevisitedFirst`.
    revisited: Vec<u32>,
    /// With several threads: choice points visited by every work item of the search so far.
    budget: Option<Arc<AtomicU64>>,
    /// With one thread: choice points the earlier work items visited.
    used_before: u64,
    /// With a delay bound: the delays (choices other than the first runnable lane) on the
    /// current path.
    delays: u32,
    /// With a delay bound: visited choice points, with the smallest depth and the fewest delays
    /// they were explored with.
    delay_visited: KeyMap<(u32, u32)>,
    /// With several threads and one table for the search: the table every thread shares
    /// (instead of `visited` and `sleep_sets`).
    shared: Option<&'o SharedTable<M::Label>>,
    /// With `shared`: the shared number of each lane this explorer has numbered (`LaneId::MAX`:
    /// not asked yet).
    to_shared: Vec<LaneId>,
    /// With a progress display: the choice points on the current path
    /// (`progress::fraction_done`), and the explorer's states when the work item began.
    tree_path: Vec<Level>,
    item_start: u64,
    /// The share of the whole search the current work item is, and the part of it this
    /// explorer has published as done (`Progress::advance`).
    item_weight: f64,
    published: u64,
    /// The states already added to the progress display's count.
    states_shown: u64,
    /// With several threads sharing one table: the pool of work items, to which this explorer
    /// donates open work when a thread waits (`crate::share`).
    pool: Option<&'o Pool<M::Label, M::Footprint>>,
    /// With `pool`: the choice points on the current path whose children are being explored.
    open: Vec<Open<M::Footprint>>,
    /// With `pool`: `states` at the last donation (or 0).
    donated_at: u64,
}

impl<'o, M: Stateful> Explorer<'o, M> {
    /// The visited table's first capacity (2,048 buckets, 50 KiB): growing a table from a
    /// handful of entries rehashes every entry several times over, a cost each small
    /// exploration would pay in full (1 % of the simulator's three-executions fixture's time,
    /// measured with perf), while a large one soon outgrows this capacity anyway.
    const INITIAL_STATES: usize = 1024;

    fn new(
        model: &'o M,
        options: &'o Options,
        start: Instant,
        shared: Option<&'o SharedTable<M::Label>>,
    ) -> Explorer<'o, M> {
        let own_table = if shared.is_some() { 0 } else { Self::INITIAL_STATES };
        Explorer {
            model,
            options,
            start,
            visited: KeyMap::with_capacity_and_hasher(own_table, Default::default()),
            sleep_sets: SleepSets::default(),
            lanes: M::Numbering::default(),
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
            bounded: Vec::new(),
            revisited: Vec::new(),
            budget: None,
            used_before: 0,
            delays: 0,
            delay_visited: KeyMap::default(),
            shared,
            to_shared: Vec::new(),
            tree_path: Vec::new(),
            item_start: 0,
            item_weight: 1.0,
            published: 0,
            states_shown: 0,
            pool: None,
            open: Vec::new(),
            donated_at: 0,
        }
    }

    /// Explores one work item: replays its choices from the initial state, then searches below.
    fn explore_item(&mut self, item: &WorkItem<M::Label, M::Footprint>) -> Result<(), M::Error> {
        // A search a bound stopped replays no more prefixes (a split into many work items went on
        // replaying each after the time limit).
        if self.stopped() || self.out_of_time() {
            return Ok(());
        }
        self.delays = item.delays;
        let mut state = match item.lanes {
            None => replay_prefix(self.model, &item.path)?,
            Some(_) => replay_choice_point(self.model, &item.path)?,
        };
        let mut path: Vec<LaneId> = item.path.iter().map(|lane| self.lanes.id(lane)).collect();
        self.sleep.clear();
        for (lane, fp) in &item.sleep {
            let id = self.lanes.id(lane);
            self.sleep.push((id, *fp));
        }
        self.tree_path.clear();
        self.open.clear();
        self.published = 0;
        self.item_start = self.states;
        match &item.lanes {
            None => self.dfs(&mut state, &mut path, 0)?,
            Some(labels) => {
                // A donated choice point: visited, stored and counted by its donor, its sleep set
                // narrowed there; what is left is its children, as the donor would have explored
                // them.
                let mut lanes = Vec::new();
                self.model.runnable(&mut state, &mut lanes);
                let mut awake = smallvec::SmallVec::new();
                for label in labels {
                    let Some(&lane) = lanes.iter().find(|lane| self.model.label(&state, lane) == label) else {
                        let why = format!("donated lane {label} is not runnable on replay");
                        return Err(Failure::Nondeterministic(why).into());
                    };
                    awake.push((lane, self.lanes.id(label)));
                }
                self.explore_children(&mut state, &mut path, 0, true, awake, None)?;
            }
        }
        if let Some(progress) = &self.options.progress {
            // The item is done (or stopped, and then the search is over).
            progress.add_states(self.states.saturating_sub(self.states_shown));
            self.states_shown = self.states;
            progress.advance(self.published, 1.0, self.item_weight);
        }
        Ok(())
    }

    /// A lane's number in the stored sleep sets: its own without a shared table, else the
    /// number the threads share.
    #[inline]
    fn stored_id(&mut self, id: LaneId) -> LaneId {
        match self.shared {
            None => id,
            Some(shared) => match self.to_shared.get(id as usize) {
                Some(&number) if number != LaneId::MAX => number,
                _ => {
                    let number = shared.lane(self.lanes.label(id));
                    if self.to_shared.len() <= id as usize {
                        self.to_shared.resize(id as usize + 1, LaneId::MAX);
                    }
                    self.to_shared[id as usize] = number;
                    number
                }
            },
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

    /// A max-states or time bound has been hit (or, with several threads, another thread has
    /// failed).
    fn stopped(&mut self) -> bool {
        if !self.halted {
            if self.pool.is_some_and(|pool| pool.failed()) {
                self.halted = true;
                return true;
            }
            if let Some(flag) = &self.options.interrupt {
                if flag.load(Ordering::Relaxed) {
                    self.hit("Ctrl-C");
                }
            }
        }
        self.halted
    }

    /// Explores the schedules from `state`, reached by the choices `path`, with the sleep set
    /// `self.sleep[base..]` (which this call narrows and pushes above; the caller truncates).
    /// The state is borrowed, not owned: the last child steps it in place, and a state is never
    /// moved (a state can be hundreds of bytes).
    fn dfs(&mut self, state: &mut M::State, path: &mut Vec<LaneId>, base: usize) -> Result<(), M::Error> {
        let mut lanes = self.lane_bufs.pop().unwrap_or_default();
        let result = self.dfs_with(state, path, base, &mut lanes);
        self.lane_bufs.push(lanes);
        result
    }

    /// `dfs`, with a buffer for this call's runnable lanes: the forced steps to the next choice
    /// point, the rules that may end the branch there, then the choice point's children.
    fn dfs_with(
        &mut self,
        state: &mut M::State,
        path: &mut Vec<LaneId>,
        base: usize,
        lanes: &mut Vec<M::Lane>,
    ) -> Result<(), M::Error> {
        // Sleep sets and the persistent-set rule are off with a delay bound (see
        // `Options::delay_bound`); state caching stays.
        let reduce = self.options.reduce && self.options.delay_bound.is_none();
        if !self.run_forced_steps(state, base, lanes, reduce)? {
            return Ok(());
        }
        if lanes.is_empty() {
            self.record_outcome(state, path);
            return Ok(());
        }
        if self.cut_at_choice_point(state, path.len()) {
            return Ok(());
        }
        if reduce && self.every_lane_asleep(state, lanes, base) {
            // Nothing would be explored from here (a revisit explores only lanes awake now), so
            // the choice point is neither fingerprinted, stored nor counted, as a forced step
            // whose lane is asleep ends its branch (`run_forced_steps`).
            return Ok(());
        }
        // On a revisit, the lanes to explore: only those asleep at the earlier visit and awake
        // now (the others were explored from this state then). None: every awake lane.
        let mut revisit: Option<smallvec::SmallVec<[LaneId; 8]>> = None;
        if reduce {
            let key = Key::new(self.model.fingerprint(state));
            let depth = path.len() as u32;
            let visit = match self.shared {
                Some(_) => self.visit_shared(key, depth, base),
                None => self.visit_own(key, depth, base),
            };
            match visit {
                None => return Ok(()),
                Some(only) => revisit = only,
            }
        }
        if self.options.reduce
            && self.options.delay_bound.is_some()
            && !self.visit_delay_bounded(state, path.len() as u32)
        {
            return Ok(());
        }
        if !self.count_choice_point() {
            return Ok(());
        }
        self.show_progress();
        if self.pool.is_some_and(|pool| pool.wanted()) && self.states - self.donated_at >= self.options.donate_every {
            self.donate(path);
        }
        // The default order's choice: the first runnable lane in label order.
        let default_lane = match self.options.delay_bound {
            Some(_) => Some(self.lanes.id_of(self.model, state, &lanes[0])),
            None => None,
        };
        let awake = self.awake_lanes(state, lanes, base, reduce, revisit.as_deref());
        self.explore_children(state, path, base, reduce, awake, default_lane)
    }

    /// Runs the forced steps from `state` (the steps of states with one runnable lane), leaving
    /// in `lanes` the runnable lanes of the next choice point or end state. False when the
    /// branch ends before: at the max-units bound, or at a lane that is asleep.
    fn run_forced_steps(
        &mut self,
        state: &mut M::State,
        base: usize,
        lanes: &mut Vec<M::Lane>,
        reduce: bool,
    ) -> Result<bool, M::Error> {
        let model = self.model;
        loop {
            model.runnable(state, lanes);
            if lanes.len() != 1 {
                return Ok(true);
            }
            if model.units(state) >= self.options.max_units {
                self.hit(&format!("max-units ({})", self.options.max_units));
                return Ok(false);
            }
            let lane = lanes.pop().expect("one lane");
            // A state with one runnable lane is a choice point with one choice, and the sleep-set
            // rule holds there too: when that lane is asleep, every schedule from here begins with
            // a step explored from an earlier choice point (where it was explored, the steps since
            // then commute with it), so nothing below here is new.
            if reduce
                && self.sleep.len() > base
                && is_asleep(&self.sleep[base..], self.lanes.id_of(model, state, &lane))
            {
                return Ok(false);
            }
            let fp = model.step(state, lane)?;
            if self.sleep.len() > base {
                retain_from(&mut self.sleep, base, |(_, f)| !f.conflicts(&fp));
            }
        }
    }

    /// Whether every runnable lane of a choice point is in its sleep set `self.sleep[base..]`.
    fn every_lane_asleep(&mut self, state: &M::State, lanes: &[M::Lane], base: usize) -> bool {
        if self.sleep.len() - base < lanes.len() {
            return false;
        }
        let model = self.model;
        lanes.iter().all(|lane| {
            let id = self.lanes.id_of(model, state, lane);
            is_asleep(&self.sleep[base..], id)
        })
    }

    /// Whether a bound ends the branch at this choice point, `depth` choices deep: a max-states,
    /// time or Ctrl-C stop, the depth bound or the max-units bound (the bound recorded).
    fn cut_at_choice_point(&mut self, state: &M::State, depth: usize) -> bool {
        if self.stopped() || self.out_of_time() {
            return true;
        }
        if depth >= self.options.max_depth {
            if !self.depth_cut {
                self.depth_cut = true;
                if let Some(shared) = self.shared {
                    shared.depth_cut.store(true, Ordering::Relaxed);
                }
                self.hit(&format!("max-depth ({})", self.options.max_depth));
            }
            return true;
        }
        if self.model.units(state) >= self.options.max_units {
            self.hit(&format!("max-units ({})", self.options.max_units));
            return true;
        }
        false
    }

    /// Counts a choice point against the whole search's budget: false when it passes the
    /// max-states bound (recorded).
    fn count_choice_point(&mut self) -> bool {
        self.states += 1;
        // The whole search's count, across work items and threads (`max_states` bounds the run).
        let total = match &self.budget {
            Some(shared) => shared.fetch_add(1, Ordering::Relaxed) + 1,
            None => self.used_before + self.states,
        };
        if total > self.options.max_states {
            // The choice point that passes the bound is counted, as with one thread (so a
            // search the bound stops counts `max_states + 1`, whatever the threads); those
            // other threads reach after it are not.
            if total > self.options.max_states.saturating_add(1) {
                self.states -= 1;
            }
            self.hit(&format!("max-states ({})", self.options.max_states));
            return false;
        }
        true
    }

    /// Updates the progress display, if any, every 1,024 choice points (it reads the count in
    /// steps of 1,024 states).
    fn show_progress(&mut self) {
        if self.states.is_multiple_of(1024) {
            if let Some(progress) = &self.options.progress {
                progress.add_states(self.states.saturating_sub(self.states_shown));
                self.states_shown = self.states;
                let fraction = fraction_done(&self.tree_path, self.states - self.item_start);
                self.published = progress.advance(self.published, fraction, self.item_weight);
            }
        }
    }

    /// The awake lanes of `lanes` (drained) and their numbers, in label order, then in the
    /// exploration order: not asleep in `self.sleep[base..]`, and on a revisit only those of
    /// `revisit` (by their stored numbers).
    fn awake_lanes(
        &mut self,
        state: &M::State,
        lanes: &mut Vec<M::Lane>,
        base: usize,
        reduce: bool,
        revisit: Option<&[LaneId]>,
    ) -> smallvec::SmallVec<[(M::Lane, LaneId); 8]> {
        let mut awake: smallvec::SmallVec<[(M::Lane, LaneId); 8]> = smallvec::SmallVec::new();
        for lane in lanes.drain(..) {
            let id = self.lanes.id_of(self.model, state, &lane);
            if reduce && is_asleep(&self.sleep[base..], id) {
                continue;
            }
            if let Some(only) = revisit {
                // Numbered as the stored sleep sets number lanes.
                if !only.contains(&self.stored_id(id)) {
                    continue;
                }
            }
            awake.push((lane, id));
        }
        let order = self.options.lane_order;
        if order == LaneOrder::RevisitedFirst && revisit.is_some() {
            for (_, id) in &awake {
                let id = *id as usize;
                if self.revisited.len() <= id {
                    self.revisited.resize(id + 1, 0);
                }
                self.revisited[id] = self.revisited[id].saturating_add(1);
            }
        }
        if order != LaneOrder::Label && awake.len() > 1 {
            for (lane, id) in &awake {
                self.note_bounded(state, lane, *id);
            }
            let (breadth, bounded, revisited) = (&self.breadth, &self.bounded, &self.revisited);
            let learned = order == LaneOrder::RevisitedFirst;
            // A lane with a footprint bound after every other lane (see `LaneOrder`), then (in
            // `RevisitedFirst`) the lanes revisits explored most, then by breadth. Stable: ties
            // stay in label order.
            awake.sort_by_key(|(_, id)| {
                let id = *id as usize;
                let revisits = if learned { revisited.get(id).copied().unwrap_or(0) } else { 0 };
                (
                    bounded[id] == Bounded::Yes,
                    std::cmp::Reverse(revisits),
                    std::cmp::Reverse(breadth.get(id).copied().unwrap_or(0)),
                )
            });
        }
        awake
    }

    /// Records whether lane `id` has a footprint bound (`Model::lane_bound`), once per lane.
    fn note_bounded(&mut self, state: &M::State, lane: &M::Lane, id: LaneId) {
        if self.bounded.len() <= id as usize {
            self.bounded.resize(id as usize + 1, Bounded::Unknown);
        }
        if self.bounded[id as usize] == Bounded::Unknown {
            let bound = self.model.lane_bound(self.model.label(state, lane));
            self.bounded[id as usize] = if bound.is_some() { Bounded::Yes } else { Bounded::No };
        }
    }

    /// Steps each awake lane of a choice point from `state` and explores below, with the sleep
    /// set `self.sleep[base..]` and, under a delay bound, `default_lane` as the choice that is
    /// no delay.
    fn explore_children(
        &mut self,
        state: &mut M::State,
        path: &mut Vec<LaneId>,
        base: usize,
        reduce: bool,
        awake: smallvec::SmallVec<[(M::Lane, LaneId); 8]>,
        default_lane: Option<LaneId>,
    ) -> Result<(), M::Error> {
        let last = awake.len().saturating_sub(1);
        // For the progress display: the choice points the children explored so far took.
        let mut done = 0;
        // With a pool, this choice point is open to donations, as `self.open[at]`.
        let at = self.open.len();
        let sharing = self.pool.is_some();
        if sharing {
            self.open.push(Open {
                depth: path.len() as u32,
                base: base as u32,
                mid: base as u32,
                current: None,
                lanes: awake.iter().map(|(_, id)| *id).collect(),
                next: 0,
                end: awake.len() as u32,
            });
        }
        for (i, (lane, id)) in awake.into_iter().enumerate() {
            if sharing && i as u32 >= self.open[at].end {
                // The rest were donated.
                break;
            }
            if self.stopped() || self.out_of_time() {
                break;
            }
            // A choice other than the default one is a delay; beyond the bound it is cut.
            let delay = default_lane.is_some_and(|first| first != id);
            if delay && self.beyond_delay_bound() {
                continue;
            }
            // The last child takes the state itself instead of a copy.
            let mut copy;
            let child = if i == last {
                &mut *state
            } else {
                copy = state.clone();
                &mut copy
            };
            let fp = self.model.step(child, lane)?;
            self.transitions += 1;
            self.note_breadth(id, &fp);
            let child_base = self.push_child_sleep_set(base, &fp, reduce);
            // A step that commutes with every step of every state is a persistent set on its
            // own: every schedule from here is equivalent to one that runs it first, so its
            // siblings need no exploring.
            let alone = reduce && self.model.alone(&fp);
            if sharing {
                let open = &mut self.open[at];
                open.next = i as u32 + 1;
                open.mid = child_base as u32;
                open.current = Some((id, fp));
                if alone {
                    open.end = open.next;
                }
            }
            path.push(id);
            self.delays += delay as u32;
            done += self.dfs_child(child, path, child_base, i as u32, last as u32 + 1, done)?;
            self.delays -= delay as u32;
            path.pop();
            self.sleep.truncate(child_base);
            if alone {
                break;
            }
            if reduce {
                self.sleep.push((id, fp));
            }
        }
        if sharing {
            self.open.pop();
        }
        Ok(())
    }

    /// Gives a thread that waits for work the untried children of the shallowest choice point
    /// on the current path that has any (`path`: the choices to the choice point being visited),
    /// as a work item: the choices that lead there, the lanes, and the sleep set the first of
    /// them would get here (the choice point's own, the siblings explored before the current
    /// one, and the current one, which this explorer finishes). This explorer then skips them.
    /// Shallowest: its subtrees are likely the largest, so donations stay few.
    fn donate(&mut self, path: &[LaneId]) {
        let Some(pool) = self.pool else { return };
        self.donated_at = self.states;
        if self.halted {
            return;
        }
        let Some(at) = self.open.iter().position(|open| open.next < open.end) else { return };
        let open = &self.open[at];
        let label = |id: LaneId| self.lanes.label(id).clone();
        let mut sleep: Vec<(M::Label, M::Footprint)> =
            self.sleep[open.base as usize..open.mid as usize].iter().map(|&(id, fp)| (label(id), fp)).collect();
        sleep.extend(open.current.map(|(id, fp)| (label(id), fp)));
        let lanes: Vec<M::Label> =
            open.lanes[open.next as usize..open.end as usize].iter().map(|&id| label(id)).collect();
        let item_path: Vec<M::Label> = path[..open.depth as usize].iter().map(|&id| label(id)).collect();
        let (next, end) = (open.next, open.end);
        // The progress display: the donated children's expected share of this explorer's item
        // goes with them (`fraction_done`'s guess), and this choice point expects no more.
        let mut weight = 0.0;
        if self.options.progress.is_some() && at < self.tree_path.len() {
            let states = self.states - self.item_start;
            let before = fraction_done(&self.tree_path, states);
            let level = self.tree_path[at];
            self.tree_path[at].children = next;
            let after = fraction_done(&self.tree_path, states);
            // fraction = states / (states + remaining), so the remaining work that leaves, as a
            // share of the item (states + remaining before), is (1 - before) - before (1 - after) / after.
            if after > 0.0 {
                let share = (1.0 - before) - before * (1.0 - after) / after;
                // Never what this explorer has already shown as done (the shares would add up
                // to more than the whole).
                let unshown = (self.item_weight - self.published as f64 / WHOLE).max(0.0);
                weight = (self.item_weight * share.clamp(0.0, 1.0)).min(unshown);
            }
            self.tree_path[at] = level;
        }
        let item = WorkItem { path: item_path, sleep, delays: 0, lanes: Some(lanes), weight };
        if pool.give(item) {
            self.open[at].end = next;
            debug_assert!(next < end);
            if at < self.tree_path.len() {
                self.tree_path[at].children = next;
            }
            self.item_weight -= weight;
        }
    }

    /// With a delay bound: whether one more delay passes it (the bound recorded if so).
    fn beyond_delay_bound(&mut self) -> bool {
        let bound = self.options.delay_bound.expect("a default lane only with a delay bound");
        if self.delays >= bound {
            self.hit(&format!("delay-bound ({bound})"));
            return true;
        }
        false
    }

    /// Records the breadth of lane `id`'s step (for `LaneOrder::BroadestFirst`).
    fn note_breadth(&mut self, id: LaneId, fp: &M::Footprint) {
        if self.breadth.len() <= id as usize {
            self.breadth.resize(id as usize + 1, 0);
        }
        self.breadth[id as usize] = fp.breadth() + 1;
    }

    /// Pushes the sleep set of a child reached by a step that touched `fp`: this state's sleep
    /// set `self.sleep[base..]` and the siblings explored before, those that commute with the
    /// step. Returns where the child's sleep set begins.
    fn push_child_sleep_set(&mut self, base: usize, fp: &M::Footprint, reduce: bool) -> usize {
        let child_base = self.sleep.len();
        if reduce {
            for j in base..child_base {
                let entry = self.sleep[j];
                if !entry.1.conflicts(fp) {
                    self.sleep.push(entry);
                }
            }
        }
        child_base
    }

    /// Explores a child, the `index`th of a choice point's `children`, with its sleep set from
    /// `child_base`, keeping the progress display's path (`done`: the choice points its earlier
    /// siblings took). Returns the choice points the child took (0 without a progress display).
    fn dfs_child(
        &mut self,
        child: &mut M::State,
        path: &mut Vec<LaneId>,
        child_base: usize,
        index: u32,
        children: u32,
        done: u64,
    ) -> Result<u64, M::Error> {
        if self.options.progress.is_none() {
            self.dfs(child, path, child_base)?;
            return Ok(0);
        }
        let child_start = self.states - self.item_start;
        self.tree_path.push(Level { index, children, child_start, done });
        self.dfs(child, path, child_base)?;
        Ok(match self.tree_path.pop() {
            Some(level) => (self.states - self.item_start).saturating_sub(level.child_start),
            None => 0,
        })
    }

    fn record_outcome(&mut self, state: &M::State, path: &[LaneId]) {
        let model = self.model;
        // The outcome is a function of the fingerprinted state: an end state seen before has the
        // outcome computed then.
        let end = Key::new(model.fingerprint(state));
        let (outcome, key) = match self.end_states.get(&end) {
            Some(&key) => (None, key),
            None => {
                let outcome = model.outcome(state);
                let key = model.outcome_key(&outcome);
                self.end_states.insert(end, key);
                (Some(outcome), key)
            }
        };
        let lanes = &self.lanes;
        // The witness's text, written from the labels the numbering holds (no schedule built).
        let witness = || {
            let picks: smallvec::SmallVec<[&M::Label; 32]> = path.iter().map(|&id| lanes.label(id)).collect();
            model.schedule_text(&picks)
        };
        match self.outcomes.get_mut(&key) {
            Some(class) => class.met(path.len(), witness),
            None => {
                let outcome = match outcome {
                    Some(outcome) => outcome,
                    None => model.outcome(state),
                };
                if let Some(progress) = &self.options.progress {
                    progress.add_outcome(key);
                }
                self.outcomes.insert(
                    key,
                    Class { outcome, key, end_states: 1, witness: witness(), witness_choices: path.len() },
                );
            }
        }
    }

    /// The visited table's memory: buckets at the table's real capacity, plus the stored sleep
    /// sets and the lane numbering.
    fn memory(&self) -> Memory {
        let table = table_bytes(self.visited.capacity(), std::mem::size_of::<(Key, Visit)>());
        Memory {
            states: self.visited.len() as u64,
            bytes: (table + self.sleep_sets.bytes() + self.lanes.bytes()) as u64,
        }
    }

    fn finish(self) -> Report<M::Outcome> {
        let mut report = Report {
            search: crate::SearchKind::Stateful,
            executions: 0,
            redundant: 0,
            work_items: 1,
            states: self.states,
            transitions: self.transitions,
            bounds_hit: self.bounds_hit,
            outcomes: self.outcomes.into_values().collect(),
        };
        report.sort_outcomes();
        report
    }
}
