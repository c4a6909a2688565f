//! Threads for the stateless search: executions run ahead on other threads, taken in the
//! search's own order.
//!
//! Optimal DPOR is sequential: which execution runs next depends on the races of the one
//! before. But most of an execution's cost is the model's (85 % of the CPU on
//! four-calls-unload: running the steps, listing lanes), and the first execution of a branch
//! waiting in a wakeup tree is fixed as soon as the branch is there: its prefix (the frames
//! above), the branch's leftmost path, and the sleep set it starts with (the frame's, plus the
//! step being explored there now, which joins it when the search comes back). Nothing the
//! search learns in between changes it: a wakeup tree only grows to the right of a branch, and
//! a leaf never grows. So the search hands such branches to worker threads, each of which runs
//! the model on a copy of its own ([`Model::detached`]) and records what the search would have
//! seen: the lanes listed at each step, the clock, the footprints, the outcome. When the search
//! reaches the branch, it takes the recording instead of running the model, and does everything
//! else (clocks, races, wakeup trees) itself, in its own order.
//!
//! The result is the one-thread search's, byte for byte, whatever the threads' timing: the
//! search checks that a recording's prefix, path and sleep set are the ones it would run now
//! (and runs the execution itself otherwise), a recording is taken only where the search would
//! have run it, and what an execution changed in the model (facts a page contradicted,
//! executions counted) reaches the model only then ([`Model::adopt`]). A branch whose frame is
//! popped, or whose step there turns out to be alone, was run for nothing: the work is lost,
//! never the result.
//!
//! What it gains is bounded by the share of executions known before the search needs them:
//! the next execution is most often a branch the last one's races just added, which nobody
//! could have run ahead. On the JavaScript pages of `scenarios/js/` (executions of
//! milliseconds) two threads take 1.58 times less wall time than one; on four-calls-unload
//! (32 µs per execution) handing branches out cost more than it saved (1.6 times slower), so
//! the search hands out only while its executions take 200 µs or more on average
//! (docs/performance.md, "Threads for the stateless search").

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};

use crate::{Failure, LaneId, LaneNumbering, Model, Options};

/// A branch to run ahead: the labels of the steps before its frame, its leftmost path, and the
/// sleep set it starts with.
pub(super) struct Plan<M: Model> {
    pub prefix: Vec<M::Label>,
    pub path: Vec<M::Label>,
    pub sleep: Vec<(M::Label, M::Footprint)>,
    /// Choices made by the prefix (for the `max_depth` bound).
    pub choices: usize,
}

/// The state before a step, as the search lists it.
pub(super) struct Listing {
    pub ids: Vec<LaneId>,
    pub time: u64,
    pub units: usize,
}

/// What the search sees of an execution run on another thread, lanes in the search's numbers
/// once [`Pool::take`] returns it.
pub(super) struct Recording<M: Model> {
    /// Steps run again to reach the branch's frame.
    pub replayed: u64,
    /// The state before each step from the frame on, and after the last.
    pub listings: Vec<Listing>,
    pub footprints: Vec<M::Footprint>,
    /// The place of each step's lane in its listing.
    pub picks: Vec<usize>,
    pub outcome: Option<(M::Outcome, u128)>,
    /// What the model failed with where the recording ends (a step, the initial state, the
    /// replay).
    pub error: Option<M::Error>,
    /// The copy of the model it ran on, for [`Model::adopt`].
    pub model: Option<M>,
    /// The labels of the worker's lane numbers it used first (from `first_new` on).
    new_labels: Vec<M::Label>,
    first_new: usize,
    worker: usize,
}

/// A branch handed out: its ticket and plan.
struct Job<M: Model> {
    ticket: u64,
    plan: Plan<M>,
}

/// What the search and the workers share.
struct Shared<M: Model> {
    queue: VecDeque<Job<M>>,
    /// Recordings finished, in the order each worker finished them.
    done: VecDeque<(u64, Recording<M>)>,
    /// Tickets a worker is running.
    running: Vec<u64>,
    /// Workers waiting for a job, and whether the search waits for a recording (each side
    /// signals the other only then: a signal costs a system call).
    idle: usize,
    waiting: bool,
    stop: bool,
}

/// The workers' side of the search: the queue of branches to run ahead and their recordings.
pub(super) struct Pool<M: Model> {
    shared: Mutex<Shared<M>>,
    /// Signalled when a job is queued or the pool stops (workers wait on it).
    jobs: Condvar,
    /// Signalled when a recording is done (the search waits on it).
    done: Condvar,
    workers: usize,
}

/// Stops a pool's workers when dropped.
pub(super) struct Stopper<'p, M: Model>(&'p Pool<M>);

impl<M: Model> Drop for Stopper<'_, M> {
    fn drop(&mut self) {
        lock(&self.0.shared).stop = true;
        self.0.jobs.notify_all();
    }
}

/// The search's side: recordings received, tickets outstanding, and each worker's lane
/// numbers in the search's.
pub(super) struct Ahead<M: Model> {
    next_ticket: u64,
    /// Tickets handed out and not yet taken or cancelled, with the recording once received.
    outstanding: BTreeMap<u64, Option<Recording<M>>>,
    /// By worker: its lane numbers' numbers in the search's numbering.
    translate: Vec<Vec<LaneId>>,
    /// At most this many tickets outstanding (memory for recordings waiting to be taken).
    pub window: usize,
    /// Recordings the search took in place of running the model.
    pub taken: u64,
    /// A moving average of the time an execution run here takes, in nanoseconds.
    average_ns: f64,
}

fn lock<M: Model>(m: &Mutex<Shared<M>>) -> MutexGuard<'_, Shared<M>> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<M: Model> Pool<M> {
    pub fn new(workers: usize) -> Pool<M> {
        Pool {
            shared: Mutex::new(Shared {
                queue: VecDeque::new(),
                done: VecDeque::new(),
                running: Vec::new(),
                idle: 0,
                waiting: false,
                stop: false,
            }),
            jobs: Condvar::new(),
            done: Condvar::new(),
            workers,
        }
    }

    pub fn ahead(&self) -> Ahead<M> {
        Ahead {
            next_ticket: 0,
            outstanding: BTreeMap::new(),
            translate: vec![Vec::new(); self.workers],
            window: 8 * self.workers,
            taken: 0,
            average_ns: 0.0,
        }
    }

    /// Stops the workers (after the jobs they are running) when dropped.
    pub fn stopper(&self) -> Stopper<'_, M> {
        Stopper(self)
    }

    /// Hands a branch out; its ticket.
    pub fn hand_out(&self, ahead: &mut Ahead<M>, plan: Plan<M>) -> u64 {
        let ticket = ahead.next_ticket;
        ahead.next_ticket += 1;
        ahead.outstanding.insert(ticket, None);
        let mut shared = lock(&self.shared);
        shared.queue.push_back(Job { ticket, plan });
        if shared.idle > 0 {
            self.jobs.notify_one();
        }
        ticket
    }

    /// Forgets a ticket whose branch the search will not run (its recording, if one comes, is
    /// dropped).
    pub fn cancel(&self, ahead: &mut Ahead<M>, ticket: u64) {
        ahead.outstanding.remove(&ticket);
        lock(&self.shared).queue.retain(|job| job.ticket != ticket);
    }

    /// The recording of `ticket`, waiting for it if a worker is running it; None if no worker
    /// has started it (it is taken off the queue: the search runs it itself), unless `patient`:
    /// then it waits for a worker to run it (so that which executions the workers run does not
    /// depend on timing, for tests).
    pub fn take(
        &self,
        ahead: &mut Ahead<M>,
        lanes: &mut M::Numbering,
        ticket: u64,
        patient: bool,
    ) -> Option<Recording<M>> {
        let mut shared = lock(&self.shared);
        loop {
            self.receive(ahead, lanes, &mut shared);
            if let Some(slot) = ahead.outstanding.get_mut(&ticket) {
                if let Some(rec) = slot.take() {
                    ahead.outstanding.remove(&ticket);
                    return Some(rec);
                }
            }
            let running = shared.running.contains(&ticket);
            let queued = shared.queue.iter().any(|job| job.ticket == ticket);
            // A branch no worker has started: the search runs it itself, unless patient.
            let wait = running || (patient && queued);
            if !wait {
                shared.queue.retain(|job| job.ticket != ticket);
                ahead.outstanding.remove(&ticket);
                return None;
            }
            shared.waiting = true;
            shared = self.done.wait(shared).unwrap_or_else(|poisoned| poisoned.into_inner());
            shared.waiting = false;
        }
    }

    /// Moves finished recordings to `ahead`, their lanes in the search's numbers (in the
    /// order each worker finished them, so that each worker's new labels come in order).
    fn receive(&self, ahead: &mut Ahead<M>, lanes: &mut M::Numbering, shared: &mut Shared<M>) {
        while let Some((ticket, mut rec)) = shared.done.pop_front() {
            let table = &mut ahead.translate[rec.worker];
            debug_assert_eq!(table.len(), rec.first_new);
            for label in rec.new_labels.drain(..) {
                table.push(lanes.id(&label));
            }
            for listing in &mut rec.listings {
                for id in &mut listing.ids {
                    *id = table[*id as usize];
                }
            }
            if let Some(slot) = ahead.outstanding.get_mut(&ticket) {
                *slot = Some(rec);
            }
        }
    }

    /// A worker: runs the branches handed out until the pool stops.
    pub fn work(&self, model: &M, options: &Options, worker: usize) {
        let mut lanes = Counted::<M>::default();
        let mut sent = 0;
        loop {
            let job = {
                let mut shared = lock(&self.shared);
                loop {
                    if shared.stop {
                        return;
                    }
                    if let Some(job) = shared.queue.pop_front() {
                        shared.running.push(job.ticket);
                        break job;
                    }
                    shared.idle += 1;
                    shared = self.jobs.wait(shared).unwrap_or_else(|poisoned| poisoned.into_inner());
                    shared.idle -= 1;
                }
            };
            // A panic in the model is a bug to report, not a ticket the search waits for forever.
            let recorded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                record(model, options, &job.plan, &mut lanes)
            }));
            let mut rec = recorded.unwrap_or_else(|panic| {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                let mut rec = Recording::empty();
                rec.error =
                    Some(Failure::Threads(format!("a worker thread of the stateless search panicked: {what}")).into());
                rec
            });
            rec.worker = worker;
            rec.first_new = sent;
            rec.new_labels = (sent..lanes.len).map(|id| lanes.inner.label(id as LaneId).clone()).collect();
            sent = lanes.len;
            let mut shared = lock(&self.shared);
            shared.running.retain(|&t| t != job.ticket);
            shared.done.push_back((job.ticket, rec));
            if shared.waiting {
                self.done.notify_one();
            }
        }
    }
}

/// Executions shorter than this on average are not worth handing out: passing a branch to
/// another thread and its recording back costs a few tens of microseconds of locking, waking
/// and copying (measured on four-calls-unload, whose executions take 32 µs: two threads were
/// 1.6 times slower than one), while the share of executions known ahead is under half.
const WORTH_HANDING_OUT: f64 = 200_000.0;

impl<M: Model> Ahead<M> {
    pub fn outstanding(&self) -> usize {
        self.outstanding.len()
    }

    /// Notes how long an execution run here took.
    pub fn timed(&mut self, took: std::time::Duration) {
        let ns = took.as_nanos() as f64;
        self.average_ns = if self.average_ns == 0.0 { ns } else { 0.9 * self.average_ns + 0.1 * ns };
    }

    /// Whether executions take long enough to be worth running ahead. Only the speed depends on
    /// it: the search's result is the same either way.
    pub fn worth_it(&self) -> bool {
        self.average_ns >= WORTH_HANDING_OUT
    }
}

/// A worker's lane numbering, counting the numbers it gave (they are dense, from 0).
struct Counted<M: Model> {
    inner: M::Numbering,
    len: usize,
}

impl<M: Model> Default for Counted<M> {
    fn default() -> Self {
        Counted { inner: M::Numbering::default(), len: 0 }
    }
}

impl<M: Model> Counted<M> {
    fn seen(&mut self, id: LaneId) -> LaneId {
        self.len = self.len.max(id as usize + 1);
        id
    }
}

/// Runs `plan` on a copy of `model` as the search would: the prefix again, then the branch's
/// path, then the first lane awake at each step, until the run ends, every lane is asleep, or
/// a bound of the schedule stops it (the time, execution and Ctrl-C bounds are the search's).
fn record<M: Model>(shared_model: &M, options: &Options, plan: &Plan<M>, lanes: &mut Counted<M>) -> Recording<M> {
    let mut rec = Recording::empty();
    let Some(model) = shared_model.detached() else {
        rec.error = Some(Failure::Threads("the model cannot run on another thread".into()).into());
        return rec;
    };
    if let Err(e) = run(&model, options, plan, lanes, &mut rec) {
        rec.error = Some(e);
    }
    rec.model = Some(model);
    rec
}

impl<M: Model> Recording<M> {
    fn empty() -> Recording<M> {
        Recording {
            replayed: 0,
            listings: Vec::new(),
            footprints: Vec::new(),
            picks: Vec::new(),
            outcome: None,
            error: None,
            model: None,
            new_labels: Vec::new(),
            first_new: 0,
            worker: 0,
        }
    }
}

fn run<M: Model>(
    model: &M,
    options: &Options,
    plan: &Plan<M>,
    lanes: &mut Counted<M>,
    rec: &mut Recording<M>,
) -> Result<(), M::Error> {
    let mut state = model.initial()?;
    let mut listed: Vec<M::Lane> = Vec::new();
    for want in &plan.prefix {
        model.runnable(&mut state, &mut listed);
        let Some(&lane) = listed.iter().find(|l| model.label(&state, l) == want) else {
            return Err(Failure::Nondeterministic(format!("lane {want} is not runnable on replay")).into());
        };
        model.step(&mut state, lane)?;
        rec.replayed += 1;
    }
    let mut sleep: Vec<(LaneId, M::Footprint)> = plan.sleep.iter().map(|(l, f)| (lanes.inner.id(l), *f)).collect();
    let path: Vec<LaneId> = plan.path.iter().map(|l| lanes.inner.id(l)).collect();
    for &(id, _) in &sleep {
        lanes.seen(id);
    }
    for &id in &path {
        lanes.seen(id);
    }
    let mut choices = plan.choices;
    let mut previous: Option<M::Footprint> = None;
    loop {
        model.runnable(&mut state, &mut listed);
        let time = model.clock(&state);
        let mut ids = Vec::with_capacity(listed.len());
        for l in &listed {
            let id = lanes.inner.id_of(model, &state, l);
            ids.push(lanes.seen(id));
        }
        let units = model.units(&state);
        if let Some(fp) = previous {
            sleep.retain(|(_, f)| !super::conflict(model, f, &fp));
        }
        let k = rec.listings.len();
        rec.listings.push(Listing { ids, time, units });
        let ids = &rec.listings[k].ids;
        if ids.is_empty() {
            let outcome = model.outcome(&state);
            let key = model.outcome_key(&outcome);
            rec.outcome = Some((outcome, key));
            return Ok(());
        }
        if units >= options.max_units {
            return Ok(());
        }
        let choice = ids.len() > 1;
        if choice && choices >= options.max_depth {
            return Ok(());
        }
        let pick = match path.get(k) {
            Some(want) => match ids.iter().position(|id| id == want) {
                Some(at) => at,
                None => {
                    let label = lanes.inner.label(*want).to_string();
                    return Err(Failure::Nondeterministic(format!("scheduled lane {label} is not runnable")).into());
                }
            },
            None => match super::first_awake(ids, &sleep) {
                Some(at) => at,
                None => return Ok(()),
            },
        };
        if choice {
            choices += 1;
        }
        let fp = model.step(&mut state, listed[pick])?;
        rec.footprints.push(fp);
        rec.picks.push(pick);
        previous = Some(fp);
    }
}
