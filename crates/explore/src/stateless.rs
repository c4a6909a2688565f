//! The stateless search: every schedule is run from the initial state, and optimal dynamic
//! partial-order reduction (wakeup trees and sleep sets: Abdulla, Aronis, Jonsson and Sagonas,
//! "Optimal dynamic partial order reduction", POPL 2014, Algorithm 2) chooses the schedules,
//! one per equivalence class of the happens-before relation. For models whose states cannot be
//! copied or hashed ([`Model`] without [`crate::Stateful`]).
//!
//! The events of an execution are the steps of lanes. Happens-before is the transitive closure
//! of four relations, kept as vector clocks (by lane: how many of its steps happen before an
//! event, or are it):
//! - **lane order**: the steps of one lane in the order they ran;
//! - **conflict**: an earlier step whose footprint conflicts with a later one's
//!   ([`Footprint::conflicts`]), unless the model says the earlier one commutes with every
//!   step from its state on ([`Model::alone`]; a property of the state it ran in, so a later
//!   step that is alone still races with earlier ones). Such a step races with no later step,
//!   and asleep it covers every sequence, whatever the sequence's footprints (known or not);
//! - **enabling**: a lane that could not run before a step and can after it (a task posted to
//!   an empty queue, a block started) has its next step after that one;
//! - **time**: when the model's clock ([`Model::clock`]) changes between two steps, every step
//!   before happens before every step after (time advances only when nothing can run; a lane
//!   that could run before the step after which time advanced was put off by that step, and is
//!   scheduled before it, as a disabled lane is: `schedule_disabled`).
//!
//! Two steps race when they conflict, belong to different lanes, and nothing else orders them
//! (no chain of the relations above, and the later was not enabled by the earlier). For each
//! race the search schedules the reversal: from the state before the earlier step, the steps
//! between the two that do not happen after it, then the later step (`v = notdep(e, E).e'`),
//! inserted in that state's wakeup tree unless a lane asleep there, or a branch already in the
//! tree, covers it. A lane that a step disables (it could run before and cannot after) is
//! scheduled before that step the same way, as a race with its next step, whose footprint is
//! unknown unless the model bounds what its lane's steps touch ([`Model::lane_bound`]).
//!
//! What the model must promise, beyond the stateful search's "steps whose footprints do not
//! conflict commute" (docs/model.md, "Stateless exploration", says why the simulator keeps it):
//! a step that changes what another lane's next step does, or disables it, conflicts with the
//! step that lane takes next; and a step that runs what another step put in place (a task in
//! a queue that was not empty) conflicts with that step.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::{Class, Failure, Footprint, LaneId, LaneNumbering, Memory, Model, Options, Report, SearchKind, Searched};

mod speculate;

use speculate::{Ahead, Plan, Pool, Recording};

/// A branch of a wakeup tree: the next step of `lane`, what it touched when the search saw it
/// (None: not known, taken to conflict with every step), and the branches after it.
struct Node<F> {
    lane: LaneId,
    fp: Option<F>,
    children: Vec<Node<F>>,
}

/// A step of the current execution, with what the search keeps of the state before it.
struct Frame<F> {
    /// The lanes that could run before the step, as the model listed them.
    runnable: Vec<LaneId>,
    /// The sleep set before the step: lanes whose next step has been explored from here or
    /// from above (with everything since commuting with it), each with that step's footprint.
    sleep: Vec<(LaneId, F)>,
    /// The branches still to explore from the state before the step, leftmost first.
    wut: Vec<Node<F>>,
    /// The model's clock changed between the step before and the listing of `runnable`.
    barrier: bool,
    /// The model's clock after the listing.
    time: u64,
    lane: LaneId,
    fp: F,
    /// The step's number among its lane's steps in this execution, from 1.
    pos: u32,
    /// Its vector clock: by lane, how many of the lane's steps happen before it or are it.
    clock: Vec<u32>,
    /// Two or more lanes could run (the step is a choice of the schedule).
    choice: bool,
    /// The ticket of the leftmost branch of `wut`, handed to a worker thread to run ahead
    /// (`speculate`), with the [`plan_check`] it was handed out with.
    ticket: Option<(u64, Vec<LaneId>)>,
}

/// Explores every schedule of `model` within the bounds of `options`, each run from the initial
/// state. With `options.jobs` above 1 (and a model that can run on other threads,
/// [`Model::detached`]), worker threads run ahead the executions the search will reach
/// (`speculate`); the report is the one-thread search's, byte for byte. Shards are not
/// implemented for this search: with shards, shard 1 runs the whole search and the others none,
/// so that merged shards still give the whole search.
pub fn search<M: Model>(model: &M, options: &Options) -> Result<Searched<M::Outcome>, M::Error> {
    let workers = if options.jobs > 1 && model.detached().is_some() { options.jobs - 1 } else { 0 };
    let pool = (workers > 0).then(|| Pool::<M>::new(workers));
    let mut ex = Explorer::new(model, options, pool.as_ref());
    if options.shard.0 == 1 {
        match &pool {
            None => ex.run()?,
            Some(pool) => std::thread::scope(|scope| {
                // The workers stop when the search ends, however it ends (a panic included:
                // the scope waits for them).
                let _stop = pool.stopper();
                for worker in 0..workers {
                    std::thread::Builder::new()
                        .name(format!("stateless-{worker}"))
                        .spawn_scoped(scope, move || pool.work(model, options, worker))
                        .map_err(|e| Failure::Threads(format!("could not start a thread: {e}")))?;
                }
                ex.run()
            })?,
        }
    }
    if let Some(progress) = &options.progress {
        progress.end();
    }
    let run_ahead = ex.pool.as_ref().map_or(0, |(_, ahead)| ahead.taken);
    Ok(Searched {
        report: ex.finish(),
        counts_vary: false,
        split_states: 0,
        split_transitions: 0,
        memory: Memory::default(),
        run_ahead,
    })
}

/// The search's state: the current execution's frames, the per-lane bookkeeping for its clocks,
/// and the counts.
struct Explorer<'o, M: Model> {
    model: &'o M,
    options: &'o Options,
    /// The worker threads running branches ahead, and what the search knows of them.
    pool: Option<(&'o Pool<M>, Ahead<M>)>,
    start: Instant,
    lanes: M::Numbering,
    frames: Vec<Frame<M::Footprint>>,
    /// Races found in the current execution (earlier, later), by frame.
    races: Vec<(usize, usize)>,
    /// By lane: steps so far in the current execution, its last step's frame, and the step
    /// after which it last became runnable.
    count: Vec<u32>,
    last: Vec<Option<usize>>,
    enabler: Vec<Option<usize>>,
    /// The join of every step's clock up to the last change of the model's clock.
    barrier_clock: Vec<u32>,
    /// By lane: the model's bound on its steps' footprints ([`Model::lane_bound`]), asked once.
    bounds: Vec<Option<Option<M::Footprint>>>,
    outcomes: BTreeMap<u128, Class<M::Outcome>>,
    executions: u64,
    redundant: u64,
    choice_points: u64,
    steps: u64,
    bounds_hit: Vec<String>,
}

/// An event of a sequence to insert in a wakeup tree: its frame in the current execution, and
/// its footprint there (None when not known: the last event, whose step runs without the step
/// it raced, unless `Model::footprints_fixed`; a disabled lane's next step).
#[derive(Clone, Copy)]
struct Event<F> {
    frame: usize,
    lane: LaneId,
    fp: Option<F>,
}

/// `weak_initial`'s answer for a lane with no step in the sequence.
const NOT_IN_V: usize = usize::MAX;

impl<'o, M: Model> Explorer<'o, M> {
    fn new(model: &'o M, options: &'o Options, pool: Option<&'o Pool<M>>) -> Explorer<'o, M> {
        Explorer {
            model,
            options,
            pool: pool.map(|p| (p, p.ahead())),
            start: Instant::now(),
            lanes: M::Numbering::default(),
            frames: Vec::new(),
            races: Vec::new(),
            count: Vec::new(),
            last: Vec::new(),
            enabler: Vec::new(),
            barrier_clock: Vec::new(),
            bounds: Vec::new(),
            outcomes: BTreeMap::new(),
            executions: 0,
            redundant: 0,
            choice_points: 0,
            steps: 0,
            bounds_hit: Vec::new(),
        }
    }

    fn hit(&mut self, bound: String) {
        if !self.bounds_hit.contains(&bound) {
            self.bounds_hit.push(bound);
        }
    }

    /// A bound that stops the whole search: executions, time, Ctrl-C.
    fn stopped(&mut self) -> bool {
        if self.executions >= self.options.max_executions {
            self.hit(format!("max-executions ({})", self.options.max_executions));
            return true;
        }
        if let Some(limit) = self.options.time_limit {
            if self.start.elapsed() >= limit {
                self.hit(format!("time ({} s)", limit.as_secs_f64()));
                return true;
            }
        }
        if self.options.interrupt.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            self.hit("Ctrl-C".into());
            return true;
        }
        false
    }

    /// Runs executions until every branch is explored or a bound stops the search.
    fn run(&mut self) -> Result<(), M::Error> {
        // The first execution starts with an empty prefix and no branch to follow.
        let mut resume: Option<usize> = None;
        loop {
            if self.stopped() {
                return Ok(());
            }
            self.executions += 1;
            self.races.clear();
            let before = self.choice_points;
            let from = resume.unwrap_or(0);
            match resume.and_then(|r| self.recording(r)) {
                Some(mut rec) => {
                    self.rebuild(from);
                    self.steps += rec.replayed;
                    let detached = rec.model.take();
                    let result = self.execute(&mut Source::Recorded { rec: &mut rec, at: 0 }, from);
                    // What the execution changed in the model, now that the search has reached it.
                    if let Some(detached) = detached {
                        self.model.adopt(detached);
                    }
                    result?;
                }
                None => {
                    let began = self.pool.is_some().then(Instant::now);
                    let mut state = self.model.initial()?;
                    if resume.is_some() {
                        self.replay(&mut state, from)?;
                    }
                    self.execute(&mut Source::Live { state: &mut state, listed: Vec::new() }, from)?;
                    if let (Some(began), Some((_, ahead))) = (began, self.pool.as_mut()) {
                        ahead.timed(began.elapsed());
                    }
                }
            }
            if let Some(progress) = &self.options.progress {
                // The display counts choice points, as for the stateful search.
                progress.add_states(self.choice_points - before);
            }
            self.reverse_races();
            match self.backtrack() {
                Some(r) => {
                    resume = Some(r);
                    self.hand_out(r);
                }
                None => return Ok(()),
            }
        }
    }

    /// The recording of the execution that resumes at frame `r` (its leftmost branch), if a
    /// worker ran it and it is the execution the search would run now.
    fn recording(&mut self, r: usize) -> Option<Recording<M>> {
        let (pool, ahead) = self.pool.as_mut()?;
        let (ticket, check) = self.frames[r].ticket.take()?;
        let rec = pool.take(ahead, &mut self.lanes, ticket, self.options.always_run_ahead)?;
        // The branch, its path and its sleep set cannot have changed since it was handed out
        // (`speculate`); if they had, the search runs the execution itself.
        let same = check == plan_check(&self.frames[r].sleep, &self.frames[r].wut);
        debug_assert!(same, "a branch run ahead changed before the search reached it");
        ahead.taken += u64::from(same);
        same.then_some(rec)
    }

    /// Hands the leftmost branch of each frame above `r` that has one to the worker threads,
    /// deepest first (the search reaches those first), while the window has room: each is the
    /// execution the search will run when it comes back to that frame, with the step it
    /// explores there now asleep.
    fn hand_out(&mut self, r: usize) {
        let Some((pool, ahead)) = self.pool.as_mut() else {
            return;
        };
        if !(self.options.always_run_ahead || ahead.worth_it()) {
            return;
        }
        for i in (0..r).rev() {
            if ahead.outstanding() >= ahead.window {
                return;
            }
            let frame = &self.frames[i];
            // A step alone clears the branches left at its frame when the search comes back.
            if frame.ticket.is_some() || frame.wut.is_empty() || self.model.alone(&frame.fp) {
                continue;
            }
            let mut sleep = frame.sleep.clone();
            sleep.push((frame.lane, frame.fp));
            let check = plan_check(&sleep, &frame.wut);
            let lanes = &self.lanes;
            let plan = Plan {
                prefix: self.frames[..i].iter().map(|f| lanes.label(f.lane).clone()).collect(),
                path: check[sleep.len() + 1..].iter().map(|&l| lanes.label(l).clone()).collect(),
                sleep: sleep.iter().map(|(l, f)| (lanes.label(*l).clone(), *f)).collect(),
                choices: self.frames[..i].iter().filter(|f| f.choice).count(),
            };
            let ticket = pool.hand_out(ahead, plan);
            self.frames[i].ticket = Some((ticket, check));
        }
    }

    /// Forgets the branch frame `i` handed out, if any.
    fn cancel(&mut self, i: usize) {
        if let (Some((pool, ahead)), Some((ticket, _))) = (self.pool.as_mut(), self.frames[i].ticket.take()) {
            pool.cancel(ahead, ticket);
        }
    }

    /// Marks the last step of each frame from the deepest as explored (its lane joins that
    /// frame's sleep set; after a step [`Model::alone`] no branch is left there) and pops frames
    /// until one has a branch left: its index, None when none has.
    fn backtrack(&mut self) -> Option<usize> {
        while let Some(top) = self.frames.last_mut() {
            top.sleep.push((top.lane, top.fp));
            if self.model.alone(&top.fp) {
                // A step that commutes with every step from this state on is a persistent set
                // on its own, as in the stateful search: every maximal execution from here runs
                // it somewhere, and it moves to the front, into the class just explored. The
                // branches left here need no exploring.
                top.wut.clear();
            }
            if !top.wut.is_empty() {
                return Some(self.frames.len() - 1);
            }
            self.cancel(self.frames.len() - 1);
            self.frames.pop();
        }
        None
    }

    /// Runs the steps of frames `..r` again from the initial state, rebuilds the per-lane
    /// bookkeeping for them, and returns `r` (frame `r` keeps its state's data; its step is
    /// chosen again).
    fn replay(&mut self, state: &mut M::State, r: usize) -> Result<usize, M::Error> {
        let model = self.model;
        let mut listed = Vec::new();
        for i in 0..r {
            model.runnable(state, &mut listed);
            let want = self.frames[i].lane;
            let lanes = &mut self.lanes;
            let Some(&lane) = listed.iter().find(|l| lanes.id_of(model, state, l) == want) else {
                let label = self.lanes.label(want).to_string();
                return Err(Failure::Nondeterministic(format!("lane {label} is not runnable on replay")).into());
            };
            model.step(state, lane)?;
            self.steps += 1;
        }
        self.rebuild(r);
        Ok(r)
    }

    /// The per-lane bookkeeping of frames `..r`, from their data (for an execution resumed at
    /// frame `r`).
    fn rebuild(&mut self, r: usize) {
        self.count.iter_mut().for_each(|c| *c = 0);
        self.last.iter_mut().for_each(|l| *l = None);
        self.enabler.iter_mut().for_each(|e| *e = None);
        self.barrier_clock.clear();
        let mut all: Vec<u32> = Vec::new();
        for i in 0..=r {
            if i > 0 {
                self.note_enabled(i);
            }
            if self.frames[i].barrier {
                self.barrier_clock.clone_from(&all);
            }
            if i < r {
                let (id, pos) = (self.frames[i].lane, self.frames[i].pos);
                join(&mut all, &self.frames[i].clock);
                grow(&mut self.count, id, 0);
                grow(&mut self.last, id, None);
                self.count[id as usize] = pos;
                self.last[id as usize] = Some(i);
            }
        }
    }

    /// The lanes runnable before frame `i`'s step and not before frame `i - 1`'s: enabled by
    /// frame `i - 1`'s step.
    fn note_enabled(&mut self, i: usize) {
        let (before, after) = self.frames.split_at(i);
        let before = &before[i - 1].runnable;
        for &x in &after[0].runnable {
            if !before.contains(&x) {
                grow(&mut self.enabler, x, None);
                self.enabler[x as usize] = Some(i - 1);
            }
        }
    }

    /// Runs one execution from frame `from` (the state `state`) to its end, a sleep-set block
    /// or a bound, adding frames and noting races.
    fn execute(&mut self, source: &mut Source<'_, M>, from: usize) -> Result<(), M::Error> {
        let model = self.model;
        let mut depth = from;
        let mut choices = self.frames[..from].iter().filter(|f| f.choice).count();
        // The branches after the step just taken (a followed branch's own), for the next frame.
        let mut next_wut: Vec<Node<M::Footprint>> = Vec::new();
        loop {
            let (ids, time, units) = source.list(model, &mut self.lanes)?;
            // A new frame for the state before step `depth` (a resumed frame keeps its own).
            if depth == self.frames.len() {
                let (sleep, barrier) = match self.frames.last() {
                    Some(prev) => {
                        let sleep = prev.sleep.iter().copied().filter(|(_, f)| !conflict(model, f, &prev.fp)).collect();
                        (sleep, prev.time != time)
                    }
                    None => (Vec::new(), false),
                };
                self.frames.push(Frame {
                    runnable: ids.clone(),
                    sleep,
                    wut: std::mem::take(&mut next_wut),
                    barrier,
                    time,
                    lane: LaneId::MAX,
                    fp: Default::default(),
                    pos: 0,
                    clock: Vec::new(),
                    choice: ids.len() > 1,
                    ticket: None,
                });
                if depth > 0 {
                    self.note_enabled(depth);
                    self.schedule_disabled(depth);
                }
                if barrier {
                    let mut all = Vec::new();
                    for f in &self.frames[..depth] {
                        join(&mut all, &f.clock);
                    }
                    self.barrier_clock = all;
                }
            }
            if ids.is_empty() {
                self.frames.pop();
                let (outcome, key) = source.outcome(model)?;
                self.record_outcome(outcome, key);
                return Ok(());
            }
            if units >= self.options.max_units {
                self.frames.pop();
                self.hit(format!("max-units ({})", self.options.max_units));
                return Ok(());
            }
            let frame = &mut self.frames[depth];
            if frame.choice && choices >= self.options.max_depth {
                self.frames.pop();
                self.hit(format!("max-depth ({})", self.options.max_depth));
                return Ok(());
            }
            // The step: the leftmost branch of the wakeup tree, or the first awake lane.
            let pick = if !frame.wut.is_empty() {
                let node = frame.wut.remove(0);
                let Some(at) = ids.iter().position(|&id| id == node.lane) else {
                    let label = self.lanes.label(node.lane).to_string();
                    return Err(Failure::Nondeterministic(format!("scheduled lane {label} is not runnable")).into());
                };
                next_wut = node.children;
                at
            } else {
                match first_awake(&ids, &frame.sleep) {
                    Some(at) => at,
                    None => {
                        // Every lane is asleep: this execution is equivalent to one run before.
                        self.redundant += 1;
                        self.frames.pop();
                        return Ok(());
                    }
                }
            };
            if frame.choice {
                choices += 1;
                self.choice_points += 1;
            }
            let id = ids[pick];
            let fp = source.step(model, pick)?;
            self.steps += 1;
            self.place(depth, id, fp);
            depth += 1;
        }
    }

    /// Sets frame `depth`'s step (lane `id`, footprint `fp`): its position in the lane, its
    /// vector clock, and the races it ends.
    fn place(&mut self, depth: usize, id: LaneId, fp: M::Footprint) {
        let lane = id as usize;
        grow(&mut self.count, id, 0);
        grow(&mut self.last, id, None);
        grow(&mut self.enabler, id, None);
        self.count[lane] += 1;
        let pos = self.count[lane];
        let mut clock = self.barrier_clock.clone();
        if let Some(prev) = self.last[lane] {
            join(&mut clock, &self.frames[prev].clock);
        }
        if let Some(e) = self.enabler[lane] {
            join(&mut clock, &self.frames[e].clock);
        }
        // Conflicting earlier steps, latest first: one that already happens before this step
        // (through a later one, its lane, an enabling or a barrier) is no race.
        for k in (0..depth).rev() {
            let other = &self.frames[k];
            if other.lane == id || !conflict(self.model, &other.fp, &fp) {
                continue;
            }
            if clock.get(other.lane as usize).copied().unwrap_or(0) >= other.pos {
                continue;
            }
            self.races.push((k, depth));
            let other_clock = std::mem::take(&mut self.frames[k].clock);
            join(&mut clock, &other_clock);
            self.frames[k].clock = other_clock;
        }
        if clock.len() <= lane {
            clock.resize(lane + 1, 0);
        }
        clock[lane] = pos;
        self.last[lane] = Some(depth);
        let frame = &mut self.frames[depth];
        frame.lane = id;
        frame.fp = fp;
        frame.pos = pos;
        frame.clock = clock;
    }

    /// The model's bound on the footprint of any step of `lane` ([`Model::lane_bound`]).
    fn bound(&mut self, lane: LaneId) -> Option<M::Footprint> {
        grow(&mut self.bounds, lane, None);
        if self.bounds[lane as usize].is_none() {
            self.bounds[lane as usize] = Some(self.model.lane_bound(self.lanes.label(lane)));
        }
        self.bounds[lane as usize].flatten()
    }

    /// Whether frame `a`'s step happens before frame `b`'s (`a < b`).
    fn hb(&self, a: usize, b: usize) -> bool {
        let fa = &self.frames[a];
        self.frames[b].clock.get(fa.lane as usize).copied().unwrap_or(0) >= fa.pos
    }

    /// The lanes frame `depth - 1`'s step disabled (runnable before it, not after, not its own
    /// lane): each is scheduled before that step, as a race with its next step, whose footprint
    /// is unknown. A step after which the model's clock advanced put off every other lane that
    /// could run before it, even one runnable again at the new time: time advances only when
    /// nothing can run, so that step made those lanes wait for it (`net.wait` puts the fetches in
    /// flight off, `user.wait` the user's step). The barrier orders them after every earlier
    /// step, which hides their races with those steps, so they are scheduled before it too.
    fn schedule_disabled(&mut self, depth: usize) {
        let k = depth - 1;
        let disabled: Vec<LaneId> = {
            let (before, after) = (&self.frames[k], &self.frames[depth]);
            before
                .runnable
                .iter()
                .copied()
                .filter(|x| *x != before.lane && (after.barrier || !after.runnable.contains(x)))
                .collect()
        };
        for x in disabled {
            let v = vec![Event { frame: usize::MAX, lane: x, fp: self.bound(x) }];
            self.insert(k, v);
        }
    }

    /// For each race of the execution, the reversal inserted in the wakeup tree of the state
    /// before its earlier step.
    fn reverse_races(&mut self) {
        let races = std::mem::take(&mut self.races);
        for &(k, j) in &races {
            // Only races whose earlier step is still on the current execution's frames.
            if j >= self.frames.len() {
                continue;
            }
            let mut v: Vec<Event<M::Footprint>> = ((k + 1)..j)
                .filter(|&m| !self.hb(k, m))
                .map(|m| Event { frame: m, lane: self.frames[m].lane, fp: Some(self.frames[m].fp) })
                .collect();
            // The later step runs without the earlier one before it: what it touches then is
            // known only when the model says footprints do not depend on other lanes, or bounded
            // by what the model says any step of its lane touches.
            let lane = self.frames[j].lane;
            let fp = if self.model.footprints_fixed() { Some(self.frames[j].fp) } else { self.bound(lane) };
            v.push(Event { frame: j, lane, fp });
            self.insert(k, v);
        }
        self.races = races;
    }

    /// Inserts the sequence `v` in frame `k`'s wakeup tree, unless a lane asleep there is a
    /// weak initial of it (the class was explored) or a branch covers it (Algorithm 2, lines
    /// 6 and 7).
    fn insert(&mut self, k: usize, mut v: Vec<Event<M::Footprint>>) {
        let frame = &self.frames[k];
        if frame.sleep.iter().any(|(q, f)| self.weak_initial(*q, Some(f), true, &v).is_some()) {
            return;
        }
        let mut tree = std::mem::take(&mut self.frames[k].wut);
        let mut children = &mut tree;
        loop {
            let found = children.iter().enumerate().find_map(|(i, c)| {
                // The placeholder of a branch being followed is no branch.
                if c.lane == LaneId::MAX {
                    return None;
                }
                self.weak_initial(c.lane, c.fp.as_ref(), false, &v).map(|at| (i, at))
            });
            match found {
                None => {
                    children.push(chain(&v));
                    break;
                }
                Some((i, at)) => {
                    if children[i].children.is_empty() {
                        break;
                    }
                    if at != NOT_IN_V {
                        v.remove(at);
                    }
                    if v.is_empty() {
                        break;
                    }
                    children = &mut children[i].children;
                }
            }
        }
        self.frames[k].wut = tree;
    }

    /// Whether the next step of `lane` (with footprint `fp`, None: unknown) is a weak initial of
    /// `v`: its first step in `v` follows none of `v`'s (its index), or the lane has none in `v`
    /// and commutes with all of them (`NOT_IN_V`). `asleep`: `fp` is what the step touched in the
    /// state `v` starts from or an earlier one (a sleep set's), so that [`Model::alone`] holds
    /// from there on; a branch's footprint may come from a later state.
    fn weak_initial(
        &self,
        lane: LaneId,
        fp: Option<&M::Footprint>,
        asleep: bool,
        v: &[Event<M::Footprint>],
    ) -> Option<usize> {
        if let Some(i) = v.iter().position(|e| e.lane == lane) {
            let follows = v[..i].iter().any(|e| self.event_hb(e, &v[i]));
            return (!follows).then_some(i);
        }
        let fp = fp?;
        // A step asleep that commutes with every step from its state on commutes with the
        // unknown ones too.
        if asleep && self.model.alone(fp) {
            return Some(NOT_IN_V);
        }
        v.iter().all(|e| e.fp.is_some_and(|f| !f.conflicts(fp))).then_some(NOT_IN_V)
    }

    /// Happens-before between two events of one sequence (`a` before `b`). A disabled lane's
    /// unknown step (no frame) is ordered after nothing.
    fn event_hb(&self, a: &Event<M::Footprint>, b: &Event<M::Footprint>) -> bool {
        a.frame != usize::MAX && b.frame != usize::MAX && self.hb(a.frame, b.frame)
    }

    fn record_outcome(&mut self, outcome: M::Outcome, key: u128) {
        let model = self.model;
        let choices = self.frames.iter().filter(|f| f.choice).count();
        let lanes = &self.lanes;
        let witness = || {
            let picks: Vec<&M::Label> = self.frames.iter().filter(|f| f.choice).map(|f| lanes.label(f.lane)).collect();
            model.schedule_text(&picks)
        };
        match self.outcomes.get_mut(&key) {
            Some(class) => class.met(choices, witness),
            None => {
                if let Some(progress) = &self.options.progress {
                    progress.add_outcome(key);
                }
                let text = witness();
                self.outcomes
                    .insert(key, Class { outcome, key, end_states: 1, witness: text, witness_choices: choices });
            }
        }
    }

    fn finish(self) -> Report<M::Outcome> {
        let mut bounds_hit = self.bounds_hit;
        bounds_hit.sort();
        let mut report = Report {
            search: SearchKind::Stateless,
            executions: self.executions,
            redundant: self.redundant,
            work_items: 1,
            states: self.choice_points,
            transitions: self.steps,
            bounds_hit,
            outcomes: self.outcomes.into_values().collect(),
        };
        report.sort_outcomes();
        report
    }
}

/// Where an execution's steps come from: the model, run here, or a recording of the same
/// execution run on a worker thread (`speculate`).
enum Source<'s, M: Model> {
    Live { state: &'s mut M::State, listed: Vec<M::Lane> },
    Recorded { rec: &'s mut Recording<M>, at: usize },
}

impl<M: Model> Source<'_, M> {
    /// The lanes that can run now (in the search's numbers), the model's clock and the units
    /// run so far.
    fn list(&mut self, model: &M, lanes: &mut M::Numbering) -> Result<(Vec<LaneId>, u64, usize), M::Error> {
        match self {
            Source::Live { state, listed } => {
                model.runnable(state, listed);
                let time = model.clock(state);
                let ids = listed.iter().map(|l| lanes.id_of(model, state, l)).collect();
                Ok((ids, time, model.units(state)))
            }
            Source::Recorded { rec, at } => match rec.listings.get_mut(*at) {
                Some(listing) => Ok((std::mem::take(&mut listing.ids), listing.time, listing.units)),
                None => Err(rec.error.take().unwrap_or_else(|| diverged().into())),
            },
        }
    }

    /// Runs the step of the lane listed `pick`-th.
    fn step(&mut self, model: &M, pick: usize) -> Result<M::Footprint, M::Error> {
        match self {
            Source::Live { state, listed } => model.step(state, listed[pick]),
            Source::Recorded { rec, at } => match rec.footprints.get(*at) {
                Some(fp) if rec.picks[*at] == pick => {
                    *at += 1;
                    Ok(*fp)
                }
                Some(_) => Err(diverged().into()),
                None => Err(rec.error.take().unwrap_or_else(|| diverged().into())),
            },
        }
    }

    /// The end state's outcome and its key.
    fn outcome(&mut self, model: &M) -> Result<(M::Outcome, u128), M::Error> {
        match self {
            Source::Live { state, .. } => {
                let outcome = model.outcome(state);
                let key = model.outcome_key(&outcome);
                Ok((outcome, key))
            }
            Source::Recorded { rec, .. } => rec.outcome.take().ok_or_else(|| diverged().into()),
        }
    }
}

/// A recording that ends before the search does: a defect of the engine, never of the model.
fn diverged() -> Failure {
    Failure::Nondeterministic(
        "an execution run on a worker thread did not go where the search went (an engine bug)".into(),
    )
}

/// What decides a branch's execution besides its frame: the lanes asleep there, then
/// `LaneId::MAX`, then the lanes of the leftmost path of the frame's wakeup tree (compared when
/// the search takes a recording).
fn plan_check<F>(sleep: &[(LaneId, F)], wut: &[Node<F>]) -> Vec<LaneId> {
    let mut check: Vec<LaneId> = sleep.iter().map(|(l, _)| *l).collect();
    check.push(LaneId::MAX);
    let mut nodes = wut;
    while let Some(node) = nodes.first() {
        check.push(node.lane);
        nodes = &node.children;
    }
    check
}

/// The first lane of `ids` not asleep (the step a frame takes when no branch is left to
/// follow), None when every lane is asleep.
fn first_awake<F>(ids: &[LaneId], sleep: &[(LaneId, F)]) -> Option<usize> {
    ids.iter().position(|id| !sleep.iter().any(|(l, _)| l == id))
}

/// Whether a step `earlier` (or a step asleep since a state before `later`'s) and a step
/// `later` may not commute: their footprints conflict, and `earlier` is not a step the model
/// says commutes with every step from its state on ([`Model::alone`]).
pub(crate) fn conflict<M: Model>(model: &M, earlier: &M::Footprint, later: &M::Footprint) -> bool {
    earlier.conflicts(later) && !model.alone(earlier)
}

/// A chain of nodes, one per event of `v`.
fn chain<F: Copy>(v: &[Event<F>]) -> Node<F> {
    let mut node: Option<Node<F>> = None;
    for e in v.iter().rev() {
        node = Some(Node { lane: e.lane, fp: e.fp, children: node.into_iter().collect() });
    }
    node.expect("a sequence of at least one event")
}

/// `a` := the join (pointwise maximum) of `a` and `b`.
fn join(a: &mut Vec<u32>, b: &[u32]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x = (*x).max(*y);
    }
}

/// Makes `v[id]` exist, filling with `fill`.
fn grow<T: Clone>(v: &mut Vec<T>, id: LaneId, fill: T) {
    if v.len() <= id as usize {
        v.resize(id as usize + 1, fill);
    }
}
