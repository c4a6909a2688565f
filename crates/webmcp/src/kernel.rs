//! The kernel: the simulator state (a `World` of WebMCP work, the model contexts and pending
//! tool executions maps the spec adds to it) and its primitives: trace notes and events, spec
//! asserts, HTML "queue a global task" and "in parallel", WebIDL promise settlement, and the
//! labels that name documents, promises and uuids. The algorithms (`crate::algorithms`), the
//! script interface (`crate::script`) and the run loop (`crate::run`) are built on these.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use browser::{
    ContainerAttributes, DocId, JsValue, LaneRef, LoopId, NavId, ParallelMode, PromiseId, Shared, SignalId, TaskSource,
    World,
};
use sched::ChooseError;
use trace::{ConsoleLine, Event, EventKind};

use crate::cite::{cite, Step};
use crate::findings::{Findings, Recorded};
use crate::footprint::{Footprint, Resource};
use crate::inert::facts::InertFacts;
use crate::program::{ControllerSlot, DocSpec, FrameSpec, Program, PromiseSlot, ScriptId};
use crate::uuid::Uuid;
use crate::work::{CompletionSteps, Work};

mod labels;
mod render;

pub(crate) use labels::push_decimal;
use labels::{block_creator, block_label};

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
    pub execute: crate::callback::ToolExecute,
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
    pub ontoolchange: Option<(DocId, crate::callback::Callback)>,
    /// The event listeners a page-script engine keeps on this ModelContext (JavaScript pages'
    /// `addEventListener` and `on…` attributes), if any.
    pub engine_listeners: Option<crate::callback::EngineListeners>,
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

/// WebMCP "pending tool execution".
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PendingToolExecution {
    pub caller_document: Caller,
    pub target_document: DocId,
    pub tool_name: Rc<str>,
    pub completion_steps: CompletionSteps,
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
    /// While exploring a scenario with pages: a page did something the search had assumed no
    /// page does (`crate::inert::learned`), so the search must start again. Never leaves
    /// `webmcp::explore`.
    Contradicted,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Choose(e) => write!(f, "{e}"),
            RunError::NotModelled(m) => write!(f, "not modelled: {m}"),
            RunError::Scenario(m) => write!(f, "{m}"),
            RunError::Contradicted => {
                write!(f, "simulator bug: a learned inert-task fact was contradicted outside the search")
            }
        }
    }
}

impl std::error::Error for RunError {}

/// Where the steps now running are.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Context {
    EventLoop(LoopId),
    InParallel,
    AgentQueue,
    User,
    Setup,
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
pub(crate) static TIME_LANE: std::sync::LazyLock<sched::Lane> = std::sync::LazyLock::new(|| sched::Lane::new("time"));
static SETUP_LANE: std::sync::LazyLock<sched::Lane> = std::sync::LazyLock::new(|| sched::Lane::new("setup"));

/// The lane of the unit now running. A lane the world lists keeps its label there, so a step
/// copies no label (`Sim::current_lane` looks it up when a block is started or the unit is
/// recorded).
#[derive(Clone, Debug)]
pub(crate) enum Running {
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
pub struct ParStarted(pub(crate) Vec<StartedCount>);

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
pub(crate) enum BlockCounter {
    /// `EventLoop::blocks_started` of the task's loop, at its source.
    Task(LoopId, TaskSource),
    /// `UserQueue::blocks_started`.
    User,
}

/// The simulator state.
pub struct Sim<'p> {
    pub(crate) program: &'p Program,
    pub(crate) world: World<Work>,
    /// Each document's associated ModelContext's internal context (by document index).
    pub(crate) model_contexts: Shared<Vec<Shared<ModelContext>>>,
    /// Each traversable's pending tool executions map (by navigable index; empty for non-traversables).
    pub(crate) pending_tool_executions: Shared<litemap::LiteMap<NavId, Vec<(Uuid, PendingToolExecution)>>>,
    pub(crate) promise_slots: Shared<Vec<Option<PromiseId>>>,
    /// Labels of API promises, for the outcome.
    pub(crate) promise_labels: Shared<PromiseLabels>,
    pub(crate) context: Context,
    /// The lane of the unit now running (in-parallel blocks are named after it; see
    /// `current_lane`).
    pub(crate) running: Running,
    /// Where the running unit's lane counts the blocks it starts, if not in `par_started`.
    pub(crate) current_counter: Option<BlockCounter>,
    /// The `Resource::QueuedTask` hash of the task the last unit took from the head of its queue
    /// (None: the unit was no queued task, or it skipped one), for the stateless search, which
    /// orders the take before the append of the task behind it (`SimModel::step`). Set at the
    /// start of every unit, so it is not state.
    pub(crate) taken_task: Option<u32>,
    /// Name queued tasks for `Resource::QueuedTask` (`taken_task` and the append's bit): set by
    /// the stateless search, the only one that reads them, so that runs and the stateful search
    /// do not hash a task on every take and append.
    pub(crate) name_queued_tasks: bool,
    /// In-parallel blocks started so far by lanes other than task lanes and the user's (which
    /// count theirs in `EventLoop::blocks_started` and `UserQueue::blocks_started`), per
    /// starting lane (see `ParStarted`).
    pub(crate) par_started: Shared<ParStarted>,
    /// The labels of the blocks that the user's lane (index 0) and task lanes (index
    /// `1 + browser::task_lane_index`) have started, by number: made once, shared
    /// by every copy of the simulator (not state: each label follows from its lane and number).
    pub(crate) block_labels: Rc<std::cell::RefCell<Vec<Vec<sched::Lane>>>>,
    /// What the running unit touched.
    pub(crate) footprint: Footprint,
    /// The step that invoked the algorithm now running (`crate::call_site`), for findings. Set
    /// at the start of every unit and microtask, so it is not state.
    pub(crate) call_site: Option<Step>,
    /// Record trace units and events (off while exploring).
    pub record: bool,
    /// While exploring: run inert tasks when they are queued (`crate::inert`), with what the
    /// scenario's scripts can ever do. None: queue every task (runs, replays, the naive search).
    pub(crate) eager_inert: Option<Rc<InertFacts>>,
    /// In the faithful run of a search's witness (`explore::faithful_schedule`): note on each
    /// task queued whether it is inert under these facts now, as the search decided when it
    /// queued it (`browser::Task::inert_when_queued`); a task that was not may be by the time
    /// it heads its queue (its document back from the back/forward cache).
    pub(crate) note_inert: Option<Rc<InertFacts>>,
    /// The pending tool executions maps are kept in uuid order and their entries are footprinted
    /// one by one (`Resource::PendingEntry`): true when no step of the scenario can unload a
    /// document, so that the unloading document cleanup steps, the only steps that iterate a
    /// map, never run and nothing can tell the order entries were set in (docs/model.md).
    pub(crate) pending_keyed: bool,
    /// While a tool execution's task runs during exploration (`crate::inert`): its uuid and how
    /// many objects it has made, so that they are numbered from the execution
    /// (`PerRealm::SCOPED`), not from the order executions run in. None between units.
    pub(crate) scope: Option<(Uuid, u32)>,
    /// While inert tasks run (`Sim::queue_global_task`): the inert tasks they queued, which run
    /// after them, each as its own task. None between units.
    pub(crate) eager_queue: Option<std::collections::VecDeque<(DocId, Work)>>,
    /// A task's script stopped after a registerTool statement (variant
    /// `in-parallel-reads-mid-task`, `Sim::run_task_script`): the document, the script and the
    /// statement to go on from, which the run loop keeps as the suspended rest of the task.
    /// None between units.
    pub(crate) suspended_script: Option<(DocId, ScriptId, u32)>,
    /// HTML's about-to-be-notified rejected promises lists of the action language's realms: the
    /// document and the rejection reason of each promise a `then` made whose reaction threw
    /// (`Sim::run_promise_reaction`). A reaction is a microtask, and the checkpoint that runs it
    /// empties the list (step 4, `Sim::notify_about_rejected_promises`): empty between units.
    pub(crate) about_to_be_notified: Vec<(DocId, browser::JsValue)>,
    /// Units run so far (recorded or not).
    pub units_run: usize,
    /// Moments nothing could run: time advanced or, fetches waiting, had nowhere to go (not state).
    pub(crate) moments: u64,
    // Trace.
    pub(crate) units: Vec<trace::Unit>,
    pub(crate) events: Vec<Event>,
    /// The findings recorded so far, shared between copies (see `Findings`).
    pub(crate) findings: Findings,
    /// What few units change, as one shared part (see `Seldom`).
    pub(crate) seldom: Shared<Seldom>,
    /// The engine that runs the program's page scripts (`crate::script::Engine`), if it has any.
    /// Not state that a copy can own: a program with page scripts is never explored.
    pub(crate) engine: Option<Rc<dyn for<'s> crate::callback::Engine<Sim<'s>>>>,
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
            taken_task: self.taken_task,
            name_queued_tasks: self.name_queued_tasks,
            par_started: self.par_started.clone(),
            block_labels: self.block_labels.clone(),
            footprint: self.footprint,
            call_site: self.call_site,
            record: self.record,
            eager_inert: self.eager_inert.clone(),
            note_inert: self.note_inert.clone(),
            pending_keyed: self.pending_keyed,
            scope: self.scope,
            eager_queue: self.eager_queue.clone(),
            suspended_script: self.suspended_script,
            about_to_be_notified: self.about_to_be_notified.clone(),
            units_run: self.units_run,
            moments: self.moments,
            units: clone_list(&self.units),
            events: clone_list(&self.events),
            findings: self.findings.clone(),
            seldom: self.seldom.clone(),
            engine: self.engine.clone(),
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
    pub(crate) controller_slots: Vec<Option<SignalId>>,
    /// The console (see `console_line`).
    pub(crate) console: Vec<ConsoleLine>,
    /// The uuids the browser's agent has created (see `new_uuid`).
    pub(crate) agent_uuids: u32,
    /// Navigables by scenario name (not hashed: it follows from the navigables' names).
    pub(crate) nav_by_name: BTreeMap<String, NavId>,
    pub(crate) uncaught: Vec<ConsoleLine>,
    pub(crate) agent_calls: u32,
    pub(crate) agent_results: Vec<String>,
    /// The label of each agent call (its `as` name, or `call #N`; not hashed: it follows from
    /// the program and `agent_calls`).
    pub(crate) agent_call_labels: Vec<String>,
    pub(crate) latest_observation: BTreeMap<NavId, Observation>,
    /// The index of the first agent step not yet on the AI agent queue: the steps after an
    /// `awaitResult` are queued only once the awaited result has reached the agent.
    pub(crate) agent_next_step: u32,
    /// The call whose result the agent waits for (`awaitResult` ran before the result came).
    pub(crate) agent_waiting: Option<u32>,
    /// Each result that has reached the agent: the call's number, and its result (None: failed).
    pub(crate) agent_received: Vec<(u32, Option<String>)>,
    /// Variant `cancelled-executions` (finding 5's fix): each traversable's cancelled executions
    /// set, the uuids cancel step 2 found no entry for (part of the traversable's pending state:
    /// read and written under `Resource::Pending`).
    pub(crate) cancelled_executions: Vec<(NavId, Uuid)>,
    /// How many times each event a `count` expectation names fired at each document (only
    /// those events: `Program::counted_events`).
    pub(crate) event_counts: Vec<(DocId, &'static str, u32)>,
    /// The promises a WebMCP method gave page script (the engine mirrors them), each with the
    /// page call site it was made at when its settling may be an inert task (`registerTool`
    /// without a signal, `getTools`; `crate::inert::learned`), else None. Not hashed: a
    /// scenario with pages is explored by the stateless search only.
    pub(crate) page_promises: BTreeMap<PromiseId, Option<Rc<str>>>,
    /// While exploring a scenario with pages: each document a task was run early for (as inert,
    /// `Sim::run_inert_task`), with the virtual time of the latest such task. Unloading the
    /// document at that same time contradicts a learned fact (`Sim::learn_unloaded`). Not
    /// hashed, as `page_promises`.
    pub(crate) inert_posted_at: BTreeMap<DocId, u64>,
    /// The navigables `window.open` made or chose: target names, openers, is closing
    /// (`crate::window_open`).
    pub(crate) opened: crate::window_open::opened::OpenedWindows,
    /// How many iframes page script has inserted into each navigable's documents, for the
    /// names of those without a `name` (`Sim::script_insert_iframe`). Not hashed, as
    /// `page_promises`: only pages insert iframes.
    pub(crate) inserted_iframes: BTreeMap<NavId, u32>,
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
        self.agent_next_step.hash(state);
        self.agent_waiting.hash(state);
        self.agent_received.hash(state);
        self.cancelled_executions.hash(state);
        self.event_counts.hash(state);
        self.opened.hash(state);
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
        if program.has_page_scripts() && program.has_variant(scenario::Variant::InParallelReadsMidTask) {
            return Err(RunError::NotModelled(format!(
                "the variant {} is not modelled for JavaScript pages: the engine runs a script to its end and cannot suspend it after a registerTool call; write the scenario in the action language",
                scenario::Variant::InParallelReadsMidTask
            )));
        }
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
            taken_task: None,
            name_queued_tasks: false,
            par_started: Default::default(),
            block_labels: Default::default(),
            footprint: Footprint::default(),
            call_site: None,
            record: true,
            eager_inert: None,
            note_inert: None,
            pending_keyed: InertFacts::lifecycles_fixed(program),
            scope: None,
            eager_queue: None,
            suspended_script: None,
            about_to_be_notified: Vec::new(),
            units_run: 0,
            moments: 0,
            units: Vec::new(),
            events: Vec::new(),
            findings: Findings::default(),
            seldom: Shared::new(Seldom {
                controller_slots: vec![None; program.controller_names.len()],
                ..Seldom::default()
            }),
            engine: None,
        };
        sim.attach_engine()?;
        for tab in &program.tabs {
            let nav = match &tab.opener {
                None => sim.world.create_navigable(&tab.id, None, ContainerAttributes::default()),
                // Opened by an earlier tab's page (validated): HTML "create a new auxiliary
                // browsing context and document" 2 (its opener's browsing context group) and 7
                // (its opener browsing context), as `window.open(url)` without a name would.
                Some(opener) => {
                    let Some(&opener) = sim.seldom.nav_by_name.get(opener.as_str()) else {
                        return Err(RunError::Scenario(format!(
                            "tab {:?}: its opener {opener:?} is not an earlier tab (give `opener` the id of a tab listed before it)",
                            tab.id
                        )));
                    };
                    let nav = sim.world.create_auxiliary_traversable(&tab.id, opener);
                    let opened = crate::window_open::opened::OpenedWindow {
                        opener: Some(opener),
                        created_by_web_content: true,
                        ..Default::default()
                    };
                    sim.seldom.opened.insert(nav, opened);
                    nav
                }
            };
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
        sim.enqueue_agent_steps_from(0);
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
        self.footprint.touch(Resource::Documents, true);
        self.append_initial_entry(nav, doc);
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

    pub(crate) fn create_iframe(&mut self, container_document: DocId, frame: &FrameSpec) -> Result<NavId, RunError> {
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
        if !self.program.ops(script).is_empty() || self.program.page_script(script).is_some() {
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
    /// The message is made into a shared text once per run (`Findings::message`).
    pub fn spec_assert(&mut self, holds: bool, step: Step, message: &'static str) {
        if !holds {
            self.spec_assert_failed(step, self.findings.message((message, ""), || message.to_string()));
        }
    }

    /// Records a failed spec `Assert:` (`spec_assert`) whose message is made already.
    pub(crate) fn spec_assert_failed(&mut self, step: Step, message: Rc<str>) {
        if self.record {
            let message = match self.call_site.map(cite) {
                Some(from) => format!("{message} (reached from {from})"),
                None => message.to_string(),
            };
            self.event(step, EventKind::AssertFailed { message });
        }
        self.findings.push(Recorded { unit: self.units_run, step, message, called_from: self.call_site });
    }

    pub fn assert_in_parallel(&mut self, step: Step) {
        let holds = self.context == Context::InParallel;
        self.spec_assert(holds, step, "these steps are running in parallel");
    }

    pub fn assert_on_event_loop_of(&mut self, doc: DocId, step: Step) {
        let holds = self.context == Context::EventLoop(self.world.doc_info(doc).event_loop);
        if !holds {
            let msg = format!("these steps are running on {}'s relevant agent's event loop", self.label(doc));
            self.spec_assert_failed(step, msg.into());
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
        // The task it is appended behind, if any (else the append makes the lane runnable):
        // the stateless search orders the take of that task before this append
        // (`Resource::QueuedTask`).
        let behind = if self.name_queued_tasks {
            self.world.event_loops[el.index()].queues.iter().filter(|(s, _)| *s == source).last()
        } else {
            None
        };
        if let Some((_, last)) = behind {
            let hash = Footprint::task_hash(el, source, last.document, &last.steps);
            self.footprint.touch(Resource::QueuedTask(hash), true);
        }
        if self.record {
            std::hint::cold_path();
            let lane = format!("{}.{}", self.world.event_loops[el.index()].label, source.label());
            let document = Some(self.label(doc));
            self.event(step, EventKind::Queued { lane, document });
        }
        let inert = self.note_inert.as_ref().map(|facts| self.inert_task(facts, doc, &work));
        self.world.queue_global_task_noting(source, doc, work, inert);
        false
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
        let seq = crate::inert::facts::scoped_number(*uuid, *made);
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
        self.start_block(work, step, false);
    }

    /// Queues the task that completes a navigation (`completion`) on the navigation and
    /// traversal task source of `source`, the navigating script's document: at once (the
    /// default, `options.network` "instant"), or, with "unbounded", when the navigation's fetch
    /// responds, an in-parallel block of its own (HTML "navigate" 23) that may be put off past
    /// every later timer (`net.wait`).
    pub fn queue_navigation_completion(&mut self, source: DocId, completion: Work, step: Step) {
        if self.program.network == scenario::NetworkModel::Unbounded {
            self.footprint.touch(Resource::Fetches, true);
            self.start_block(Work::NavigationResponse { source, completion: Rc::new(completion) }, step, true);
        } else {
            self.queue_global_task(TaskSource::NavigationAndTraversal, source, completion, step);
        }
    }

    /// Starts an in-parallel block (`in_parallel`), or a navigation's fetch (`fetch`), which
    /// the world lets be put off past virtual time advancing (`World::start_fetch`).
    fn start_block(&mut self, work: Work, step: Step, fetch: bool) {
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
        if self.world.parallel_mode == ParallelMode::Fifo && !fetch {
            self.footprint.touch(Resource::ParallelQueue, true);
        }
        let lane = if fetch { self.world.start_fetch(label, work) } else { self.world.start_in_parallel(label, work) };
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
}
