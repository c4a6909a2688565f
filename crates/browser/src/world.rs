//! The simulated browser's state: navigables, documents, agent clusters and event loops with one
//! task queue per task source, microtask queues, "in parallel" blocks and parallel queues,
//! promises, abort signals, and virtual-time timers.
//!
//! `World<S>` is generic over `S`, the payload of a unit of work (a task's steps, a microtask, a
//! parallel block, an abort algorithm, a promise reaction). The `webmcp` crate defines `S` as plain
//! data, so a whole world can be cloned, compared and fingerprinted.
//!
//! This file holds the ids, `World` and its shared parts; `World`'s methods live with the state
//! they work on: `navigables`, `documents` (creation, lifecycle, "fully active"), `event_loops`
//! (task sources, task queues, microtasks), `parallel` ("in parallel" blocks), `user_and_agent`
//! (the user's and the agent's queues), `timers` (virtual time), `promises` (promises and abort
//! signals) and `lanes` (the runnable lanes and taking a unit off one).

mod counts;
mod documents;
mod event_loops;
mod lanes;
mod navigables;
mod parallel;
mod promises;
mod session_history;
mod timers;
mod user_and_agent;

use std::collections::{BTreeMap, VecDeque};

use sched::Lane;

use crate::origin::Origin;
use crate::shared::Shared;
use counts::Counts;
use documents::DocumentLifecycle;
use timers::Timers;

pub use documents::{ClusterKey, Document, DocumentInfo, DocumentInit, DocumentResponse, DocumentState, WorldError};
pub use event_loops::{source_index, task_lane_index, EventLoop, Task, TaskQueues, TaskSource};
pub use lanes::{LaneRef, Unit};
pub use navigables::{ContainerAttributes, Navigable, NavigableInfo, NavigableState};
pub use parallel::ParallelBlocks;
pub use promises::{AbortSignal, PerRealm, Promise, PromiseId, PromiseState, SignalId};
pub use session_history::{SessionHistory, SessionHistoryEntry};
pub use user_and_agent::{AgentQueue, UserQueue};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// A navigable (a tab's traversable or an iframe's child navigable).
    NavId
);
id_type!(
    /// A document.
    DocId
);
id_type!(
    /// An event loop (one per similar-origin window agent, i.e. per agent cluster).
    LoopId
);

/// The navigables' and the documents' lifecycle states, by id: one shared part, since a
/// navigation or an iframe removal changes both (the navigable's active document or destroyed
/// flag, and the states of the documents it unloads or creates), so such a step copies one list
/// pair instead of two separately shared lists.
#[derive(PartialEq, Eq, Hash, Debug, Default)]
struct Lifecycles {
    navigables: Vec<NavigableState>,
    documents: Vec<DocumentLifecycle>,
}

impl Clone for Lifecycles {
    /// Field by field (as a derived `Clone`), with room for one more document: a navigation
    /// copies the lists to unload the old document, then creates the new one.
    fn clone(&self) -> Self {
        let mut documents = Vec::with_capacity(self.documents.len() + 1);
        documents.extend_from_slice(&self.documents);
        Lifecycles { navigables: self.navigables.clone(), documents }
    }
}

/// How "in parallel" blocks are scheduled.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ParallelMode {
    Unordered,
    Fifo,
}

/// The simulated browser.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct World<S> {
    /// Shared between copies of the world until one changes (navigation, iframe removal).
    /// Read through `nav`; changed only by `World` methods, which keep each document's cached
    /// "fully active" up to date. What is fixed (`seldom.navigable_infos`, changed only when a
    /// navigable is created) is apart from what navigation changes (`lifecycles.navigables`).
    /// The parts that change seldom are one shared part (see `Seldom`).
    seldom: Shared<Seldom>,
    /// Tasks queued for a document after it was destroyed, by document: they never run, so
    /// only how many there are is kept (see `World::queue_global_task`). A part of its own, not
    /// in `seldom`: after an iframe removal, every in-parallel step that queues a task for the
    /// destroyed document changes it (on `four-calls-unload` one step in nine), and `seldom`
    /// is large to copy and to digest.
    dead_tasks: Shared<Counts<u32>>,
    /// Documents, by id (creation order), split the same way: what is fixed (`document_infos`,
    /// which only grows as documents are created) apart from what lifecycle changes change
    /// (`lifecycles.documents`). Read through `doc`; states changed only by `set_document_state`.
    /// Both are hashed: ids follow creation order, which can depend on the interleaving.
    document_infos: Shared<Vec<std::rc::Rc<DocumentInfo>>>,
    /// What navigation, iframe removal and the bfcache change, of navigables and documents
    /// together (see `Lifecycles`).
    lifecycles: Shared<Lifecycles>,
    /// Each event loop, promise and signal is its own shared part: a unit copies only the ones
    /// it changes (see `Shared`). The event-loop list itself is not shared (nearly every unit
    /// writes a loop, so it would be copied anyway).
    pub event_loops: Vec<Shared<EventLoop<S>>>,
    /// Promises and signals, numbered per realm (see `PromiseId`). The lists are shared too (a
    /// unit that adds or changes no promise copies no list), and hash as one digest over their
    /// per-document lists' digests.
    pub promises: Shared<PerRealm<Promise<S>>>,
    pub signals: Shared<PerRealm<AbortSignal<S>>>,
    pub parallel_mode: ParallelMode,
    /// Unordered in-parallel blocks, by label (see `ParallelBlocks`).
    parallel_blocks: Shared<ParallelBlocks<S>>,
    parallel_queue: Shared<VecDeque<(Lane, S)>>,
    /// Which unordered blocks are navigations' fetches, and whether they were put off
    /// (`options.network` "unbounded"; see `Fetches`).
    fetches: Shared<parallel::Fetches>,
    pub agent_queue: Shared<AgentQueue<S>>,
    pub user_queue: Shared<UserQueue<S>>,
    /// Pending timers, timers set and virtual time (see `Timers`).
    timers: Shared<Timers<S>>,
}

/// The parts of a world that change seldom (when a navigable, an agent cluster or an origin is
/// made), kept as one shared part: fingerprinting a state folds one digest for all of them.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
struct Seldom {
    navigable_infos: Vec<NavigableInfo>,
    next_opaque: u32,
    /// Per browsing context group (`NavigableInfo::group`: a tab's own, unless another page
    /// opened it): HTML's historical agent cluster key map, origin → key.
    historical_agent_cluster_keys: BTreeMap<(NavId, Origin), ClusterKey>,
    /// Agent cluster → event loop.
    clusters: BTreeMap<(NavId, ClusterKey), LoopId>,
    /// Each navigable's session history, by id (see `SessionHistory`): changed by navigations
    /// and traversals only.
    session_histories: Vec<session_history::SessionHistory>,
}

impl<S: std::hash::Hash> std::hash::Hash for World<S> {
    /// Every field in order (as a derived `Hash`), but `parallel_mode`: it is fixed when the
    /// world is made (from the scenario), so it is the same in every state of one run and
    /// telling states apart by it would only add a term to every fingerprint. For the same
    /// reason only the in-parallel list that mode uses is hashed: the other one stays empty
    /// (`start_in_parallel` adds to `parallel_blocks` only when unordered, to `parallel_queue`
    /// only in FIFO order).
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let World {
            seldom,
            dead_tasks,
            document_infos,
            lifecycles,
            event_loops,
            promises,
            signals,
            parallel_mode,
            parallel_blocks,
            parallel_queue,
            fetches,
            agent_queue,
            user_queue,
            timers,
        } = self;
        seldom.hash(state);
        dead_tasks.hash(state);
        document_infos.hash(state);
        lifecycles.hash(state);
        // The loops without their number: it is the number of agent clusters (each loop is
        // made with its cluster), which `seldom` holds.
        for event_loop in event_loops {
            event_loop.hash(state);
        }
        promises.hash(state);
        signals.hash(state);
        match parallel_mode {
            // Its blocks' digests, not the list's own: nearly every unit that runs in parallel
            // starts or ends a block, so a cached digest of the list would seldom be used again.
            ParallelMode::Unordered => (**parallel_blocks).hash(state),
            ParallelMode::Fifo => {
                parallel_queue.hash(state);
                // Fetches are unordered blocks in either mode (`start_fetch`).
                if !parallel_blocks.0.is_empty() {
                    (**parallel_blocks).hash(state);
                }
            }
        }
        // Only in scenarios whose fetches take time (`Fetches`): every other state hashes as before.
        if !fetches.is_idle() {
            fetches.hash(state);
        }
        agent_queue.hash(state);
        user_queue.hash(state);
        timers.hash(state);
    }
}

impl<S: Clone> World<S> {
    pub fn new(parallel_mode: ParallelMode) -> World<S> {
        World {
            seldom: Default::default(),
            dead_tasks: Default::default(),
            document_infos: Default::default(),
            lifecycles: Default::default(),
            event_loops: Vec::new(),
            promises: Shared::default(),
            signals: Shared::default(),
            parallel_mode,
            parallel_blocks: Default::default(),
            parallel_queue: Default::default(),
            fetches: Default::default(),
            agent_queue: Default::default(),
            user_queue: Default::default(),
            timers: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests;
