//! Compiles a parsed `Scenario` into a `Program`: every action list gets a `ScriptId`, JSON
//! values become `JsValue`s, and promise and controller names become slots. The engine only ever
//! runs a `Program`, so its state holds small indices instead of scenario text.

use std::borrow::Cow;
use std::collections::BTreeMap;

use browser::policy::{self, Policy};
use browser::{DocumentInit, DocumentResponse, JsValue, WorldError};
use scenario as sc;

/// A page script in a language an engine runs (`crate::script::Engine`): its file name (for
/// call sites and errors) and text.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PageScript {
    /// The `jsFile` path as the scenario gives it, or `<navigable id>.inline.js` for `js`.
    pub file: String,
    pub text: String,
}

/// An action list (a script, callback body, handler or continuation).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct ScriptId(pub u32);

/// A `registerTool` call site, whose `ModelContextTool` dictionary a tool definition keeps.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct ToolDictId(pub u32);

/// A promise name (`as`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct PromiseSlot(pub u32);

/// An `AbortController` name.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct ControllerSlot(pub u32);

#[derive(Clone, Debug)]
pub enum Op {
    Log(String),
    RegisterTool {
        document: Option<String>,
        tool: ToolDictId,
        exposed_to: Option<Vec<String>>,
        signal: Option<ControllerSlot>,
        as_: Option<PromiseSlot>,
    },
    GetTools {
        document: Option<String>,
        from_origins: Option<Vec<String>>,
        as_: Option<PromiseSlot>,
    },
    ExecuteTool {
        document: Option<String>,
        tool: ToolRef,
        /// The `inputObject` argument as passed (None: not passed; WebIDL supplies the default).
        input_object: Option<JsValue>,
        signal: Option<ControllerSlot>,
        as_: Option<PromiseSlot>,
    },
    NewAbortController(ControllerSlot),
    Abort {
        controller: ControllerSlot,
        reason: Option<JsValue>,
    },
    SetTimeout {
        ms: u64,
        body: ScriptId,
    },
    Then {
        promise: PromiseSlot,
        on_fulfilled: ScriptId,
        on_rejected: ScriptId,
    },
    OnToolchange {
        target: Option<String>,
        body: ScriptId,
    },
    /// `modelContext.ontoolactivated` / `ontoolcancel` (issue #146).
    OnToolEvent {
        event: ToolEvent,
        target: Option<String>,
        body: ScriptId,
    },
    OnAbort {
        controller: ControllerSlot,
        body: ScriptId,
    },
    Throw {
        name: String,
        message: String,
    },
    Navigate(NavigateId),
    RemoveIframe(String),
    EnterBfcache(String),
    RestoreFromBfcache(String),
    /// A user step that happens at a virtual time in `[from, to]` (`at`: `from == to`).
    Timed {
        from: u64,
        to: u64,
        step: Box<Op>,
    },
}

#[derive(Clone, Debug)]
pub enum ToolRef {
    FromGetTools { promise: PromiseSlot, name: String },
    Dictionary { name: String, description: String, origin: String, window: String },
}

/// A `navigate` action's target document description.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct NavigateId(pub u32);

/// A `ModelContextTool` dictionary as registered.
#[derive(Clone, Debug)]
pub struct ToolDict {
    pub name: String,
    pub title: Option<String>,
    pub description: String,
    pub input_schema: Option<JsValue>,
    pub annotations: Option<sc::ToolAnnotations>,
    pub execute_body: ScriptId,
    pub on_abort: ScriptId,
    /// `execute.logInput` and `execute.logAbort`.
    pub log_input: bool,
    pub log_abort: bool,
    pub result: Settle,
}

/// How an `execute` callback's promise settles.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Settle {
    Resolve(JsValue),
    Reject(JsValue),
    Throw(String),
    Never,
    After(u64, Box<Settle>),
    RejectOnAbort,
}

/// A document to create: a tab's or iframe's initial document, or a navigation's new one.
#[derive(Clone, Debug)]
pub struct DocSpec {
    pub url: String,
    /// What depends only on the URL and headers, computed when the scenario is compiled: the
    /// parsed URL (validation has checked that it parses), its origin and trustworthiness, the
    /// declared permissions policy and whether the document asks to be origin-keyed; or why the
    /// `Permissions-Policy` header is malformed (reported when the document is created).
    pub response: Result<DocumentResponse, WorldError>,
    pub script: ScriptId,
    pub frames: Vec<FrameSpec>,
}

impl DocSpec {
    /// Calls `f` with the script of each document this describes, in the order
    /// `Sim::create_document_tree` creates them: the document, then each iframe's tree.
    pub fn for_each_script(&self, f: &mut impl FnMut(ScriptId)) {
        f(self.script);
        for frame in &self.frames {
            frame.document.for_each_script(f);
        }
    }
}

#[derive(Clone, Debug)]
pub struct FrameSpec {
    pub id: String,
    /// A tab's opener tab (`Frame::opener`): the tab is an auxiliary browsing context in its
    /// browsing context group.
    pub opener: Option<String>,
    pub allow: Option<String>,
    pub sandbox: Option<String>,
    pub document: DocSpec,
}

#[derive(Clone, Debug)]
pub struct NavigateSpec {
    pub navigable: String,
    pub document: DocSpec,
}

#[derive(Clone, Debug)]
pub enum AgentStep {
    Observe(String),
    CallTool {
        tab: String,
        navigable: String,
        name: String,
        /// The input: JSON text, or the result of the agent's call number `n` (`inputFromResult`).
        input: AgentInput,
        as_: Option<PromiseSlot>,
    },
    /// The agent waits for the result of its call number `call` (named `label`).
    AwaitResult {
        call: u32,
        label: String,
    },
    /// An agent step that happens at a virtual time in `[from, to]` (`at`: `from == to`).
    Timed {
        from: u64,
        to: u64,
        step: Box<AgentStep>,
    },
}

/// What an agent call sends as its input arguments.
#[derive(Clone, Debug)]
pub enum AgentInput {
    /// JSON text written in the scenario.
    Json(String),
    /// The result of the agent's call number `call` (named `label`), awaited before.
    FromResult { call: u32, label: String },
}

impl AgentStep {
    /// The step's window of virtual time, if it has one.
    pub fn window(&self) -> Option<(u64, u64)> {
        match self {
            AgentStep::Timed { from, to, .. } => Some((*from, *to)),
            _ => None,
        }
    }

    /// The step itself, without its window.
    pub fn untimed(&self) -> &AgentStep {
        let mut step = self;
        while let AgentStep::Timed { step: inner, .. } = step {
            step = inner;
        }
        step
    }
}

/// The tool execution events of issue #146 (Chromium's `ontoolactivated`, `ontoolcancel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToolEvent {
    Activated,
    Cancel,
}

impl ToolEvent {
    pub fn name(self) -> &'static str {
        match self {
            ToolEvent::Activated => "toolactivated",
            ToolEvent::Cancel => "toolcancel",
        }
    }
}

/// A compiled scenario.
#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    pub parallel: sc::ParallelModel,
    pub variants: Vec<sc::Variant>,
    /// The user agent's back/forward cache choice (`options.bfcache`).
    pub bfcache: sc::BfcachePolicy,
    /// When a navigation's response arrives (`options.network`).
    pub network: sc::NetworkModel,
    pub scripts: Vec<Vec<Op>>,
    pub tool_dicts: Vec<ToolDict>,
    pub navigations: Vec<NavigateSpec>,
    pub tabs: Vec<FrameSpec>,
    pub user: ScriptId,
    /// A script of no statements: the script of a document a page creates at run time
    /// (`document.createElement('iframe')`), which the scenario does not describe.
    pub no_script: ScriptId,
    pub agent: Vec<AgentStep>,
    pub promise_names: Vec<String>,
    pub controller_names: Vec<String>,
    pub expect: Option<sc::Expect>,
    /// Each distinct iframe `allow` value with its container policy, parsed when compiled.
    pub container_policies: Vec<(String, Policy)>,
    /// The events some `count` expectation counts: only those are counted into the outcome, so
    /// other scenarios' outcomes do not split on events nobody asks about.
    pub counted_events: Vec<&'static str>,
    /// The documents' scripts written in JavaScript, by the (empty) action list that stands for
    /// each in `DocSpec::script`, in `ScriptId` order.
    pub page_scripts: Vec<(ScriptId, PageScript)>,
    /// The scenario's `resources`: documents its server holds, by URL path (sorted).
    pub resources: Vec<(String, ResourceSpec)>,
}

/// A document the scenario's server holds (`Scenario::resources`): its script (one of
/// `page_scripts`), its response headers and its iframes.
#[derive(Clone, Debug)]
pub struct ResourceSpec {
    pub script: ScriptId,
    pub headers: BTreeMap<String, String>,
    pub frames: Vec<FrameSpec>,
}

/// The events the `count` predicates of `expect` name (in `always`, `never`, `sometimes` and
/// diff expectations, at any depth).
fn counted_events(expect: Option<&sc::Expect>) -> Vec<&'static str> {
    fn walk(p: &sc::Predicate, out: &mut Vec<&'static str>) {
        match p {
            sc::Predicate::Count(sc::Count { event: Some(e), .. }) => {
                if let Some(known) = sc::COUNTED_EVENTS.iter().find(|k| **k == e.as_str()) {
                    if !out.contains(known) {
                        out.push(known);
                    }
                }
            }
            sc::Predicate::Not(inner) => walk(inner, out),
            sc::Predicate::AllOf(list) | sc::Predicate::AnyOf(list) => list.iter().for_each(|p| walk(p, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Some(e) = expect {
        let diff = e.diff.iter().flat_map(|d| d.only_in_base.iter().flatten().chain(d.only_in_with.iter().flatten()));
        e.always.iter().chain(&e.never).chain(&e.sometimes).chain(diff).for_each(|p| walk(p, &mut out));
    }
    out
}

/// Compiling fails only for things the scenario validator cannot see (bad `$js` values).
pub fn compile(s: &sc::Scenario) -> Result<Program, String> {
    let mut c = Compiler::default();
    let tabs = s.tabs.iter().map(|f| c.frame(f)).collect::<Result<Vec<_>, _>>()?;
    let user = c.script(&s.user)?;
    let no_script = c.script(&[])?;
    let mut agent_calls = Vec::new();
    let agent = s.agent.iter().map(|a| c.agent_step(a, &mut agent_calls)).collect();
    let mut resources = Vec::with_capacity(s.resources.len());
    for (path, resource) in &s.resources {
        let script = c.script(&[])?;
        let file = resource.js_file.clone().unwrap_or_else(|| path.clone());
        c.page_scripts.push((script, PageScript { file, text: resource.js.clone() }));
        let frames = resource.frames.iter().map(|f| c.frame(f)).collect::<Result<_, _>>()?;
        resources.push((path.clone(), ResourceSpec { script, headers: resource.headers.clone(), frames }));
    }
    Ok(Program {
        name: s.name.clone(),
        parallel: s.options.parallel,
        bfcache: s.options.bfcache,
        network: s.options.network,
        variants: s.options.variants.clone(),
        scripts: c.scripts,
        tool_dicts: c.tool_dicts,
        navigations: c.navigations,
        tabs,
        user,
        no_script,
        agent,
        promise_names: c.promise_names,
        controller_names: c.controller_names,
        expect: s.expect.clone(),
        container_policies: c.container_policies,
        counted_events: counted_events(s.expect.as_ref()),
        page_scripts: c.page_scripts,
        resources,
    })
}

impl Program {
    /// The spec options the program runs with, as trace and exploration headers show them:
    /// `parallel=fifo`, then `variant=NAME` for each variant.
    pub fn spec_options(&self) -> Vec<String> {
        let mut options = vec![format!(
            "parallel={}",
            match self.parallel {
                sc::ParallelModel::Unordered => "unordered",
                sc::ParallelModel::Fifo => "fifo",
            }
        )];
        options.extend(self.variants.iter().map(|v| format!("variant={v}")));
        if self.bfcache == sc::BfcachePolicy::KeepSalvageable {
            options.push("bfcache=keep-salvageable".into());
        }
        if self.network == sc::NetworkModel::Unbounded {
            options.push("network=unbounded".into());
        }
        options
    }

    /// True when the program runs with `variant`.
    pub fn has_variant(&self, variant: sc::Variant) -> bool {
        self.variants.contains(&variant)
    }

    /// The page script (JavaScript) that `script` stands for, if it is one.
    pub fn page_script(&self, script: ScriptId) -> Option<&PageScript> {
        if self.page_scripts.is_empty() {
            return None;
        }
        let at = self.page_scripts.binary_search_by_key(&script, |(id, _)| *id).ok()?;
        Some(&self.page_scripts[at].1)
    }

    /// Whether a document's script is JavaScript (the program then needs an engine, and the
    /// stateful search cannot explore it).
    /// The script of the document the scenario's server holds at URL path `path`
    /// (`Scenario::resources`), if it holds one.
    pub fn resource_script(&self, path: &str) -> Option<ScriptId> {
        self.resource(path).map(|r| r.script)
    }

    /// The document the scenario's server holds at URL path `path`, if it holds one.
    pub fn resource(&self, path: &str) -> Option<&ResourceSpec> {
        let at = self.resources.binary_search_by(|(p, _)| p.as_str().cmp(path)).ok()?;
        Some(&self.resources[at].1)
    }

    /// The document the scenario's server serves at `url` (a navigation's response): the
    /// resource at its path, with its script, headers and iframes; at any other path, a
    /// document with no script and no headers. Returns it and whether the server holds one.
    pub fn served_document(&self, url: &url::Url) -> Result<(DocSpec, bool), String> {
        let resource = self.resource(url.path());
        let empty = BTreeMap::new();
        let headers = resource.map_or(&empty, |r| &r.headers);
        let response = document_response(url.as_str(), headers, false)?;
        let document = DocSpec {
            url: url.to_string(),
            response,
            script: resource.map_or(self.no_script, |r| r.script),
            frames: resource.map_or_else(Vec::new, |r| r.frames.clone()),
        };
        Ok((document, resource.is_some()))
    }

    pub fn has_page_scripts(&self) -> bool {
        !self.page_scripts.is_empty()
    }

    pub fn ops(&self, script: ScriptId) -> &[Op] {
        &self.scripts[script.0 as usize]
    }

    /// Permissions Policy §9.4 "Process permissions policy attributes" on an iframe whose `allow`
    /// attribute is `allow` (`None`: no attribute, or a traversable): the container policy. Every
    /// `allow` value in the scenario was parsed when it was compiled; any other is parsed now.
    pub fn container_policy(&self, allow: Option<&str>) -> Cow<'_, Policy> {
        let Some(allow) = allow else { return Cow::Owned(Policy::default()) };
        match self.container_policies.iter().find(|(value, _)| value == allow) {
            Some((_, policy)) => Cow::Borrowed(policy),
            None => Cow::Owned(policy::parse_allow_attribute(allow)),
        }
    }
}

#[derive(Default)]
struct Compiler {
    scripts: Vec<Vec<Op>>,
    page_scripts: Vec<(ScriptId, PageScript)>,
    tool_dicts: Vec<ToolDict>,
    navigations: Vec<NavigateSpec>,
    promise_names: Vec<String>,
    controller_names: Vec<String>,
    container_policies: Vec<(String, Policy)>,
}

fn js(v: &serde_json::Value) -> Result<JsValue, String> {
    JsValue::from_json_text(v)
}

impl Compiler {
    /// Compiles one agent step; `calls` holds the `as` name of each agent call so far (the
    /// agent takes its steps in order, so the k-th `callTool` is its call number k).
    fn agent_step(&mut self, a: &sc::AgentAction, calls: &mut Vec<Option<String>>) -> AgentStep {
        // The validator made sure a name is an earlier call's.
        let number = |calls: &[Option<String>], name: &str| {
            calls.iter().position(|c| c.as_deref() == Some(name)).unwrap_or_default() as u32
        };
        match a {
            sc::AgentAction::Observe(tab) => AgentStep::Observe(tab.clone()),
            sc::AgentAction::CallTool(call) => {
                let input = match &call.input_from_result {
                    Some(label) => AgentInput::FromResult { call: number(calls, label), label: label.clone() },
                    None => AgentInput::Json(call.input.clone().unwrap_or_else(|| serde_json::json!({})).to_string()),
                };
                calls.push(call.as_.clone());
                AgentStep::CallTool {
                    tab: call.tab.clone(),
                    navigable: call.navigable.clone(),
                    name: call.name.clone(),
                    input,
                    as_: call.as_.as_deref().map(|n| self.promise(n)),
                }
            }
            sc::AgentAction::AwaitResult(label) => {
                AgentStep::AwaitResult { call: number(calls, label), label: label.clone() }
            }
            sc::AgentAction::At(at) => {
                AgentStep::Timed { from: at.ms, to: at.ms, step: Box::new(self.agent_step(&at.step, calls)) }
            }
            sc::AgentAction::Within(w) => {
                AgentStep::Timed { from: w.from, to: w.to, step: Box::new(self.agent_step(&w.step, calls)) }
            }
        }
    }

    fn promise(&mut self, name: &str) -> PromiseSlot {
        slot(&mut self.promise_names, name, PromiseSlot)
    }

    fn controller(&mut self, name: &str) -> ControllerSlot {
        slot(&mut self.controller_names, name, ControllerSlot)
    }

    fn frame(&mut self, f: &sc::Frame) -> Result<FrameSpec, String> {
        if let Some(allow) = &f.allow {
            if !self.container_policies.iter().any(|(value, _)| value == allow) {
                self.container_policies.push((allow.clone(), policy::parse_allow_attribute(allow)));
            }
        }
        Ok(FrameSpec {
            id: f.id.clone(),
            opener: f.opener.clone(),
            allow: f.allow.clone(),
            sandbox: f.sandbox.clone(),
            document: DocSpec {
                url: f.url.clone(),
                response: document_response(&f.url, &f.headers, f.sets_document_domain)?,
                script: match &f.js {
                    Some(text) => {
                        let id = self.script(&[])?;
                        let file = match &f.js_file {
                            Some(path) => path.clone(),
                            None => format!("{}.inline.js", f.id),
                        };
                        self.page_scripts.push((id, PageScript { file, text: text.clone() }));
                        id
                    }
                    None => self.script(&f.script)?,
                },
                frames: f.frames.iter().map(|c| self.frame(c)).collect::<Result<_, _>>()?,
            },
        })
    }

    fn script(&mut self, actions: &[sc::Action]) -> Result<ScriptId, String> {
        let id = ScriptId(self.scripts.len() as u32);
        self.scripts.push(Vec::new());
        let mut ops = Vec::with_capacity(actions.len());
        for a in actions {
            ops.push(self.op(a)?);
        }
        self.scripts[id.0 as usize] = ops;
        Ok(id)
    }

    fn settle(&mut self, r: &sc::ExecuteResult) -> Result<Settle, String> {
        Ok(match r {
            sc::ExecuteResult::Resolve(v) => Settle::Resolve(js(v)?),
            sc::ExecuteResult::Reject(v) => Settle::Reject(js(v)?),
            sc::ExecuteResult::Throw(m) => Settle::Throw(m.clone()),
            sc::ExecuteResult::Never => Settle::Never,
            sc::ExecuteResult::After(a) => Settle::After(a.ms, Box::new(self.settle(&a.then)?)),
            sc::ExecuteResult::RejectOnAbort => Settle::RejectOnAbort,
        })
    }

    fn op(&mut self, a: &sc::Action) -> Result<Op, String> {
        Ok(match a {
            sc::Action::Log(t) => Op::Log(t.clone()),
            sc::Action::RegisterTool(r) => {
                let t = &r.tool;
                let dict = ToolDict {
                    name: t.name.clone(),
                    title: t.title.clone(),
                    description: t.description.clone(),
                    input_schema: t.input_schema.as_ref().map(js).transpose()?,
                    annotations: t.annotations.clone(),
                    execute_body: self.script(&t.execute.do_)?,
                    on_abort: self.script(&t.execute.on_abort)?,
                    log_input: t.execute.log_input,
                    log_abort: t.execute.log_abort,
                    result: self.settle(&t.execute.result)?,
                };
                let tool = ToolDictId(self.tool_dicts.len() as u32);
                self.tool_dicts.push(dict);
                Op::RegisterTool {
                    document: r.document.clone(),
                    tool,
                    exposed_to: r.options.exposed_to.clone(),
                    signal: r.options.signal.as_deref().map(|n| self.controller(n)),
                    as_: r.as_.as_deref().map(|n| self.promise(n)),
                }
            }
            sc::Action::GetTools(g) => Op::GetTools {
                document: g.document.clone(),
                from_origins: g.options.from_origins.clone(),
                as_: g.as_.as_deref().map(|n| self.promise(n)),
            },
            sc::Action::ExecuteTool(e) => Op::ExecuteTool {
                document: e.document.clone(),
                tool: match &e.tool {
                    sc::ToolRef::FromGetTools { promise, name } => {
                        ToolRef::FromGetTools { promise: self.promise(promise), name: name.clone() }
                    }
                    sc::ToolRef::Dictionary(d) => ToolRef::Dictionary {
                        name: d.name.clone(),
                        description: d.description.clone(),
                        origin: d.origin.clone(),
                        window: d.window.clone(),
                    },
                },
                input_object: e.input_object.as_ref().map(js).transpose()?,
                signal: e.options.signal.as_deref().map(|n| self.controller(n)),
                as_: e.as_.as_deref().map(|n| self.promise(n)),
            },
            sc::Action::NewAbortController(n) => Op::NewAbortController(self.controller(n)),
            sc::Action::Abort(a) => {
                Op::Abort { controller: self.controller(&a.controller), reason: a.reason.as_ref().map(js).transpose()? }
            }
            sc::Action::SetTimeout(t) => Op::SetTimeout { ms: t.ms, body: self.script(&t.do_)? },
            sc::Action::Then(t) => Op::Then {
                promise: self.promise(&t.promise),
                on_fulfilled: self.script(&t.on_fulfilled)?,
                on_rejected: self.script(&t.on_rejected)?,
            },
            sc::Action::On(on) => {
                let body = self.script(&on.do_)?;
                match on.event.as_str() {
                    "abort" => Op::OnAbort { controller: self.controller(on.target.as_deref().unwrap_or("")), body },
                    "toolactivated" => Op::OnToolEvent { event: ToolEvent::Activated, target: on.target.clone(), body },
                    "toolcancel" => Op::OnToolEvent { event: ToolEvent::Cancel, target: on.target.clone(), body },
                    _ => Op::OnToolchange { target: on.target.clone(), body },
                }
            }
            sc::Action::Throw(t) => Op::Throw { name: t.name.clone(), message: t.message.clone() },
            sc::Action::Navigate(n) => {
                let document = DocSpec {
                    url: n.url.clone(),
                    response: document_response(&n.url, &n.headers, false)?,
                    script: self.script(&n.script)?,
                    frames: n.frames.iter().map(|f| self.frame(f)).collect::<Result<_, _>>()?,
                };
                let id = NavigateId(self.navigations.len() as u32);
                self.navigations.push(NavigateSpec { navigable: n.navigable.clone(), document });
                Op::Navigate(id)
            }
            sc::Action::RemoveIframe(n) => Op::RemoveIframe(n.clone()),
            sc::Action::EnterBfcache(n) => Op::EnterBfcache(n.clone()),
            sc::Action::RestoreFromBfcache(n) => Op::RestoreFromBfcache(n.clone()),
            sc::Action::At(at) => Op::Timed { from: at.ms, to: at.ms, step: Box::new(self.op(&at.step)?) },
            sc::Action::Within(w) => Op::Timed { from: w.from, to: w.to, step: Box::new(self.op(&w.step)?) },
        })
    }
}

fn slot<T>(names: &mut Vec<String>, name: &str, make: fn(u32) -> T) -> T {
    match names.iter().position(|n| n == name) {
        Some(i) => make(i as u32),
        None => {
            names.push(name.to_string());
            make(names.len() as u32 - 1)
        }
    }
}

/// What a document's creation takes from its URL and headers, computed once at compile time.
/// The outer error is an unparsable URL (a compile error); the inner one a malformed
/// `Permissions-Policy` header, reported only if the document is ever created.
pub(crate) fn document_response(
    url: &str,
    headers: &BTreeMap<String, String>,
    sets_document_domain: bool,
) -> Result<Result<DocumentResponse, WorldError>, String> {
    let url = url::Url::parse(url).map_err(|e| format!("url {url:?}: {e}"))?;
    let header = |name: &str| headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.trim());
    let requests_origin_keyed = header("Origin-Agent-Cluster") != Some("?0") && !sets_document_domain;
    Ok(DocumentResponse::new(DocumentInit {
        url: &url,
        permissions_policy: header("Permissions-Policy"),
        requests_origin_keyed,
    }))
}
