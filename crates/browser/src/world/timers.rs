//! Virtual time and timers (HTML "run steps after a timeout").

use super::event_loops::TaskSource;
use super::{DocId, World};

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) struct Timer<S> {
    deadline: u64,
    pub(super) document: DocId,
    /// The document's own count of timers set: timers of one document keep their order, and the
    /// numbering does not depend on how other event loops interleave.
    seq: u64,
    steps: S,
}

/// The pending timers, the timers set so far and virtual time, as one shared part: they change
/// together (setting a timer adds one and counts it; advancing time fires the first). Read and
/// written as its list of pending timers (through `Deref`), but for `set` and `now`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) struct Timers<S> {
    /// Pending timers, kept sorted by (deadline, document, seq).
    pending: Vec<Timer<S>>,
    /// Timers set so far, per document.
    pub(super) set: super::Counts<u64>,
    /// Virtual time in milliseconds.
    pub(super) now: u64,
}

impl<S> Default for Timers<S> {
    fn default() -> Self {
        Timers { pending: Vec::new(), set: Default::default(), now: 0 }
    }
}

impl<S> std::ops::Deref for Timers<S> {
    type Target = Vec<Timer<S>>;
    fn deref(&self) -> &Vec<Timer<S>> {
        &self.pending
    }
}

impl<S> std::ops::DerefMut for Timers<S> {
    fn deref_mut(&mut self) -> &mut Vec<Timer<S>> {
        &mut self.pending
    }
}

impl<S: Clone> World<S> {
    /// HTML "run steps after a timeout" with virtual time: after `ms`, queue `steps` on the timer
    /// task source for `document`. Timers with an earlier or equal deadline are queued first.
    pub fn run_steps_after_a_timeout(&mut self, document: DocId, ms: u64, steps: S) {
        let count = self.timers.set.entry(document).or_default();
        let seq = *count;
        *count += 1;
        // Saturating: a delay near 2^64 ms is "never" in virtual time, not a wrapped deadline
        // that fires at once.
        let deadline = self.timers.now.saturating_add(ms);
        let pos = self.timers.partition_point(|t| (t.deadline, t.document, t.seq) <= (deadline, document, seq));
        self.timers.insert(pos, Timer { deadline, document, seq, steps });
        self.queue_due_timers();
    }

    /// `run_steps_after_a_timeout` for a timer whose task commutes with every unit and that
    /// nothing can clear (an inert tool execution's timer, while exploring): placed among the
    /// timers of its deadline and document by `key` (unique to what set it, such as an
    /// execution's uuid), after every timer the document set in order, and without counting it
    /// among the document's timers. Two such timers then leave the same list in either order
    /// they are set in, and every other timer keeps its number. Which of them fires first is not
    /// HTML's order (the order they were set in), which no unit can tell: each one's task
    /// commutes with everything run in between (docs/model.md, "Inert tool executions").
    pub fn run_steps_after_a_timeout_keyed(&mut self, document: DocId, ms: u64, key: u32, steps: S) {
        let seq = Self::KEYED | u64::from(key);
        let deadline = self.timers.now + ms;
        let pos = self.timers.partition_point(|t| (t.deadline, t.document, t.seq) <= (deadline, document, seq));
        self.timers.insert(pos, Timer { deadline, document, seq, steps });
        self.queue_due_timers();
    }

    /// The `seq` bit of a timer placed by key (`run_steps_after_a_timeout_keyed`): above every
    /// count of timers set.
    const KEYED: u64 = 1 << 63;

    /// HTML `clearTimeout`, for a timer not yet due: removes the pending timer whose steps are
    /// `steps`; returns whether there was one. (A due timer's task is already queued.)
    pub fn clear_timeout(&mut self, steps: &S) -> bool
    where
        S: PartialEq,
    {
        match self.timers.pending.iter().position(|t| t.steps == *steps) {
            Some(at) => {
                self.timers.remove(at);
                true
            }
            None => false,
        }
    }

    fn queue_due_timers(&mut self) {
        // The timers are sorted by (deadline, document, seq), so the due ones are a prefix, already
        // in the order they are queued in: ties between documents go in document order (see
        // docs/model.md). With none due the list is not written (and so not copied).
        let now = self.timers.now;
        let due = self.timers.partition_point(|t| t.deadline <= now);
        if due == 0 {
            return;
        }
        let due: Vec<Timer<S>> = self.timers.drain(..due).collect();
        for t in due {
            self.queue_global_task(TaskSource::Timer, t.document, t.steps);
        }
    }

    /// Virtual time in milliseconds.
    pub fn now(&self) -> u64 {
        self.timers.now
    }

    /// The earliest deadline of a pending timer.
    pub fn next_timer_deadline(&self) -> Option<u64> {
        self.timers.first().map(|t| t.deadline)
    }

    /// Pending timers (not yet due).
    pub fn pending_timers(&self) -> usize {
        self.timers.len()
    }

    /// Where virtual time would advance to: the earliest deadline of a pending timer (the timers
    /// are sorted by deadline), or a user action's or an agent step's window, which wakes up at
    /// its start, or (put off) at its end.
    pub(super) fn next_wake_up(&self) -> Option<u64> {
        let now = self.timers.now;
        let timer = self.timers.first().map(|t| t.deadline);
        let user = self.user_queue.next_wake_up(now);
        let agent = self.agent_queue.next_wake_up(now);
        [timer, user, agent].into_iter().flatten().min()
    }

    /// When nothing is runnable, advance virtual time to the next timer deadline and queue the
    /// timers that are then due. Returns the new time, or None when no timer is pending. Fetches
    /// put off (`net.wait`) may arrive once it has advanced; when nothing is left to advance to,
    /// they may arrive at once (the time returned is then the time it is).
    pub fn advance_time(&mut self) -> Option<u64> {
        let Some(next) = self.next_wake_up() else {
            if self.fetches_put_off() {
                self.fetches_wake_up(false);
                return Some(self.timers.now);
            }
            return None;
        };
        self.timers.now = next;
        if self.user_queue.deferred {
            self.user_queue.deferred = false;
        }
        if self.agent_queue.deferred {
            self.agent_queue.deferred = false;
        }
        self.fetches_wake_up(true);
        self.queue_due_timers();
        Some(next)
    }
}
