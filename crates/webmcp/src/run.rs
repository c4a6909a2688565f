//! The run loop, the dispatcher and the outcome: `run` turns a compiled scenario, a chooser and
//! limits into a `trace::Trace`; `Sim::run` and `Sim::step` ask the chooser which runnable lane
//! goes next and run its unit; `Sim::run_work` dispatches a unit of work to the algorithm, the
//! script interface, the user or the agent; `Sim::outcome` is what a run observably did.

use std::collections::BTreeMap;

use browser::{DocId, DocumentState, LaneRef, LoopId, NavId, PromiseId, PromiseState, TaskSource, Unit};
use scenario::Variant;
use sched::{Chooser, Recorder};
use trace::{EventKind, Finding, Outcome, PromiseOutcome};

use crate::callback::Callback;
use crate::cite::{
    cite, Step, AGENT_CALL, CANCEL, CLEANUP, EXECUTE_TOOL, GET_TOOLS, IMPERATIVE, NOTIFY, REGISTER_TOOL, UNREGISTER,
};
use crate::footprint::{Footprint, Resource};
use crate::kernel::{BlockCounter, Caller, Context, PromiseLabel, RunError, Running, Sim};
use crate::program::Program;
use crate::work::{CompletionSteps, HistoryHandling, Work};

/// A leak's role when the destroyed caller document is in another traversable than the map that
/// holds the entry (only the variant `cross-traversable-execution` puts it there).
pub const CALLER_IN_ANOTHER_TRAVERSABLE: &str = "caller in another traversable";

/// The spec text this model follows.
pub const SPEC_REVISION: &str =
    "WebMCP CG draft, reference copy shared/reference/webmcp-spec.md, with the seeds' consequentialHint";

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

/// Runs a compiled scenario to quiescence (or the unit limit) and returns its trace.
///
/// The trace does not say how choices were made: a seeded run and the replay of its schedule
/// give byte-identical traces.
pub fn run(program: &Program, chooser: &mut dyn Chooser, limits: Limits) -> Result<trace::Trace, RunError> {
    let mut recorder = Recorder::new(chooser);
    let mut sim = Sim::new(program)?;
    sim.run(&mut recorder, limits)?;
    let stopped = sim.units_run >= limits.max_units && !sim.is_quiescent();
    Ok(sim.into_trace(&recorder.schedule, stopped))
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

impl<'p> Sim<'p> {
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
            let was = self.world.now();
            let user = self.world.user_queue.next_wake_up(was);
            let Some(t) = self.world.advance_time() else { return };
            self.moments += 1;
            self.running = Running::Time;
            self.current_counter = None;
            // Fetches put off with nowhere for time to go arrive at once (`World::advance_time`);
            // that is the only way time stays: timers and windows wake up strictly later.
            let in_vain = t == was;
            let what = if !self.record {
                String::new()
            } else if in_vain {
                std::hint::cold_path();
                format!("virtual time has nowhere to advance to: the navigation responses put off arrive at {t} ms")
            } else {
                std::hint::cold_path();
                format!("virtual time advances to {t} ms")
            };
            // A timer came due, or (no timer by then) a timed user or agent step's window opened
            // or ended, or the fetches put off waited in vain.
            let cite = if in_vain {
                ("HTML", "navigate 23")
            } else if timer == Some(t) {
                ("HTML", "run steps after a timeout")
            } else if user == Some(t) {
                ("user", "window")
            } else {
                ("browser agent", "window")
            };
            self.record_unit(Vec::new(), None, what, cite);
            self.run_due_inert_timers();
        }
    }

    /// While exploring, runs the inert tasks that virtual time's advance queued (an inert tool
    /// execution's own timer, `crate::inert`), as `Sim::queue_global_task` runs an inert task it
    /// is given: at once, so that no schedule of the search picks one (the faithful model runs
    /// each as soon as it heads its queue, `explore::faithful_schedule`).
    fn run_due_inert_timers(&mut self) {
        let Some(facts) = self.eager_inert.clone() else { return };
        loop {
            let due = self.world.event_loops.iter().enumerate().find_map(|(i, el)| {
                el.queues
                    .iter()
                    .position(|(source, task)| {
                        source == TaskSource::Timer
                            && task.document.is_some_and(|doc| self.inert_task(&facts, doc, &task.steps))
                    })
                    .map(|at| (i, at))
            });
            let Some((i, at)) = due else { return };
            let task = self.world.event_loops[i].queues.remove(at);
            let doc = task.document.expect("an inert task has a document");
            self.run_inert_task(doc, task.steps);
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
        // The first task of the lane's queue, which a take that skips none takes (the stateless
        // search's `Resource::QueuedTask`).
        let first = match lane_ref {
            LaneRef::Task { event_loop, source }
                if self.name_queued_tasks && self.world.event_loops[event_loop.index()].suspended.is_none() =>
            {
                let queue = &self.world.event_loops[event_loop.index()].queues;
                queue
                    .iter()
                    .find(|(s, _)| *s == source)
                    .map(|(_, t)| Footprint::task_hash(event_loop, source, t.document, &t.steps))
            }
            _ => None,
        };
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
        let mut task_source = None;
        self.taken_task = None;
        let (event_loop, document, work) = match unit {
            Unit::Task { event_loop, task, source } => {
                self.context = Context::EventLoop(event_loop);
                // What the stateless search names the task by (`Resource::QueuedTask`), when it
                // was the head of its queue; a suspended task's rest was not appended.
                if self.name_queued_tasks && !matches!(task.steps, Work::ResumeScript { .. }) {
                    let hash = Footprint::task_hash(event_loop, source, task.document, &task.steps);
                    self.taken_task = (first == Some(hash)).then_some(hash);
                }
                self.footprint.touch(Resource::Loop(event_loop), true);
                task_source = Some(source);
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
                // It takes the step off the user's queue (and counts the blocks it starts there).
                self.footprint.touch(Resource::UserQueue, true);
                (None, None, steps)
            }
            // The agent or the user puts off its next step (which has a window) until virtual time
            // advances.
            // The agent's queue has no bit of its own, so `agent.wait` counts as touching
            // everything (as every agent step does: sound, and only agent windows pay for it).
            Unit::AgentWait => {
                self.footprint.touch(Resource::Global, true);
                let what = "the agent waits: its next step happens later in its window";
                return Ok(self.wait_unit(choice_among, what, ("browser agent", "window")));
            }
            // `net.wait` touches only the fetches in flight (whether they were put off).
            Unit::NetWait => {
                self.context = Context::InParallel;
                self.footprint.touch(Resource::Fetches, true);
                let what =
                    "the network waits: every navigation response in flight arrives after virtual time next advances";
                return Ok(self.wait_unit(choice_among, what, ("HTML", "navigate 23")));
            }
            // `user.wait` touches only the user's queue (whether its next step was put off).
            Unit::UserWait => {
                self.context = Context::User;
                self.footprint.touch(Resource::UserQueue, true);
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
        // event loop then reach one state in either order. (Runs and replays number in order,
        // and so does the stateless search of pages, which compares no states: a page's
        // bindings pass numbers as JavaScript numbers, which a scoped number does not fit.)
        if let (Some(_), Work::ToolExecuteSteps { uuid, .. }, false) =
            (&self.eager_inert, &work, self.program.has_page_scripts())
        {
            self.scope = crate::inert::facts::scoped_number_fits(*uuid).then_some((*uuid, 0));
        }
        self.call_site = self.invoked_at(&work);
        let resumes = matches!(work, Work::ResumeScript { .. });
        let ran = self.run_work(work);
        self.scope = None;
        ran?;
        if let (true, Some(el)) = (resumes || self.suspended_script.is_some(), event_loop) {
            // Suspending a task keeps the loop's other lanes from running a queued task, and
            // resuming it lets them again: a task queued on the loop meanwhile becomes runnable
            // only when both have happened, so the two units read every queue of the loop (a
            // queued task writes its queue), which orders them for the searches (docs/model.md).
            for source in TaskSource::ALL {
                self.footprint.touch(Resource::Queue(el, source), false);
            }
        }
        if let Some((doc, script, from)) = self.suspended_script.take() {
            // The task stops mid-script (variant `in-parallel-reads-mid-task`): its event loop
            // stays busy with the rest, and no microtask checkpoint runs (HTML's "clean up after
            // running script" performs one only once the script is done).
            let (Some(el), Some(source)) = (event_loop, task_source) else {
                return Err(RunError::NotModelled("simulator bug: a script was suspended outside a task".into()));
            };
            let rest = browser::Task {
                document: Some(doc),
                steps: Work::ResumeScript { doc, script, from },
                inert_when_queued: None,
            };
            self.world.suspend_task(el, source, rest);
        } else if let Some(el) = event_loop {
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
    ///
    /// A page-script engine's own promise jobs are microtasks of the same event loop: one runs
    /// whenever the simulator's queue is empty, until neither has any (so a job runs after the
    /// simulator's microtasks queued before it, and before those queued after it only if they
    /// were queued by it; docs/model.md, "JavaScript pages").
    fn perform_a_microtask_checkpoint(&mut self, el: LoopId) -> Result<(), RunError> {
        loop {
            while let Some(work) = self.world.take_microtask(el) {
                if self.record {
                    std::hint::cold_path();
                    let (what, step) = self.describe(&work);
                    self.event(step, EventKind::Note { message: format!("microtask: {what}") });
                }
                self.call_site = self.invoked_at(&work);
                self.run_work(work)?;
            }
            if self.engine.is_none() || !self.run_one_engine_job(el) {
                break;
            }
        }
        // Step 4. For each environment settings object settingsObject whose responsible event loop is this event loop, notify about rejected promises given settingsObject's global object.
        // The action language's realms: the promises a `then` made whose reaction threw.
        self.notify_about_rejected_promises(el);
        if let Some(engine) = self.engine() {
            engine.notify_about_rejected_promises(self, el);
        }
        Ok(())
    }

    /// A user or agent step put off until virtual time advances (`user.wait`, `agent.wait`), with
    /// the footprint the caller noted.
    fn wait_unit(&mut self, choice_among: Vec<String>, what: &str, step: Step) -> Footprint {
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

    /// An inert task, run now instead of queued (`crate::inert`): it commutes with every unit, so
    /// this is one of the schedules the queued task allows. Its steps touch nothing another unit
    /// touches, so the posting unit's footprint notes nothing. An inert task queued by an inert
    /// task runs after it, as a task of its own (its event loop's microtask checkpoint between).
    pub fn run_inert_task(&mut self, doc: DocId, work: Work) {
        // A scenario with pages: the faithful model has this task queued for `doc` until it
        // runs, at the latest before virtual time next advances (`crate::inert::learned`). An
        // inert `toolchange` nobody counts does nothing, run or removed unrun: not noted.
        let does_nothing =
            matches!(work, Work::FireToolchange { .. }) && !self.program.counted_events.contains(&"toolchange");
        if !does_nothing && self.eager_inert.as_ref().is_some_and(|facts| facts.learned.is_some()) {
            let now = self.world.now();
            self.seldom.inert_posted_at.insert(doc, now);
        }
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
            // A page's promise resolved early (`crate::inert::learned`): its one reaction, the
            // engine's mirror, is a microtask of its event loop, run here when the task was
            // queued from elsewhere (an in-parallel block, another event loop), and at the
            // checkpoint of the task that queued it when that task runs on the same loop.
            let mirrored = matches!(&work, Work::SettlePromise { promise, .. } if self.seldom.page_promises.contains_key(promise))
                && outer.0 != Context::EventLoop(el);
            self.context = Context::EventLoop(el);
            self.run_work_unchecked(work);
            if mirrored {
                if let Err(e) = self.perform_a_microtask_checkpoint(el) {
                    note!(self, ("webmcp-sim", "internal"), "{e}");
                }
            }
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
}

/// The dispatcher: each unit of work to the steps it stands for.
impl Sim<'_> {
    /// Dispatches `Work` that is not a whole unit (abort algorithms, listeners): errors are impossible here.
    /// Its call site is the work's own (`invoked_at`), as when it runs as a unit, so an inert
    /// task run when queued reports the same findings as when it runs later.
    pub fn run_work_unchecked(&mut self, work: Work) {
        let outer = self.call_site;
        self.call_site = self.invoked_at(&work);
        if let Err(e) = self.run_work(work) {
            note!(self, ("webmcp-sim", "internal"), "{e}");
        }
        // Only a task's own script is suspended (`Sim::run_task_script`), never work run here.
        if self.suspended_script.take().is_some() {
            note!(self, ("webmcp-sim", "internal"), "simulator bug: work that is not a task was suspended");
        }
        self.call_site = outer;
    }

    pub fn run_work(&mut self, work: Work) -> Result<(), RunError> {
        match work {
            Work::RunScript { doc, script } | Work::Timer { doc, script } => self.run_task_script(doc, script, 0),
            Work::ResumeScript { doc, script, from } => self.run_task_script(doc, script, from),
            Work::RunResourceScript { doc, script, container, on_load } => {
                self.run_script(doc, script);
                self.queue_iframe_load_event(container, on_load);
            }
            Work::SettleLater { promise, settle } => self.run_tool_timer(promise, settle),
            Work::Then { doc, promise, on_fulfilled, on_rejected } => {
                let fulfilled = matches!(self.world.promises[promise].state, PromiseState::Fulfilled(_));
                self.run_promise_reaction(doc, if fulfilled { on_fulfilled } else { on_rejected });
            }
            Work::NotifyRejectedPromises { doc, reasons } => self.report_rejected_promises(doc, reasons),
            Work::SettlePromise { promise, result, step } => self.settle(promise, result, step),
            Work::RegisterToolInParallel { tool_owner, exposed_origins, promise } => {
                self.register_tool_in_parallel(tool_owner, &exposed_origins, promise)
            }
            Work::NotifyInParallel { tool_owner, exposed_origins } => {
                self.notify_documents_of_a_tool_change(tool_owner, &exposed_origins)
            }
            Work::FireToolchange { doc } => self.fire_toolchange(doc),
            Work::GetToolsInParallel { requestor, from_origins, promise } => {
                self.get_tools_in_parallel(requestor, &from_origins, promise)
            }
            Work::ExecuteToolInParallel {
                caller,
                target,
                expected_target_origin,
                tool_name,
                input_arguments,
                promise,
                uuid,
            } => self.execute_tool_in_parallel(
                caller,
                target,
                &expected_target_origin,
                tool_name,
                input_arguments,
                promise,
                uuid,
            ),
            Work::ToolExecuteSteps { tool_name, target, input_arguments, completion, uuid } => {
                self.tool_execute_steps(&tool_name, target, &input_arguments, completion, uuid)
            }
            Work::ReactToToolPromise { target, tool_promise, completion, uuid } => {
                self.react_to_tool_promise(target, tool_promise, completion, uuid)
            }
            // The block's call site is the step that started it (`from`), set with the unit.
            Work::CompletionInParallel { completion, result, success, from: _ } => {
                let step = ("webmcp-sim", "variant completion-steps-in-parallel");
                match (&result, success) {
                    (Some(r), true) => note!(self, step, "run completionSteps given {r:?} and true"),
                    _ => self.note(step, "run completionSteps given null and false"),
                }
                self.completion_steps(completion, result, success)
            }
            Work::CancelInParallel { traversable, uuid } => self.cancel_a_pending_tool_execution(traversable, uuid),
            Work::CancelLocal { target, uuid, tool_name } => self.cancel_local(target, uuid, &tool_name),
            Work::UnloadCleanupInParallel { document, traversable } => {
                self.unloading_document_cleanup_in_parallel(document, traversable)
            }
            Work::AbortUnregister { model_context, tool_name, promise, signal } => {
                self.register_tool_abort_steps(model_context, &tool_name, promise, signal)
            }
            Work::AbortExecution { promise, signal, traversable, uuid } => {
                self.execute_tool_abort_steps(promise, signal, traversable, uuid)
            }
            Work::AbortRejectsToolPromise { promise, signal } => self.tool_promise_aborted(promise, signal),
            Work::AbortListener { doc, script } => self.run_callback(doc, script, "abort listener"),
            Work::LogAbortReason { doc, signal } => self.run_abort_reason_logger(doc, signal),
            Work::CompleteNavigation { navigation } => {
                let program = self.program;
                self.navigate(&program.navigations[navigation.0 as usize])?
            }
            Work::CompleteScriptNavigation { navigable, url, history_handling } => {
                self.complete_script_navigation(navigable, &url, history_handling)?
            }
            Work::NavigationResponse { source, completion } => self.navigation_response(source, &completion),
            Work::TraverseHistoryByDelta { traversable, delta, source } => {
                self.traverse_history_in_parallel(traversable, delta, source)
            }
            Work::ApplyHistoryStep { navigable, entry_step } => self.apply_history_step_task(navigable, entry_step)?,
            Work::UpdateDocumentForHistoryStep { doc } => self.update_document_for_history_step_application(doc),
            Work::User { script, index } => self.run_user_step(script, index)?,
            Work::Agent { index } => self.run_agent_step(index)?,
            Work::EngineCallback { doc, callback, what } => self.run_callback(doc, Callback::Engine(callback), what),
            Work::EngineSettle { promise } => self.engine_promise_settled(promise),
            Work::AbortSignalTimeout { signal } => self.abort_signal_timeout(signal),
            Work::AgentResult { call, result, success } => {
                let label = self
                    .seldom
                    .agent_call_labels
                    .get(call as usize)
                    .cloned()
                    .unwrap_or_else(|| format!("call #{call}"));
                let text = match (&result, success) {
                    (Some(r), true) => format!("{label} succeeded: {r}"),
                    _ => format!("{label} failed"),
                };
                self.note((AGENT_CALL, "result"), text.clone());
                self.seldom.agent_results.push(text);
                self.agent_result_received(call, if success { result } else { None });
            }
        }
        Ok(())
    }

    /// What a piece of work is, for the trace's unit line.
    pub fn describe(&self, work: &Work) -> (String, (&'static str, &'static str)) {
        match work {
            Work::RunScript { .. } => ("run the document's script".into(), ("HTML", "run a classic script")),
            Work::RunResourceScript { .. } => {
                ("run the script of the document an iframe loaded".into(), ("HTML", "run a classic script"))
            }
            Work::Timer { .. } => ("run a setTimeout callback".into(), ("HTML", "timer initialization steps")),
            Work::ResumeScript { from, .. } => (
                format!("the suspended task goes on: its script from statement {}", from + 1),
                (Variant::InParallelReadsMidTask.name(), "resume"),
            ),
            Work::SettleLater { .. } => {
                ("the tool's timer settles its promise".into(), ("HTML", "timer initialization steps"))
            }
            Work::Then { .. } => ("promise reaction".into(), ("ECMAScript", "PromiseReactionJob")),
            Work::NotifyRejectedPromises { .. } => {
                ("report the rejected promises nobody handled".into(), ("HTML", "notify about rejected promises 4"))
            }
            Work::SettlePromise { promise, result, step } => {
                let verb = if result.is_ok() { "resolve" } else { "reject" };
                (format!("{verb} {}", self.promise_label(*promise)), *step)
            }
            Work::RegisterToolInParallel { .. } => {
                ("notify documents, then queue the resolve task".into(), (REGISTER_TOOL, "21"))
            }
            Work::NotifyInParallel { .. } => ("notify documents of a tool change".into(), (UNREGISTER, "7")),
            Work::FireToolchange { .. } => ("fire toolchange".into(), (NOTIFY, "3.3")),
            Work::GetToolsInParallel { .. } => ("collect exposed tools".into(), (GET_TOOLS, "9")),
            Work::ExecuteToolInParallel { tool_name, .. } => {
                (format!("route the call to tool {tool_name:?}"), (EXECUTE_TOOL, "15"))
            }
            Work::ToolExecuteSteps { tool_name, completion: CompletionSteps::Agent { .. }, .. } => {
                (format!("tool execute steps for {tool_name:?}"), (AGENT_CALL, "4"))
            }
            Work::ToolExecuteSteps { tool_name, .. } => {
                (format!("tool execute steps for {tool_name:?}"), (EXECUTE_TOOL, "15.13"))
            }
            Work::ReactToToolPromise { .. } => ("react to toolPromise".into(), (IMPERATIVE, "9")),
            Work::CompletionInParallel { .. } => {
                ("completion steps".into(), ("webmcp-sim", "variant completion-steps-in-parallel"))
            }
            Work::CancelInParallel { .. } => ("cancel a pending tool execution".into(), (EXECUTE_TOOL, "14.4.2")),
            Work::CancelLocal { .. } => ("abort the tool's local execution".into(), (CANCEL, "6")),
            Work::UnloadCleanupInParallel { document, .. } => {
                (format!("clean up executions of {}", self.label(*document)), (CLEANUP, "2"))
            }
            Work::AbortUnregister { .. } => ("abort steps: unregister the tool".into(), (REGISTER_TOOL, "18.3")),
            Work::AbortExecution { .. } => ("abort steps: reject and cancel".into(), (EXECUTE_TOOL, "14.4")),
            Work::AbortRejectsToolPromise { .. } => ("the tool rejects on abort".into(), ("tool", "execute")),
            Work::AbortListener { .. } | Work::LogAbortReason { .. } => {
                ("abort event listener".into(), ("DOM", "signal abort 4.3"))
            }
            Work::CompleteNavigation { navigation } => {
                let spec = &self.program.navigations[navigation.0 as usize];
                (
                    format!("navigate {} to {} (started by a script)", spec.navigable, spec.document.url),
                    ("HTML", "navigate"),
                )
            }
            Work::CompleteScriptNavigation { navigable, url, history_handling } => {
                let step = if *history_handling == HistoryHandling::Reload { "reload 4" } else { "navigate 23" };
                (
                    format!(
                        "navigate {} to {url} (started by a page's Location, historyHandling {:?})",
                        self.world.nav(*navigable).name,
                        history_handling.as_str()
                    ),
                    ("HTML", step),
                )
            }
            Work::NavigationResponse { completion, .. } => {
                let (what, _) = self.describe(completion);
                (format!("the response of a navigation's fetch arrives ({what})"), ("HTML", "navigate 23"))
            }
            Work::TraverseHistoryByDelta { traversable, delta, .. } => (
                format!("traverse the session history of {} by {delta}", self.world.nav(*traversable).name),
                ("HTML", "traverse the history by a delta 4"),
            ),
            Work::ApplyHistoryStep { navigable, entry_step } => (
                format!("{} goes to its session history entry at step {entry_step}", self.world.nav(*navigable).name),
                ("HTML", "apply the history step 12"),
            ),
            Work::UpdateDocumentForHistoryStep { doc } => {
                (format!("{} is shown again: pageshow", self.label(*doc)), ("HTML", "apply the history step 14.12.5"))
            }
            Work::User { script, index } => (self.describe_user_step(*script, *index), ("user", "browser UI")),
            Work::Agent { index } => (self.describe_agent_step(*index), ("browser agent", "AI agent queue")),
            Work::EngineCallback { what, .. } => (format!("run a page script's {what}"), ("HTML", "invoke a callback")),
            Work::EngineSettle { .. } => ("settle a page script's promise".into(), ("WebIDL", "react to a promise")),
            Work::AbortSignalTimeout { .. } => {
                ("signal abort: the signal timed out".into(), ("DOM", "AbortSignal.timeout 3.1"))
            }
            Work::AgentResult { call, .. } => {
                let label = self
                    .seldom
                    .agent_call_labels
                    .get(*call as usize)
                    .cloned()
                    .unwrap_or_else(|| format!("call #{call}"));
                (format!("agent receives the result of {label}"), (AGENT_CALL, "result"))
            }
        }
    }
}

/// The outcome: what a run observably did.
impl Sim<'_> {
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

    /// The role of a destroyed caller whose entry `traversable`'s pending tool executions map still
    /// holds: [`CALLER_IN_ANOTHER_TRAVERSABLE`] when the caller's unloading cleanup steps cannot see
    /// that map (they iterate the caller's own traversable's, step 2.2; only the variant
    /// `cross-traversable-execution`, issue #227, lets executeTool 15.12 set an entry in another,
    /// and under `cleanup-iterates-every-traversable`, finding 13's fix, they see every map),
    /// otherwise `caller`.
    pub(crate) fn caller_leak_role(&self, caller: DocId, traversable: NavId) -> &'static str {
        if self.world.traversable_of(caller) != traversable
            && !self.program.has_variant(Variant::CleanupIteratesEveryTraversable)
        {
            CALLER_IN_ANOTHER_TRAVERSABLE
        } else {
            "caller"
        }
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
                        gone.push(self.caller_leak_role(c, *traversable));
                    }
                }
                for role in gone {
                    // One message per role (the outcome's pending maps say which entry), so that
                    // `fuzz` and the outcome group leaks by what they are.
                    let message = if role == CALLER_IN_ANOTHER_TRAVERSABLE {
                        "leak across traversables: an entry set here outlives its caller document, which is \
                         destroyed: under the variant cross-traversable-execution (issue #227) it is in the \
                         target's traversable's map, and the caller's unloading cleanup steps iterate only the \
                         caller's traversable's map (their step 2.2), so they never cancelled the call and \
                         nothing will ever remove it"
                            .to_string()
                    } else {
                        format!(
                            "leak: an entry set here outlives its {role} document, which is destroyed: its \
                             unloading cleanup steps ran before this step, so nothing will ever remove it"
                        )
                    };
                    findings.push(Finding {
                        unit: self.units_run,
                        cite: cite((EXECUTE_TOOL, "15.12")),
                        message,
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

    pub(crate) fn into_trace(self, schedule: &sched::Schedule, stopped: bool) -> trace::Trace {
        let outcome = self.outcome(stopped);
        let documents = (0..self.world.document_count())
            .map(|i| {
                let id = browser::DocId(i as u32);
                let d = self.world.doc_info(id);
                trace::DocumentLegend {
                    label: d.label.clone(),
                    url: d.url.to_string(),
                    origin: d.origin.serialize(),
                    event_loop: self.world.event_loops[d.event_loop.index()].label.to_string(),
                    secure_context: d.secure_context,
                    tools_allowed: browser::policy::is_feature_enabled_in_document_for_origin(
                        browser::policy::TOOLS,
                        &d.policy,
                        &d.origin,
                        &d.origin,
                    ),
                }
            })
            .collect();
        let event_loops = self
            .world
            .event_loops
            .iter()
            .enumerate()
            .map(|(i, el)| trace::LoopLegend {
                label: el.label.to_string(),
                agent_cluster: el.cluster.to_string(),
                documents: self
                    .world
                    .documents()
                    .filter(|d| d.event_loop.index() == i)
                    .map(|d| d.label.clone())
                    .collect(),
            })
            .collect();
        let options = self.program.spec_options();
        trace::Trace {
            version: trace::VERSION,
            scenario: self.program.name.clone(),
            options,
            spec_revision: SPEC_REVISION.to_string(),
            documents,
            event_loops,
            units: self.units,
            schedule: schedule.to_string(),
            outcome,
        }
    }
}
