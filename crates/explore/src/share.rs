//! Dynamic splitting (work sharing) between the threads of one search: the pool of work items
//! they take from, and the request an idle thread makes for more.
//!
//! A split at a fixed depth hands out whole subtrees, and one of them can hold nearly all the
//! work (the simulator's four-calls-unload: one of 12 work items, so two threads ran no faster
//! than one). Here a thread that finds the pool empty waits and says so ([`Pool::wanted`]); a
//! thread that is exploring sees that at its next choice point and donates the untried sibling
//! lanes of its shallowest open choice point, as a work item (`WorkItem::lanes`): the choices
//! that lead there, the lanes, and the sleep set the sequential search would give the first of
//! them (that choice point's own, with the siblings explored or being explored from it). The
//! donor then leaves those lanes alone. The lanes each thread explores from each choice point,
//! and the sleep sets it explores them with, are those of one thread's search: only who
//! explores which sibling changes, so the argument of `Explorer::visit_shared` covers it.
//!
//! The item names its choice point by its choices: the thread that takes it replays them from
//! the initial state (states never cross threads, as for the split's items). So that replays
//! stay a small part of the work, a thread donates at most once per `Options::donate_every`
//! choice points it visits.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use crate::split::WorkItem;

/// The work items of a search that several threads share, and who waits for one.
pub(crate) struct Pool<L, F> {
    inner: Mutex<Inner<L, F>>,
    ready: Condvar,
    /// Some thread waits for work and no item in the pool is left for it (read by explorers at
    /// every choice point, so kept apart from the lock).
    wanted: AtomicBool,
    /// A thread has failed (a model error or a panic): the others stop.
    failed: AtomicBool,
    threads: usize,
}

struct Inner<L, F> {
    items: VecDeque<WorkItem<L, F>>,
    /// Threads waiting in `take`.
    idle: usize,
    /// Every thread was idle with the pool empty, or one failed: no more items.
    over: bool,
}

impl<L, F> Pool<L, F> {
    pub(crate) fn new(items: Vec<WorkItem<L, F>>, threads: usize) -> Pool<L, F> {
        Pool {
            inner: Mutex::new(Inner { items: items.into(), idle: 0, over: false }),
            ready: Condvar::new(),
            wanted: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            threads,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner<L, F>> {
        // A thread that panicked holding the lock has failed the search (`fail`).
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn note_wanted(&self, inner: &Inner<L, F>) {
        self.wanted.store(!inner.over && inner.idle > inner.items.len(), Ordering::Relaxed);
    }

    /// The next work item for a thread: one from the pool, else (waiting) one another thread
    /// donates. `None` when the search is over: every thread waits with the pool empty (none is
    /// exploring, so none can donate), or one has failed.
    pub(crate) fn take(&self) -> Option<WorkItem<L, F>> {
        let mut inner = self.lock();
        loop {
            if inner.over {
                return None;
            }
            if let Some(item) = inner.items.pop_front() {
                self.note_wanted(&inner);
                return Some(item);
            }
            inner.idle += 1;
            if inner.idle == self.threads {
                inner.over = true;
                self.note_wanted(&inner);
                self.ready.notify_all();
                return None;
            }
            self.note_wanted(&inner);
            inner = self.ready.wait(inner).unwrap_or_else(PoisonError::into_inner);
            inner.idle -= 1;
        }
    }

    /// Whether a thread waits for work that no item in the pool will give it.
    #[inline(always)]
    pub(crate) fn wanted(&self) -> bool {
        self.wanted.load(Ordering::Relaxed)
    }

    /// Whether a thread has failed (the others stop exploring).
    #[inline(always)]
    pub(crate) fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// Adds a donated item and wakes a waiting thread. False (the item dropped, the donor to
    /// keep its lanes) when no thread needs it any more.
    pub(crate) fn give(&self, item: WorkItem<L, F>) -> bool {
        let mut inner = self.lock();
        if inner.over || inner.idle <= inner.items.len() {
            self.note_wanted(&inner);
            return false;
        }
        inner.items.push_back(item);
        self.note_wanted(&inner);
        drop(inner);
        self.ready.notify_one();
        true
    }

    /// Ends the search for every thread (one has failed).
    pub(crate) fn fail(&self) {
        self.failed.store(true, Ordering::Relaxed);
        let mut inner = self.lock();
        inner.over = true;
        self.note_wanted(&inner);
        drop(inner);
        self.ready.notify_all();
    }
}

/// Fails the pool if the thread holding it unwinds (a panic in the model), so that the threads
/// waiting for work do not wait for ever.
pub(crate) struct FailOnUnwind<'p, L, F>(pub(crate) &'p Pool<L, F>);

impl<L, F> Drop for FailOnUnwind<'_, L, F> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.fail();
        }
    }
}
