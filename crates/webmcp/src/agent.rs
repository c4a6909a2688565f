//! The browser's agent: "perform an observation" on the AI agent queue, and agent-initiated tool
//! calls, which the spec leaves to the implementation (our model is in docs/model.md).

use browser::{DocumentState, TaskSource};

use crate::cite::{AGENT_CALL, OBSERVE};
use crate::kernel::{Caller, Context, PendingToolExecution, RunError, Sim};
use crate::program::{AgentInput, AgentStep};
use crate::work::{CompletionSteps, Work};
use scenario::Variant;

impl Sim<'_> {
    pub fn run_agent_step(&mut self, index: u32) -> Result<(), RunError> {
        let program = self.program;
        // `at` and `within` only said when the step may run (`browser::AgentQueue`).
        match program.agent[index as usize].untimed() {
            AgentStep::Observe(tab) => {
                let nav = self.seldom.nav_by_name[tab];
                self.perform_an_observation(nav);
            }
            AgentStep::CallTool { tab, navigable, name, input, as_ } => {
                let tab = self.seldom.nav_by_name[tab];
                let nav = self.seldom.nav_by_name[navigable];
                let label = match as_ {
                    Some(slot) => program.promise_names[slot.0 as usize].clone(),
                    None => format!("call #{}", self.seldom.agent_calls + 1),
                };
                self.seldom.agent_call_labels.push(label);
                let input = match input {
                    AgentInput::Json(text) => Ok(text.clone()),
                    AgentInput::FromResult { call, label } => self.received_result(*call).ok_or_else(|| {
                        format!("{label} failed, so there is no result to call the tool with: the call fails")
                    }),
                };
                self.agent_call_tool(tab, nav, name, input);
            }
            AgentStep::AwaitResult { call, label } => {
                if self.seldom.agent_received.iter().any(|(c, _)| c == call) {
                    interpretation!(
                        self,
                        (AGENT_CALL, "await"),
                        "the result of {label} has reached the agent: it goes on"
                    );
                    self.enqueue_agent_steps_from(index + 1);
                } else {
                    interpretation!(
                        self,
                        (AGENT_CALL, "await"),
                        "the agent waits for the result of {label} before its next step"
                    );
                    self.seldom.agent_waiting = Some(*call);
                }
            }
            // `untimed` took the window off.
            AgentStep::Timed { .. } => unreachable!("an agent step holds one window"),
        }
        Ok(())
    }

    pub fn describe_agent_step(&self, index: u32) -> String {
        describe_agent_step(&self.program.agent[index as usize])
    }

    /// Queues the agent's steps from `first` on the AI agent queue, up to and including the next
    /// `awaitResult` (the steps after it are queued when the awaited result reaches the agent:
    /// `agent_result_received`).
    pub(crate) fn enqueue_agent_steps_from(&mut self, first: u32) {
        let program = self.program;
        let mut index = first as usize;
        while let Some(step) = program.agent.get(index) {
            let work = Work::Agent { index: index as u32 };
            if first == 0 {
                // Setting up: a step may have a window of virtual time.
                self.world.enqueue_agent_step_within(work, step.window());
            } else {
                // After an `awaitResult`, which the validator lets no timed step follow.
                self.world.enqueue_on_agent_queue(work);
            }
            index += 1;
            if matches!(step, AgentStep::AwaitResult { .. }) {
                break;
            }
        }
        self.seldom.agent_next_step = index as u32;
    }

    /// A call's result reached the agent (its `AgentResult` unit): kept for `inputFromResult`,
    /// and if the agent waits for it, its next steps are queued.
    pub(crate) fn agent_result_received(&mut self, call: u32, result: Option<String>) {
        self.seldom.agent_received.push((call, result));
        if self.seldom.agent_waiting == Some(call) {
            self.seldom.agent_waiting = None;
            self.interpretation((AGENT_CALL, "await"), "the awaited result has reached the agent: it goes on");
            let next = self.seldom.agent_next_step;
            self.enqueue_agent_steps_from(next);
        }
    }

    /// The result of the agent's call number `call`, if it succeeded and has reached the agent.
    fn received_result(&self, call: u32) -> Option<String> {
        self.seldom.agent_received.iter().find(|(c, _)| *c == call).and_then(|(_, r)| r.clone())
    }
}

fn describe_agent_step(step: &AgentStep) -> String {
    match step {
        AgentStep::Observe(tab) => format!("observe {tab}"),
        AgentStep::CallTool { navigable, name, .. } => format!("call tool {name:?} of {navigable}"),
        AgentStep::AwaitResult { label, .. } => format!("await the result of {label}"),
        AgentStep::Timed { from, to, step } if from == to => format!("{} (at {from} ms)", describe_agent_step(step)),
        AgentStep::Timed { from, to, step } => format!("{} (within {from}..{to} ms)", describe_agent_step(step)),
    }
}

impl Sim<'_> {
    /// <https://webmachinelearning.github.io/webmcp/#perform-an-observation>
    pub fn perform_an_observation(&mut self, traversable: browser::NavId) {
        let a = OBSERVE;
        // Step 1. Assert: This algorithm is running in the browser agent's AI agent queue.
        let on_queue = self.context == Context::AgentQueue;
        self.spec_assert(on_queue, (a, "1"), "running in the browser agent's AI agent queue");
        let Some(active) = self.world.nav(traversable).active_document else { return };
        if self.world.doc(active).state == DocumentState::Bfcached {
            self.interpretation((a, "2"), "the tab's document is in the bfcache; the page the tab shows instead is not modelled, so there is nothing to observe");
            self.seldom.latest_observation.insert(traversable, Vec::new());
            let seen = format!("observation of {}: nothing (in the bfcache)", self.world.nav(traversable).name);
            self.seldom.agent_results.push(seen);
            return;
        }
        // Step 2. Assert: traversable's active document is fully active.
        let fully_active = self.world.is_fully_active(active);
        self.spec_assert(fully_active, (a, "2"), "traversable's active document is fully active");
        // Step 3. Let observation be a new observation.
        let mut observation = Vec::new();
        // Step 4. Let flat descendants be the inclusive descendant navigables of traversable's active document.
        let flat_descendants = self.world.inclusive_descendant_navigables(traversable);
        // Step 5. For each navigable descendant of flat descendants:
        for descendant in flat_descendants {
            // Step 5.1. Let document be descendant's active document.
            let Some(document) = self.world.nav(descendant).active_document else { continue };
            // Step 5.2. Let id be document's unique ID.
            // Step 5.3. Set observation's tool map[id] = document's … tool map's values.
            let tools: Vec<String> =
                self.model_contexts[document.index()].tool_map.iter().map(|(n, _)| n.to_string()).collect();
            note!(self, (a, "5.3"), "observation tool map[{}] = [{}]", self.label(document), tools.join(", "));
            observation.push((document, tools));
        }
        // Steps 6–7 are implementation-defined: the observation is kept for the agent's later calls,
        // and what the agent saw is part of the outcome (after its tool calls' results, in order).
        let seen: Vec<String> =
            observation.iter().map(|(d, tools)| format!("{}=[{}]", self.label(*d), tools.join(", "))).collect();
        let seen = format!("observation of {}: {}", self.world.nav(traversable).name, seen.join("; "));
        self.seldom.agent_results.push(seen);
        self.seldom.latest_observation.insert(traversable, observation);
    }

    /// An agent-initiated call of a tool it observed (not defined by the spec; see docs/model.md):
    /// the browser records a pending tool execution whose caller is the agent, and queues the tool
    /// execute steps on the target, as executeTool 15.10–15.13 do for a document caller.
    /// `input_arguments` is Err (why) when the step's `inputFromResult` names a call that failed.
    pub fn agent_call_tool(
        &mut self,
        tab: browser::NavId,
        navigable: browser::NavId,
        name: &str,
        input_arguments: Result<String, String>,
    ) {
        let a = AGENT_CALL;
        self.interpretation(
            (a, "1"),
            "the spec does not define how the browser's agent calls a tool; modelled on executeTool 15.10–15.13",
        );
        let call = self.seldom.agent_calls;
        self.seldom.agent_calls += 1;
        // `inputFromResult` naming a call that failed: nothing to send (Err says why).
        let input_arguments = match input_arguments {
            Ok(input) => input,
            Err(why) => {
                self.interpretation((a, "input"), why);
                self.world.enqueue_on_agent_queue(Work::AgentResult { call, result: None, success: false });
                return;
            }
        };
        let observed = self.seldom.latest_observation.get(&tab).and_then(|obs| {
            obs.iter()
                .find(|(d, tools)| self.world.doc_info(*d).navigable == navigable && tools.iter().any(|t| t == name))
                .map(|(d, _)| *d)
        });
        let Some(target) = observed else {
            note!(
                self,
                (a, "2"),
                "tool {name:?} of {} is not in the agent's latest observation of the tab",
                self.world.nav(navigable).name
            );
            self.world.enqueue_on_agent_queue(Work::AgentResult { call, result: None, success: false });
            return;
        };
        if self.world.doc(target).state == DocumentState::Destroyed {
            note!(self, (a, "2"), "{} was destroyed after the observation: the call fails", self.label(target));
            self.world.enqueue_on_agent_queue(Work::AgentResult { call, result: None, success: false });
            return;
        }
        if self.program.has_variant(Variant::InputSchemaValidation) {
            // Variant (issues #92, #289): the agent's input is validated like executeTool's.
            let schema = self.model_contexts[target.index()].tool(name).map(|t| t.input_schema.clone());
            if let Err(why) = crate::algorithms::execute::validate_input_against_input_schema(
                schema.as_deref().unwrap_or_default(),
                &input_arguments,
            ) {
                note!(self, (a, "2"), "variant input-schema-validation (issues #92, #289): {why}: the call fails");
                self.world.enqueue_on_agent_queue(Work::AgentResult { call, result: None, success: false });
                return;
            }
        }
        let uuid = self.new_uuid(None);
        let completion = CompletionSteps::Agent { target, call, uuid };
        let traversable = self.world.traversable_of(target);
        let tool_name: std::rc::Rc<str> = name.into();
        let execution = PendingToolExecution {
            caller_document: Caller::Agent(call),
            target_document: target,
            tool_name: tool_name.clone(),
            completion_steps: completion,
        };
        self.set_pending_execution(traversable, uuid, execution);
        note!(self, (a, "3"), "pending tool executions map[{}] set (caller: the agent)", self.uuid_label(uuid));
        if !self.world.is_fully_active(target) {
            note!(self, (a, "4"), "{} is not fully active: the task waits until it is", self.label(target));
        }
        self.queue_global_task(
            TaskSource::WebMcp,
            target,
            Work::ToolExecuteSteps { tool_name, target, input_arguments, completion, uuid },
            (a, "4"),
        );
    }
}
