//! The simulator: a `World` of WebMCP steps, the model contexts and pending-execution maps the
//! spec adds to it, the run loop that asks a `Chooser` which lane goes next, and the trace.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use browser::{
    ContainerAttributes, DocId, DocumentState, JsValue, LaneRef, LoopId, NavId, ParallelMode, PromiseId, PromiseState,
    Shared, SignalId, TaskSource, Unit, World,
};
use sched::{ChooseError, Chooser};
use trace::{Cite, ConsoleLine, Event, EventKind, Finding, Outcome, PromiseOutcome};

use crate::program::{ControllerSlot, DocSpec, FrameSpec, Program, PromiseSlot, ScriptId, Settle, ToolDictId};

/// A unique internal value identifying one tool execution: the `seq`-th one created in document
/// `realm`'s relevant realm (executeTool step 13 runs in the caller's), or by the browser's agent
/// (`realm` None). Numbered per realm, as `browser::PromiseId`, so that two executeTool calls on
/// different event loops get the same values in either order (see docs/model.md).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Uuid {
    /// The realm's document index, or `Uuid::AGENT` (eight bytes in all: uuids travel in many
    /// `Work` values).
    realm: u32,
    pub seq: u32,
}

impl Uuid {
    const AGENT: u32 = u32::MAX;

    pub fn new(realm: Option<DocId>, seq: u32) -> Uuid {
        Uuid { realm: realm.map_or(Uuid::AGENT, |d| d.0), seq }
    }

    /// The document in whose realm the uuid was created (None: the browser's agent).
    pub fn realm(&self) -> Option<DocId> {
        (self.realm != Uuid::AGENT).then_some(DocId(self.realm))
    }

    /// The uuid's bit in `Footprint`'s pending-entry sets (uuids that share a bit count as one
    /// entry: sound, only less reduction).
    fn entry_bit(&self) -> u32 {
        (self.seq ^ self.realm.wrapping_mul(0x9E37_79B9).rotate_left(7)) % Footprint::ENTRIES
    }
}

/// A spec citation: algorithm name and step number.
pub type Step = (&'static str, &'static str);

pub fn cite(step: Step) -> Cite {
    Cite::new(step.0, step.1)
}

/// WebMCP "annotations" struct (with the seeds' consequential hint).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Annotations {
    pub read_only_hint: bool,
    pub untrusted_content_hint: bool,
    pub consequential_hint: bool,
}

/// WebMCP "tool definition".
///
/// Tool maps hold it behind an `Rc` and tool names as `Rc<str>` (which hash as the values they
/// point to): copying a model context to change it copies pointers, not tools.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ToolDefinition {
    pub name: Rc<str>,
    pub title: Option<String>,
    pub description: String,
    pub input_schema: String,
    /// The execute steps: the imperative execute steps given this `ModelContextTool`.
    pub execute: ToolDictId,
    pub annotations: Option<Annotations>,
    /// Shared with the in-parallel steps that notify documents of the change (hashes as the list).
    pub exposed_origins: Rc<[browser::Origin]>,
}

/// WebMCP "model context" (a `ModelContext`'s internal context) plus the object's event handler.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct ModelContext {
    /// tool map: name → tool definition, in insertion order. Behind `Shared` twice: a
    /// definition never changes once made, and the map changes only when a tool is registered
    /// or unregistered, so their digests are computed once per version, however often the local
    /// pending tool executions map beside them changes (once per tool execution).
    pub tool_map: Shared<Vec<(Rc<str>, Shared<ToolDefinition>)>>,
    /// local pending tool executions map: uuid → abort controller.
    pub local_pending_tool_executions: Vec<(Uuid, SignalId)>,
    /// The uuids created in this document's realm so far (see `Sim::new_uuid`).
    pub uuids_created: u32,
    /// `ontoolchange`.
    pub ontoolchange: Option<(DocId, ScriptId)>,
    /// `ontoolactivated` (issue #146; fired only under the variant `tool-events`).
    pub ontoolactivated: Option<(DocId, ScriptId)>,
    /// `ontoolcancel` (issue #146; fired only under the variant `tool-events`).
    pub ontoolcancel: Option<(DocId, ScriptId)>,
}

impl ModelContext {
    pub fn tool(&self, name: &str) -> Option<&ToolDefinition> {
        self.tool_map.iter().find(|(n, _)| **n == *name).map(|(_, t)| &**t)
    }
}

/// Who is waiting for an execution's result.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Caller {
    Document(DocId),
    /// The browser's agent (agent call number).
    Agent(u32),
}

/// A pending tool execution's completion steps, as data.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CompletionSteps {
    /// executeTool 15.10, settling `promise` in the caller document.
    ExecuteTool { target: DocId, caller: DocId, promise: PromiseId, uuid: Uuid },
    /// An agent-initiated call (see docs/model.md): the result goes back to the AI agent queue.
    Agent { target: DocId, call: u32, uuid: Uuid },
}

/// WebMCP "pending tool execution".
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PendingToolExecution {
    pub caller_document: Caller,
    pub target_document: DocId,
    pub tool_name: Rc<str>,
    pub completion_steps: CompletionSteps,
}

/// Every unit of work, as data: tasks, microtasks, in-parallel blocks, abort algorithms,
/// promise reactions, agent and user steps.
///
/// A tool's exposed origins are shared (`Rc`, hashing as the list): queues and in-parallel blocks
/// are copied whenever a state that shares them changes them, and copying a unit copies a pointer.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Work {
    /// Run a document's script (HTML: the parser runs it from a networking task).
    RunScript { doc: DocId, script: ScriptId },
    /// A `setTimeout` callback.
    Timer { doc: DocId, script: ScriptId },
    /// Settle a tool's own promise after a timer (`"result": {"after": …}`).
    SettleLater { promise: PromiseId, settle: Settle },
    /// `promise.then(onFulfilled, onRejected)` in `doc`.
    Then { doc: DocId, promise: PromiseId, on_fulfilled: ScriptId, on_rejected: ScriptId },
    /// Resolve or reject a promise (a queued task's whole body).
    SettlePromise { promise: PromiseId, result: Result<JsValue, JsValue>, step: Step },
    /// registerTool 21.
    RegisterToolInParallel { tool_owner: DocId, exposed_origins: Rc<[browser::Origin]>, promise: PromiseId },
    /// unregister a tool 7.
    NotifyInParallel { tool_owner: DocId, exposed_origins: Rc<[browser::Origin]> },
    /// notify documents of a tool change 3.3: fire `toolchange`.
    FireToolchange { doc: DocId },
    /// getTools 9.
    GetToolsInParallel { requestor: DocId, from_origins: Vec<browser::Origin>, promise: PromiseId },
    /// executeTool 15.
    ExecuteToolInParallel {
        caller: DocId,
        target: DocId,
        expected_target_origin: browser::Origin,
        tool_name: Rc<str>,
        input_arguments: String,
        promise: PromiseId,
        uuid: Uuid,
    },
    /// executeTool 15.13: the tool execute steps, on the target's event loop.
    ToolExecuteSteps {
        tool_name: Rc<str>,
        target: DocId,
        input_arguments: String,
        completion: CompletionSteps,
        uuid: Uuid,
    },
    /// The imperative execute steps' reaction to toolPromise (step 9).
    ReactToToolPromise { target: DocId, tool_promise: PromiseId, completion: CompletionSteps, uuid: Uuid },
    /// Run completion steps in a new in-parallel block (variant `completion-steps-in-parallel`).
    CompletionInParallel { completion: CompletionSteps, result: Option<String>, success: bool, from: Step },
    /// executeTool 14.4.2: cancel a pending tool execution, in parallel.
    CancelInParallel { traversable: NavId, uuid: Uuid },
    /// cancel a pending tool execution 6: the task on the target's event loop.
    CancelLocal { target: DocId, uuid: Uuid },
    /// This spec's unloading document cleanup steps 2.
    UnloadCleanupInParallel { document: DocId, traversable: NavId },
    // Abort algorithms.
    /// registerTool 18.3.
    AbortUnregister { model_context: DocId, tool_name: Rc<str>, promise: PromiseId, signal: SignalId },
    /// executeTool 14.4.
    AbortExecution { promise: PromiseId, signal: SignalId, traversable: NavId, uuid: Uuid },
    /// A tool that rejects its promise with the signal's reason when aborted.
    AbortRejectsToolPromise { promise: PromiseId, signal: SignalId },
    /// An `abort` event listener running a script in `doc`.
    AbortListener { doc: DocId, script: ScriptId },
    /// A tool's `execute.logAbort` listener: logs its signal's reason.
    LogAbortReason { doc: DocId, signal: SignalId },
    /// The rest of a navigation a script started, as a task of the script's document (HTML
    /// "navigate": the navigating document stays fully active for the rest of its task; the
    /// navigation completes in later tasks).
    CompleteNavigation { navigation: crate::program::NavigateId },
    /// A user step.
    User { script: ScriptId, index: u32 },
    /// An agent step.
    Agent { index: u32 },
    /// The agent receives a tool call's result.
    AgentResult { call: u32, result: Option<String>, success: bool },
}

/// How a run ended early.
#[derive(Debug)]
pub enum RunError {
    /// The chooser could not pick (a replayed schedule diverged).
    Choose(ChooseError),
    /// The scenario asks for something the simulator does not model.
    NotModelled(String),
    /// The scenario asks for something impossible (bad header, unknown variant …).
    Scenario(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Choose(e) => write!(f, "{e}"),
            RunError::NotModelled(m) => write!(f, "not modelled: {m}"),
            RunError::Scenario(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for RunError {}

/// Limits that keep every run finite.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_units: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_units: 10_000 }
    }
}

/// Where the steps now running are.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Context {
    EventLoop(LoopId),
    InParallel,
    AgentQueue,
    User,
    Setup,
}

/// A piece of state a unit touches, for the explorer's independence check.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Resource {
    /// An event loop's script-visible state (promises, signals, scripts' state, handlers) and its
    /// microtask queue: what the tasks and microtasks running on it read and write.
    Loop(LoopId),
    /// The lifecycle of an event loop's documents (active, fully active, destroyed; which
    /// document a navigable shows): read by in-parallel steps that look at a document (getTools,
    /// executeTool, notify, cancel), written by navigation.
    Lifecycle(LoopId),
    /// The tool maps of an event loop's documents: read by getTools and executeTool in parallel,
    /// written by tasks that set or remove a tool map entry, and by navigation.
    ToolMaps(LoopId),
    /// One task queue of an event loop, as appended to by "queue a global task". Two appends
    /// to one queue do not commute (their order is the order the tasks run in); an append
    /// commutes with taking a task from the same queue (the lane is runnable, so the task it
    /// takes is already queued ahead of the appended one), so taking a task notes no queue.
    Queue(LoopId, TaskSource),
    /// A traversable's pending tool executions map as a whole (its entries and their order):
    /// iterated by the unloading document cleanup steps.
    Pending(NavId),
    /// One entry of a traversable's pending tool executions map, set, looked up or removed by its
    /// uuid: reads the map's `Resource::Pending` (an iteration conflicts with it) and touches the
    /// entry alone. Only where the map is kept in uuid order (`Sim::pending_keyed`), so that two
    /// settings of different entries leave the same map in either order.
    PendingEntry(NavId, Uuid),
    /// What a navigable shows, as far as a step that skips it can tell: its active document's
    /// origin and whether that document may use "tools", and whether the navigable has child
    /// navigables. Read by "notify documents of a tool change" for a navigable it skips (no
    /// toolchange either way); written by a navigation that changes any of the three. (A removal
    /// leaves the skip unchanged: the navigable is no longer found, and nothing is queued for it
    /// either.)
    Shown(NavId),
    /// The console and the uncaught-error log, whose order is observable.
    Console,
    /// The browser-side FIFO parallel queue (`"parallel": "fifo"`): the order blocks start in is
    /// the order they run in. (Found by `webmcp-sim fuzz`; see scenarios/regressions/.)
    ParallelQueue,
    /// Everything (user steps, the agent, navigation): conflicts with every other unit.
    Global,
}

/// What a unit read and wrote. Two units commute when neither writes what the other touches.
///
/// The sets are bit sets: the console, the FIFO parallel queue, the first 16 event loops (their
/// script state, their documents' lifecycle and their tool maps), the first 16 traversables'
/// pending maps and the task queues of the first 10 event loops each have a bit in `reads` and
/// `writes`; what the first 16 navigables show (`Resource::Shown`) has a read bit and a write
/// bit in `other`. A resource past those counts as global (`GLOBAL` in `other`): treating two
/// units as dependent is always sound for the reduction, only slower.
///
/// Every field is a whole number of 8-byte words, with no `bool` or `u16`: a footprint is moved
/// on every step (returned, pushed on the explorer's sleep stack), and a field narrower than the
/// move that copies it made the copies stall on store forwarding (perf put about 30 % of
/// `Explorer::dfs`'s own time on the three-executions fixture on such copies).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Footprint {
    reads: u128,
    writes: u128,
    /// Bits 0–15: `Resource::Shown` read, by navigable; bits 16–31: written; `GLOBAL`: a
    /// resource without a bit of its own was touched.
    other: u64,
    /// Bits 0–31: pending-map entries read, by `Uuid::entry_bit`; bits 32–63: written.
    entries: u64,
}

impl Footprint {
    /// Event loops and traversables with bits of their own.
    const LOOPS: u32 = 16;
    /// Event loops whose task queues have bits of their own (one per task source).
    const QUEUE_LOOPS: u32 = 10;
    /// One `Resource::Shown` bit set (a bit per navigable): the reads at the bottom of `other`,
    /// the writes `SHOWN_WRITES_SHIFT` bits up.
    const SHOWN: u64 = 0xFFFF;
    /// Where the write bits of `Resource::Shown` start in `other`.
    const SHOWN_WRITES_SHIFT: u32 = 16;
    /// The bit of `other` that makes a footprint conflict with every other.
    const GLOBAL: u64 = 1 << 32;
    /// Pending-map entries with bits of their own (a uuid's bit is `Uuid::entry_bit`).
    const ENTRIES: u32 = 32;
    /// The bit of `other` that says the unit commutes with every unit of every run (see
    /// `Footprint::mark_private`); it takes no part in `conflicts`.
    const PRIVATE: u64 = 1 << 33;

    /// The running unit commutes with every unit of every state, whatever else its footprint
    /// says: set by executeTool's in-parallel steps when they queued an inert tool execution
    /// (`crate::inert`). Such a block read a document that never changes lifecycle and a tool
    /// entry that nothing can remove, and wrote only its own pending tool executions map entry,
    /// which nothing else touches (its call cannot be cancelled, no document unloads). Its
    /// footprint keeps what it touched, for the sleep sets; the bit lets the search explore it
    /// alone (`SimModel::alone`).
    pub fn mark_private(&mut self) {
        self.other |= Self::PRIVATE;
    }

    /// Set by `mark_private`, and nothing global touched.
    pub fn is_private(&self) -> bool {
        self.other & Self::PRIVATE != 0 && !self.global()
    }

    pub fn touch(&mut self, resource: Resource, write: bool) {
        const L: u32 = Footprint::LOOPS;
        let bit = match resource {
            Resource::PendingEntry(n, uuid) => {
                self.touch(Resource::Pending(n), false);
                self.entries |= 1 << (uuid.entry_bit() + if write { Self::ENTRIES } else { 0 });
                return;
            }
            Resource::Console => 0,
            Resource::ParallelQueue => 1,
            Resource::Loop(l) if l.0 < L => 2 + l.0,
            Resource::Lifecycle(l) if l.0 < L => 2 + L + l.0,
            Resource::ToolMaps(l) if l.0 < L => 2 + 2 * L + l.0,
            Resource::Pending(n) if n.0 < L => 2 + 3 * L + n.0,
            Resource::Shown(n) if n.0 < L => {
                self.other |= 1 << (n.0 + if write { Self::SHOWN_WRITES_SHIFT } else { 0 });
                return;
            }
            Resource::Queue(l, source) if l.0 < Self::QUEUE_LOOPS => {
                2 + 4 * L + l.0 * TaskSource::ALL.len() as u32 + source as u32
            }
            Resource::Loop(_)
            | Resource::Lifecycle(_)
            | Resource::ToolMaps(_)
            | Resource::Pending(_)
            | Resource::Shown(_)
            | Resource::Queue(..)
            | Resource::Global => {
                self.other |= Self::GLOBAL;
                return;
            }
        };
        if write {
            self.writes |= 1 << bit;
        } else {
            self.reads |= 1 << bit;
        }
    }

    /// True when the unit touched a resource without a bit of its own (or `Resource::Global`).
    pub fn global(&self) -> bool {
        self.other & Self::GLOBAL != 0
    }

    /// The navigables (by bit) whose `Resource::Shown` the unit read.
    fn shown_reads(&self) -> u64 {
        self.other & Self::SHOWN
    }

    /// The navigables (by bit) whose `Resource::Shown` the unit wrote.
    fn shown_writes(&self) -> u64 {
        self.other >> Self::SHOWN_WRITES_SHIFT & Self::SHOWN
    }

    /// How much the unit wrote, as one number that orders units: one that conflicts with
    /// everything first, then by the number of resources written (at most 144, so the two
    /// fields do not overlap). For `LaneOrder::BroadestFirst`. (Counting reads as well, as a
    /// tie-break, explored fewer transitions on the bench fixtures but 20 % more on
    /// `scenarios/get-tools/sorted-by-name.jsonc`, measured before `Resource::Shown`.)
    pub fn breadth(&self) -> u32 {
        // A private unit first: explored alone, it spares its siblings.
        if self.is_private() {
            return u32::MAX - 1;
        }
        (self.global() as u32) << 8
            | (self.writes.count_ones() + self.shown_writes().count_ones() + self.entry_writes().count_ones())
    }

    /// True when this footprint touches nothing `other` does not: what it reads, `other` reads
    /// or writes; what it writes, `other` writes. (For `crate::audit`.)
    pub fn within(&self, other: &Footprint) -> bool {
        (!self.global() || other.global())
            && self.reads & !(other.reads | other.writes) == 0
            && self.writes & !other.writes == 0
            && self.shown_reads() & !(other.shown_reads() | other.shown_writes()) == 0
            && self.shown_writes() & !other.shown_writes() == 0
            && self.entry_reads() & !(other.entry_reads() | other.entry_writes()) == 0
            && self.entry_writes() & !other.entry_writes() == 0
    }

    /// The pending-map entries (by bit) the unit read.
    fn entry_reads(&self) -> u64 {
        self.entries & 0xFFFF_FFFF
    }

    /// The pending-map entries (by bit) the unit wrote.
    fn entry_writes(&self) -> u64 {
        self.entries >> Self::ENTRIES
    }

    /// True when the unit wrote nothing and read only documents' lifecycles and what navigables
    /// show: in a scenario where nothing changes a lifecycle (no navigation, iframe removal,
    /// bfcache step or agent), such a unit commutes with every unit of every state, so exploring
    /// it alone from a choice point is enough (a persistent set of one, `crate::explore`).
    pub fn reads_only_lifecycles(&self) -> bool {
        const L: u32 = Footprint::LOOPS;
        let lifecycles: u128 = ((1u128 << L) - 1) << (2 + L);
        self.writes == 0 && self.other & !Self::SHOWN == 0 && self.reads & !lifecycles == 0 && self.entries == 0
    }

    /// True when the two units may not commute.
    pub fn conflicts(&self, other: &Footprint) -> bool {
        (self.other | other.other) & Self::GLOBAL != 0
            || self.writes & (other.writes | other.reads) != 0
            || self.reads & other.writes != 0
            || self.shown_writes() & (other.shown_writes() | other.shown_reads()) != 0
            || self.shown_reads() & other.shown_writes() != 0
            || self.entry_writes() & (other.entry_writes() | other.entry_reads()) != 0
            || self.entry_reads() & other.entry_writes() != 0
    }
}

impl std::fmt::Debug for Footprint {
    /// The bit sets in hexadecimal (for `crate::audit`'s messages).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Footprint")
            .field("reads", &format_args!("{:#x}", self.reads))
            .field("writes", &format_args!("{:#x}", self.writes))
            .field("shown_reads", &format_args!("{:#x}", self.shown_reads()))
            .field("shown_writes", &format_args!("{:#x}", self.shown_writes()))
            .field("entry_reads", &format_args!("{:#x}", self.entry_reads()))
            .field("entry_writes", &format_args!("{:#x}", self.entry_writes()))
            .field("global", &self.global())
            .finish()
    }
}

#[cfg(test)]
mod footprint_tests {
    use super::{Footprint, Resource};
    use browser::{LoopId, NavId, TaskSource};

    fn footprint(reads: &[Resource], writes: &[Resource]) -> Footprint {
        let mut f = Footprint::default();
        reads.iter().for_each(|r| f.touch(*r, false));
        writes.iter().for_each(|w| f.touch(*w, true));
        f
    }

    #[test]
    fn units_conflict_when_one_writes_what_the_other_touches() {
        let (l0, l1) = (Resource::Loop(LoopId(0)), Resource::Loop(LoopId(1)));
        let pending = Resource::Pending(NavId(0));
        assert!(!footprint(&[], &[l0]).conflicts(&footprint(&[], &[l1])));
        assert!(!footprint(&[pending], &[l0]).conflicts(&footprint(&[pending], &[l1])), "two reads commute");
        assert!(footprint(&[pending], &[l0]).conflicts(&footprint(&[], &[l1, pending])));
        assert!(footprint(&[], &[l1, pending]).conflicts(&footprint(&[pending], &[l0])));
        assert!(footprint(&[], &[Resource::Console]).conflicts(&footprint(&[], &[Resource::Console])));
    }

    #[test]
    fn pending_map_entries_conflict_only_on_one_entry_or_with_the_whole_map() {
        use super::{NavId, Uuid};
        let entry = |seq| Resource::PendingEntry(NavId(0), Uuid::new(Some(browser::DocId(0)), seq));
        let (first, second) = (footprint(&[], &[entry(1)]), footprint(&[], &[entry(2)]));
        assert!(!first.conflicts(&second), "setting two different entries commutes");
        assert!(first.conflicts(&footprint(&[entry(1)], &[])), "setting an entry conflicts with reading it");
        assert!(first.conflicts(&footprint(&[], &[Resource::Pending(NavId(0))])), "an iteration of the map conflicts");
        assert!(
            !first.conflicts(&footprint(&[], &[Resource::Pending(NavId(1))])),
            "another traversable's map does not"
        );
        assert!(!first.reads_only_lifecycles());
        assert!(first.within(&footprint(&[], &[entry(1)])) && !first.within(&second));
    }

    #[test]
    fn global_and_resources_without_a_bit_conflict_with_everything() {
        let nothing = Footprint::default();
        assert!(footprint(&[], &[Resource::Global]).conflicts(&nothing));
        assert!(nothing.conflicts(&footprint(&[Resource::Global], &[])));
        let far_loop = footprint(&[Resource::Loop(LoopId(Footprint::LOOPS))], &[]);
        assert!(far_loop.conflicts(&nothing), "a loop past the bits counts as global");
        let far_map = footprint(&[], &[Resource::Pending(NavId(40))]);
        assert!(nothing.conflicts(&far_map));
        let far_queue = footprint(&[], &[Resource::Queue(LoopId(Footprint::QUEUE_LOOPS), TaskSource::WebMcp)]);
        assert!(far_queue.conflicts(&nothing));
        let last = LoopId(Footprint::LOOPS - 1);
        let last_bits = footprint(
            &[],
            &[
                Resource::Loop(last),
                Resource::Lifecycle(last),
                Resource::ToolMaps(last),
                Resource::Pending(NavId(Footprint::LOOPS - 1)),
                Resource::Queue(LoopId(Footprint::QUEUE_LOOPS - 1), TaskSource::PostedMessage),
            ],
        );
        assert!(!last_bits.global(), "the last bits fit");
        let before_last = LoopId(Footprint::LOOPS - 2);
        assert!(!last_bits.conflicts(&footprint(
            &[],
            &[
                Resource::Loop(before_last),
                Resource::Lifecycle(before_last),
                Resource::ToolMaps(before_last),
                Resource::Queue(LoopId(Footprint::QUEUE_LOOPS - 1), TaskSource::NavigationAndTraversal),
            ]
        )));
    }

    #[test]
    fn what_a_navigable_shows_is_read_and_written_apart_from_other_navigables() {
        let shown = |n| Resource::Shown(NavId(n));
        assert!(!footprint(&[shown(3)], &[]).conflicts(&footprint(&[shown(3)], &[])), "two reads commute");
        assert!(footprint(&[shown(3)], &[]).conflicts(&footprint(&[], &[shown(3)])));
        assert!(footprint(&[], &[shown(3)]).conflicts(&footprint(&[shown(3)], &[])));
        assert!(!footprint(&[], &[shown(3)]).conflicts(&footprint(&[shown(4)], &[shown(15)])));
        assert!(!footprint(&[], &[shown(15)]).global(), "the last navigable has bits");
        assert!(footprint(&[shown(Footprint::LOOPS)], &[]).global(), "a navigable past the bits counts as global");
        let (read, written) = (footprint(&[shown(15)], &[]), footprint(&[], &[shown(15)]));
        assert!(read.within(&written) && !written.within(&read), "a read is within a write, not the reverse");
        assert_eq!(written.breadth(), 1);
    }

    #[test]
    fn every_resource_with_a_bit_has_its_own() {
        let mut resources = vec![Resource::Console, Resource::ParallelQueue];
        for i in 0..Footprint::LOOPS {
            let l = LoopId(i);
            resources.extend([
                Resource::Loop(l),
                Resource::Lifecycle(l),
                Resource::ToolMaps(l),
                Resource::Pending(NavId(i)),
                Resource::Shown(NavId(i)),
            ]);
        }
        for i in 0..Footprint::QUEUE_LOOPS {
            resources.extend(TaskSource::ALL.map(|s| Resource::Queue(LoopId(i), s)));
        }
        for (i, a) in resources.iter().enumerate() {
            let fa = footprint(&[], &[*a]);
            assert!(!fa.global(), "{a:?} has a bit");
            for b in &resources[i + 1..] {
                assert!(!fa.conflicts(&footprint(&[], &[*b])), "{a:?} and {b:?} share a bit");
            }
        }
    }

    #[test]
    fn queueing_tasks_commutes_with_running_the_loop_but_not_with_another_append() {
        let (l0, webmcp) = (LoopId(0), TaskSource::WebMcp);
        let task_on_l0 = footprint(&[], &[Resource::Loop(l0)]);
        let append = footprint(&[Resource::Lifecycle(l0), Resource::ToolMaps(l0)], &[Resource::Queue(l0, webmcp)]);
        assert!(!task_on_l0.conflicts(&append), "a task that changes no tool map commutes with a queued task");
        let register = footprint(&[], &[Resource::Loop(l0), Resource::ToolMaps(l0)]);
        assert!(register.conflicts(&append), "getTools reads the tool map registerTool writes");
        assert!(append.conflicts(&footprint(&[], &[Resource::Queue(l0, webmcp)])));
        assert!(!append.conflicts(&footprint(&[], &[Resource::Queue(l0, TaskSource::Timer)])));
    }
}

/// The browser agent's latest observation of a tab: each document and the tool names it exposed.
pub type Observation = Vec<(DocId, Vec<String>)>;

/// An API promise's label and its place in the outcome (document, then creation order there).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PromiseLabel {
    pub document: DocId,
    pub seq: u32,
    /// Shared (hashes as the text): the labels are copied whenever the map is.
    pub label: Rc<str>,
}

/// The labels of API promises, by promise: a list sorted by promise (copying it to add a label
/// is one allocation, where a map copies its nodes). It hashes as the map it stands for would
/// (the length, then each promise and its label in order).
#[derive(PartialEq, Eq, Hash, Debug, Default)]
pub struct PromiseLabels(Vec<(PromiseId, PromiseLabel)>);

impl Clone for PromiseLabels {
    /// A copy (made to write the list) leaves room for one more label: adding one is the most
    /// common write.
    fn clone(&self) -> Self {
        let mut labels = Vec::with_capacity(self.0.len() + 1);
        labels.extend_from_slice(&self.0);
        PromiseLabels(labels)
    }
}

impl PromiseLabels {
    fn find(&self, p: &PromiseId) -> Result<usize, usize> {
        self.0.binary_search_by(|(q, _)| q.cmp(p))
    }

    pub fn get(&self, p: &PromiseId) -> Option<&PromiseLabel> {
        self.find(p).ok().map(|at| &self.0[at].1)
    }

    pub fn contains_key(&self, p: &PromiseId) -> bool {
        self.find(p).is_ok()
    }

    /// Every label with its promise, by promise.
    pub fn iter(&self) -> impl Iterator<Item = (&PromiseId, &PromiseLabel)> {
        self.0.iter().map(|(p, l)| (p, l))
    }

    /// Every label, by promise.
    pub fn values(&self) -> impl Iterator<Item = &PromiseLabel> {
        self.0.iter().map(|(_, l)| l)
    }

    /// Adds or replaces a promise's label.
    pub fn insert(&mut self, p: PromiseId, label: PromiseLabel) {
        match self.find(&p) {
            Ok(at) => self.0[at].1 = label,
            Err(at) => self.0.insert(at, (p, label)),
        }
    }

    /// Removes a promise's label, if it has one.
    pub fn remove(&mut self, p: &PromiseId) {
        if let Ok(at) = self.find(p) {
            self.0.remove(at);
        }
    }
}

/// The lane of virtual-time advances, made once.
static TIME_LANE: std::sync::LazyLock<sched::Lane> = std::sync::LazyLock::new(|| sched::Lane::new("time"));
static SETUP_LANE: std::sync::LazyLock<sched::Lane> = std::sync::LazyLock::new(|| sched::Lane::new("setup"));

/// The lane of the unit now running. A lane the world lists keeps its label there, so a step
/// copies no label (`Sim::current_lane` looks it up when a block is started or the unit is
/// recorded).
#[derive(Clone, Debug)]
enum Running {
    /// The initial documents being created (`Sim::new`).
    Setup,
    /// Virtual time advancing to the next timer.
    Time,
    /// A task queue, the FIFO parallel queue (`par`), the agent or the user.
    Listed(LaneRef),
    /// An unordered in-parallel block, which is no longer in the world: its label.
    Block(sched::Lane),
}

/// In-parallel blocks started so far, per starting lane: a list sorted by lane label (copying it
/// is one allocation, where a map copies nodes).
#[derive(Default, PartialEq, Eq, Hash, Debug)]
pub struct ParStarted(Vec<StartedCount>);

impl Clone for ParStarted {
    /// A copy (made to write the list) leaves room for one more lane: a block that starts blocks
    /// adds one.
    fn clone(&self) -> Self {
        let mut lanes = Vec::with_capacity(self.0.len() + 1);
        lanes.extend_from_slice(&self.0);
        ParStarted(lanes)
    }
}

/// How many blocks a lane has started.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StartedCount {
    lane: sched::Name,
    /// The XXH3-128 digest of `lane`, computed once (derived from `lane`).
    lane_digest: [u8; 16],
    count: u32,
}

impl Hash for StartedCount {
    /// The lane is hashed as its digest (`lane_digest`), in place of its label: one fixed-size
    /// write instead of the label's bytes at every rehash of the list.
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u128(u128::from_le_bytes(self.lane_digest));
        state.write_u32(self.count);
    }
}

/// Where a lane counts the in-parallel blocks it starts, when not in `Sim::par_started`.
#[derive(Clone, Copy, Debug)]
enum BlockCounter {
    /// `EventLoop::blocks_started` of the task's loop, at its source.
    Task(LoopId, TaskSource),
    /// `UserQueue::blocks_started`.
    User,
}

/// The findings recorded so far, newest first, as a list whose nodes copies of the state share:
/// recording one adds a node and copies nothing (a copy of the state keeps the findings it had
/// when copied). Made into the outcome's findings, oldest first, only when a run ends.
///
/// `Sim::fingerprint` hashes them as a multiset of citations and messages (not the units they
/// came from, nor their order), as outcomes compare them: their number, and their digests' sum
/// and rotated xor, kept as each is recorded so that a fingerprint never rehashes their text. Two
/// units that commute may each record a finding (a null node navigable read in parallel, a
/// failed assert), and the two orders then reach states that differ only in the order of the
/// log; its order is not observable in an outcome and decides nothing later, so the states are
/// one.
#[derive(Clone, Default, Debug)]
struct Findings {
    len: usize,
    digest: (u64, u64),
    newest: Option<Rc<FindingNode>>,
}

#[derive(Debug)]
struct FindingNode {
    finding: Recorded,
    older: Option<Rc<FindingNode>>,
}

/// A failed spec assert as recorded: its step, message and call site (`trace::Finding` once
/// the outcome is made).
#[derive(Debug)]
struct Recorded {
    unit: usize,
    step: Step,
    message: String,
    called_from: Option<Step>,
}

impl Findings {
    fn push(&mut self, finding: Recorded) {
        // One finding's digest (XXH3, as the state's parts: the same on every run and platform),
        // combined by addition and xor, which do not depend on the order.
        let h = browser::digest128(&(finding.step, &finding.message, finding.called_from)) as u64;
        self.digest = (self.digest.0.wrapping_add(h), self.digest.1 ^ h.rotate_left(17));
        self.len += 1;
        self.newest = Some(Rc::new(FindingNode { finding, older: self.newest.take() }));
    }

    /// The findings in the order they were recorded.
    fn to_vec(&self) -> Vec<Finding> {
        let mut out = Vec::with_capacity(self.len);
        let mut node = self.newest.as_deref();
        while let Some(n) = node {
            let r = &n.finding;
            out.push(Finding {
                unit: r.unit,
                cite: cite(r.step),
                message: r.message.clone(),
                called_from: r.called_from.map(cite),
            });
            node = n.older.as_deref();
        }
        out.reverse();
        out
    }
}

impl Drop for FindingNode {
    /// Unlinks the older nodes this one alone holds one by one, so dropping a long list never
    /// recurses once per node.
    fn drop(&mut self) {
        let mut older = self.older.take();
        while let Some(node) = older {
            older = match Rc::try_unwrap(node) {
                Ok(mut n) => n.older.take(),
                Err(_) => None,
            };
        }
    }
}

#[cfg(test)]
mod findings_tests {
    use super::{Findings, Recorded};

    fn recorded(n: usize) -> Recorded {
        Recorded { unit: n, step: ("executeTool", "15.10"), message: format!("finding {n}"), called_from: None }
    }

    /// A copy keeps the findings it had when copied; both lists read back oldest first.
    #[test]
    fn a_copy_keeps_what_it_had_and_each_list_reads_in_recording_order() {
        let mut a = Findings::default();
        a.push(recorded(0));
        a.push(recorded(1));
        let mut b = a.clone();
        b.push(recorded(2));
        a.push(recorded(3));
        let units = |f: &Findings| f.to_vec().iter().map(|x| x.unit).collect::<Vec<_>>();
        assert_eq!((a.len, units(&a)), (3, vec![0, 1, 3]));
        assert_eq!((b.len, units(&b)), (3, vec![0, 1, 2]));
        assert_eq!(b.to_vec()[2].message, "finding 2");
        assert_eq!(b.to_vec()[2].cite.to_string(), "executeTool 15.10");
    }

    /// Dropping a list far longer than any run records does not recurse per node.
    #[test]
    fn a_long_list_drops_without_deep_recursion() {
        let mut f = Findings::default();
        for n in 0..1_000_000 {
            f.push(recorded(n));
        }
        let shared = f.clone();
        drop(f);
        assert_eq!(shared.len, 1_000_000);
        drop(shared);
    }
}

impl Hash for Findings {
    /// The multiset digest (see `Findings`).
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.len);
        if self.len == 0 {
            return;
        }
        state.write_u64(self.digest.0);
        state.write_u64(self.digest.1);
    }
}

/// The simulator state.
pub struct Sim<'p> {
    pub program: &'p Program,
    pub world: World<Work>,
    /// Each document's associated ModelContext's internal context (by document index).
    pub model_contexts: Shared<Vec<Shared<ModelContext>>>,
    /// Each traversable's pending tool executions map (by navigable index; empty for non-traversables).
    pub pending_tool_executions: Shared<BTreeMap<NavId, Vec<(Uuid, PendingToolExecution)>>>,
    pub promise_slots: Shared<Vec<Option<PromiseId>>>,
    /// Labels of API promises, for the outcome.
    pub promise_labels: Shared<PromiseLabels>,
    pub context: Context,
    /// The lane of the unit now running (in-parallel blocks are named after it; see
    /// `current_lane`).
    running: Running,
    /// Where the running unit's lane counts the blocks it starts, if not in `par_started`.
    current_counter: Option<BlockCounter>,
    /// In-parallel blocks started so far by lanes other than task lanes and the user's (which
    /// count theirs in `EventLoop::blocks_started` and `UserQueue::blocks_started`), per
    /// starting lane (see `ParStarted`).
    pub par_started: Shared<ParStarted>,
    /// The labels of the blocks that the user's lane (index 0) and task lanes (index
    /// `1 + browser::task_lane_index`) have started, by number: made once, shared
    /// by every copy of the simulator (not state: each label follows from its lane and number).
    block_labels: Rc<std::cell::RefCell<Vec<Vec<sched::Lane>>>>,
    /// What the running unit touched.
    pub footprint: Footprint,
    /// The step that invoked the algorithm now running (`crate::call_site`), for findings. Set
    /// at the start of every unit and microtask, so it is not state.
    pub call_site: Option<Step>,
    /// Record trace units and events (off while exploring).
    pub record: bool,
    /// While exploring: run inert tasks when they are queued (`crate::inert`), with what the
    /// scenario's scripts can ever do. None: queue every task (runs, replays, the naive search).
    pub eager_inert: Option<Rc<crate::inert::InertFacts>>,
    /// The pending tool executions maps are kept in uuid order and their entries are footprinted
    /// one by one (`Resource::PendingEntry`): true when no step of the scenario can unload a
    /// document, so that the unloading document cleanup steps, the only steps that iterate a
    /// map, never run and nothing can tell the order entries were set in (docs/model.md).
    pub pending_keyed: bool,
    /// While a tool execution's task runs during exploration (`crate::inert`): its uuid and how
    /// many objects it has made, so that they are numbered from the execution
    /// (`PerRealm::SCOPED`), not from the order executions run in. None between units.
    scope: Option<(Uuid, u32)>,
    /// While inert tasks run (`Sim::queue_global_task`): the inert tasks they queued, which run
    /// after them, each as its own task. None between units.
    eager_queue: Option<std::collections::VecDeque<(DocId, Work)>>,
    /// Units run so far (recorded or not).
    pub units_run: usize,
    // Trace.
    pub units: Vec<trace::Unit>,
    events: Vec<Event>,
    /// The findings recorded so far, shared between copies (see `Findings`).
    findings: Findings,
    /// What few units change, as one shared part (see `Seldom`).
    pub seldom: Shared<Seldom>,
}

/// A copy of a list that is empty in nearly every copy the explorer makes (the trace while not
/// recording, the findings): an empty one is made without a call.
#[inline(always)]
fn clone_list<T: Clone>(list: &[T]) -> Vec<T> {
    if list.is_empty() {
        Vec::new()
    } else {
        list.to_vec()
    }
}

impl Clone for Sim<'_> {
    /// Field by field (as a derived `Clone`), with the lists that are empty while exploring
    /// copied by `clone_list`.
    fn clone(&self) -> Self {
        Sim {
            program: self.program,
            world: self.world.clone(),
            model_contexts: self.model_contexts.clone(),
            pending_tool_executions: self.pending_tool_executions.clone(),
            promise_slots: self.promise_slots.clone(),
            promise_labels: self.promise_labels.clone(),
            context: self.context,
            running: self.running.clone(),
            current_counter: self.current_counter,
            par_started: self.par_started.clone(),
            block_labels: self.block_labels.clone(),
            footprint: self.footprint,
            call_site: self.call_site,
            record: self.record,
            eager_inert: self.eager_inert.clone(),
            pending_keyed: self.pending_keyed,
            scope: self.scope,
            eager_queue: self.eager_queue.clone(),
            units_run: self.units_run,
            units: clone_list(&self.units),
            events: clone_list(&self.events),
            findings: self.findings.clone(),
            seldom: self.seldom.clone(),
        }
    }
}

/// The parts of the simulator state that few units change (scripts that name an
/// AbortController, console lines, uncaught exceptions, the agent and its tool executions,
/// navigables created by navigation), kept together as one shared part: copying a state then
/// copies one reference for all of them, and fingerprinting it folds one digest, while the unit
/// that changes one of them copies them all.
#[derive(Clone, Default)]
pub struct Seldom {
    pub controller_slots: Vec<Option<SignalId>>,
    /// The console (see `console_line`).
    pub console: Vec<ConsoleLine>,
    /// The uuids the browser's agent has created (see `new_uuid`).
    agent_uuids: u32,
    /// Navigables by scenario name (not hashed: it follows from the navigables' names).
    pub nav_by_name: BTreeMap<String, NavId>,
    pub uncaught: Vec<ConsoleLine>,
    pub agent_calls: u32,
    pub agent_results: Vec<String>,
    /// The label of each agent call (its `as` name, or `call #N`; not hashed: it follows from
    /// the program and `agent_calls`).
    pub agent_call_labels: Vec<String>,
    pub latest_observation: BTreeMap<NavId, Observation>,
    /// Variant `cancelled-executions` (finding 5's fix): each traversable's cancelled executions
    /// set, the uuids cancel step 2 found no entry for (part of the traversable's pending state:
    /// read and written under `Resource::Pending`).
    pub cancelled_executions: Vec<(NavId, Uuid)>,
    /// How many times each event a `count` expectation names fired at each document (only
    /// those events: `Program::counted_events`).
    pub event_counts: Vec<(DocId, &'static str, u32)>,
}

impl std::hash::Hash for Seldom {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.controller_slots.hash(state);
        self.console.hash(state);
        self.agent_uuids.hash(state);
        self.uncaught.hash(state);
        self.agent_calls.hash(state);
        self.agent_results.hash(state);
        self.latest_observation.hash(state);
        self.cancelled_executions.hash(state);
        self.event_counts.hash(state);
    }
}

impl<'p> Sim<'p> {
    /// The label of the lane whose unit is running.
    pub fn current_lane(&self) -> &sched::Lane {
        match &self.running {
            Running::Setup => &SETUP_LANE,
            Running::Time => &TIME_LANE,
            Running::Listed(lane) => self.world.lane_label(lane),
            Running::Block(label) => label,
        }
    }

    /// Builds the world from the program: tabs, frame trees, documents, and their scripts queued.
    pub fn new(program: &'p Program) -> Result<Sim<'p>, RunError> {
        let mode = match program.parallel {
            scenario::ParallelModel::Unordered => ParallelMode::Unordered,
            scenario::ParallelModel::Fifo => ParallelMode::Fifo,
        };
        let mut sim = Sim {
            program,
            world: World::new(mode),
            model_contexts: Shared::default(),
            pending_tool_executions: Default::default(),
            promise_slots: Shared::new(vec![None; program.promise_names.len()]),
            promise_labels: Default::default(),
            context: Context::Setup,
            running: Running::Setup,
            current_counter: None,
            par_started: Default::default(),
            block_labels: Default::default(),
            footprint: Footprint::default(),
            call_site: None,
            record: true,
            eager_inert: None,
            pending_keyed: crate::inert::InertFacts::lifecycles_fixed(program),
            scope: None,
            eager_queue: None,
            units_run: 0,
            units: Vec::new(),
            events: Vec::new(),
            findings: Findings::default(),
            seldom: Shared::new(Seldom {
                controller_slots: vec![None; program.controller_names.len()],
                ..Seldom::default()
            }),
        };
        for tab in &program.tabs {
            let nav = sim.world.create_navigable(&tab.id, None, ContainerAttributes::default());
            sim.seldom.nav_by_name.insert(tab.id.clone(), nav);
            sim.pending_tool_executions.insert(nav, Vec::new());
            sim.create_document_tree(nav, &tab.document)?;
        }
        // Scripts are queued after the whole tree exists, parents before children (the order the
        // documents were created in).
        let mut doc = 0;
        for tab in &program.tabs {
            tab.document.for_each_script(&mut |script| {
                sim.queue_script(DocId(doc), script);
                doc += 1;
            });
        }
        for (index, op) in sim.program.ops(program.user).iter().enumerate() {
            let window = match op {
                crate::program::Op::Timed { from, to, .. } => Some((*from, *to)),
                _ => None,
            };
            sim.world.user_queue.push_back_within(Work::User { script: program.user, index: index as u32 }, window);
        }
        for (index, step) in program.agent.iter().enumerate() {
            sim.world.enqueue_agent_step_within(Work::Agent { index: index as u32 }, step.window());
        }
        sim.context = Context::User;
        Ok(sim)
    }

    /// Creates the document described by `spec` in `nav`, then its iframes (without queuing scripts).
    pub fn create_document_tree(&mut self, nav: NavId, spec: &DocSpec) -> Result<DocId, RunError> {
        // The URL, its origin and the headers were read when the scenario was compiled.
        let response = spec.response.as_ref().map_err(|e| match e {
            browser::WorldError::BadPermissionsPolicy(m) => {
                RunError::Scenario(format!("document {}: Permissions-Policy header: {m}", spec.url))
            }
        })?;
        // So was the container policy of every iframe `allow` value.
        let program = self.program;
        let container_policy = program.container_policy(self.world.nav(nav).container.allow.as_deref());
        let doc = self.world.create_document_from_response(nav, response, &container_policy);
        thread_local! {
            /// One empty model context (and its digest) that every new document shares until it writes to it.
            static EMPTY_MODEL_CONTEXT: Shared<ModelContext> = Shared::default();
        }
        self.model_contexts.push(EMPTY_MODEL_CONTEXT.with(Shared::clone));
        for frame in &spec.frames {
            self.create_iframe(doc, frame)?;
        }
        Ok(doc)
    }

    fn create_iframe(&mut self, container_document: DocId, frame: &FrameSpec) -> Result<NavId, RunError> {
        let attrs = ContainerAttributes {
            allow: frame.allow.as_deref().map(Into::into),
            sandbox: frame.sandbox.as_deref().map(Into::into),
        };
        let nav = self.world.create_navigable(&frame.id, Some(container_document), attrs);
        self.seldom.nav_by_name.insert(frame.id.clone(), nav);
        self.create_document_tree(nav, &frame.document)?;
        Ok(nav)
    }

    /// Queues a document's script on the networking task source.
    pub fn queue_script(&mut self, doc: DocId, script: ScriptId) {
        if !self.program.ops(script).is_empty() {
            self.world.queue_global_task(TaskSource::Networking, doc, Work::RunScript { doc, script });
        }
    }

    /// A new unique internal value, created in document `realm`'s relevant realm (None: by the
    /// browser's agent).
    pub fn new_uuid(&mut self, realm: Option<DocId>) -> Uuid {
        let created = match realm {
            Some(doc) => &mut self.model_contexts[doc.index()].uuids_created,
            None => &mut self.seldom.agent_uuids,
        };
        *created += 1;
        Uuid::new(realm, *created)
    }

    /// How traces name a uuid: the realm's document label (or `agent`) and its number there.
    pub fn uuid_label(&self, uuid: Uuid) -> String {
        let mut label = String::new();
        self.push_uuid_label(&mut label, uuid);
        label
    }

    /// Appends `uuid_label(uuid)` to `out`.
    pub fn push_uuid_label(&self, out: &mut String, uuid: Uuid) {
        match uuid.realm() {
            Some(doc) => out.push_str(&self.world.doc_info(doc).label),
            None => out.push_str("agent"),
        }
        out.push('#');
        push_decimal(out, uuid.seq);
    }

    pub fn label(&self, doc: DocId) -> String {
        self.world.doc_info(doc).label.clone()
    }

    /// An API promise's label; any other promise is named by its number in its realm
    /// (`promise#2@b`: the second promise created in document b).
    pub fn promise_label(&self, p: PromiseId) -> String {
        match self.promise_labels.get(&p) {
            Some(l) => l.label.to_string(),
            None => format!("promise#{}@{}", p.seq + 1, self.label(p.realm)),
        }
    }

    /// Creates an API promise in `realm`, labelled by its `as` name or `<method>#N@<document>`
    /// (N counts that method's unnamed promises in that document, so labels do not depend on how
    /// event loops interleave).
    pub fn api_promise(&mut self, realm: DocId, method: &str, as_: Option<PromiseSlot>) -> PromiseId {
        // The realm's API promises so far, and (for an unnamed one) those labelled `<method>#…`.
        let (mut seq, mut n) = (0, 0);
        for l in self.promise_labels.values().filter(|l| l.document == realm) {
            seq += 1;
            if as_.is_none() && l.label.strip_prefix(method).is_some_and(|rest| rest.starts_with('#')) {
                n += 1;
            }
        }
        let label = match as_ {
            Some(slot) => self.program.promise_names[slot.0 as usize].clone(),
            None => {
                let document = &self.world.doc_info(realm).label;
                let mut label = String::with_capacity(method.len() + document.len() + 4);
                label.push_str(method);
                label.push('#');
                push_decimal(&mut label, n + 1);
                label.push('@');
                label.push_str(document);
                label
            }
        };
        let label: Rc<str> = label.into();
        let p = self.world.new_promise(realm, Some(label.clone()));
        self.promise_labels.insert(p, PromiseLabel { document: realm, seq, label });
        if let Some(slot) = as_ {
            self.promise_slots[slot.0 as usize] = Some(p);
        }
        p
    }

    pub fn controller(&self, slot: ControllerSlot) -> Option<SignalId> {
        self.seldom.controller_slots[slot.0 as usize]
    }

    // --- Trace ------------------------------------------------------------------------------

    /// Records a trace event (console lines go through `console_line`, which also notes the
    /// console write in the unit's footprint).
    pub fn event(&mut self, step: Step, kind: EventKind) {
        if self.record {
            std::hint::cold_path();
            self.events.push(Event { cite: cite(step), kind });
        }
    }

    /// Appends `line` to the console (or, with `uncaught`, to the uncaught-error log), with its
    /// trace event. The event is built only when recorded; the unit writes the console either way.
    pub fn console_line(&mut self, step: Step, line: ConsoleLine, uncaught: bool) {
        self.footprint.touch(Resource::Console, true);
        if self.record {
            std::hint::cold_path();
            let (document, text) = (line.document.clone(), line.text.clone());
            let kind = if uncaught {
                EventKind::Uncaught { document, error: text }
            } else {
                EventKind::Console { document, text }
            };
            self.event(step, kind);
        }
        if uncaught {
            self.seldom.uncaught.push(line);
        } else {
            self.seldom.console.push(line);
        }
    }

    /// Notes that the running unit (in parallel) reads `doc`'s lifecycle: whether it is active or
    /// fully active, and that it is its navigable's active document.
    pub fn touch_lifecycle_of(&mut self, doc: DocId) {
        let el = self.world.doc_info(doc).event_loop;
        self.footprint.touch(Resource::Lifecycle(el), false);
    }

    /// Notes that the running unit reads (or writes) `doc`'s tool map.
    pub fn touch_tool_map(&mut self, doc: DocId, write: bool) {
        let el = self.world.doc_info(doc).event_loop;
        self.footprint.touch(Resource::ToolMaps(el), write);
    }

    /// Notes that the running unit changes `doc`'s lifecycle (unloads or creates it): its event
    /// loop's script state, its documents and every task queue of that loop.
    pub fn touch_lifecycle(&mut self, doc: DocId) {
        let el = self.world.doc_info(doc).event_loop;
        self.footprint.touch(Resource::Loop(el), true);
        self.footprint.touch(Resource::Lifecycle(el), true);
        self.footprint.touch(Resource::ToolMaps(el), true);
        for source in TaskSource::ALL {
            self.footprint.touch(Resource::Queue(el, source), true);
        }
    }

    /// A trace note (nothing at all when not recording: notes are not observable).
    pub fn note(&mut self, step: Step, message: impl Into<String>) {
        if self.record {
            std::hint::cold_path();
            self.event(step, EventKind::Note { message: message.into() });
        }
    }

    /// A trace line saying which reading of the spec the next steps follow.
    pub fn interpretation(&mut self, step: Step, message: impl Into<String>) {
        if self.record {
            std::hint::cold_path();
            self.event(step, EventKind::Interpretation { message: message.into() });
        }
    }

    /// Checks a spec `Assert:`. A failure is a finding about the spec: recorded, and the steps go on.
    pub fn spec_assert(&mut self, holds: bool, step: Step, message: &str) {
        if !holds {
            if self.record {
                let message = match self.call_site.map(cite) {
                    Some(from) => format!("{message} (reached from {from})"),
                    None => message.to_string(),
                };
                self.event(step, EventKind::AssertFailed { message });
            }
            self.findings.push(Recorded {
                unit: self.units_run,
                step,
                message: message.to_string(),
                called_from: self.call_site,
            });
        }
    }

    pub fn assert_in_parallel(&mut self, step: Step) {
        let holds = self.context == Context::InParallel;
        self.spec_assert(holds, step, "these steps are running in parallel");
    }

    pub fn assert_on_event_loop_of(&mut self, doc: DocId, step: Step) {
        let holds = self.context == Context::EventLoop(self.world.doc_info(doc).event_loop);
        if !holds {
            let msg = format!("these steps are running on {}'s relevant agent's event loop", self.label(doc));
            self.spec_assert(holds, step, &msg);
        }
    }

    /// HTML "queue a global task" with a trace event. True when the task was inert and ran now
    /// (while exploring: `crate::inert`).
    pub fn queue_global_task(&mut self, source: TaskSource, doc: DocId, work: Work, step: Step) -> bool {
        if let Some(facts) = &self.eager_inert {
            if self.inert_task(facts, doc, &work) {
                self.run_inert_task(doc, work);
                return true;
            }
        }
        let el = self.world.doc_info(doc).event_loop;
        self.footprint.touch(Resource::Queue(el, source), true);
        if self.record {
            std::hint::cold_path();
            let lane = format!("{}.{}", self.world.event_loops[el.index()].label, source.label());
            let document = Some(self.label(doc));
            self.event(step, EventKind::Queued { lane, document });
        }
        self.world.queue_global_task(source, doc, work);
        false
    }

    /// An inert task, run now instead of queued (`crate::inert`): it commutes with every unit, so
    /// this is one of the schedules the queued task allows. Its steps touch nothing another unit
    /// touches, so the posting unit's footprint notes nothing. An inert task queued by an inert
    /// task runs after it, as a task of its own (its event loop's microtask checkpoint between).
    pub fn run_inert_task(&mut self, doc: DocId, work: Work) {
        if let Some(queue) = &mut self.eager_queue {
            queue.push_back((doc, work));
            return;
        }
        let outer = (self.context, self.footprint, self.scope);
        self.eager_queue = Some(std::collections::VecDeque::new());
        let mut next = Some((doc, work));
        while let Some((doc, work)) = next {
            let el = self.world.doc_info(doc).event_loop;
            // A task of an inert tool execution makes its objects under the execution's uuid.
            if let Work::ToolExecuteSteps { uuid, .. } = &work {
                self.scope = Some((*uuid, 0));
            }
            let scripted = matches!(work, Work::ToolExecuteSteps { .. } | Work::SettleLater { .. });
            self.context = Context::EventLoop(el);
            self.run_work_unchecked(work);
            if scripted {
                // Only an inert tool execution's tasks queue microtasks; they are queued from an
                // in-parallel block (executeTool 15.13), never from a task of the same event
                // loop, whose own microtasks would run here too early.
                debug_assert!(
                    outer.0 != Context::EventLoop(el),
                    "an inert tool execution posted from its own event loop"
                );
                if let Err(e) = self.perform_a_microtask_checkpoint(el) {
                    note!(self, ("webmcp-sim", "internal"), "{e}");
                }
            }
            next = self.eager_queue.as_mut().and_then(|q| q.pop_front());
        }
        self.eager_queue = None;
        (self.context, self.footprint, self.scope) = outer;
    }

    /// True while inert tasks run (`Sim::run_inert_task`): an inert tool execution's tasks run
    /// only then.
    pub fn running_inert_tasks(&self) -> bool {
        self.eager_queue.is_some()
    }

    /// The number of the next object an inert tool execution makes (see `Sim::scope`), or None
    /// outside one.
    pub fn scoped_number(&mut self) -> Option<u32> {
        let (uuid, made) = self.scope.as_mut()?;
        let seq = crate::inert::scoped_number(*uuid, *made);
        *made += 1;
        Some(seq)
    }

    /// A new promise in `realm`: numbered from the running inert tool execution inside one.
    pub fn new_unnamed_promise(&mut self, realm: DocId) -> PromiseId {
        match self.scoped_number() {
            Some(seq) => self.world.new_scoped_promise(realm, seq),
            None => self.world.new_promise(realm, None),
        }
    }

    /// A new `AbortController` in `realm`: numbered from the running inert tool execution inside
    /// one.
    pub fn new_abort_controller_in(&mut self, realm: DocId, name: Option<String>) -> SignalId {
        match self.scoped_number() {
            Some(seq) => self.world.new_scoped_abort_controller(realm, name, seq),
            None => self.world.new_abort_controller(realm, name),
        }
    }

    /// HTML "in parallel" with a trace event.
    ///
    /// A block is named after the lane that started it and its count there (`par:el0.net/0`,
    /// and `par:el0.net/0/1` for the second block that block starts), so names do not depend on
    /// how other lanes interleave.
    pub fn in_parallel(&mut self, work: Work, step: Step) {
        // A task's lane counts its blocks in its event loop, and the user's lane in the user's
        // queue: taking the unit wrote (and so copied) those already.
        let label = match self.current_counter {
            Some(BlockCounter::Task(el, source)) => {
                let count = self.world.next_block_number(el, source);
                self.cached_block_label(1 + browser::task_lane_index(el, source), count)
            }
            Some(BlockCounter::User) => {
                let count = self.world.next_user_block_number();
                self.cached_block_label(0, count)
            }
            None => self.other_block_label(),
        };
        // Two units that start blocks on the one FIFO parallel queue do not commute.
        if self.world.parallel_mode == ParallelMode::Fifo {
            self.footprint.touch(Resource::ParallelQueue, true);
        }
        let lane = self.world.start_in_parallel(label, work);
        if self.record {
            std::hint::cold_path();
            self.event(step, EventKind::InParallel { lane: lane.to_string() });
        }
    }

    /// The label of the `count`-th block started by the running lane (`key` in `block_labels`),
    /// made once per run and shared by every state after.
    fn cached_block_label(&self, key: usize, count: u32) -> sched::Lane {
        let mut labels = self.block_labels.borrow_mut();
        if labels.len() <= key {
            labels.resize_with(key + 1, Vec::new);
        }
        let made = &mut labels[key];
        while made.len() <= count as usize {
            made.push(block_label(self.current_lane().as_str(), made.len() as u32));
        }
        made[count as usize].clone()
    }

    /// The label of the next block started by a unit that is neither a task nor a user action
    /// (counted in `par_started`). A block's blocks are counted under the lane that started it.
    fn other_block_label(&mut self) -> sched::Lane {
        let starter = self.current_lane();
        let creator = block_creator(starter.as_str());
        let count = match self.par_started.0.binary_search_by(|started| (*started.lane).cmp(creator)) {
            Ok(at) => {
                let count = &mut self.par_started.0[at].count;
                *count += 1;
                *count - 1
            }
            Err(at) => {
                // A lane that is not a block is its own creator: its label is shared, not copied.
                let lane =
                    if creator.len() == starter.as_str().len() { starter.name() } else { sched::Name::new(creator) };
                let lane_digest = browser::digest128(creator).to_le_bytes();
                self.par_started.0.insert(at, StartedCount { lane, lane_digest, count: 1 });
                0
            }
        };
        // (The label is read again: the counts were written meanwhile.)
        block_label(block_creator(self.current_lane().as_str()), count)
    }

    /// WebIDL resolve / reject, tracing a settlement or the no-op of settling twice.
    pub fn settle(&mut self, promise: PromiseId, result: Result<JsValue, JsValue>, step: Step) {
        // Described before settling (the value moves into the promise); only when recorded.
        let described = if self.record {
            std::hint::cold_path();
            Some((self.describe_settlement(&result), self.promise_label(promise)))
        } else {
            None
        };
        let settled = self.world.settle_promise(promise, result);
        let Some((attempted, label)) = described else { return };
        if settled {
            if self.promise_labels.contains_key(&promise) {
                self.event(step, EventKind::Settled { promise: label, state: attempted });
            }
        } else {
            self.event(step, EventKind::SettleNoOp { promise: label, attempted });
        }
    }

    /// WebIDL "a promise rejected with".
    pub fn rejected_promise(
        &mut self,
        realm: DocId,
        method: &str,
        as_: Option<PromiseSlot>,
        error: JsValue,
        step: Step,
    ) -> PromiseId {
        let p = self.api_promise(realm, method, as_);
        self.settle(p, Err(error), step);
        p
    }

    // --- The run loop -----------------------------------------------------------------------

    /// Runs until quiescence (or the unit limit), asking `chooser` at every choice point.
    pub fn run(&mut self, chooser: &mut dyn Chooser, limits: Limits) -> Result<(), RunError> {
        while self.units_run < limits.max_units {
            let lanes = self.runnable();
            if lanes.is_empty() {
                return Ok(());
            }
            let (index, choice_among) = choose_lane(&lanes, chooser)?;
            let (lane, lane_ref) = lanes[index].clone();
            self.step(&lane, lane_ref, choice_among)?;
        }
        Ok(())
    }

    /// Nothing can run and no timer is pending.
    pub fn is_quiescent(&self) -> bool {
        self.world.runnable_lanes().is_empty()
            && self.world.pending_timers() == 0
            && self.world.user_queue.next_wake_up(self.world.now()).is_none()
            && self.world.agent_queue.next_wake_up(self.world.now()).is_none()
    }

    /// A 128-bit fingerprint of the state that decides the rest of the run and its outcome
    /// (not the trace recorded so far, nor which unit a finding came from).
    pub fn fingerprint(&self) -> u128 {
        // A 128-bit hash of every part that decides the rest of the run; the `Shared` parts
        // contribute their cached digests (see `browser::shared::SumHasher`). The same on every
        // machine.
        browser::fingerprint128(&(
            (&self.world, &self.model_contexts, &self.pending_tool_executions),
            (&self.promise_slots, &self.promise_labels, &self.par_started),
            (&self.findings, &self.seldom),
        ))
    }

    /// The lanes that can run now, sorted by label. When none can, virtual time advances to the
    /// next timer first (a unit of its own in the trace); empty means the run is over.
    pub fn runnable(&mut self) -> Vec<(sched::Lane, LaneRef)> {
        let mut lanes = Vec::with_capacity(8);
        self.runnable_into(&mut lanes);
        lanes.into_iter().map(|r| (self.world.lane_label(&r).clone(), r)).collect()
    }

    /// `runnable` without the labels (`World::lane_label` gives them), into a buffer the caller
    /// reuses (cleared first; the explorer lists the lanes before every step).
    pub fn runnable_into(&mut self, lanes: &mut Vec<LaneRef>) {
        loop {
            self.world.runnable_into(lanes);
            if !lanes.is_empty() {
                return;
            }
            let timer = self.world.next_timer_deadline();
            let user = self.world.user_queue.next_wake_up(self.world.now());
            let Some(t) = self.world.advance_time() else { return };
            self.running = Running::Time;
            self.current_counter = None;
            let what = if self.record {
                std::hint::cold_path();
                format!("virtual time advances to {t} ms")
            } else {
                String::new()
            };
            // A timer came due, or (no timer by then) a timed user or agent step's window opened
            // or ended.
            let cite = if timer == Some(t) {
                ("HTML", "run steps after a timeout")
            } else if user == Some(t) {
                ("user", "window")
            } else {
                ("browser agent", "window")
            };
            self.record_unit(Vec::new(), None, what, cite);
        }
    }

    /// Runs the next unit of `lane` and returns what it touched.
    pub fn step(
        &mut self,
        lane: &sched::Lane,
        lane_ref: LaneRef,
        choice_among: Vec<String>,
    ) -> Result<Footprint, RunError> {
        self.step_on(Some(lane), lane_ref, choice_among)
    }

    /// `step`, for a lane listed by `runnable_into` (its label is looked up only if needed).
    pub fn step_listed(&mut self, lane_ref: LaneRef) -> Result<Footprint, RunError> {
        self.step_on(None, lane_ref, Vec::new())
    }

    fn step_on(
        &mut self,
        lane: Option<&sched::Lane>,
        lane_ref: LaneRef,
        choice_among: Vec<String>,
    ) -> Result<Footprint, RunError> {
        debug_assert!(
            lane.is_none_or(|lane| lane == self.world.lane_label(&lane_ref)),
            "{lane:?} is not the label of {lane_ref:?}"
        );
        let Some(unit) = self.world.take(lane_ref) else {
            let lane = lane.map_or_else(|| format!("{lane_ref:?}"), |lane| lane.to_string());
            return Err(RunError::NotModelled(format!("lane {lane} offered a unit it could not give")));
        };
        self.footprint = Footprint::default();
        // An unordered block's lane is no longer listed: the `Unit::Parallel` arm below names it
        // by the label it was taken with.
        self.running = Running::Listed(lane_ref);
        self.current_counter = match &unit {
            Unit::Task { event_loop, source, .. } => Some(BlockCounter::Task(*event_loop, *source)),
            Unit::User(_) => Some(BlockCounter::User),
            _ => None,
        };
        // The unit's trace line is described only when it is recorded (never while exploring).
        let (event_loop, document, work) = match unit {
            Unit::Task { event_loop, task, .. } => {
                self.context = Context::EventLoop(event_loop);
                self.footprint.touch(Resource::Loop(event_loop), true);
                (Some(event_loop), task.document, task.steps)
            }
            Unit::Parallel { label, steps } => {
                if let LaneRef::Parallel(_) = lane_ref {
                    // The block's label left the world with it.
                    self.running = Running::Block(label);
                }
                self.context = Context::InParallel;
                (None, None, steps)
            }
            Unit::Agent(steps) => {
                self.context = Context::AgentQueue;
                self.footprint.touch(Resource::Global, true);
                (None, None, steps)
            }
            // A user step notes what it touches itself (a navigation: the documents it unloads
            // and creates; the other steps: everything).
            Unit::User(steps) => {
                self.context = Context::User;
                (None, None, steps)
            }
            // The agent or the user puts off its next step (which has a window) until virtual time
            // advances.
            Unit::AgentWait => {
                let what = "the agent waits: its next step happens later in its window";
                return Ok(self.wait_unit(choice_among, what, ("browser agent", "window")));
            }
            Unit::UserWait => {
                self.context = Context::User;
                let what = "the user waits: the next step happens later in its window";
                return Ok(self.wait_unit(choice_among, what, ("user", "window")));
            }
        };
        let heading = if self.record {
            std::hint::cold_path();
            Some((self.describe(&work), document.map(|d| self.label(d))))
        } else {
            None
        };
        // While exploring, what a tool execution makes is numbered from its uuid, not from the
        // order executions run in (`crate::inert::scoped_number`): two executions' tasks on one
        // event loop then reach one state in either order. (Runs and replays number in order.)
        if let (Some(_), Work::ToolExecuteSteps { uuid, .. }) = (&self.eager_inert, &work) {
            self.scope = crate::inert::scoped_number_fits(*uuid).then_some((*uuid, 0));
        }
        self.call_site = self.invoked_at(&work);
        let ran = self.run_work(work);
        self.scope = None;
        ran?;
        if let Some(el) = event_loop {
            self.perform_a_microtask_checkpoint(el)?;
        }
        match heading {
            Some(((what, step), document)) => self.record_unit(choice_among, document, what, step),
            None => self.units_run += 1,
        }
        self.context = Context::User;
        Ok(std::mem::take(&mut self.footprint))
    }

    /// HTML "perform a microtask checkpoint": run every queued microtask, including ones queued
    /// meanwhile.
    fn perform_a_microtask_checkpoint(&mut self, el: LoopId) -> Result<(), RunError> {
        while let Some(work) = self.world.take_microtask(el) {
            if self.record {
                std::hint::cold_path();
                let (what, step) = self.describe(&work);
                self.event(step, EventKind::Note { message: format!("microtask: {what}") });
            }
            self.call_site = self.invoked_at(&work);
            self.run_work(work)?;
        }
        Ok(())
    }

    /// A user or agent step put off until virtual time advances (`user.wait`, `agent.wait`): it
    /// touches only its own queue, which the footprints have no bit for, so it counts as
    /// touching everything (sound; only windows pay for it).
    fn wait_unit(&mut self, choice_among: Vec<String>, what: &str, step: Step) -> Footprint {
        self.footprint.touch(Resource::Global, true);
        if self.record {
            std::hint::cold_path();
            self.record_unit(choice_among, None, what.to_string(), step);
        } else {
            self.units_run += 1;
        }
        std::mem::take(&mut self.footprint)
    }

    fn record_unit(&mut self, choice_among: Vec<String>, document: Option<String>, what: String, step: Step) {
        self.units_run += 1;
        if !self.record {
            return;
        }
        let events = std::mem::take(&mut self.events);
        self.units.push(trace::Unit {
            index: self.units.len(),
            time: self.world.now(),
            lane: self.current_lane().to_string(),
            choice_among,
            document,
            what,
            cite: cite(step),
            events,
        });
    }

    /// The observable outcome of the run so far.
    pub fn outcome(&self, stopped_by_limit: bool) -> Outcome {
        let mut promises = Vec::new();
        let mut labelled: Vec<(&PromiseId, &PromiseLabel)> = self.promise_labels.iter().collect();
        labelled.sort_by_key(|(_, l)| (l.document, l.seq));
        for (p, label) in labelled {
            let label = &label.label;
            let promise = &self.world.promises[*p];
            let state = match &promise.state {
                PromiseState::Pending => "pending".to_string(),
                PromiseState::Fulfilled(v) => self.describe_settlement(&Ok(v.clone())),
                PromiseState::Rejected(e) => self.describe_settlement(&Err(e.clone())),
            };
            promises.push(PromiseOutcome { promise: label.to_string(), document: self.label(p.realm), state });
        }
        let mut tool_maps = Vec::new();
        for (i, mc) in self.model_contexts.iter().enumerate() {
            let doc = self.world.doc(DocId(i as u32));
            if doc.state == DocumentState::Destroyed && mc.tool_map.is_empty() {
                continue;
            }
            tool_maps.push((doc.label.clone(), mc.tool_map.iter().map(|(n, _)| n.to_string()).collect()));
        }
        let mut findings = self.findings.to_vec();
        let pending_executions = self.pending_executions_outcome(stopped_by_limit, &mut findings);
        Outcome {
            console: self.seldom.console.clone(),
            promises,
            tool_maps,
            uncaught: self.seldom.uncaught.to_vec(),
            findings,
            agent: self.seldom.agent_results.to_vec(),
            events: self.event_counts_outcome(),
            pending_executions,
            end: self.end_state(stopped_by_limit),
        }
    }

    /// The counted events, for the outcome: `(document, event, times)`, in document order.
    fn event_counts_outcome(&self) -> Vec<(String, String, u32)> {
        let mut counts = self.seldom.event_counts.clone();
        counts.sort();
        counts.into_iter().map(|(d, e, n)| (self.label(d), e.to_string(), n)).collect()
    }

    /// What each traversable's pending tool executions map still holds, for the outcome; at
    /// quiescence an entry whose target or caller document is destroyed is a leak, reported as a
    /// finding: that document's unloading cleanup steps ran before executeTool 15.12 set the entry
    /// (they are the only steps that remove an entry for a document that goes away), so nothing
    /// will ever remove it or settle the call through it.
    fn pending_executions_outcome(
        &self,
        stopped_by_limit: bool,
        findings: &mut Vec<Finding>,
    ) -> Vec<(String, Vec<String>)> {
        let destroyed = |d: DocId| self.world.doc(d).state == DocumentState::Destroyed;
        let mut maps = Vec::new();
        for (traversable, entries) in self.pending_tool_executions.iter() {
            if entries.is_empty() {
                continue;
            }
            let mut described = Vec::with_capacity(entries.len());
            for (uuid, execution) in entries {
                let target = execution.target_document;
                let caller = match execution.caller_document {
                    Caller::Document(d) => self.label(d),
                    Caller::Agent(n) => format!("agent call #{n}"),
                };
                let uuid = self.uuid_label(*uuid);
                let tool = &execution.tool_name;
                described.push(format!("{uuid} {tool} of {} for {caller}", self.label(target)));
                if stopped_by_limit {
                    continue;
                }
                let mut gone = Vec::new();
                if destroyed(target) {
                    gone.push("target");
                }
                if let Caller::Document(c) = execution.caller_document {
                    if c != target && destroyed(c) {
                        gone.push("caller");
                    }
                }
                for role in gone {
                    findings.push(Finding {
                        unit: self.units_run,
                        cite: cite((crate::algorithms::EXECUTE_TOOL, "15.12")),
                        // One message per role (the outcome's pending maps say which entry),
                        // so that `fuzz` and the outcome group leaks by what they are.
                        message: format!(
                            "leak: an entry set here outlives its {role} document, which is destroyed: its \
                             unloading cleanup steps ran before this step, so nothing will ever remove it"
                        ),
                        called_from: None,
                    });
                }
            }
            maps.push((self.world.nav(*traversable).name.to_string(), described));
        }
        maps
    }

    fn end_state(&self, stopped_by_limit: bool) -> String {
        if stopped_by_limit {
            return format!("stopped: unit limit reached ({} units); the run is not finished", self.units_run);
        }
        let waiting = self.world.waiting_tasks();
        let mut by_doc: BTreeMap<String, usize> = BTreeMap::new();
        // Tasks queued after their document was destroyed are only counted (`World::dead_tasks`).
        for (d, n) in self.world.dead_tasks() {
            *by_doc.entry(format!("{} (destroyed)", self.world.doc(d).label)).or_default() += n as usize;
        }
        if waiting.is_empty() && by_doc.is_empty() {
            return "quiescent".to_string();
        }
        for (_, _, t) in waiting {
            let key = match t.document {
                Some(d) => {
                    let doc = self.world.doc(d);
                    let why = match doc.state {
                        DocumentState::Bfcached => "in bfcache",
                        DocumentState::Destroyed => "destroyed",
                        DocumentState::Active => "not fully active",
                    };
                    format!("{} ({why})", doc.label)
                }
                None => "no document".to_string(),
            };
            *by_doc.entry(key).or_default() += 1;
        }
        let parts: Vec<String> = by_doc.into_iter().map(|(k, n)| format!("{n} task(s) of {k}")).collect();
        format!("quiescent; waiting forever: {}", parts.join(", "))
    }
}

/// Which of the runnable `lanes` goes next, and the labels chosen among (none when only one
/// lane can run: that is not a choice).
pub fn choose_lane(
    lanes: &[(sched::Lane, LaneRef)],
    chooser: &mut dyn Chooser,
) -> Result<(usize, Vec<String>), RunError> {
    if lanes.len() == 1 {
        return Ok((0, Vec::new()));
    }
    let labels: Vec<sched::Lane> = lanes.iter().map(|(l, _)| l.clone()).collect();
    let index = chooser.choose(&labels).map_err(RunError::Choose)?;
    Ok((index, labels.iter().map(|l| l.to_string()).collect()))
}

impl Sim<'_> {
    /// Renders a value with documents named by their labels.
    pub fn render(&self, value: &JsValue) -> String {
        let mut out = String::new();
        self.render_into(&mut out, value);
        out
    }

    pub(crate) fn render_into(&self, out: &mut String, value: &JsValue) {
        // A WindowProxy is named after its navigable.
        value.render_into(out, &|nav, out| match self.world.get_nav_info(NavId(nav)) {
            Some(n) => out.push_str(&n.name),
            None => {
                out.push('#');
                push_decimal(out, nav);
            }
        })
    }

    /// `fulfilled(<value>)` or `rejected(<error name or value>)`.
    pub fn describe_settlement(&self, result: &Result<JsValue, JsValue>) -> String {
        let mut out = String::new();
        match result {
            Ok(v) => {
                out.push_str("fulfilled(");
                self.render_into(&mut out, v);
            }
            Err(e) => {
                out.push_str("rejected(");
                match e.error_name() {
                    Some(name) => out.push_str(name),
                    None => self.render_into(&mut out, e),
                }
            }
        }
        out.push(')');
        out
    }
}

/// The name the blocks that `lane` starts are counted and labelled under: a block's label
/// without `par:` (`par:el0.net/0` → `el0.net/0`, whose blocks are `par:el0.net/0/0`, …), any
/// other lane's label as it is.
fn block_creator(lane: &str) -> &str {
    lane.strip_prefix("par:").unwrap_or(lane)
}

/// The label of the `n`-th in-parallel block (from 0) started by the lane `creator`:
/// `par:<creator>/<n>`.
fn block_label(creator: &str, n: u32) -> sched::Lane {
    thread_local! {
        /// Where labels are written before the lane copies them (one allocation per block).
        static LABEL: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    LABEL.with_borrow_mut(|label| {
        label.clear();
        label.push_str("par:");
        label.push_str(creator);
        label.push('/');
        push_decimal(label, n);
        sched::Lane::new(label.as_str())
    })
}

/// Appends `n` in decimal (labels are built on the exploration hot path, without `format!`).
pub(crate) fn push_decimal(out: &mut String, n: u32) {
    out.push_str(itoa::Buffer::new().format(n));
}
