//! The simulated browser's state: navigables, documents, agent clusters and event loops with one
//! task queue per task source, microtask queues, "in parallel" blocks and parallel queues,
//! promises, abort signals, and virtual-time timers.
//!
//! `World<S>` is generic over `S`, the payload of a unit of work (a task's steps, a microtask, a
//! parallel block, an abort algorithm, a promise reaction). The `webmcp` crate defines `S` as plain
//! data, so a whole world can be cloned, compared and fingerprinted.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;

use sched::Lane;
use url::Url;

use crate::origin::{is_url_potentially_trustworthy, Origin, Site};
use crate::policy::{self, PermissionsPolicy, Policy};
use crate::shared::Shared;
use crate::value::JsValue;

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
/// A promise: the `seq`-th one created in document `realm`'s relevant realm.
///
/// Numbered per realm, not globally: the promises of one document are created by units on its
/// own event loop, so their numbers do not depend on how independent event loops interleave, and
/// two schedules that differ only in that order reach equal states (see `PerRealm`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct PromiseId {
    pub realm: DocId,
    pub seq: u32,
}

/// An `AbortController` and its `AbortSignal` (one-to-one): the `seq`-th one created in document
/// `realm`'s relevant realm (numbered per realm, as `PromiseId`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct SignalId {
    pub realm: DocId,
    pub seq: u32,
}

/// Values numbered per realm (promises, abort signals): a list per document, each list and each
/// value a shared part, so a unit that changes one promise copies that document's list and that
/// promise, not every promise.
///
/// A value may instead be *scoped*: numbered by the caller from what created it (a number with
/// [`PerRealm::SCOPED`] set), not by the order of creation, and kept apart in number order. The
/// simulator's reduction names the objects an inert tool execution creates so
/// (`webmcp::inert`): two such executions then leave the same lists in either order.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PerRealm<T>(Vec<Shared<Vec<Shared<T>>>>, Shared<Vec<(DocId, u32, Shared<T>)>>);

impl<T> Default for PerRealm<T> {
    fn default() -> Self {
        PerRealm(Vec::new(), Shared::default())
    }
}

impl<T: Clone> PerRealm<T> {
    /// The bit that marks a scoped number.
    pub const SCOPED: u32 = 1 << 31;

    /// Adds a value created in `realm`'s realm; returns its number there.
    fn push(&mut self, realm: DocId, value: T) -> u32 {
        if self.0.len() <= realm.index() {
            self.0.resize_with(realm.index() + 1, Shared::default);
        }
        let list = &mut self.0[realm.index()];
        list.push(Shared::new(value));
        list.len() as u32 - 1
    }

    /// Adds a value created in `realm`'s realm under the scoped number `seq` (which has
    /// [`PerRealm::SCOPED`] set and is not taken).
    fn insert_scoped(&mut self, realm: DocId, seq: u32, value: T) {
        debug_assert!(seq & Self::SCOPED != 0, "a scoped number has the SCOPED bit");
        let at = self.1.partition_point(|(r, s, _)| (*r, *s) < (realm, seq));
        debug_assert!(self.1.get(at).is_none_or(|(r, s, _)| (*r, *s) != (realm, seq)), "a scoped number is unique");
        self.1.insert(at, (realm, seq, Shared::new(value)));
    }

    /// Drops the scoped values of `realm` (a destroyed document's: see `World::forget_destroyed`).
    fn remove_scoped(&mut self, realm: DocId) {
        // Read before writing: a list without such values is not copied.
        if self.1.iter().any(|(r, _, _)| *r == realm) {
            self.1.retain(|(r, _, _)| *r != realm);
        }
    }

    fn scoped_at(&self, realm: DocId, seq: u32) -> usize {
        self.1.binary_search_by(|(r, s, _)| (*r, *s).cmp(&(realm, seq))).expect("a scoped value that exists")
    }

    fn get(&self, realm: DocId, seq: u32) -> &T {
        if seq & Self::SCOPED != 0 {
            return &self.1[self.scoped_at(realm, seq)].2;
        }
        &self.0[realm.index()][seq as usize]
    }

    fn get_mut(&mut self, realm: DocId, seq: u32) -> &mut T {
        if seq & Self::SCOPED != 0 {
            let at = self.scoped_at(realm, seq);
            return &mut self.1[at].2;
        }
        &mut self.0[realm.index()][seq as usize]
    }

    /// Every value with its realm and number: by realm, then in creation order; then the scoped
    /// ones, by realm and number.
    pub fn iter(&self) -> impl Iterator<Item = (DocId, u32, &T)> {
        self.0
            .iter()
            .enumerate()
            .flat_map(|(d, list)| list.iter().enumerate().map(move |(seq, v)| (DocId(d as u32), seq as u32, &**v)))
            .chain(self.1.iter().map(|(d, seq, v)| (*d, *seq, &**v)))
    }
}

impl<S: Clone> std::ops::Index<PromiseId> for PerRealm<Promise<S>> {
    type Output = Promise<S>;
    fn index(&self, id: PromiseId) -> &Promise<S> {
        self.get(id.realm, id.seq)
    }
}

impl<S: Clone> std::ops::IndexMut<PromiseId> for PerRealm<Promise<S>> {
    fn index_mut(&mut self, id: PromiseId) -> &mut Promise<S> {
        self.get_mut(id.realm, id.seq)
    }
}

impl<S: Clone> std::ops::Index<SignalId> for PerRealm<AbortSignal<S>> {
    type Output = AbortSignal<S>;
    fn index(&self, id: SignalId) -> &AbortSignal<S> {
        self.get(id.realm, id.seq)
    }
}

impl<S: Clone> std::ops::IndexMut<SignalId> for PerRealm<AbortSignal<S>> {
    fn index_mut(&mut self, id: SignalId) -> &mut AbortSignal<S> {
        self.get_mut(id.realm, id.seq)
    }
}

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

/// A navigable's container attributes (iframes only).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct ContainerAttributes {
    pub allow: Option<std::rc::Rc<str>>,
    pub sandbox: Option<std::rc::Rc<str>>,
}

impl ContainerAttributes {
    /// The sandbox attribute without `allow-same-origin` sets the "sandboxed origin browsing context flag".
    pub fn sandboxed_origin(&self) -> bool {
        match &self.sandbox {
            None => false,
            Some(tokens) => !tokens.split_ascii_whitespace().any(|t| t.eq_ignore_ascii_case("allow-same-origin")),
        }
    }
}

/// What a navigable is: fixed when it is created, except that its children grow as its
/// documents create iframes. Kept apart from what navigation changes (`NavigableState`), so a
/// navigation or an iframe removal copies and rehashes only that small part.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct NavigableInfo {
    /// The scenario's name for it.
    pub name: std::rc::Rc<str>,
    pub parent: Option<NavId>,
    /// The document whose iframe is this navigable's container (None for a traversable).
    pub container_document: Option<DocId>,
    pub container: ContainerAttributes,
    pub children: Vec<NavId>,
    /// The tab (top-level traversable) this navigable belongs to.
    pub traversable: NavId,
}

/// What navigation and iframe removal change of a navigable.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct NavigableState {
    pub active_document: Option<DocId>,
    /// The iframe was removed: the navigable is destroyed.
    pub destroyed: bool,
}

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

/// A navigable as `World::nav` reads it: its fixed `NavigableInfo` (reached through `Deref`)
/// and a copy of its `NavigableState`.
#[derive(Clone, Copy, Debug)]
pub struct Navigable<'a> {
    pub info: &'a NavigableInfo,
    pub active_document: Option<DocId>,
    /// The iframe was removed: the navigable is destroyed.
    pub destroyed: bool,
}

impl std::ops::Deref for Navigable<'_> {
    type Target = NavigableInfo;
    fn deref(&self) -> &NavigableInfo {
        self.info
    }
}

/// Where a document is in its lifecycle.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DocumentState {
    /// Its navigable's active document (fully active if its ancestors are too).
    Active,
    /// In the back/forward cache: not fully active, not unloaded; its tasks wait.
    Bfcached,
    /// Unloaded and destroyed (navigated away from, or its iframe was removed).
    Destroyed,
}

/// What a document is: fixed when it is created. Kept apart from its lifecycle state
/// (`DocumentLifecycle`), so a lifecycle change copies and rehashes only that small part.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DocumentInfo {
    /// Trace label: the navigable's name, plus `@N` for the N-th document of that navigable.
    pub label: String,
    pub navigable: NavId,
    pub url: Url,
    pub origin: Origin,
    pub event_loop: LoopId,
    pub origin_keyed: bool,
    pub secure_context: bool,
    pub policy: PermissionsPolicy,
    /// Permissions Policy "is feature enabled in document for origin?" with the document's own
    /// origin, per supported feature (`policy::features_enabled_for_own_origin`): the policy and
    /// origin are fixed, so HTML "allowed to use" reads the answer instead of recomputing it.
    pub features_enabled: [bool; policy::SUPPORTED_FEATURES.len()],
}

impl std::hash::Hash for DocumentInfo {
    /// What identifies the document (its label and URL): the rest follows from those within one
    /// scenario.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.label.hash(state);
        self.url.as_str().hash(state);
    }
}

/// What lifecycle changes change of a document: its state, and the cached "fully active"
/// derived from it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct DocumentLifecycle {
    /// Changed only through `World::set_document_state` (which keeps `fully_active` up to date;
    /// `World::is_fully_active` checks that in debug builds).
    state: DocumentState,
    /// HTML "fully active", derived from the documents' states and the navigables (not hashed):
    /// `World` recomputes it whenever one of those changes (`World::refresh_fully_active_of`), as
    /// every task's document is checked before every step.
    fully_active: bool,
}

impl std::hash::Hash for DocumentLifecycle {
    /// The state only (one byte): `fully_active` follows from the states and the navigables.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u8(self.state as u8);
    }
}

/// A document as `World::doc` reads it: its fixed `DocumentInfo` (reached through `Deref`) and
/// a copy of its lifecycle state (changed only through `World::set_document_state`).
#[derive(Clone, Copy, Debug)]
pub struct Document<'a> {
    pub info: &'a DocumentInfo,
    pub state: DocumentState,
}

impl std::ops::Deref for Document<'_> {
    type Target = DocumentInfo;
    #[inline]
    fn deref(&self) -> &DocumentInfo {
        self.info
    }
}

/// What a lane's next unit is.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Task<S> {
    /// The document whose relevant global object the task was queued for (None: no document).
    pub document: Option<DocId>,
    pub steps: S,
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
        }
    }

    /// A copy (as `Clone`) without the task at `at` of its queues.
    fn copy_without_task(&self, at: usize) -> Self {
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
    }
}

/// An event loop's task queues, one FIFO queue per task source (HTML "task queues"), stored as
/// one list ordered by task source (in `TaskSource::ALL` order), first-in first within a source.
/// The order between sources is not kept: HTML leaves the choice of queue to the event loop, and
/// the simulator schedules it. One list makes copying a loop one allocation instead of one per
/// source. Each task is shared with its cached digest: a loop that gains or loses one task
/// rehashes 16 bytes per other task, not the tasks.
#[derive(PartialEq, Eq, Hash, Debug)]
pub struct TaskQueues<S>(Vec<(TaskSource, Shared<Task<S>>)>);

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
fn copy_with_room<T: Clone>(list: &[T], leave_out: Option<usize>) -> Vec<T> {
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
    fn sources_with(&self, runnable: impl Fn(&Task<S>) -> bool) -> u8 {
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

/// The unordered in-parallel blocks, as a list sorted by label (copying it is one allocation,
/// where a map copies nodes). Each block (its label and steps) is shared with its cached digest:
/// a list that gains or loses one block rehashes 16 bytes per other block, not their steps.
#[derive(PartialEq, Eq, Hash, Debug)]
pub struct ParallelBlocks<S>(Vec<Shared<(Lane, S)>>);

impl<S> Clone for ParallelBlocks<S> {
    /// A copy (made to write the list) leaves room for two more blocks: starting one is the most
    /// common write, and a unit that starts one often starts another.
    fn clone(&self) -> Self {
        ParallelBlocks(copy_with_room(&self.0, None))
    }
}

impl<S> Default for ParallelBlocks<S> {
    fn default() -> Self {
        ParallelBlocks(Vec::new())
    }
}

impl<S: Clone> ParallelBlocks<S> {
    /// Where the block labelled `label` is (`Ok`), or where it would go (`Err`).
    fn find(&self, label: &Lane) -> Result<usize, usize> {
        self.0.binary_search_by(|block| block.0.cmp(label))
    }

    /// Adds the block `label`, or replaces its steps.
    fn insert(&mut self, label: Lane, steps: S) {
        match self.find(&label) {
            Ok(at) => self.0[at] = Shared::new((label, steps)),
            Err(at) => self.0.insert(at, Shared::new((label, steps))),
        }
    }

    /// Removes and returns the block at `at` (from `find`).
    fn remove(&mut self, at: usize) -> (Lane, S) {
        self.0.remove(at).into_inner()
    }

    /// A copy (as `Clone`) without the block at `at`.
    fn copy_without(&self, at: usize) -> Self {
        ParallelBlocks(copy_with_room(&self.0, Some(at)))
    }
}

/// A promise's state.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum PromiseState {
    Pending,
    Fulfilled(JsValue),
    Rejected(JsValue),
}

/// A promise (its realm is its id's: `PromiseId::realm`; its reactions run on that document's
/// event loop).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Promise<S> {
    pub state: PromiseState,
    pub reactions: Vec<S>,
    /// The scenario's name for it, if it has one (shared: a promise is copied each time a state
    /// that shares it settles it or adds a reaction).
    pub name: Option<std::rc::Rc<str>>,
}

/// An abort signal (its realm is its id's: `SignalId::realm`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct AbortSignal<S> {
    /// The scenario's name for its controller, if it has one (shared, like a promise's name).
    pub name: Option<std::rc::Rc<str>>,
    pub aborted: bool,
    pub reason: JsValue,
    pub abort_algorithms: Vec<S>,
    /// `abort` event listeners (event handler and added listeners), in order.
    pub listeners: Vec<S>,
}

impl<S> AbortSignal<S> {
    /// A signal not aborted, with nothing to run on abort.
    fn new(name: Option<String>) -> Self {
        AbortSignal {
            name: name.map(std::rc::Rc::from),
            aborted: false,
            reason: JsValue::Undefined,
            abort_algorithms: Vec::new(),
            listeners: Vec::new(),
        }
    }
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Timer<S> {
    deadline: u64,
    document: DocId,
    /// The document's own count of timers set: timers of one document keep their order, and the
    /// numbering does not depend on how other event loops interleave.
    seq: u64,
    steps: S,
}

/// The pending timers, the timers set so far and virtual time, as one shared part: they change
/// together (setting a timer adds one and counts it; advancing time fires the first). Read and
/// written as its list of pending timers (through `Deref`), but for `set` and `now`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Timers<S> {
    /// Pending timers, kept sorted by (deadline, document, seq).
    pending: Vec<Timer<S>>,
    /// Timers set so far, per document.
    set: BTreeMap<DocId, u64>,
    /// Virtual time in milliseconds.
    now: u64,
}

impl<S> Default for Timers<S> {
    fn default() -> Self {
        Timers { pending: Vec::new(), set: BTreeMap::new(), now: 0 }
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
    /// Per tab (browsing context group): HTML's historical agent cluster key map, origin → key.
    historical_agent_cluster_keys: BTreeMap<(NavId, Origin), ClusterKey>,
    /// Agent cluster → event loop.
    clusters: BTreeMap<(NavId, ClusterKey), LoopId>,
    /// Tasks queued for a document after it was destroyed, by document: they never run, so
    /// only how many there are is kept (see `World::queue_global_task`).
    dead_tasks: BTreeMap<DocId, u32>,
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
            document_infos,
            lifecycles,
            event_loops,
            promises,
            signals,
            parallel_mode,
            parallel_blocks,
            parallel_queue,
            agent_queue,
            user_queue,
            timers,
        } = self;
        seldom.hash(state);
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
            ParallelMode::Fifo => parallel_queue.hash(state),
        }
        agent_queue.hash(state);
        user_queue.hash(state);
        timers.hash(state);
    }
}

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
    deferred: bool,
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
    fn next_runs_at(&self, now: u64) -> bool {
        self.next < self.all.len() && window_runs_at(self.next_window(), self.deferred, now)
    }

    /// Whether the next action can be put off at `now` (the `user.wait` lane): it can run now
    /// and its window ends later.
    fn next_can_wait_at(&self, now: u64) -> bool {
        self.next_runs_at(now) && window_can_wait_at(self.next_window(), now)
    }

    /// When virtual time has to advance to for the next action to run: the start of its window,
    /// or (put off) the window's end; None when it can run now or has no window.
    pub fn next_wake_up(&self, now: u64) -> Option<u64> {
        window_wake_up(self.next_window(), self.deferred, now)
    }

    /// Takes the next action.
    fn pop_front(&mut self) -> Option<S> {
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
    deferred: bool,
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
    fn next_runs_at(&self, now: u64) -> bool {
        !self.queue.is_empty() && window_runs_at(self.next_window(), self.deferred, now)
    }

    /// Whether the next step can be put off at `now` (the `agent.wait` lane).
    fn next_can_wait_at(&self, now: u64) -> bool {
        self.next_runs_at(now) && window_can_wait_at(self.next_window(), now)
    }

    /// When virtual time has to advance to for the next step to run (see `UserQueue`).
    pub fn next_wake_up(&self, now: u64) -> Option<u64> {
        window_wake_up(self.next_window(), self.deferred, now)
    }

    /// Takes the next step.
    fn pop_front(&mut self) -> Option<S> {
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

/// An agent cluster key: a site, or an origin when origin-keyed.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum ClusterKey {
    Site(Site),
    Origin(Origin),
}

impl fmt::Display for ClusterKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClusterKey::Site(site) => write!(f, "site {site}"),
            ClusterKey::Origin(origin) => write!(f, "origin {origin} (origin-keyed)"),
        }
    }
}

/// What a new document is made from.
pub struct DocumentInit<'a> {
    pub url: &'a Url,
    /// `Permissions-Policy` header value, if any.
    pub permissions_policy: Option<&'a str>,
    /// The document asks for an origin-keyed agent cluster (`Origin-Agent-Cluster` is not `?0`
    /// and it does not set `document.domain`).
    pub requests_origin_keyed: bool,
}

/// What a new document is made from, with everything that depends only on the response (its
/// URL and headers) computed once: a caller that creates many documents from one response (the
/// simulator, once per scenario document, when the scenario is compiled) builds this once and
/// passes it to `World::create_document_from_response`, which then only copies from it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DocumentResponse {
    pub url: Url,
    /// URL Standard "origin" of `url` when it is a tuple origin; `None` when it is "a new opaque
    /// origin", which each document gets its own of (allocated when the document is created).
    pub url_origin: Option<Origin>,
    /// Secure Contexts "Is url potentially trustworthy?" of `url`.
    pub url_potentially_trustworthy: bool,
    /// Permissions Policy §9.1 "Process response policy": the declared policy of the
    /// `Permissions-Policy` header, empty when there is none.
    pub declared_policy: Policy,
    /// The document asks for an origin-keyed agent cluster (see `DocumentInit`).
    pub requests_origin_keyed: bool,
}

impl DocumentResponse {
    /// Computes the parts of a document that depend only on its response; fails on a malformed
    /// `Permissions-Policy` header.
    pub fn new(init: DocumentInit) -> Result<DocumentResponse, WorldError> {
        // Opaque ids are not allocated here: an opaque answer is only "a new opaque origin".
        let mut scratch_opaque = 0;
        let url_origin = Some(Origin::of_url(init.url, &mut scratch_opaque)).filter(|o| !o.is_opaque());
        let declared_policy = match init.permissions_policy {
            Some(header) => {
                policy::parse_permissions_policy_header(header).map_err(WorldError::BadPermissionsPolicy)?
            }
            None => Policy::default(),
        };
        Ok(DocumentResponse {
            url: init.url.clone(),
            url_origin,
            url_potentially_trustworthy: is_url_potentially_trustworthy(init.url),
            declared_policy,
            requests_origin_keyed: init.requests_origin_keyed,
        })
    }
}

/// Errors creating a document that a scenario can cause.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum WorldError {
    BadPermissionsPolicy(String),
}

impl<S: Clone> World<S> {
    pub fn new(parallel_mode: ParallelMode) -> World<S> {
        World {
            seldom: Default::default(),
            document_infos: Default::default(),
            lifecycles: Default::default(),
            event_loops: Vec::new(),
            promises: Shared::default(),
            signals: Shared::default(),
            parallel_mode,
            parallel_blocks: Default::default(),
            parallel_queue: Default::default(),
            agent_queue: Default::default(),
            user_queue: Default::default(),
            timers: Default::default(),
        }
    }

    /// Marks a navigable destroyed (HTML "destroy a navigable"; its documents are unloaded by
    /// the caller).
    pub fn destroy_navigable(&mut self, nav: NavId) {
        self.lifecycles.navigables[nav.index()].destroyed = true;
        // Of the navigable's documents only its active one can have been fully active.
        if let Some(doc) = self.lifecycles.navigables[nav.index()].active_document {
            self.refresh_fully_active_of(doc);
        }
        self.debug_assert_fully_active_cache();
    }

    /// Changes a document's lifecycle state.
    pub fn set_document_state(&mut self, doc: DocId, state: DocumentState) {
        self.lifecycles.documents[doc.index()].state = state;
        self.refresh_fully_active_of(doc);
        self.debug_assert_fully_active_cache();
    }

    /// HTML "fully active" of a document from its state, its navigable and its container
    /// document's cached answer.
    fn fully_active_from_cache(&self, doc: DocId) -> bool {
        // The state first: a document that is not active (most of those a refresh passes are
        // destroyed) needs no look at its navigable.
        if self.lifecycles.documents[doc.index()].state != DocumentState::Active {
            return false;
        }
        let nav = self.nav(self.document_infos[doc.index()].navigable);
        !nav.destroyed
            && nav.active_document == Some(doc)
            && nav.container_document.is_none_or(|parent| {
                debug_assert!(parent < doc, "a container document comes before its iframes' documents");
                self.lifecycles.documents[parent.index()].fully_active
            })
    }

    /// Recomputes a document's cached "fully active" (`DocumentLifecycle::fully_active`) after a change
    /// to its state or to its navigable; when it changes, so may its descendants' (whose
    /// documents all come after it: a container document is created before the documents of
    /// its iframes), which are recomputed in one pass in document order. A document whose
    /// answer does not change is not written (nor the list copied).
    fn refresh_fully_active_of(&mut self, doc: DocId) {
        let fully_active = self.fully_active_from_cache(doc);
        if self.lifecycles.documents[doc.index()].fully_active != fully_active {
            self.lifecycles.documents[doc.index()].fully_active = fully_active;
            for i in doc.index() + 1..self.lifecycles.documents.len() {
                let fully_active = self.fully_active_from_cache(DocId(i as u32));
                if self.lifecycles.documents[i].fully_active != fully_active {
                    self.lifecycles.documents[i].fully_active = fully_active;
                }
            }
        }
    }

    /// Checks (in debug builds) that every document's cached "fully active" follows the definition.
    fn debug_assert_fully_active_cache(&self) {
        debug_assert!(
            (0..self.document_count() as u32)
                .all(|d| { self.lifecycles.documents[d as usize].fully_active == self.compute_fully_active(DocId(d)) }),
            "the cached fully active flags follow the definition"
        );
    }

    pub fn nav(&self, id: NavId) -> Navigable<'_> {
        let state = self.lifecycles.navigables[id.index()];
        Navigable {
            info: &self.seldom.navigable_infos[id.index()],
            active_document: state.active_document,
            destroyed: state.destroyed,
        }
    }

    pub fn doc(&self, id: DocId) -> Document<'_> {
        Document { info: &self.document_infos[id.index()], state: self.lifecycles.documents[id.index()].state }
    }

    /// What a document is (`doc` without its state).
    pub fn doc_info(&self, id: DocId) -> &DocumentInfo {
        &self.document_infos[id.index()]
    }

    /// A navigable's fixed info, if `id` names one.
    pub fn get_nav_info(&self, id: NavId) -> Option<&NavigableInfo> {
        self.seldom.navigable_infos.get(id.index())
    }

    /// How many documents have been created (their ids are `0..document_count()`).
    pub fn document_count(&self) -> usize {
        self.document_infos.len()
    }

    /// Every document, by id.
    pub fn documents(&self) -> impl Iterator<Item = Document<'_>> {
        self.document_infos
            .iter()
            .zip(self.lifecycles.documents.iter())
            .map(|(info, lifecycle)| Document { info, state: lifecycle.state })
    }

    /// Creates a top-level traversable (`container_document` None) or a child navigable.
    pub fn create_navigable(
        &mut self,
        name: &str,
        container_document: Option<DocId>,
        container: ContainerAttributes,
    ) -> NavId {
        let id = NavId(self.seldom.navigable_infos.len() as u32);
        let (parent, traversable) = match container_document {
            Some(doc) => {
                let parent = self.doc_info(doc).navigable;
                (Some(parent), self.nav(parent).traversable)
            }
            None => (None, id),
        };
        let infos = &mut self.seldom.navigable_infos;
        infos.push(NavigableInfo {
            name: name.into(),
            parent,
            container_document,
            container,
            children: Vec::new(),
            traversable,
        });
        if let Some(parent) = parent {
            infos[parent.index()].children.push(id);
        }
        self.lifecycles.navigables.push(NavigableState::default());
        id
    }

    /// Creates a document in `navigable` and makes it the active document.
    pub fn create_document(&mut self, navigable: NavId, init: DocumentInit) -> Result<DocId, WorldError> {
        let response = DocumentResponse::new(init)?;
        let container_policy =
            self.nav(navigable).container.allow.as_deref().map(policy::parse_allow_attribute).unwrap_or_default();
        Ok(self.create_document_from_response(navigable, &response, &container_policy))
    }

    /// Creates a document in `navigable` from a response whose response-only parts are computed
    /// (see `DocumentResponse`), and makes it the active document. `container_policy` is
    /// Permissions Policy §9.4 "Process permissions policy attributes" on `navigable`'s container
    /// (`parse_allow_attribute` of its `allow` attribute, empty for a traversable), which the
    /// caller may also have computed once per attribute value.
    pub fn create_document_from_response(
        &mut self,
        navigable: NavId,
        response: &DocumentResponse,
        container_policy: &Policy,
    ) -> DocId {
        debug_assert_eq!(
            *container_policy,
            self.nav(navigable).container.allow.as_deref().map(policy::parse_allow_attribute).unwrap_or_default(),
            "the container policy is that of the navigable's container"
        );
        let nav = self.nav(navigable);
        let (container_document, tab, sandboxed_origin) =
            (nav.container_document, nav.traversable, nav.container.sandboxed_origin());
        let origin = if sandboxed_origin {
            self.new_opaque_origin()
        } else if matches!(response.url.scheme(), "about") {
            // about:blank and about:srcdoc inherit the container document's origin.
            match container_document {
                Some(parent) => self.doc_info(parent).origin.clone(),
                None => self.new_opaque_origin(),
            }
        } else {
            // URL Standard "origin" of the URL: computed by DocumentResponse::new, except that a
            // new opaque origin is allocated here, one per document.
            match &response.url_origin {
                Some(origin) => origin.clone(),
                None => self.new_opaque_origin(),
            }
        };
        // Permissions Policy §9.1 "Process response policy" ran in DocumentResponse::new, and §9.4
        // "Process permissions policy attributes" where the caller got `container_policy`.
        let declared = &response.declared_policy;
        let permissions = match container_document {
            Some(parent) => {
                let parent = self.doc_info(parent);
                // The origin 'src' stands for: the iframe's declared origin. For a sandboxed iframe
                // we use the document's own opaque origin (see docs/model.md).
                let container = policy::Container {
                    parent_origin: &parent.origin,
                    parent_policy: &parent.policy,
                    container_policy,
                    declared_origin: &origin,
                };
                policy::create_a_permissions_policy(Some(&container), &origin, declared)
            }
            None => policy::create_a_permissions_policy(None, &origin, declared),
        };
        // Secure Contexts "Is url potentially trustworthy?" ran in DocumentResponse::new.
        let secure_context = response.url_potentially_trustworthy
            && container_document.is_none_or(|parent| self.doc_info(parent).secure_context);
        let key = self.obtain_agent_cluster_key(tab, &origin, response.requests_origin_keyed);
        let origin_keyed = matches!(key, ClusterKey::Origin(_));
        let event_loop = match self.seldom.clusters.get(&(tab, key.clone())) {
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
                }));
                self.seldom.clusters.insert((tab, key), id);
                id
            }
        };
        let generation = self.document_infos.iter().filter(|d| d.navigable == navigable).count();
        // The label is `name`, or `name@N` for the N-th document (written without `format!`).
        let name = &self.nav(navigable).info.name;
        let mut label = String::with_capacity(name.len() + 4);
        label.push_str(name);
        if generation > 0 {
            label.push('@');
            label.push_str(itoa::Buffer::new().format(generation + 1));
        }
        let features_enabled = policy::features_enabled_for_own_origin(&permissions, &origin);
        let id = DocId(self.document_infos.len() as u32);
        self.document_infos.push(std::rc::Rc::new(DocumentInfo {
            label,
            navigable,
            url: response.url.clone(),
            origin,
            event_loop,
            origin_keyed,
            secure_context,
            features_enabled,
            policy: permissions,
        }));
        self.lifecycles.documents.push(DocumentLifecycle { state: DocumentState::Active, fully_active: false });
        let previous = self.lifecycles.navigables[navigable.index()].active_document.replace(id);
        if let Some(previous) = previous {
            self.refresh_fully_active_of(previous);
        }
        self.refresh_fully_active_of(id);
        self.debug_assert_fully_active_cache();
        id
    }

    fn new_opaque_origin(&mut self) -> Origin {
        let seldom = &mut *self.seldom;
        let id = seldom.next_opaque;
        seldom.next_opaque += 1;
        Origin::Opaque(id)
    }

    /// HTML "obtain a similar-origin window agent", the part that picks the agent cluster key:
    /// the site, or the origin when the origin asks to be origin-keyed; the first answer for an
    /// origin in a browsing context group sticks (the historical agent cluster key map).
    fn obtain_agent_cluster_key(&mut self, tab: NavId, origin: &Origin, requests_origin_keyed: bool) -> ClusterKey {
        if origin.is_opaque() {
            return ClusterKey::Origin(origin.clone());
        }
        if let Some(key) = self.seldom.historical_agent_cluster_keys.get(&(tab, origin.clone())) {
            return key.clone();
        }
        let key =
            if requests_origin_keyed { ClusterKey::Origin(origin.clone()) } else { ClusterKey::Site(origin.site()) };
        self.seldom.historical_agent_cluster_keys.insert((tab, origin.clone()), key.clone());
        key
    }

    /// HTML "fully active": the active document of its navigable, and its container document
    /// (if any) is fully active. Cached per document (see `refresh_fully_active_of`).
    pub fn is_fully_active(&self, doc: DocId) -> bool {
        let fully_active = self.lifecycles.documents[doc.index()].fully_active;
        debug_assert_eq!(
            fully_active,
            self.compute_fully_active(doc),
            "a document's state changed without World::set_document_state"
        );
        fully_active
    }

    /// HTML "fully active" computed from its definition (what `refresh_fully_active_of` caches).
    fn compute_fully_active(&self, doc: DocId) -> bool {
        let d = self.doc(doc);
        if d.state != DocumentState::Active {
            return false;
        }
        let nav = self.nav(d.navigable);
        if nav.destroyed || nav.active_document != Some(doc) {
            return false;
        }
        match nav.container_document {
            None => true,
            Some(parent) => self.compute_fully_active(parent),
        }
    }

    /// HTML "allowed to use" a policy-controlled feature.
    pub fn is_allowed_to_use(&self, doc: DocId, feature: &str) -> bool {
        let d = self.doc(doc);
        // 1. If document's browsing context is null, then return false.
        if d.state == DocumentState::Destroyed {
            return false;
        }
        // 2. If document is not fully active, then return false.
        if !self.is_fully_active(doc) {
            return false;
        }
        // 3. If the result of running is feature enabled in document for origin on feature,
        //    document, and document's origin is "Enabled", then return true.
        // 4. Return false.
        // The document's policy and origin are fixed, so that result was computed when the
        // document was created (`DocumentInfo::features_enabled`).
        policy::enabled_for_own_origin(&d.features_enabled, feature)
    }

    /// HTML "inclusive descendant navigables" of a navigable, in tree order (skipping destroyed ones).
    pub fn inclusive_descendant_navigables(&self, nav: NavId) -> Vec<NavId> {
        // Sized for every navigable: one allocation, never grown.
        let mut out = Vec::with_capacity(self.seldom.navigable_infos.len());
        self.inclusive_descendant_navigables_into(nav, &mut out);
        out
    }

    /// `inclusive_descendant_navigables` written into `out` (cleared first), so a caller that
    /// walks the tree often can reuse one list.
    pub fn inclusive_descendant_navigables_into(&self, nav: NavId, out: &mut Vec<NavId>) {
        out.clear();
        self.collect_descendants(nav, out);
    }

    fn collect_descendants(&self, nav: NavId, out: &mut Vec<NavId>) {
        let state = self.lifecycles.navigables[nav.index()];
        if state.destroyed {
            return;
        }
        out.push(nav);
        for child in self.child_navigables(nav) {
            self.collect_descendants(child, out);
        }
    }

    /// A navigable's child navigables, in tree order: those whose container document is its
    /// active document (destroyed ones included; `collect_descendants` skips them).
    pub fn child_navigables(&self, nav: NavId) -> impl Iterator<Item = NavId> + '_ {
        let active = self.lifecycles.navigables[nav.index()].active_document;
        let infos = &self.seldom.navigable_infos;
        infos[nav.index()].children.iter().copied().filter(move |c| infos[c.index()].container_document == active)
    }

    /// HTML "node navigable" of a document: the navigable whose active document it is, or null.
    /// A destroyed document is no navigable's active document, nor is a document in the
    /// back/forward cache (the tab shows another document meanwhile, which is not modelled).
    pub fn node_navigable(&self, doc: DocId) -> Option<NavId> {
        (self.doc(doc).state == DocumentState::Active).then(|| self.doc_info(doc).navigable)
    }

    /// The traversable navigable of the navigable a document was created in: its node
    /// navigable's traversable navigable while it is active (callers that read the spec's
    /// "node navigable" check `node_navigable` first).
    pub fn traversable_of(&self, doc: DocId) -> NavId {
        self.nav(self.doc_info(doc).navigable).traversable
    }

    // --- Tasks and microtasks -------------------------------------------------------------

    /// HTML "queue a global task" on `source` given `document`'s relevant global object.
    pub fn queue_global_task(&mut self, source: TaskSource, document: DocId, steps: S) {
        // A destroyed document's task never runs (it is never runnable, and nothing makes the
        // document active again): it is counted, not kept, so that runs that queued different
        // such tasks, or in another order, reach one state. (`waiting_tasks` and
        // `dead_tasks` together are every task that waits forever.)
        if self.doc(document).state == DocumentState::Destroyed {
            *self.seldom.dead_tasks.entry(document).or_insert(0) += 1;
            return;
        }
        let el = self.doc_info(document).event_loop;
        self.event_loops[el.index()].queues.push(source, Task { document: Some(document), steps });
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
    fn task_runnable(&self, task: &Task<S>) -> bool {
        task.document.is_none_or(|d| self.is_fully_active(d))
    }

    // --- In parallel ------------------------------------------------------------------------

    /// HTML "in parallel": starts a block with a label unique among all blocks ever started
    /// (the caller derives it from the lane that started it). Returns the lane it runs on.
    pub fn start_in_parallel(&mut self, label: Lane, steps: S) -> Lane {
        match self.parallel_mode {
            ParallelMode::Unordered => {
                self.parallel_blocks.insert(label.clone(), steps);
                label
            }
            ParallelMode::Fifo => {
                self.parallel_queue.push_back((label, steps));
                LANE_PAR.clone()
            }
        }
    }

    /// The number of the next in-parallel block that a task of `source` on `el` starts (0 for its
    /// first), counted per lane so that block labels do not depend on how lanes interleave.
    pub fn next_block_number(&mut self, el: LoopId, source: TaskSource) -> u32 {
        let started = &mut self.event_loops[el.index()].blocks_started[source_index(source)];
        *started += 1;
        *started - 1
    }

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

    // --- Timers -----------------------------------------------------------------------------

    /// HTML "run steps after a timeout" with virtual time: after `ms`, queue `steps` on the timer
    /// task source for `document`. Timers with an earlier or equal deadline are queued first.
    pub fn run_steps_after_a_timeout(&mut self, document: DocId, ms: u64, steps: S) {
        let count = self.timers.set.entry(document).or_insert(0);
        let seq = *count;
        *count += 1;
        let deadline = self.timers.now + ms;
        let pos = self.timers.partition_point(|t| (t.deadline, t.document, t.seq) <= (deadline, document, seq));
        self.timers.insert(pos, Timer { deadline, document, seq, steps });
        self.queue_due_timers();
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

    /// When nothing is runnable, advance virtual time to the next timer deadline and queue the
    /// timers that are then due. Returns the new time, or None when no timer is pending.
    pub fn advance_time(&mut self) -> Option<u64> {
        // The earliest deadline is the first (the timers are sorted by deadline); a user action
        // or an agent step with a window wakes up at its start, or (put off) at its end.
        let now = self.timers.now;
        let timer = self.timers.first().map(|t| t.deadline);
        let user = self.user_queue.next_wake_up(now);
        let agent = self.agent_queue.next_wake_up(now);
        let next = [timer, user, agent].into_iter().flatten().min()?;
        self.timers.now = next;
        if self.user_queue.deferred {
            self.user_queue.deferred = false;
        }
        if self.agent_queue.deferred {
            self.agent_queue.deferred = false;
        }
        self.queue_due_timers();
        Some(next)
    }

    // --- Lanes ------------------------------------------------------------------------------

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
        // Listed directly in label order (no sort): `agent` < `agent.wait` < `el…` < `par` <
        // `par:…` < `user` < `user.wait`; event loops in the order of their labels `el0`, `el1`,
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
        if !self.parallel_queue.is_empty() {
            lanes.push(LaneRef::ParallelQueue);
        }
        lanes.extend((0..self.parallel_blocks.0.len() as u32).map(LaneRef::Parallel));
        if self.user_queue.next_runs_at(self.timers.now) {
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
        }
    }

    /// The task a task lane would give next (`take`), without taking it; None for other lanes.
    pub fn peek_task(&self, lane: LaneRef) -> Option<&Task<S>> {
        let LaneRef::Task { event_loop, source } = lane else { return None };
        let queues = &self.event_loops[event_loop.index()].queues;
        let at = queues.position(source, |t| self.task_runnable(t))?;
        Some(&queues.0[at].1)
    }

    /// Takes the next unit of a runnable lane: for a task queue, the first runnable task
    /// (HTML: "the first runnable task in the chosen queue").
    pub fn take(&mut self, lane: LaneRef) -> Option<Unit<S>> {
        match lane {
            LaneRef::Task { event_loop, source } => {
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
                let (label, steps) = match self.parallel_blocks.unshared_mut() {
                    Some(blocks) => blocks.remove(at),
                    // A list another state shares is copied without the block, which is copied out.
                    None => {
                        let block = (*self.parallel_blocks.0[at]).clone();
                        self.parallel_blocks = Shared::new(self.parallel_blocks.copy_without(at));
                        block
                    }
                };
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
        }
    }

    /// Tasks still queued (runnable or not), per event loop and source, for quiescence reports.
    /// The tasks queued for each document after it was destroyed (never kept: see
    /// `World::queue_global_task`), by document.
    pub fn dead_tasks(&self) -> impl Iterator<Item = (DocId, u32)> + '_ {
        self.seldom.dead_tasks.iter().map(|(d, n)| (*d, *n))
    }

    pub fn waiting_tasks(&self) -> Vec<(LoopId, TaskSource, &Task<S>)> {
        let mut out = Vec::new();
        for (i, el) in self.event_loops.iter().enumerate() {
            for (source, t) in el.queues.iter() {
                out.push((LoopId(i as u32), source, t));
            }
        }
        out
    }

    // --- Promises ---------------------------------------------------------------------------

    /// WebIDL "a new promise" created in `realm`'s relevant realm.
    pub fn new_promise(&mut self, realm: DocId, name: Option<std::rc::Rc<str>>) -> PromiseId {
        let seq = self.promises.push(realm, Promise { state: PromiseState::Pending, reactions: Vec::new(), name });
        PromiseId { realm, seq }
    }

    /// Forgets what only a destroyed document's own tasks and scripts could read, none of which
    /// will ever run (HTML "destroy a document" removed its tasks, and no task of it runs again):
    /// its count of timers set (which orders only its own later timers) and its scoped promises
    /// and signals (those a tool execution made, numbered from the execution: no other realm holds
    /// them). Two runs that differ only in those then reach one state.
    pub fn forget_destroyed(&mut self, doc: DocId) {
        debug_assert!(self.doc(doc).state == DocumentState::Destroyed);
        if self.timers.set.contains_key(&doc) {
            self.timers.set.remove(&doc);
        }
        self.promises.remove_scoped(doc);
        self.signals.remove_scoped(doc);
    }

    /// A new pending promise with a scoped number (`PerRealm::SCOPED` set; see `PerRealm`).
    pub fn new_scoped_promise(&mut self, realm: DocId, seq: u32) -> PromiseId {
        self.promises.insert_scoped(
            realm,
            seq,
            Promise { state: PromiseState::Pending, reactions: Vec::new(), name: None },
        );
        PromiseId { realm, seq }
    }

    /// Resolves or rejects a pending promise and queues its reactions as microtasks.
    /// Returns false (and changes nothing) when the promise was already settled: WebIDL's
    /// resolve/reject of a settled promise is a no-op.
    pub fn settle_promise(&mut self, promise: PromiseId, result: Result<JsValue, JsValue>) -> bool {
        // Read before writing: settling a settled promise copies no list and no promise.
        let p = &self.promises[promise];
        if p.state != PromiseState::Pending {
            return false;
        }
        // One write (one copy of the list and of the promise when another state shares them).
        let p: &mut Promise<S> = &mut self.promises[promise];
        p.state = match result {
            Ok(v) => PromiseState::Fulfilled(v),
            Err(e) => PromiseState::Rejected(e),
        };
        let reactions = std::mem::take(&mut p.reactions);
        for r in reactions {
            self.queue_microtask(promise.realm, r);
        }
        true
    }

    /// WebIDL "react to" / `then`: a reaction runs as a microtask once the promise settles.
    pub fn react(&mut self, promise: PromiseId, reaction: S) {
        let p = &mut self.promises[promise];
        if p.state == PromiseState::Pending {
            p.reactions.push(reaction);
        } else {
            self.queue_microtask(promise.realm, reaction);
        }
    }

    // --- Abort signals ----------------------------------------------------------------------

    /// `new AbortController()` in `realm`.
    pub fn new_abort_controller(&mut self, realm: DocId, name: Option<String>) -> SignalId {
        let seq = self.signals.push(realm, AbortSignal::new(name));
        SignalId { realm, seq }
    }

    /// A new `AbortController` with a scoped number (`PerRealm::SCOPED` set; see `PerRealm`).
    pub fn new_scoped_abort_controller(&mut self, realm: DocId, name: Option<String>, seq: u32) -> SignalId {
        self.signals.insert_scoped(realm, seq, AbortSignal::new(name));
        SignalId { realm, seq }
    }

    /// DOM "add" an abort algorithm: does nothing if the signal is already aborted.
    pub fn add_abort_algorithm(&mut self, signal: SignalId, algorithm: S) {
        // Read before writing: an aborted signal is not copied.
        if self.signals[signal].aborted {
            return;
        }
        self.signals[signal].abort_algorithms.push(algorithm);
    }

    /// DOM "signal abort" steps 1–2 and the first half of "run the abort steps": marks the signal
    /// aborted with `reason` (default: a new "AbortError" DOMException) and returns its abort
    /// algorithms (in order, emptied from the signal) and its `abort` listeners, for the caller to
    /// run. Returns None when the signal was already aborted.
    pub fn signal_abort(&mut self, signal: SignalId, reason: Option<JsValue>) -> Option<(Vec<S>, Vec<S>)> {
        // Read before writing: an aborted signal is not copied.
        if self.signals[signal].aborted {
            return None;
        }
        let s: &mut AbortSignal<S> = &mut self.signals[signal];
        s.aborted = true;
        s.reason = reason.unwrap_or_else(|| JsValue::dom_exception("AbortError"));
        Some((std::mem::take(&mut s.abort_algorithms), s.listeners.clone()))
    }
}

/// The fixed lanes, made once (a lane label is a shared string).
static LANE_AGENT: std::sync::LazyLock<Lane> = std::sync::LazyLock::new(|| Lane::new("agent"));
static LANE_AGENT_WAIT: std::sync::LazyLock<Lane> = std::sync::LazyLock::new(|| Lane::new("agent.wait"));
static LANE_PAR: std::sync::LazyLock<Lane> = std::sync::LazyLock::new(|| Lane::new("par"));
static LANE_USER: std::sync::LazyLock<Lane> = std::sync::LazyLock::new(|| Lane::new("user"));
static LANE_USER_WAIT: std::sync::LazyLock<Lane> = std::sync::LazyLock::new(|| Lane::new("user.wait"));

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

#[cfg(test)]
mod tests;
