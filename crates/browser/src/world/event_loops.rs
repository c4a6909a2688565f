//! Event loops: task sources, one task queue per source, microtasks, and the world's steps that
//! queue and remove tasks.

use std::collections::VecDeque;

use sched::Lane;

use super::documents::{ClusterKey, DocumentState};
use super::{DocId, LoopId, NavId, World};
use crate::shared::Shared;

/// HTML task sources the simulator distinguishes. Each event loop has one FIFO queue per source.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum TaskSource {
    /// WebMCP's "webmcp task source".
    WebMcp,
    /// HTML "timer task source".
    Timer,
    /// HTML "DOM manipulation task source".
    DomManipulation,
    /// HTML "networking task source" (document scripts run from it, as the parser does).
    Networking,
    /// HTML "navigation and traversal task source".
    NavigationAndTraversal,
    /// HTML "posted message task source".
    PostedMessage,
}

impl TaskSource {
    pub const ALL: [TaskSource; 6] = [
        TaskSource::WebMcp,
        TaskSource::Timer,
        TaskSource::DomManipulation,
        TaskSource::Networking,
        TaskSource::NavigationAndTraversal,
        TaskSource::PostedMessage,
    ];

    /// `ALL` in the order of their labels (lanes are listed sorted by label).
    pub const BY_LABEL: [TaskSource; 6] = [
        TaskSource::DomManipulation,
        TaskSource::PostedMessage,
        TaskSource::NavigationAndTraversal,
        TaskSource::Networking,
        TaskSource::Timer,
        TaskSource::WebMcp,
    ];

    /// Short label used in lane names.
    pub fn label(self) -> &'static str {
        match self {
            TaskSource::WebMcp => "webmcp",
            TaskSource::Timer => "timer",
            TaskSource::DomManipulation => "dom",
            TaskSource::Networking => "net",
            TaskSource::NavigationAndTraversal => "nav",
            TaskSource::PostedMessage => "msg",
        }
    }
}

/// What a lane's next unit is.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Task<S> {
    /// The document whose relevant global object the task was queued for (None: no document).
    pub document: Option<DocId>,
    pub steps: S,
    /// Whether the task was inert when it was queued, where that was decided: only in the
    /// faithful run of a search's witness (`webmcp::explore::faithful_schedule`), which runs
    /// first the tasks the search ran when they were queued. None everywhere else.
    pub inert_when_queued: Option<bool>,
}

#[derive(PartialEq, Eq, Debug)]
pub struct EventLoop<S> {
    pub label: std::rc::Rc<str>,
    /// The agent cluster key, for the trace legend.
    pub cluster: std::rc::Rc<str>,
    /// The lane label of each task source's queue, in `TaskSource::ALL` order.
    pub lanes: std::rc::Rc<[Lane]>,
    pub tab: NavId,
    /// One FIFO task queue per task source.
    pub queues: TaskQueues<S>,
    pub microtasks: VecDeque<S>,
    /// In-parallel blocks started so far by each task source's lane, in `TaskSource::ALL` order
    /// (see `World::next_block_number`). Kept here rather than in a list of the whole run: the
    /// task that starts a block has already written (and so copied) its loop.
    pub blocks_started: [u32; TaskSource::ALL.len()],
    /// A task suspended mid-script (the variant `in-parallel-reads-mid-task`): the loop is busy
    /// with it, so its lane offers the task's rest and no other task or microtask of the loop
    /// runs until it has (`World::suspend_task`). None in every run without the variant.
    pub suspended: Option<Box<(TaskSource, Task<S>)>>,
}

impl<S: Clone> Clone for EventLoop<S> {
    /// Field by field (as a derived `Clone`), but an empty microtask queue (the common case when a
    /// loop is copied to be written) is made without a call.
    fn clone(&self) -> Self {
        self.copy_with(self.queues.clone())
    }
}

impl<S: Clone> EventLoop<S> {
    /// A copy with `queues` in place of its task queues (see `Clone`).
    fn copy_with(&self, queues: TaskQueues<S>) -> Self {
        EventLoop {
            label: self.label.clone(),
            cluster: self.cluster.clone(),
            lanes: self.lanes.clone(),
            tab: self.tab,
            queues,
            microtasks: if self.microtasks.is_empty() { VecDeque::new() } else { self.microtasks.clone() },
            blocks_started: self.blocks_started,
            suspended: self.suspended.clone(),
        }
    }

    /// A copy (as `Clone`) without the task at `at` of its queues.
    pub(super) fn copy_without_task(&self, at: usize) -> Self {
        self.copy_with(self.queues.copy_without(at))
    }
}

impl<S: std::hash::Hash> std::hash::Hash for EventLoop<S> {
    /// The queues, the blocks started, and the tab: the label and lane labels follow from the
    /// loop's index, and the cluster from the world's cluster map (which the world's hash covers).
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.tab.hash(state);
        self.queues.hash(state);
        self.microtasks.hash(state);
        self.blocks_started.hash(state);
        self.suspended.hash(state);
    }
}

/// An event loop's task queues, one FIFO queue per task source (HTML "task queues"), stored as
/// one list ordered by task source (in `TaskSource::ALL` order), first-in first within a source.
/// The order between sources is not kept: HTML leaves the choice of queue to the event loop, and
/// the simulator schedules it. One list makes copying a loop one allocation instead of one per
/// source. Each task is shared with its cached digest: a loop that gains or loses one task
/// rehashes 16 bytes per other task, not the tasks.
#[derive(PartialEq, Eq, Hash, Debug)]
pub struct TaskQueues<S>(pub(super) Vec<(TaskSource, Shared<Task<S>>)>);

impl<S> Clone for TaskQueues<S> {
    /// A copy (made to write the loop) leaves room for two more tasks: queueing one is the most
    /// common write, and a unit that queues one often queues another on the same loop.
    fn clone(&self) -> Self {
        TaskQueues(copy_with_room(&self.0, None))
    }
}

impl<S> TaskQueues<S> {
    /// A copy (as `Clone`) without the task at `at`.
    fn copy_without(&self, at: usize) -> Self {
        TaskQueues(copy_with_room(&self.0, Some(at)))
    }
}

/// A copy of a list of shared parts (each copied as a reference) without the one at `leave_out`,
/// with room for two more: the copies made to write a task queue or the block list.
pub(super) fn copy_with_room<T: Clone>(list: &[T], leave_out: Option<usize>) -> Vec<T> {
    let mut copy = Vec::with_capacity(list.len() - usize::from(leave_out.is_some()) + 2);
    match leave_out {
        None => copy.extend_from_slice(list),
        Some(at) => {
            copy.extend_from_slice(&list[..at]);
            copy.extend_from_slice(&list[at + 1..]);
        }
    }
    copy
}

impl<S> Default for TaskQueues<S> {
    fn default() -> Self {
        TaskQueues(Vec::new())
    }
}

impl<S: Clone> TaskQueues<S> {
    /// Appends `task` to `source`'s queue.
    pub fn push(&mut self, source: TaskSource, task: Task<S>) {
        let at = self.0.partition_point(|(s, _)| *s <= source);
        self.0.insert(at, (source, Shared::new(task)));
    }

    /// Where the first task of `source`'s queue that `runnable` accepts is.
    pub fn position(&self, source: TaskSource, runnable: impl Fn(&Task<S>) -> bool) -> Option<usize> {
        self.0.iter().position(|(s, t)| *s == source && runnable(t))
    }

    /// Removes and returns the task at `at` (from `position`).
    pub fn remove(&mut self, at: usize) -> Task<S> {
        self.0.remove(at).1.into_inner()
    }

    /// Every queued task with its source, by source (in `TaskSource::ALL` order), oldest first.
    pub fn iter(&self) -> impl Iterator<Item = (TaskSource, &Task<S>)> {
        self.0.iter().map(|(s, t)| (*s, &**t))
    }

    /// Keeps only the tasks `keep` accepts; returns how many were removed.
    pub fn retain(&mut self, keep: impl Fn(&Task<S>) -> bool) -> usize {
        let before = self.0.len();
        self.0.retain(|(_, t)| keep(t));
        before - self.0.len()
    }

    /// A bit per source (`1 << source as u8`) whose queue holds a task `runnable` accepts.
    pub(super) fn sources_with(&self, runnable: impl Fn(&Task<S>) -> bool) -> u8 {
        let mut sources = 0u8;
        for (s, t) in &self.0 {
            let bit = 1u8 << *s as u8;
            if sources & bit == 0 && runnable(t) {
                sources |= bit;
            }
        }
        sources
    }
}

impl<S: Clone> World<S> {
    /// The event loop of the agent cluster `key` in `tab`'s browsing context group (HTML: one per
    /// similar-origin window agent), made when the cluster's first document is created.
    pub(super) fn event_loop_of_cluster(&mut self, tab: NavId, key: ClusterKey) -> LoopId {
        match self.seldom.clusters.get(&(tab, key.clone())) {
            Some(id) => *id,
            None => {
                let id = LoopId(self.event_loops.len() as u32);
                let label = format!("el{}", id.0);
                self.event_loops.push(Shared::new(EventLoop {
                    lanes: TaskSource::ALL.iter().map(|s| Lane::new(format!("{label}.{}", s.label()))).collect(),
                    label: label.into(),
                    cluster: key.to_string().into(),
                    tab,
                    queues: Default::default(),
                    microtasks: VecDeque::new(),
                    blocks_started: [0; TaskSource::ALL.len()],
                    suspended: None,
                }));
                self.seldom.clusters.insert((tab, key), id);
                id
            }
        }
    }

    /// HTML "queue a global task" on `source` given `document`'s relevant global object.
    pub fn queue_global_task(&mut self, source: TaskSource, document: DocId, steps: S) {
        self.queue_global_task_noting(source, document, steps, None);
    }

    /// `queue_global_task`, noting whether the task was inert when queued
    /// (`Task::inert_when_queued`).
    pub fn queue_global_task_noting(
        &mut self,
        source: TaskSource,
        document: DocId,
        steps: S,
        inert_when_queued: Option<bool>,
    ) {
        // A destroyed document's task never runs (it is never runnable, and nothing makes the
        // document active again): it is counted, not kept, so that runs that queued different
        // such tasks, or in another order, reach one state. (`waiting_tasks` and
        // `dead_tasks` together are every task that waits forever.)
        if self.doc(document).state == DocumentState::Destroyed {
            *self.dead_tasks.entry(document).or_default() += 1;
            return;
        }
        let el = self.doc_info(document).event_loop;
        self.event_loops[el.index()].queues.push(source, Task { document: Some(document), steps, inert_when_queued });
    }

    /// Keeps the loop `el` busy with the rest of a task that was suspended mid-script (the
    /// variant `in-parallel-reads-mid-task`): `rest` is the only unit its lane `source` offers,
    /// and the loop's other lanes offer nothing, until it runs (HTML's event loop runs one task
    /// to completion; the variant lets in-parallel steps and other event loops run meanwhile).
    pub fn suspend_task(&mut self, el: LoopId, source: TaskSource, rest: Task<S>) {
        self.event_loops[el.index()].suspended = Some(Box::new((source, rest)));
    }

    /// Whether some event loop is busy with a suspended task (`suspend_task`).
    pub fn a_task_is_suspended(&self) -> bool {
        self.event_loops.iter().any(|el| el.suspended.is_some())
    }

    /// HTML "queue a microtask" on `document`'s event loop.
    pub fn queue_microtask(&mut self, document: DocId, steps: S) {
        let el = self.doc_info(document).event_loop;
        self.event_loops[el.index()].microtasks.push_back(steps);
    }

    pub fn take_microtask(&mut self, el: LoopId) -> Option<S> {
        self.event_loops[el.index()].microtasks.pop_front()
    }

    /// Removes the tasks of a destroyed document from every queue (HTML "destroy a document":
    /// "remove all tasks whose document is document"). Returns how many were removed.
    pub fn remove_tasks_of(&mut self, doc: DocId) -> usize {
        let mut removed = 0;
        for el in &mut self.event_loops {
            // Only a loop that holds such a task is written (and so copied).
            if !el.queues.iter().any(|(_, t)| t.document == Some(doc)) {
                continue;
            }
            removed += el.queues.retain(|t| t.document != Some(doc));
        }
        // The timers too are written (and so copied) only when one of them is the document's.
        if !self.timers.iter().any(|t| t.document == doc) {
            return removed;
        }
        let before = self.timers.len();
        self.timers.retain(|t| t.document != doc);
        removed + before - self.timers.len()
    }

    /// A task is runnable when it has no document or its document is fully active.
    pub(super) fn task_runnable(&self, task: &Task<S>) -> bool {
        task.document.is_none_or(|d| self.is_fully_active(d))
    }

    /// The number of the next in-parallel block that a task of `source` on `el` starts (0 for its
    /// first), counted per lane so that block labels do not depend on how lanes interleave.
    pub fn next_block_number(&mut self, el: LoopId, source: TaskSource) -> u32 {
        let started = &mut self.event_loops[el.index()].blocks_started[source_index(source)];
        *started += 1;
        *started - 1
    }

    /// The tasks queued for each document after it was destroyed (never kept: see
    /// `World::queue_global_task`), by document.
    pub fn dead_tasks(&self) -> impl Iterator<Item = (DocId, u32)> + '_ {
        self.dead_tasks.iter().map(|(d, n)| (*d, *n))
    }

    /// Tasks still queued (runnable or not), per event loop and source, for quiescence reports.
    pub fn waiting_tasks(&self) -> Vec<(LoopId, TaskSource, &Task<S>)> {
        let mut out = Vec::new();
        for (i, el) in self.event_loops.iter().enumerate() {
            for (source, t) in el.queues.iter() {
                out.push((LoopId(i as u32), source, t));
            }
        }
        out
    }
}

/// A source's index in `TaskSource::ALL` (its declaration order).
pub fn source_index(source: TaskSource) -> usize {
    source as usize
}

/// A task lane's index among all task lanes (by event loop, then source): a dense key for
/// tables indexed by lane (the label, `el<loop>.<source>`, follows from it).
pub fn task_lane_index(event_loop: LoopId, source: TaskSource) -> usize {
    event_loop.index() * TaskSource::ALL.len() + source_index(source)
}

const _: () = {
    let mut i = 0;
    while i < TaskSource::ALL.len() {
        assert!(TaskSource::ALL[i] as usize == i, "TaskSource::ALL is in declaration order");
        i += 1;
    }
};
