//! Footprints: what a unit read and wrote, as bit sets over the resources the explorer's
//! independence check knows (`Resource`). Two units commute when neither writes what the other
//! touches.

use browser::{LoopId, NavId, TaskSource};

use crate::uuid::Uuid;

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
    /// The user's queue: the steps still to take, whether the next one was put off
    /// (`user.wait`), and the in-parallel blocks its steps started. Written by every user step
    /// and by `user.wait`; nothing else reads it (a task or a block never changes what the user
    /// does next, nor virtual time, which advances only between units).
    UserQueue,
    /// The navigations' fetches in flight (`options.network` "unbounded"): which there are and
    /// whether they were put off until virtual time advances. Written by a unit that starts a
    /// fetch, by the fetch's own block (its response arrives), and by `net.wait`, which puts
    /// every fetch in flight off (so it disables their lanes, and exists only while one is in
    /// flight).
    Fetches,
    /// One queued task, by a hash of its event loop, task source, document and steps
    /// (`Footprint::task_hash`), for the stateless search only: "queue a global task" writes the
    /// bit of the task it appends *behind* (the last task of that queue, if any), and the unit
    /// that takes a task from the head of its queue reads that task's bit (`Footprint::take_task`,
    /// `SimModel::step`). So an append conflicts with taking the task right ahead of it, and with
    /// no other take from the queue: the run of the appended task comes after that take (its lane
    /// orders them), hence after the append, and that order is a race the search may reverse (the
    /// take before the append, which then goes behind another task or makes the lane runnable).
    /// An edge from an append to the take of the task it appended would be a race the search
    /// could not reverse (`webmcp-sim fuzz` seed 49: "scheduled lane el0.webmcp is not
    /// runnable"). Tasks that share a bit count as one: sound, only slower.
    QueuedTask(u32),
    /// The browser-side FIFO parallel queue (`"parallel": "fifo"`): the order blocks start in is
    /// the order they run in. (Found by `webmcp-sim fuzz`; see scenarios/regressions/.)
    ParallelQueue,
    /// The numbering of documents, navigables and event loops, which a unit that creates a
    /// document appends to: two such units conflict, since in either order they number what
    /// they create differently (`gen`'s property test: a script's navigation of one tab and the
    /// user's navigation of another). Written only.
    Documents,
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
    /// Bits 0–31: queued tasks taken (`Resource::QueuedTask`, by hash); bits 32–63: appended
    /// behind.
    tasks: u64,
    /// The queue the taken task came from, as its `Resource::Queue` bit in `writes` (an
    /// append writes it), plus one; 0: no task taken (`Footprint::take_task`).
    taken_queue: u64,
}

impl Footprint {
    /// The bit of `Resource::UserQueue` in `reads` and `writes`: the first above the task
    /// queues' (`2 + 4 * LOOPS + QUEUE_LOOPS * 6 = 126`).
    const USER_QUEUE_BIT: u32 = 126;
    /// The bit of `Resource::Fetches`: the last.
    const FETCHES_BIT: u32 = 127;
    /// Event loops and traversables with bits of their own.
    pub(crate) const LOOPS: u32 = 16;
    /// Event loops whose task queues have bits of their own (one per task source).
    pub(crate) const QUEUE_LOOPS: u32 = 10;
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
    /// The bit of `other` for `Resource::Documents` (written only: it conflicts with itself).
    const DOCUMENTS: u64 = 1 << 34;

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
                self.entries |= 1 << (uuid.entry_hash() % Self::ENTRIES + if write { Self::ENTRIES } else { 0 });
                return;
            }
            // Appended (a take is noted by `take_task`, with its queue).
            Resource::QueuedTask(hash) => {
                self.tasks |= 1 << (hash % Self::ENTRIES + if write { Self::ENTRIES } else { 0 });
                return;
            }
            Resource::Documents => {
                self.other |= Self::DOCUMENTS;
                return;
            }
            Resource::Console => 0,
            Resource::UserQueue => Self::USER_QUEUE_BIT,
            Resource::Fetches => Self::FETCHES_BIT,
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
            && self.other & Self::DOCUMENTS & !other.other == 0
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
        self.writes == 0
            && self.other & !Self::SHOWN == 0
            && self.reads & !lifecycles == 0
            && self.entries == 0
            && self.tasks == 0
    }

    /// True when the two units may not commute.
    pub fn conflicts(&self, other: &Footprint) -> bool {
        (self.other | other.other) & Self::GLOBAL != 0
            || self.other & other.other & Self::DOCUMENTS != 0
            || self.writes & (other.writes | other.reads) != 0
            || self.reads & other.writes != 0
            || self.shown_writes() & (other.shown_writes() | other.shown_reads()) != 0
            || self.shown_reads() & other.shown_writes() != 0
            || self.entry_writes() & (other.entry_writes() | other.entry_reads()) != 0
            || self.entry_reads() & other.entry_writes() != 0
            || self.took_what_was_appended(other)
            || other.took_what_was_appended(self)
    }

    /// Notes that the unit took the queued task `hash` (`Footprint::task_hash`) from the head of
    /// the queue (`event_loop`, `source`): it conflicts with the unit that appended a task right
    /// behind it (`Resource::QueuedTask`). A queue without a bit of its own is read whole instead.
    pub fn take_task(&mut self, event_loop: LoopId, source: TaskSource, hash: u32) {
        if event_loop.0 >= Self::QUEUE_LOOPS {
            return self.touch(Resource::Queue(event_loop, source), false);
        }
        self.tasks |= 1 << (hash % Self::ENTRIES);
        self.taken_queue =
            u64::from(2 + 4 * Self::LOOPS + event_loop.0 * TaskSource::ALL.len() as u32 + source as u32) + 1;
    }

    /// True when this unit took a task that `other` appended a task behind (in the same queue).
    fn took_what_was_appended(&self, other: &Footprint) -> bool {
        self.taken_queue != 0
            && self.tasks_taken() & other.tasks_appended() != 0
            && other.writes >> (self.taken_queue - 1) & 1 != 0
    }

    /// The queued tasks (by bit) the unit took (noted by the stateless search only).
    fn tasks_taken(&self) -> u64 {
        self.tasks & 0xFFFF_FFFF
    }

    /// The queued tasks (by bit) the unit appended a task behind.
    fn tasks_appended(&self) -> u64 {
        self.tasks >> Self::ENTRIES
    }

    /// The hash that names a queued task in `Resource::QueuedTask`: of its event loop, task
    /// source, document and steps, which do not change while it waits in its queue, so the
    /// append and the take compute the same one (`browser::digest128`: the same on every run and
    /// platform).
    pub fn task_hash(
        event_loop: LoopId,
        source: TaskSource,
        document: Option<browser::DocId>,
        steps: &impl std::hash::Hash,
    ) -> u32 {
        browser::digest128(&(event_loop.0, source as u32, document.map(|d| d.0), steps)) as u32
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
            .field("tasks_taken", &format_args!("{:#x}", self.tasks_taken()))
            .field("tasks_appended", &format_args!("{:#x}", self.tasks_appended()))
            .field("global", &self.global())
            .finish()
    }
}

#[cfg(test)]
mod tests;
