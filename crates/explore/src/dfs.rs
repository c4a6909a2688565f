//! The depth-first search: work items, the explorer of one work item, and the search over all.

use std::collections::hash_map::Entry;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::progress::{fraction_done, Level};
use crate::table::{table_bytes, Key, KeyMap, Memory, Shard, SharedTable, SleepSets, Visit};
use crate::{Class, Failure, Footprint, LaneId, LaneNumbering, LaneOrder, Options, Report, Searched, Stateful};

/// A subtree to explore, named by the choices that lead to it from the initial state, with the
/// sleep set the split reached it with. (A work item carries no state: the thread that explores
/// it replays the choices, so the state never crosses threads.)
struct WorkItem<L, F> {
    path: Vec<L>,
    /// The lanes asleep at the item's root (explored from a choice point above it, and
    /// commuting with every step since), with the footprints they had there: the search below
    /// starts from them as the one search would have.
    sleep: Vec<(L, F)>,
    /// The delays on the path (choices other than the first runnable lane; counted only with a
    /// delay bound).
    delays: u32,
}

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
        items.push(WorkItem { path: Vec::new(), sleep: Vec::new(), delays: 0 });
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
    let parts: Vec<(Report<M::Outcome>, Memory)> = if options.jobs > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.jobs)
            .stack_size(256 << 20)
            .build()
            .map_err(|e| Failure::Threads(format!("cannot start {} threads: {e}", options.jobs)))?;
        let mut parts =
            pool.install(|| mine.into_par_iter().map(|item| run_item(item, 0)).collect::<Result<Vec<_>, _>>())?;
        if let Some(shared) = &shared {
            // One table: its memory once, not per work item.
            for (_, memory) in &mut parts {
                *memory = Memory::default();
            }
            if let Some(first) = parts.first_mut() {
                first.1 = shared.memory();
            }
        }
        parts
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
    })
}

/// The state a work item starts from: the initial state, then forced steps and the item's choices
/// in order, stopping right after the last choice.
fn replay_prefix<M: Stateful>(model: &M, path: &[M::Label]) -> Result<M::State, M::Error> {
    let mut state = model.initial()?;
    let mut picks = path.iter();
    let Some(mut next) = picks.next() else { return Ok(state) };
    let mut lanes = Vec::new();
    loop {
        model.runnable(&mut state, &mut lanes);
        if lanes.len() == 1 {
            model.step(&mut state, lanes[0])?;
            continue;
        }
        let Some(&lane) = lanes.iter().find(|lane| model.label(&state, lane) == next) else {
            return Err(Failure::Nondeterministic(format!("work item choice {next} is not runnable on replay")).into());
        };
        model.step(&mut state, lane)?;
        match picks.next() {
            Some(lane) => next = lane,
            None => return Ok(state),
        }
    }
}

/// Expands the first `split_depth` choice points in lane order, collecting work items. Reduced
/// as the search below is (without state caching): a lane asleep is not expanded, a step that
/// is a persistent set on its own (`Model::alone`) leaves its later siblings unexpanded, and
/// each work item carries the sleep set it was reached with, so that cutting the tree at a
/// depth does not multiply the schedules explored (issue 30: 300 sequential registrations made
/// 89,700 work items, each starting from an empty sleep set). With a delay bound (no sleep sets
/// and no persistent sets there) every choice is expanded, a choice other than the first lane
/// counts as a delay there too, and one beyond the bound is cut (`counts.2`).
#[allow(clippy::too_many_arguments)]
fn split<M: Stateful>(
    model: &M,
    mut state: M::State,
    path: Vec<M::Label>,
    mut sleep: Vec<(M::Label, M::Footprint)>,
    delays: u32,
    options: &Options,
    out: &mut Vec<WorkItem<M::Label, M::Footprint>>,
    counts: &mut (u64, u64, bool),
) -> Result<(), M::Error> {
    let reduce = options.reduce && options.delay_bound.is_none();
    let asleep = |sleep: &[(M::Label, M::Footprint)], label: &M::Label| sleep.iter().any(|(l, _)| l == label);
    let mut lanes = Vec::new();
    loop {
        model.runnable(&mut state, &mut lanes);
        if path.len() >= options.split_depth || lanes.len() != 1 {
            if path.len() >= options.split_depth || lanes.is_empty() || model.units(&state) >= options.max_units {
                out.push(WorkItem { path, sleep, delays });
                return Ok(());
            }
            counts.0 += 1;
            // The lanes expanded so far from this choice point, with their footprints.
            let mut explored: Vec<(M::Label, M::Footprint)> = Vec::new();
            for (i, lane) in lanes.into_iter().enumerate() {
                let label = model.label(&state, &lane).clone();
                if reduce && asleep(&sleep, &label) {
                    continue;
                }
                let delays = delays + (options.delay_bound.is_some() && i > 0) as u32;
                if options.delay_bound.is_some_and(|bound| delays > bound) {
                    counts.2 = true;
                    continue;
                }
                let mut child = state.clone();
                let fp = model.step(&mut child, lane)?;
                counts.1 += 1;
                let mut child_path = path.clone();
                child_path.push(label.clone());
                let child_sleep = if reduce {
                    sleep.iter().chain(&explored).filter(|(_, f)| !f.conflicts(&fp)).cloned().collect()
                } else {
                    Vec::new()
                };
                split(model, child, child_path, child_sleep, delays, options, out, counts)?;
                if reduce && model.alone(&fp) {
                    break;
                }
                if reduce {
                    explored.push((label, fp));
                }
            }
            return Ok(());
        }
        if model.units(&state) >= options.max_units {
            out.push(WorkItem { path, sleep, delays });
            return Ok(());
        }
        // A forced step follows the sleep-set rule as in the search (`run_forced_steps`): a
        // sleeping lane ends the branch; a step removes from the sleep set what it conflicts with.
        if reduce && asleep(&sleep, model.label(&state, &lanes[0])) {
            return Ok(());
        }
        let fp = model.step(&mut state, lanes[0])?;
        sleep.retain(|(_, f)| !f.conflicts(&fp));
    }
}

/// A sleep-set entry: a lane explored from an earlier state, and what its step touched there.
type Asleep<F> = (LaneId, F);

/// Whether `lane` is in a sleep set.
fn is_asleep<F>(sleep: &[Asleep<F>], lane: LaneId) -> bool {
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
    /// `LaneOrder::BroadestFirst`.
    breadth: Vec<u32>,
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
        let mut state = replay_prefix(self.model, &item.path)?;
        let mut path: Vec<LaneId> = item.path.iter().map(|lane| self.lanes.id(lane)).collect();
        self.sleep.clear();
        for (lane, fp) in &item.sleep {
            let id = self.lanes.id(lane);
            self.sleep.push((id, *fp));
        }
        self.tree_path.clear();
        self.published = 0;
        self.item_start = self.states;
        self.dfs(&mut state, &mut path, 0)?;
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

    /// A max-states or time bound has been hit.
    fn stopped(&mut self) -> bool {
        if !self.halted {
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

    /// State caching with sleep sets over this explorer's own table, `visited`: `None` when the
    /// state needs no exploring, else the lanes to explore (`None`: every awake lane), with the
    /// sleep set `self.sleep[base..]` narrowed as on a revisit.
    fn visit_own(&mut self, key: Key, depth: u32, base: usize) -> Option<Option<smallvec::SmallVec<[LaneId; 8]>>> {
        let Explorer { visited, sleep_sets, sleep, scratch, depth_cut, .. } = self;
        let asleep = |lane: &LaneId| is_asleep(&sleep[base..], *lane);
        let mut revisit = None;
        match visited.entry(key) {
            Entry::Occupied(mut entry) => {
                let v = entry.get_mut();
                let stored = sleep_sets.get(v.sleep);
                // A visit at a greater depth covered everything below this state unless the
                // depth bound cut some branch somewhere (then it may have cut one below here).
                let depth_covered = v.depth <= depth || !*depth_cut;
                if depth_covered && stored.iter().all(asleep) {
                    return None;
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
        Some(revisit)
    }

    /// State caching under a delay bound (no sleep sets): false when `state` was explored
    /// before with at least as many delays left, and so needs no exploring now.
    fn visit_delay_bounded(&mut self, state: &M::State, depth: u32) -> bool {
        let key = Key::new(self.model.fingerprint(state));
        let delays = self.delays;
        match self.delay_visited.entry(key) {
            Entry::Occupied(mut entry) => {
                let (seen_depth, seen_delays) = entry.get_mut();
                // Explored before with at least as many delays left (and, unless the depth
                // bound cut a branch, as deep): every schedule from here within the bound
                // was covered then.
                if *seen_delays <= delays && (*seen_depth <= depth || !self.depth_cut) {
                    return false;
                }
                *seen_depth = (*seen_depth).min(depth);
                *seen_delays = (*seen_delays).min(delays);
            }
            Entry::Vacant(entry) => {
                entry.insert((depth, delays));
            }
        }
        true
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
        if self.options.lane_order == LaneOrder::BroadestFirst && awake.len() > 1 {
            let breadth = &self.breadth;
            // Stable: ties stay in label order.
            awake.sort_by_key(|(_, id)| std::cmp::Reverse(breadth.get(*id as usize).copied().unwrap_or(0)));
        }
        awake
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
        for (i, (lane, id)) in awake.into_iter().enumerate() {
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
        Ok(())
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

    /// State caching with sleep sets over the table the threads share (`visit_own`'s rule, for
    /// one thread): `None` when the state needs no exploring, else the lanes to explore (`None`:
    /// every awake lane; else only these, by their shared numbers), with the sleep set narrowed
    /// as on a revisit.
    ///
    /// Why a state another thread stored, and may still be exploring, can be trusted. Godefroid's
    /// argument for state caching with sleep sets (on an acyclic state space, as here: states
    /// never repeat along a schedule) is an induction on the states below: once every visit of a
    /// state has finished, the lanes explored from it by all its visits together are its awake
    /// lanes less the *stored* sleep set (the intersection of the visits' sleep sets), each
    /// explored with a sleep set made from that visit's own sleep set and its own earlier
    /// siblings. The claim is about the finished search, not about the order in which visits
    /// run: nothing in it needs the first visit to have finished when the second one consults
    /// the table. What it needs is that (1) the first visit explores every lane it did not find
    /// asleep, and (2) reading the stored set, comparing and shrinking it is one step, so two
    /// visits cannot both read the same set and each write back their own (a lost update would
    /// let a lane be skipped by both). (2) holds because the entry is read and written under its
    /// shard's lock. (1) holds unless the first visit is stopped early: by `max-states`, the time
    /// limit or Ctrl-C (then the whole search ends incomplete and says so), or because it is a
    /// persistent set of one (`Model::alone`: its other lanes need no exploring from any visit,
    /// which is the same argument as with one thread). A lane that only the first visit would
    /// have explored is therefore explored, by that visit, before the search ends.
    ///
    /// The depth rule likewise: a state first stored at a greater depth is trusted only while
    /// no branch of the whole search has been cut by `max_depth` (one flag for every thread). A
    /// thread may trust it just before another thread's cut (even one below this state); the
    /// cut makes the search incomplete, and an incomplete search claims nothing.
    fn visit_shared(&mut self, key: Key, depth: u32, base: usize) -> Option<Option<smallvec::SmallVec<[LaneId; 8]>>> {
        let shared = self.shared.expect("a shared table");
        let mut current: smallvec::SmallVec<[LaneId; 8]> = smallvec::SmallVec::new();
        for i in base..self.sleep.len() {
            let id = self.sleep[i].0;
            current.push(self.stored_id(id));
        }
        current.sort_unstable();
        let asleep = |lane: &LaneId| current.binary_search(lane).is_ok();
        let depth_cut = shared.depth_cut.load(Ordering::Relaxed);
        let mut guard = shared.shard(key);
        let Shard { visited, sleep_sets } = &mut *guard;
        let visit = match visited.entry(key) {
            Entry::Vacant(entry) => {
                let sleep = sleep_sets.intern(&current);
                entry.insert(Visit { depth, sleep });
                return Some(None);
            }
            Entry::Occupied(entry) => entry.into_mut(),
        };
        let stored = sleep_sets.get(visit.sleep);
        let depth_covered = visit.depth <= depth || !depth_cut;
        if depth_covered && stored.iter().all(asleep) {
            return None;
        }
        visit.depth = visit.depth.min(depth);
        if visit.sleep == 0 {
            return Some(None);
        }
        let common: smallvec::SmallVec<[LaneId; 8]> = stored.iter().copied().filter(asleep).collect();
        let revisit: Option<smallvec::SmallVec<[LaneId; 8]>> =
            depth_covered.then(|| stored.iter().copied().filter(|l| !asleep(l)).collect());
        visit.sleep = sleep_sets.intern(&common);
        drop(guard);
        if revisit.is_some() {
            let to_shared = &self.to_shared;
            retain_from(&mut self.sleep, base, |(l, _)| common.contains(&to_shared[*l as usize]));
        }
        Some(revisit)
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
