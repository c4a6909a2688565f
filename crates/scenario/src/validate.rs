//! Semantic validation of a deserialized `Scenario`: the format version, navigable ids and the
//! references to them, promise and controller names, URLs, events, which lists user steps and
//! script statements may appear in, and the action limit. It lists every problem, each at a path
//! in the file.

use std::collections::BTreeMap;
use std::fmt;

use crate::diag::quoted;
use crate::model::{Action, AgentAction, ExecuteTool, Frame, Navigate, On, RegisterTool, Scenario, ToolRef};
use crate::path::JsonPath;
use crate::source::Anchor;
use crate::suggest::closest;

/// Most actions (script statements, user steps and agent steps, counted everywhere they nest)
/// in one scenario.
pub const MAX_ACTIONS: usize = 10_000;

/// How many names a hint lists before it stops with `…`.
const HINT_NAMES: usize = 20;

/// The actions the top-level `user` list may hold: the user's steps in the browser UI. Every
/// other action is a script statement, which needs a document to run in.
const USER_STEPS: [&str; 4] = ["navigate", "removeIframe", "enterBfcache", "restoreFromBfcache"];

/// The wrappers that give a user step a time (`user` list only).
/// The longest `setTimeout` delay: 2^31 - 1 ms, the largest WebIDL `long` (HTML's timeout).
pub const MAX_TIMEOUT_MS: u64 = i32::MAX as u64;

const TIMED_USER_STEPS: [&str; 2] = ["at", "within"];

/// One problem validation found in a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where the problem is.
    pub path: JsonPath,
    /// What is wrong.
    pub message: String,
    /// How to fix it, when we can tell.
    pub hint: Option<String>,
    /// Whether a diagnostic points at the value at `path` or at its key.
    pub(crate) anchor: Anchor,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

/// Every problem in `scenario`, in the order the scenario's text lists the places they are at
/// (references are checked against the names declared anywhere in the scenario).
pub fn validate(scenario: &Scenario) -> Vec<Problem> {
    let mut validator = Validator::default();
    validator.scenario(scenario);
    validator.finish()
}

/// Whether a navigable is a tab (top-level traversable) or an iframe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Tab,
    Iframe,
}

/// Which actions a list may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lane {
    /// The top-level `user` list: only user steps ([`USER_STEPS`]).
    User,
    /// A document script, a callback or a handler.
    Script,
}

/// What a reference must name.
#[derive(Clone, Copy, Debug)]
enum Wants {
    /// Any declared navigable.
    Navigable,
    /// A tab; the string names the action, for the message.
    Tab(&'static str),
    /// An iframe; the string names the action, for the message.
    Iframe(&'static str),
    /// A promise named with `as`.
    Promise,
    /// An `AbortController` made with `newAbortController`.
    Controller,
    /// A tool some `registerTool` registers (by name).
    Tool,
}

/// Names declared in one namespace, in declaration order.
struct Names<'s, T> {
    order: Vec<&'s str>,
    by_name: BTreeMap<&'s str, (T, JsonPath)>,
}

impl<T> Default for Names<'_, T> {
    fn default() -> Self {
        Self { order: Vec::new(), by_name: BTreeMap::new() }
    }
}

impl<'s, T> Names<'s, T> {
    /// Declares `name`; if it was declared before, returns where.
    fn declare(&mut self, name: &'s str, value: T, path: &JsonPath) -> Option<&JsonPath> {
        if self.by_name.contains_key(name) {
            return self.by_name.get(name).map(|(_, first)| first);
        }
        self.order.push(name);
        self.by_name.insert(name, (value, path.clone()));
        None
    }

    fn get(&self, name: &str) -> Option<&T> {
        self.by_name.get(name).map(|(value, _)| value)
    }
}

/// A reference to check once every name is known.
struct Use<'s> {
    wants: Wants,
    name: &'s str,
    path: JsonPath,
}

#[derive(Default)]
struct Validator<'s> {
    /// Where the walk is.
    path: JsonPath,
    navigables: Names<'s, Kind>,
    promises: Names<'s, ()>,
    controllers: Names<'s, ()>,
    /// The names of the tools `registerTool` actions register (repeats allowed).
    tools: Vec<&'s str>,
    uses: Vec<Use<'s>>,
    problems: Vec<Problem>,
    actions: usize,
    /// The agent's calls named with `as` so far, and the calls an `awaitResult` awaited so far
    /// (the agent's steps are walked in order).
    agent_calls: Vec<&'s str>,
    agent_awaited: Vec<&'s str>,
    /// Every tab's id, in order (a tab's `opener` names an earlier one).
    tab_ids: Vec<&'s str>,
}

impl<'s> Validator<'s> {
    fn scenario(&mut self, scenario: &'s Scenario) {
        if scenario.version != 1 {
            self.problem_at(
                "version",
                Anchor::Value,
                format!("unsupported format version {}", scenario.version),
                Some("this simulator reads format version 1".to_owned()),
            );
        }
        self.within("options", |v| {
            v.within("variants", |v| {
                let mut first_at = BTreeMap::new();
                for (index, variant) in scenario.options.variants.iter().enumerate() {
                    let Some(first) = first_at.get(variant) else {
                        first_at.insert(variant, index);
                        continue;
                    };
                    let hint = format!("it is already options.variants[{first}]");
                    v.path.push_index(index);
                    v.problem(Anchor::Value, format!("variant {} is listed twice", quoted(variant.name())), Some(hint));
                    v.path.pop();
                }
            });
        });
        self.tab_ids = scenario.tabs.iter().map(|tab| tab.id.as_str()).collect();
        self.each("tabs", &scenario.tabs, |v, tab| v.frame(tab, Kind::Tab));
        self.within("resources", |v| {
            for (path, resource) in &scenario.resources {
                v.within(path, |v| v.each("frames", &resource.frames, |v, child| v.frame(child, Kind::Iframe)));
            }
        });
        self.actions("user", &scenario.user, Lane::User);
        self.each("agent", &scenario.agent, |v, action| v.agent_action(action));
        if let Some(expect) = &scenario.expect {
            self.within("expect", |v| {
                for (key, list) in
                    [("always", &expect.always), ("never", &expect.never), ("sometimes", &expect.sometimes)]
                {
                    v.each(key, list, |v, p| v.predicate(p));
                }
                v.each("diff", &expect.diff, |v, diff| {
                    for (key, list) in [("onlyInBase", &diff.only_in_base), ("onlyInWith", &diff.only_in_with)] {
                        if let Some(list) = list {
                            v.each(key, list, |v, p| v.predicate(p));
                        }
                    }
                });
            });
        }
    }

    fn predicate(&mut self, predicate: &'s crate::model::Predicate) {
        use crate::model::Predicate as P;
        match predicate {
            P::Before(lines) => self.within("before", |v| {
                if lines.len() != 2 {
                    v.problem(
                        Anchor::Value,
                        format!("`before` takes two console lines, not {}", lines.len()),
                        Some(r#"write {"before": ["first line", "second line"]}"#.to_owned()),
                    );
                }
            }),
            P::Promise(p) if !p.name.contains('#') => {
                self.within("promise", |v| v.within("name", |v| v.uses(Wants::Promise, &p.name)))
            }
            P::ToolRegistered(t) => self.within("toolRegistered", |v| {
                // A document label is the navigable's id, plus `@N` after navigations.
                let navigable = t.document.split_once('@').map_or(t.document.as_str(), |(id, _)| id);
                v.within("document", |v| v.uses(Wants::Navigable, navigable));
                v.within("tool", |v| v.uses(Wants::Tool, &t.tool));
            }),
            P::Count(c) => self.within("count", |v| {
                match (&c.logged, &c.event) {
                    (Some(_), Some(_)) | (None, None) => v.problem(
                        Anchor::Value,
                        "a `count` counts either a console line (`logged`) or an event (`event`)".to_owned(),
                        Some(r#"write {"count": {"logged": "line", "times": 1}} or {"count": {"event": "toolchange", "times": 1, "document": "tab"}}"#.to_owned()),
                    ),
                    (None, Some(event)) if !crate::model::COUNTED_EVENTS.contains(&event.as_str()) => {
                        let hint = match closest(event, crate::model::COUNTED_EVENTS.iter().copied()) {
                            Some(near) => format!("did you mean \"{near}\"? "),
                            None => String::new(),
                        };
                        v.problem_at(
                            "event",
                            Anchor::Value,
                            format!("unknown event {event:?} to count"),
                            Some(format!(
                                "{hint}a count counts the events fired at a modelContext: \"toolchange\", \"toolactivated\" and \"toolcancel\""
                            )),
                        );
                    }
                    _ => {}
                }
                if let Some(document) = &c.document {
                    let navigable = document.split_once('@').map_or(document.as_str(), |(id, _)| id);
                    v.within("document", |v| v.uses(Wants::Navigable, navigable));
                }
            }),
            P::Finding(crate::model::FindingIs::At(at)) => self.within("finding", |v| {
                for (key, text) in [("at", &at.at), ("from", &at.from)] {
                    if let Some(text) = text {
                        v.algorithm_step(key, text);
                    }
                }
            }),
            P::Not(inner) => self.within("not", |v| v.predicate(inner)),
            P::AllOf(list) => self.each("allOf", list, |v, p| v.predicate(p)),
            P::AnyOf(list) => self.each("anyOf", list, |v, p| v.predicate(p)),
            _ => {}
        }
    }

    /// A finding's `at` or `from`: `algorithm step`, the algorithm one the trace cites.
    fn algorithm_step(&mut self, key: &str, text: &str) {
        let known = crate::model::ALGORITHMS
            .iter()
            .any(|a| text.strip_prefix(a).is_some_and(|rest| rest.is_empty() || rest.starts_with(' ')));
        if known {
            return;
        }
        // The algorithm is the text without its step (the words from the first that starts with a digit).
        let words: Vec<&str> = text.split(' ').collect();
        let name_len = words.iter().position(|w| w.starts_with(|c: char| c.is_ascii_digit())).unwrap_or(words.len());
        let name = words[..name_len].join(" ");
        let hint = match closest(&name, crate::model::ALGORITHMS.iter().copied()) {
            Some(near) => format!("did you mean \"{near}\"? "),
            None => String::new(),
        };
        self.problem_at(
            key,
            Anchor::Value,
            format!("unknown algorithm in {text:?}"),
            Some(format!(
                "{hint}write the algorithm and step as the trace cites them, e.g. \"executeTool 15.10.1\" or \"imperative execute steps 9.1.4\""
            )),
        );
    }

    fn frame(&mut self, frame: &'s Frame, kind: Kind) {
        self.within("id", |v| v.declare_navigable(&frame.id, kind));
        if kind == Kind::Tab {
            for (attribute, present) in [("allow", frame.allow.is_some()), ("sandbox", frame.sandbox.is_some())] {
                if present {
                    self.problem_at(
                        attribute,
                        Anchor::Key,
                        format!("`{attribute}` is an iframe attribute, but this is a tab"),
                        Some(format!(
                            "move the document into a parent's `frames` to give it `{attribute}`, or remove it"
                        )),
                    );
                }
            }
        }
        if let Some(opener) = &frame.opener {
            self.within("opener", |v| v.opener(frame, opener, kind));
        }
        self.within("url", |v| v.url(&frame.url));
        self.actions("script", &frame.script, Lane::Script);
        let given: Vec<&str> =
            [("script", !frame.script.is_empty()), ("js", frame.js.is_some()), ("jsFile", frame.js_file.is_some())]
                .into_iter()
                .filter_map(|(key, present)| present.then_some(key))
                .collect();
        if given.len() > 1 {
            self.problem_at(
                given[1],
                Anchor::Key,
                format!("a document has one script, but this one has `{}` and `{}`", given[0], given[1]),
                Some("keep one of `script` (the action language), `js` (inline JavaScript) and `jsFile`".into()),
            );
        }
        self.each("frames", &frame.frames, |v, child| v.frame(child, Kind::Iframe));
    }

    /// A tab's `opener`: an earlier tab (the browsing context group it joins must exist when
    /// the tab is created, and tabs are created in order).
    fn opener(&mut self, frame: &'s Frame, opener: &'s str, kind: Kind) {
        if kind != Kind::Tab {
            let hint = "an iframe is in its parent's browsing context group already; remove `opener`";
            self.problem(
                Anchor::Key,
                "`opener` is a tab attribute, but this is an iframe".to_owned(),
                Some(hint.into()),
            );
        } else if opener == frame.id {
            let hint = format!("name the tab whose page opened {}, or remove `opener`", quoted(&frame.id));
            self.problem(Anchor::Value, format!("tab {} names itself as its opener", quoted(opener)), Some(hint));
        } else if self.navigables.get(opener) == Some(&Kind::Tab) {
            // An earlier tab: declared already.
        } else if self.tab_ids.contains(&opener) {
            let hint = format!(
                "move {} before {} in `tabs`: a page opens a tab once it is open itself",
                quoted(opener),
                quoted(&frame.id)
            );
            self.problem(
                Anchor::Value,
                format!("`opener` names tab {}, which comes after this tab", quoted(opener)),
                Some(hint),
            );
        } else {
            self.uses(Wants::Tab("opener"), opener);
        }
    }

    fn agent_action(&mut self, action: &'s AgentAction) {
        self.count_action();
        match action {
            AgentAction::Observe(tab) => self.within("observe", |v| v.uses(Wants::Tab("observe"), tab)),
            AgentAction::CallTool(call) => self.within("callTool", |v| {
                v.within("tab", |v| v.uses(Wants::Tab("callTool.tab"), &call.tab));
                v.within("navigable", |v| v.uses(Wants::Navigable, &call.navigable));
                if let Some(from) = &call.input_from_result {
                    v.agent_uses_result(from, call.input.is_some());
                }
                if let Some(name) = &call.as_ {
                    v.within("as", |v| v.declare_promise(name));
                    v.agent_calls.push(name);
                }
            }),
            AgentAction::At(at) => self.timed_agent_step("at", &at.step),
            AgentAction::Within(within) => {
                if within.from > within.to {
                    self.window_ends_before_it_starts(within.from, within.to);
                }
                self.timed_agent_step("within", &within.step)
            }
            AgentAction::AwaitResult(name) => {
                if !self.agent_calls.contains(&name.as_str()) {
                    self.problem_at(
                        "awaitResult",
                        Anchor::Value,
                        format!("`awaitResult` names {}, but no earlier agent `callTool` has that `as`", quoted(name)),
                        Some(format!("give the agent's call `\"as\": {}` and await it after the call", quoted(name))),
                    );
                }
                self.agent_awaited.push(name);
            }
        }
    }

    /// A `callTool`'s `inputFromResult`: the result of a call the agent awaited before.
    fn agent_uses_result(&mut self, name: &'s str, also_input: bool) {
        if also_input {
            self.problem_at(
                "inputFromResult",
                Anchor::Key,
                "a call has one input, but this one has `input` and `inputFromResult`".to_owned(),
                Some("keep one of them".to_owned()),
            );
        }
        if !self.agent_awaited.contains(&name) {
            self.problem_at(
                "inputFromResult",
                Anchor::Value,
                format!("`inputFromResult` names {}, whose result the agent has not awaited", quoted(name)),
                Some(format!("put `{{\"awaitResult\": {}}}` before this step", quoted(name))),
            );
        }
    }

    /// `at` or `within` in the `agent` list: an agent step with a time, holding one untimed
    /// agent step.
    fn timed_agent_step(&mut self, key: &'static str, step: &'s AgentAction) {
        self.within(key, |v| {
            if !v.agent_awaited.is_empty() {
                v.problem(
                    Anchor::Key,
                    format!("an agent step after `awaitResult` cannot have a time (`{key}`): it is taken when the result arrives"),
                    Some(format!("move the `{key}` step before the first `awaitResult`, or drop its time")),
                );
                return;
            }
            if matches!(step, AgentAction::AwaitResult(_)) {
                v.problem_at(
                    "step",
                    Anchor::Value,
                    format!("`{key}` holds `observe` or `callTool`; `awaitResult` has no time of its own"),
                    Some("write the `awaitResult` step without `at` or `within`".to_owned()),
                );
                return;
            }
            if matches!(step, AgentAction::At(_) | AgentAction::Within(_)) {
                v.problem_at(
                    "step",
                    Anchor::Value,
                    format!("`{key}` holds one agent step, not another timed one"),
                    Some("write a single `at` or `within` around the step".to_owned()),
                );
                return;
            }
            v.within("step", |v| v.agent_action(step));
        });
    }

    /// A `within` whose `to` is before its `from` (a user's or an agent's step).
    fn window_ends_before_it_starts(&mut self, from: u64, to: u64) {
        self.within("within", |v| {
            v.problem_at(
                "to",
                Anchor::Value,
                format!("`to` ({to}) is before `from` ({from})"),
                Some("a window runs from `from` to `to`, in virtual milliseconds".to_owned()),
            )
        });
    }

    fn actions(&mut self, key: &str, actions: &'s [Action], lane: Lane) {
        self.each(key, actions, |v, action| v.action(action, lane));
    }

    fn action(&mut self, action: &'s Action, lane: Lane) {
        self.count_action();
        let key = action_key(action);
        if lane == Lane::User && !USER_STEPS.contains(&key) && !TIMED_USER_STEPS.contains(&key) {
            self.script_statement_in_user_list(key);
        }
        match action {
            Action::Log(_) | Action::Throw(_) => {}
            Action::RegisterTool(register) => self.within("registerTool", |v| v.register_tool(register)),
            Action::GetTools(get) => self.within("getTools", |v| {
                v.optional_navigable("document", get.document.as_deref());
                if let Some(name) = &get.as_ {
                    v.within("as", |v| v.declare_promise(name));
                }
            }),
            Action::ExecuteTool(execute) => self.within("executeTool", |v| v.execute_tool(execute)),
            Action::NewAbortController(name) => self.within("newAbortController", |v| v.declare_controller(name)),
            Action::Abort(abort) => self.within("abort", |v| {
                v.within("controller", |v| v.uses(Wants::Controller, &abort.controller));
            }),
            Action::SetTimeout(timeout) => self.within("setTimeout", |v| {
                v.timeout_ms(timeout.ms);
                v.actions("do", &timeout.do_, Lane::Script);
            }),
            Action::Then(then) => self.within("then", |v| {
                v.within("promise", |v| v.uses(Wants::Promise, &then.promise));
                v.actions("onFulfilled", &then.on_fulfilled, Lane::Script);
                v.actions("onRejected", &then.on_rejected, Lane::Script);
            }),
            Action::On(on) => self.within("on", |v| v.on(on)),
            Action::Navigate(navigate) => self.within("navigate", |v| v.navigate(navigate)),
            Action::RemoveIframe(id) => self.within("removeIframe", |v| v.uses(Wants::Iframe("removeIframe"), id)),
            Action::EnterBfcache(id) => self.user_step("enterBfcache", id, lane),
            Action::RestoreFromBfcache(id) => self.user_step("restoreFromBfcache", id, lane),
            Action::At(at) => self.timed_user_step("at", &at.step, lane),
            Action::Within(within) => {
                if within.from > within.to {
                    self.window_ends_before_it_starts(within.from, within.to);
                }
                self.timed_user_step("within", &within.step, lane)
            }
        }
    }

    fn register_tool(&mut self, register: &'s RegisterTool) {
        self.tools.push(&register.tool.name);
        self.optional_navigable("document", register.document.as_deref());
        self.within("tool", |v| {
            v.within("execute", |v| {
                v.actions("do", &register.tool.execute.do_, Lane::Script);
                v.actions("onAbort", &register.tool.execute.on_abort, Lane::Script);
            });
        });
        if let Some(signal) = &register.options.signal {
            self.within("options", |v| v.within("signal", |v| v.uses(Wants::Controller, signal)));
        }
        if let Some(name) = &register.as_ {
            self.within("as", |v| v.declare_promise(name));
        }
    }

    fn execute_tool(&mut self, execute: &'s ExecuteTool) {
        self.optional_navigable("document", execute.document.as_deref());
        self.within("tool", |v| match &execute.tool {
            ToolRef::FromGetTools { promise, .. } => v.within("fromGetTools", |v| {
                v.within("promise", |v| v.uses(Wants::Promise, promise));
            }),
            ToolRef::Dictionary(tool) => v.within("dictionary", |v| {
                v.within("window", |v| v.uses(Wants::Navigable, &tool.window));
            }),
        });
        if let Some(signal) = &execute.options.signal {
            self.within("options", |v| v.within("signal", |v| v.uses(Wants::Controller, signal)));
        }
        if let Some(name) = &execute.as_ {
            self.within("as", |v| v.declare_promise(name));
        }
    }

    fn on(&mut self, on: &'s On) {
        match on.event.as_str() {
            "toolchange" | "toolactivated" | "toolcancel" => self.optional_navigable("target", on.target.as_deref()),
            "abort" => match &on.target {
                Some(target) => self.within("target", |v| v.uses(Wants::Controller, target)),
                None => self.problem_at(
                    "target",
                    Anchor::Value,
                    "an `abort` handler needs a `target`".to_owned(),
                    Some(r#"name the AbortController whose signal it listens to: "target": "controller""#.to_owned()),
                ),
            },
            other => {
                let events = ["toolchange", "toolactivated", "toolcancel", "abort"];
                let hint = match closest(other, events) {
                    Some(near) => format!("did you mean \"{near}\"? "),
                    None => String::new(),
                };
                self.problem_at(
                    "event",
                    Anchor::Value,
                    format!("unknown event {}", quoted(other)),
                    Some(format!(
                        "{hint}events are \"toolchange\", \"toolactivated\" and \"toolcancel\" (on a modelContext) \
                         and \"abort\" (on an AbortController's signal)"
                    )),
                );
            }
        }
        self.actions("do", &on.do_, Lane::Script);
    }

    fn navigate(&mut self, navigate: &'s Navigate) {
        self.within("navigable", |v| v.uses(Wants::Navigable, &navigate.navigable));
        self.within("url", |v| v.url(&navigate.url));
        self.actions("script", &navigate.script, Lane::Script);
        self.each("frames", &navigate.frames, |v, child| v.frame(child, Kind::Iframe));
    }

    /// A back/forward cache step: it names a tab and only the user takes it.
    fn user_step(&mut self, key: &'static str, tab: &'s str, lane: Lane) {
        if lane != Lane::User {
            self.problem_at(
                key,
                Anchor::Key,
                format!("`{key}` is a user step, but this list is a script"),
                Some("put it in the top-level `user` list".to_owned()),
            );
        }
        self.within(key, |v| v.uses(Wants::Tab(key), tab));
    }

    /// `at` or `within`: a user step with a time, in the `user` list only, holding one untimed
    /// user step.
    fn timed_user_step(&mut self, key: &'static str, step: &'s Action, lane: Lane) {
        if lane != Lane::User {
            self.problem_at(
                key,
                Anchor::Key,
                format!("`{key}` times a user step, but this list is a script"),
                Some("put it in the top-level `user` list".to_owned()),
            );
            return;
        }
        self.within(key, |v| {
            if TIMED_USER_STEPS.contains(&action_key(step)) {
                v.problem_at(
                    "step",
                    Anchor::Value,
                    format!("`{key}` holds one user step, not another timed one"),
                    Some("write a single `at` or `within` around the step".to_owned()),
                );
                return;
            }
            v.within("step", |v| v.action(step, Lane::User));
        });
    }

    /// A script statement in the top-level `user` list: it needs a document to run in, and the
    /// user's steps have none. The actions nested in it are still checked.
    fn script_statement_in_user_list(&mut self, key: &'static str) {
        let mut steps = String::new();
        for (index, step) in USER_STEPS.iter().enumerate() {
            if index > 0 {
                steps.push_str(if index + 1 == USER_STEPS.len() { " and " } else { ", " });
            }
            steps.push_str(&format!("`{step}`"));
        }
        self.problem_at(
            key,
            Anchor::Key,
            format!("`{key}` is a script statement, but this is the top-level `user` list"),
            Some(format!("the `user` list holds the user's steps: {steps}; put `{key}` in a document's `script`")),
        );
    }

    fn count_action(&mut self) {
        self.actions += 1;
        if self.actions == MAX_ACTIONS + 1 {
            self.problem(
                Anchor::Value,
                format!("the scenario has more than {MAX_ACTIONS} actions"),
                Some("a scenario shows one race; split a larger one into several files".to_owned()),
            );
        }
    }

    fn url(&mut self, text: &str) {
        if let Err(error) = url::Url::parse(text) {
            self.problem(
                Anchor::Value,
                format!("invalid URL {}: {error}", quoted(text)),
                Some("write an absolute URL such as https://a.example/".to_owned()),
            );
        }
    }

    fn declare_navigable(&mut self, id: &'s str, kind: Kind) {
        if id.is_empty() {
            self.problem(Anchor::Value, "a navigable id cannot be empty".to_owned(), Some(ID_HINT.to_owned()));
        } else if !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            self.problem(
                Anchor::Value,
                format!("navigable id {} has a character other than a letter, digit, `-` or `_`", quoted(id)),
                Some(ID_HINT.to_owned()),
            );
        }
        if let Some(first) = self.navigables.declare(id, kind, &self.path) {
            let hint = format!("it is already the id at {first}; ids are unique across the scenario");
            self.problem(Anchor::Value, format!("duplicate navigable id {}", quoted(id)), Some(hint));
        }
    }

    fn declare_promise(&mut self, name: &'s str) {
        if let Some(first) = self.promises.declare(name, (), &self.path) {
            let hint = format!("it already names the promise at {first}");
            self.problem(Anchor::Value, format!("duplicate promise name {}", quoted(name)), Some(hint));
        }
    }

    fn declare_controller(&mut self, name: &'s str) {
        if let Some(first) = self.controllers.declare(name, (), &self.path) {
            let hint = format!("it already names the AbortController at {first}");
            self.problem(Anchor::Value, format!("duplicate AbortController name {}", quoted(name)), Some(hint));
        }
    }

    fn optional_navigable(&mut self, key: &str, id: Option<&'s str>) {
        if let Some(id) = id {
            self.within(key, |v| v.uses(Wants::Navigable, id));
        }
    }

    /// Records a reference at the current path, checked in [`Self::finish`].
    fn uses(&mut self, wants: Wants, name: &'s str) {
        self.uses.push(Use { wants, name, path: self.path.clone() });
    }

    /// Checks the references and returns every problem.
    fn finish(mut self) -> Vec<Problem> {
        // Suggestions cost a comparison with every declared name; a file full of unknown names
        // gets them for the first few only.
        let mut suggestions = MAX_SUGGESTIONS;
        let mut unknown = |what: &str, name: &str, declared: &[&str]| {
            let suggest = suggestions > 0;
            suggestions = suggestions.saturating_sub(1);
            unknown(what, name, declared, suggest)
        };
        for Use { wants, name, path } in std::mem::take(&mut self.uses) {
            let (message, hint) = match wants {
                Wants::Navigable | Wants::Tab(_) | Wants::Iframe(_) => match (self.navigables.get(name), wants) {
                    (None, _) => unknown("navigable", name, &self.navigables.order),
                    (Some(Kind::Iframe), Wants::Tab(action)) => (
                        format!("{} is an iframe, but `{action}` names a tab (a top-level navigable)", quoted(name)),
                        Some(format!("tabs: {}", self.names_of(Kind::Tab))),
                    ),
                    (Some(Kind::Tab), Wants::Iframe(action)) => (
                        format!("{} is a tab, but `{action}` names an iframe", quoted(name)),
                        Some(format!("iframes: {}", self.names_of(Kind::Iframe))),
                    ),
                    _ => continue,
                },
                Wants::Promise if self.promises.get(name).is_none() => {
                    let (message, hint) = unknown("promise", name, &self.promises.order);
                    let how = r#"name a promise with "as" on registerTool, getTools, executeTool or callTool"#;
                    (message, Some(hint.unwrap_or_else(|| how.to_owned())))
                }
                Wants::Controller if self.controllers.get(name).is_none() => {
                    let (message, hint) = unknown("AbortController", name, &self.controllers.order);
                    let how = r#"make one with {"newAbortController": "name"}"#;
                    (message, Some(hint.unwrap_or_else(|| how.to_owned())))
                }
                Wants::Tool if !self.tools.contains(&name) => {
                    let mut declared = self.tools.clone();
                    declared.sort_unstable();
                    declared.dedup();
                    unknown("tool", name, &declared)
                }
                Wants::Promise | Wants::Controller | Wants::Tool => continue,
            };
            self.problems.push(Problem { path, message, hint, anchor: Anchor::Value });
        }
        self.problems
    }

    /// The declared navigables of one kind, for a hint.
    fn names_of(&self, kind: Kind) -> String {
        let names = self.navigables.order.iter().filter(|name| self.navigables.get(name) == Some(&kind));
        list(names.copied())
    }

    /// Runs `f` with the path extended by `key`.
    fn within(&mut self, key: &str, f: impl FnOnce(&mut Self)) {
        self.path.push_key(key);
        f(self);
        self.path.pop();
    }

    /// Runs `f` on each element of the list at `key`, with the path extended to the element.
    fn each<T>(&mut self, key: &str, items: &'s [T], mut f: impl FnMut(&mut Self, &'s T)) {
        self.path.push_key(key);
        for (index, item) in items.iter().enumerate() {
            self.path.push_index(index);
            f(self, item);
            self.path.pop();
        }
        self.path.pop();
    }

    /// Records a problem at the current path.
    fn problem(&mut self, anchor: Anchor, message: String, hint: Option<String>) {
        self.problems.push(Problem { path: self.path.clone(), message, hint, anchor });
    }

    /// Records a problem at the member `key` of the current path.
    /// A `setTimeout` delay: HTML's timeout is a WebIDL `long`, which a browser converts modulo
    /// 2^32 (a larger one fires at once or at a wrapped time), so a delay over 2^31 - 1 ms would
    /// mean one thing in the simulator and another in Chromium.
    fn timeout_ms(&mut self, ms: u64) {
        if ms > MAX_TIMEOUT_MS {
            self.problem_at(
                "ms",
                Anchor::Value,
                format!("{ms} ms is more than a timeout can be ({MAX_TIMEOUT_MS} ms, HTML's `long`)"),
                Some(format!("use at most {MAX_TIMEOUT_MS} ms (about 24.8 days); a longer timer never fires in a run")),
            );
        }
    }

    fn problem_at(&mut self, key: &str, anchor: Anchor, message: String, hint: Option<String>) {
        self.problems.push(Problem { path: self.path.key(key), message, hint, anchor });
    }
}

/// The key that names `action` in a scenario file.
fn action_key(action: &Action) -> &'static str {
    match action {
        Action::Log(_) => "log",
        Action::RegisterTool(_) => "registerTool",
        Action::GetTools(_) => "getTools",
        Action::ExecuteTool(_) => "executeTool",
        Action::NewAbortController(_) => "newAbortController",
        Action::Abort(_) => "abort",
        Action::SetTimeout(_) => "setTimeout",
        Action::Then(_) => "then",
        Action::On(_) => "on",
        Action::Throw(_) => "throw",
        Action::Navigate(_) => "navigate",
        Action::RemoveIframe(_) => "removeIframe",
        Action::EnterBfcache(_) => "enterBfcache",
        Action::RestoreFromBfcache(_) => "restoreFromBfcache",
        Action::At(_) => "at",
        Action::Within(_) => "within",
    }
}

const ID_HINT: &str = "ids use ASCII letters, digits, `-` and `_`, e.g. \"tab\" or \"child-1\"";

/// How many unknown names get a "did you mean" hint.
const MAX_SUGGESTIONS: usize = 20;

/// The message and hint for a name that was never declared: `unknown <what> "x" (declared: a, b)`
/// and, when `suggest` and one is close, `did you mean "y"?`.
fn unknown(what: &str, name: &str, declared: &[&str], suggest: bool) -> (String, Option<String>) {
    let message = format!("unknown {what} {} (declared: {})", quoted(name), list(declared.iter().copied()));
    let near = if suggest { closest(name, declared.iter().copied()) } else { None };
    (message, near.map(|near| format!("did you mean {}?", quoted(near))))
}

/// Names for a message: `a, b, c`, at most [`HINT_NAMES`] of them, or `none`.
fn list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let mut names = names.peekable();
    if names.peek().is_none() {
        return "none".to_owned();
    }
    let mut shown: Vec<&str> = names.by_ref().take(HINT_NAMES).collect();
    if names.next().is_some() {
        shown.push("…");
    }
    shown.join(", ")
}

#[cfg(test)]
mod tests;
