//! Lanes: listing the runnable ones in label order, and taking the next unit off one.

use sched::Lane;

use super::event_loops::{source_index, Task, TaskSource};
use super::parallel::LANE_PAR;
use super::{LoopId, World};
use crate::shared::Shared;

/// One runnable lane and the unit it would run.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum LaneRef {
    Task {
        event_loop: LoopId,
        source: TaskSource,
    },
    /// An unordered in-parallel block, by its place among the state's blocks (which are kept in
    /// label order): valid for the state the lane was listed from and its copies only.
    Parallel(u32),
    /// The browser-side FIFO parallel queue.
    ParallelQueue,
    /// The browser agent's AI agent queue.
    Agent,
    /// The agent puts off its next step, whose window ends later (`agent.wait`).
    AgentWait,
    /// The user's actions in the browser UI.
    User,
    /// The user puts off the next action, whose window ends later (`user.wait`).
    UserWait,
    /// The fetches in flight are put off until virtual time next advances (`net.wait`;
    /// `options.network` "unbounded").
    NetWait,
}

/// A unit taken off a lane, ready to run.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Unit<S> {
    Task {
        event_loop: LoopId,
        source: TaskSource,
        task: Task<S>,
    },
    Parallel {
        label: Lane,
        steps: S,
    },
    Agent(S),
    /// The agent put off its next step (`LaneRef::AgentWait`).
    AgentWait,
    User(S),
    /// The user put off its next action (`LaneRef::UserWait`).
    UserWait,
    /// The fetches in flight were put off (`LaneRef::NetWait`).
    NetWait,
}

impl<S: Clone> World<S> {
    /// Every lane with a runnable unit, sorted by label.
    pub fn runnable_lanes(&self) -> Vec<(Lane, LaneRef)> {
        let mut refs = Vec::with_capacity(8);
        self.runnable_into(&mut refs);
        refs.into_iter().map(|r| (self.lane_label(&r).clone(), r)).collect()
    }

    /// The runnable lanes (as `runnable_lanes`, without their labels: see `lane_label`) into a
    /// buffer the caller reuses (cleared first), so listing the lanes before every step
    /// allocates nothing and copies no label.
    pub fn runnable_into(&self, lanes: &mut Vec<LaneRef>) {
        // Listed directly in label order (no sort): `agent` < `agent.wait` < `el…` < `net.wait` <
        // `par` < `par:…` < `user` < `user.wait`; event loops in the order of their labels `el0`, `el1`,
        // … as strings; task sources by label.
        lanes.clear();
        if self.agent_queue.next_runs_at(self.timers.now) {
            lanes.push(LaneRef::Agent);
            if self.agent_queue.next_can_wait_at(self.timers.now) {
                lanes.push(LaneRef::AgentWait);
            }
        }
        let mut sorted: Vec<usize> = Vec::new();
        if self.event_loops.len() > 10 {
            // `el10` sorts before `el2`.
            sorted.extend(0..self.event_loops.len());
            sorted.sort_by(|a, b| self.event_loops[*a].label.cmp(&self.event_loops[*b].label));
        }
        let n = self.event_loops.len();
        for i in (0..n).map(|k| if n > 10 { sorted[k] } else { k }) {
            let el = &self.event_loops[i];
            // A loop busy with a suspended task offers its rest alone (a running task is not
            // stopped, so it is offered whether or not its document is still fully active).
            if let Some(suspended) = &el.suspended {
                lanes.push(LaneRef::Task { event_loop: LoopId(i as u32), source: suspended.0 });
                continue;
            }
            let sources = el.queues.sources_with(|t| self.task_runnable(t));
            if sources == 0 {
                continue;
            }
            for source in TaskSource::BY_LABEL {
                if sources & (1 << source as u8) != 0 {
                    lanes.push(LaneRef::Task { event_loop: LoopId(i as u32), source });
                }
            }
        }
        if self.fetches_can_wait() {
            lanes.push(LaneRef::NetWait);
        }
        if !self.parallel_queue.is_empty() {
            lanes.push(LaneRef::ParallelQueue);
        }
        if self.fetches_put_off() {
            // A fetch put off is not runnable until virtual time advances.
            let blocks = &self.parallel_blocks.0;
            lanes.extend(
                (0..blocks.len() as u32).filter(|at| !self.is_fetch(&blocks[*at as usize].0)).map(LaneRef::Parallel),
            );
        } else {
            lanes.extend((0..self.parallel_blocks.0.len() as u32).map(LaneRef::Parallel));
        }
        // The user's steps wait while a task is suspended: they navigate and unload documents
        // at once, which HTML does in tasks that a busy event loop would not run mid-task.
        if self.user_queue.next_runs_at(self.timers.now) && !self.a_task_is_suspended() {
            lanes.push(LaneRef::User);
            if self.user_queue.next_can_wait_at(self.timers.now) {
                lanes.push(LaneRef::UserWait);
            }
        }
        debug_assert!(
            lanes.windows(2).all(|w| self.lane_label(&w[0]) < self.lane_label(&w[1])),
            "lanes out of label order: {lanes:?}"
        );
    }

    /// The label of a lane listed by `runnable_into` (in this state or a copy of it).
    pub fn lane_label(&self, lane: &LaneRef) -> &Lane {
        match *lane {
            LaneRef::Task { event_loop, source } => &self.event_loops[event_loop.index()].lanes[source_index(source)],
            LaneRef::Parallel(at) => &self.parallel_blocks.0[at as usize].0,
            LaneRef::ParallelQueue => &LANE_PAR,
            LaneRef::Agent => &LANE_AGENT,
            LaneRef::AgentWait => &LANE_AGENT_WAIT,
            LaneRef::User => &LANE_USER,
            LaneRef::UserWait => &LANE_USER_WAIT,
            LaneRef::NetWait => &LANE_NET_WAIT,
        }
    }

    /// The task a task lane would give next (`take`), without taking it; None for other lanes.
    pub fn peek_task(&self, lane: LaneRef) -> Option<&Task<S>> {
        let LaneRef::Task { event_loop, source } = lane else { return None };
        if let Some(suspended) = &self.event_loops[event_loop.index()].suspended {
            return (suspended.0 == source).then_some(&suspended.1);
        }
        let queues = &self.event_loops[event_loop.index()].queues;
        let at = queues.position(source, |t| self.task_runnable(t))?;
        Some(&queues.0[at].1)
    }

    /// Takes the next unit of a runnable lane: for a task queue, the first runnable task
    /// (HTML: "the first runnable task in the chosen queue").
    pub fn take(&mut self, lane: LaneRef) -> Option<Unit<S>> {
        match lane {
            LaneRef::Task { event_loop, source } => {
                if let Some(suspended) = &self.event_loops[event_loop.index()].suspended {
                    if suspended.0 != source {
                        return None;
                    }
                    let (_, task) = *self.event_loops[event_loop.index()].suspended.take()?;
                    return Some(Unit::Task { event_loop, source, task });
                }
                // Find the task before writing, so a lane with nothing to give copies nothing.
                let queues = &self.event_loops[event_loop.index()].queues;
                let at = queues.position(source, |t| self.task_runnable(t))?;
                let el = &mut self.event_loops[event_loop.index()];
                let task = match el.unshared_mut() {
                    Some(el) => el.queues.remove(at),
                    // A loop another state shares is copied without the task, which is copied out.
                    None => {
                        let task = (*el.queues.0[at].1).clone();
                        *el = Shared::new(el.copy_without_task(at));
                        task
                    }
                };
                Some(Unit::Task { event_loop, source, task })
            }
            LaneRef::Parallel(at) => {
                if at as usize >= self.parallel_blocks.0.len() {
                    return None;
                }
                let at = at as usize;
                if self.fetches_put_off() && self.is_fetch(&self.parallel_blocks.0[at].0) {
                    return None;
                }
                let (label, steps) = match self.parallel_blocks.unshared_mut() {
                    Some(blocks) => blocks.remove(at),
                    // A list another state shares is copied without the block, which is copied out.
                    None => {
                        let block = (*self.parallel_blocks.0[at]).clone();
                        self.parallel_blocks = Shared::new(self.parallel_blocks.copy_without(at));
                        block
                    }
                };
                self.fetch_taken(&label);
                Some(Unit::Parallel { label, steps })
            }
            LaneRef::ParallelQueue => {
                self.parallel_queue.pop_front().map(|(label, steps)| Unit::Parallel { label, steps })
            }
            LaneRef::Agent => {
                if !self.agent_queue.next_runs_at(self.timers.now) {
                    return None;
                }
                self.agent_queue.pop_front().map(Unit::Agent)
            }
            LaneRef::AgentWait => {
                if !self.agent_queue.next_can_wait_at(self.timers.now) {
                    return None;
                }
                self.agent_queue.deferred = true;
                Some(Unit::AgentWait)
            }
            LaneRef::User => self.user_queue.pop_front().map(Unit::User),
            LaneRef::UserWait => {
                if !self.user_queue.next_can_wait_at(self.timers.now) {
                    return None;
                }
                self.user_queue.deferred = true;
                Some(Unit::UserWait)
            }
            LaneRef::NetWait => {
                if !self.fetches_can_wait() {
                    return None;
                }
                self.put_fetches_off();
                Some(Unit::NetWait)
            }
        }
    }
}

/// The fixed lanes, made once (a lane label is a shared string).
static LANE_AGENT: std::sync::LazyLock<Lane> = std::sync::LazyLock::new(|| Lane::new("agent"));
static LANE_AGENT_WAIT: std::sync::LazyLock<Lane> = std::sync::LazyLock::new(|| Lane::new("agent.wait"));
static LANE_USER: std::sync::LazyLock<Lane> = std::sync::LazyLock::new(|| Lane::new("user"));
static LANE_USER_WAIT: std::sync::LazyLock<Lane> = std::sync::LazyLock::new(|| Lane::new("user.wait"));
static LANE_NET_WAIT: std::sync::LazyLock<Lane> = std::sync::LazyLock::new(|| Lane::new("net.wait"));
