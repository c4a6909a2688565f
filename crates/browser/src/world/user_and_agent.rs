//! The user's actions in the browser UI (`UserQueue`) and the browser agent's AI agent queue
//! (`AgentQueue`), each step with its window of virtual time.

use std::collections::VecDeque;

use super::World;

/// The user's actions in the browser UI still to take, in order, and the in-parallel blocks
/// they have started so far (see `World::next_user_block_number`; kept here because taking an
/// action writes, and so copies, the queue anyway).
///
/// The actions are fixed when the world is set up and only ever taken from the front, so the
/// list is shared by every copy (`all`) and a queue is the place of its next action (`next`):
/// copying the queue to take an action copies no action.
#[derive(Clone, Debug)]
pub struct UserQueue<S> {
    /// Every action, taken or not (shared by every copy; written only while setting up).
    all: std::rc::Rc<Vec<S>>,
    /// Each action's window of virtual time `[from, to]` (None: any time), by index in `all`
    /// (shared like `all`).
    windows: std::rc::Rc<Vec<Option<(u64, u64)>>>,
    /// The actions before `next` have been taken.
    next: usize,
    pub blocks_started: u32,
    /// The next action, which has a window, was put off (the `user.wait` lane): it cannot run
    /// until virtual time advances, to the next timer's deadline or to the window's end.
    pub(super) deferred: bool,
}

impl<S> Default for UserQueue<S> {
    fn default() -> Self {
        UserQueue { all: Default::default(), windows: Default::default(), next: 0, blocks_started: 0, deferred: false }
    }
}

impl<S: Clone> UserQueue<S> {
    /// The actions still to take, in order.
    pub fn steps(&self) -> &[S] {
        &self.all[self.next..]
    }

    /// Appends an action (while setting up: copies the list if a copy of the world shares it).
    pub fn push_back(&mut self, step: S) {
        self.push_back_within(step, None);
    }

    /// Appends an action that may run only while virtual time is within `window` (`[from, to]`).
    pub fn push_back_within(&mut self, step: S, window: Option<(u64, u64)>) {
        std::rc::Rc::make_mut(&mut self.all).push(step);
        std::rc::Rc::make_mut(&mut self.windows).push(window);
    }

    /// The next action's window, if it has one.
    fn next_window(&self) -> Option<(u64, u64)> {
        self.windows.get(self.next).copied().flatten()
    }

    /// Whether the next action can run at virtual time `now`: it has no window, or `now` is in
    /// it and the action was not put off.
    pub(super) fn next_runs_at(&self, now: u64) -> bool {
        self.next < self.all.len() && window_runs_at(self.next_window(), self.deferred, now)
    }

    /// Whether the next action can be put off at `now` (the `user.wait` lane): it can run now
    /// and its window ends later.
    pub(super) fn next_can_wait_at(&self, now: u64) -> bool {
        self.next_runs_at(now) && window_can_wait_at(self.next_window(), now)
    }

    /// When virtual time has to advance to for the next action to run: the start of its window,
    /// or (put off) the window's end; None when it can run now or has no window.
    pub fn next_wake_up(&self, now: u64) -> Option<u64> {
        window_wake_up(self.next_window(), self.deferred, now)
    }

    /// Takes the next action.
    pub(super) fn pop_front(&mut self) -> Option<S> {
        let step = self.all.get(self.next)?.clone();
        self.next += 1;
        self.deferred = false;
        Some(step)
    }
}

impl<S: PartialEq> PartialEq for UserQueue<S> {
    /// The actions still to take and the blocks started (as the queue of those actions would).
    fn eq(&self, other: &Self) -> bool {
        self.all[self.next..] == other.all[other.next..]
            && self.windows[self.next..] == other.windows[other.next..]
            && self.blocks_started == other.blocks_started
            && self.deferred == other.deferred
    }
}

impl<S: Eq> Eq for UserQueue<S> {}

impl<S: std::hash::Hash> std::hash::Hash for UserQueue<S> {
    /// The actions still to take (hashed as a list of them: the same bytes as the `VecDeque` it
    /// stands for), then the blocks started.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.all[self.next..].hash(state);
        self.blocks_started.hash(state);
        // The windows follow from the actions; whether the next one was put off does not.
        if self.deferred {
            true.hash(state);
        }
    }
}

/// Whether a queue's next step, with `window` (None: any time), can run at virtual time `now`:
/// `now` is in its window and it was not put off (the user's and the agent's queues).
fn window_runs_at(window: Option<(u64, u64)>, deferred: bool, now: u64) -> bool {
    match window {
        None => true,
        Some((from, _)) => now >= from && !deferred,
    }
}

/// Whether a queue's next step, which can run at `now`, can be put off (`user.wait`,
/// `agent.wait`): it has a window, and the window ends later.
fn window_can_wait_at(window: Option<(u64, u64)>, now: u64) -> bool {
    window.is_some_and(|(_, to)| now < to)
}

/// When virtual time has to advance to for a queue's next step, with `window`, to run: the
/// start of its window, or (put off) the window's end; None when it can run now or has no window.
fn window_wake_up(window: Option<(u64, u64)>, deferred: bool, now: u64) -> Option<u64> {
    let (from, to) = window?;
    if now < from {
        Some(from)
    } else if deferred {
        Some(to)
    } else {
        None
    }
}

/// The browser agent's AI agent queue (a parallel queue, FIFO): the scenario's agent steps,
/// queued while setting up, each with its window of virtual time (`at`, `within`; None: any
/// time), then whatever is enqueued during the run (the results of the agent's tool calls), which
/// has no window. A step with a window holds the queue up until virtual time reaches it, like any
/// step at the head of a FIFO queue; the agent may put it off within its window (`agent.wait`),
/// as the user does (`UserQueue`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AgentQueue<S> {
    queue: VecDeque<S>,
    /// The windows of the steps queued while setting up, in order (shared by every copy; written
    /// only while setting up). They are the first steps of the queue: nothing is enqueued with a
    /// window once a step has been taken.
    windows: std::rc::Rc<Vec<Option<(u64, u64)>>>,
    /// How many of the queue's steps have been taken (the next step's window, if it was queued
    /// while setting up, is `windows[taken]`). Follows from `queue`: each step set up is unique.
    taken: usize,
    /// The next step, which has a window, was put off (the `agent.wait` lane): it cannot run
    /// until virtual time advances, to the next timer's deadline or to the window's end.
    pub(super) deferred: bool,
}

impl<S> Default for AgentQueue<S> {
    fn default() -> Self {
        AgentQueue { queue: VecDeque::new(), windows: Default::default(), taken: 0, deferred: false }
    }
}

impl<S: Clone> AgentQueue<S> {
    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Enqueues steps that may run at any time (during the run: copies only the queue).
    pub fn push_back(&mut self, steps: S) {
        self.queue.push_back(steps);
    }

    /// Enqueues steps that may run only while virtual time is within `window` (`[from, to]`),
    /// while setting up, before anything without a window is queued or any step is taken.
    pub fn push_back_within(&mut self, steps: S, window: Option<(u64, u64)>) {
        debug_assert!(
            self.taken == 0 && self.queue.len() == self.windows.len(),
            "an agent step with a window is queued while setting up, before any other"
        );
        self.queue.push_back(steps);
        std::rc::Rc::make_mut(&mut self.windows).push(window);
    }

    /// The next step's window, if it has one.
    fn next_window(&self) -> Option<(u64, u64)> {
        self.windows.get(self.taken).copied().flatten()
    }

    /// Whether the next step can run at virtual time `now`.
    pub(super) fn next_runs_at(&self, now: u64) -> bool {
        !self.queue.is_empty() && window_runs_at(self.next_window(), self.deferred, now)
    }

    /// Whether the next step can be put off at `now` (the `agent.wait` lane).
    pub(super) fn next_can_wait_at(&self, now: u64) -> bool {
        self.next_runs_at(now) && window_can_wait_at(self.next_window(), now)
    }

    /// When virtual time has to advance to for the next step to run (see `UserQueue`).
    pub fn next_wake_up(&self, now: u64) -> Option<u64> {
        window_wake_up(self.next_window(), self.deferred, now)
    }

    /// Takes the next step.
    pub(super) fn pop_front(&mut self) -> Option<S> {
        let steps = self.queue.pop_front()?;
        self.taken += 1;
        self.deferred = false;
        Some(steps)
    }
}

impl<S: std::hash::Hash> std::hash::Hash for AgentQueue<S> {
    /// The steps queued (the same bytes as the `VecDeque` of them), then whether the next one
    /// was put off. The windows and the number taken follow from the steps.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.queue.hash(state);
        if self.deferred {
            true.hash(state);
        }
    }
}

impl<S: Clone> World<S> {
    /// The number of the next in-parallel block that the user's actions start (0 for their
    /// first), counted like `next_block_number`.
    pub fn next_user_block_number(&mut self) -> u32 {
        let started = &mut self.user_queue.blocks_started;
        *started += 1;
        *started - 1
    }

    /// Enqueues steps on the browser agent's AI agent queue (a parallel queue).
    pub fn enqueue_on_agent_queue(&mut self, steps: S) {
        self.agent_queue.push_back(steps);
    }

    /// Enqueues one of the scenario's agent steps while setting up: it may run only while
    /// virtual time is within `window` (None: any time).
    pub fn enqueue_agent_step_within(&mut self, steps: S, window: Option<(u64, u64)>) {
        self.agent_queue.push_back_within(steps, window);
    }
}
