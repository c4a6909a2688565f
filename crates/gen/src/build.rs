//! Turns a `Plan` into a valid `scenario::Scenario`: frame ids and promise and controller names
//! are made fresh, references are resolved against what exists (a controller made earlier in the
//! same document, an iframe, a tab), and a step that cannot be placed is left out.

use std::collections::BTreeMap;

use scenario::{
    Abort, Action, AgentAction, AgentCallTool, Execute, ExecuteResult, ExecuteTool, ExecuteToolOptions, Frame,
    GetTools, GetToolsOptions, ModelContextTool, Navigate, NetworkModel, On, Options, ParallelModel, RegisterTool,
    RegisterToolOptions, RegisteredToolText, Scenario, SetTimeout, Then, Throw, ToolAnnotations, ToolRef, Variant,
};
use serde_json::json;

use crate::plan::*;

/// The variants a plan can turn on, in `Plan::variants` order.
pub const VARIANTS: [Variant; 3] =
    [Variant::CompletionStepsInParallel, Variant::TitleUndefined, Variant::CrossTraversableExecution];

/// The scenario a plan stands for, named `name`.
pub fn build(plan: &Plan, name: &str) -> Scenario {
    let mut b = Builder::lay_out(plan);
    let mut scripts: Vec<Vec<Action>> = Vec::new();
    let core = plan.core.as_ref().map(|c| (c, c.target.index(plan.docs.len()), c.caller.index(plan.docs.len())));
    for (i, doc) in plan.docs.iter().enumerate() {
        b.controllers.clear();
        b.doc = i;
        let mut script = Vec::new();
        if let Some((c, target, _)) = core {
            if target == i {
                script.extend(b.core_registration(c));
            }
        }
        script.extend(b.stmts(&doc.script));
        if let Some((c, target, caller)) = core {
            if caller == i {
                script.extend(b.core_call(c, target));
            }
        }
        if let Some(nav) = plan.script_navigation.as_ref().filter(|n| n.doc.index(plan.docs.len()) == i) {
            script.extend(b.script_navigation(nav));
        }
        scripts.push(script);
    }
    let tabs = b.tabs.iter().map(|&t| b.frame(plan, t, &mut scripts)).collect();
    let mut user = Vec::new();
    for step in &plan.user {
        b.controllers.clear();
        b.doc = 0;
        user.extend(b.user_step(step));
    }
    let mut agent = Vec::new();
    for step in &plan.agent {
        agent.extend(b.agent_step(step));
    }
    let mut variants: Vec<Variant> =
        VARIANTS.iter().zip(plan.variants).filter(|(_, on)| *on).map(|(v, _)| *v).collect();
    if plan.cleanup_every_traversable && variants.contains(&Variant::CrossTraversableExecution) {
        variants.push(Variant::CleanupIteratesEveryTraversable);
    }
    Scenario {
        version: 1,
        name: name.to_string(),
        description: String::new(),
        options: Options {
            parallel: if plan.fifo { ParallelModel::Fifo } else { ParallelModel::Unordered },
            variants,
            network: if plan.network_unbounded { NetworkModel::Unbounded } else { NetworkModel::Instant },
            ..Options::default()
        },
        tabs,
        user,
        agent,
        expect: None,
        extras: None,
        resources: Default::default(),
    }
}

/// The `Pick` that makes a call in document `doc` of `plan` name the tool `name` (as
/// `ExecPlan::name` and `CallPlan::name` resolve), if one does.
pub fn name_pick(plan: &Plan, doc: usize, name: &str) -> Option<Pick> {
    let mut b = Builder::lay_out(plan);
    b.doc = doc;
    (0..=u8::MAX).map(Pick).find(|p| b.tool_name(*p, false) == name)
}

/// The `Pick` that makes a dictionary call in document `doc` of `plan` name the window of
/// document `target` for the tool `name` (as `ExecPlan::window` resolves), if one does.
pub fn window_pick(plan: &Plan, doc: usize, name: &str, target: usize) -> Option<Pick> {
    let mut b = Builder::lay_out(plan);
    b.doc = doc;
    (0..=u8::MAX).map(Pick).find(|p| b.window_for(name, *p) == target)
}

struct Builder {
    /// Frame id of each document of the plan.
    ids: Vec<String>,
    urls: Vec<String>,
    origins: Vec<String>,
    /// Document indices of tabs, and of iframes, in order.
    tabs: Vec<usize>,
    iframes: Vec<usize>,
    /// Each iframe's parent document.
    parent: BTreeMap<usize, usize>,
    /// The document whose script is being built.
    doc: usize,
    /// Controllers made so far in that script.
    controllers: Vec<String>,
    next: u32,
    /// Valid tool names registered anywhere in the plan, each with the documents that register it.
    registered: Vec<(String, Vec<usize>)>,
    /// The distinct origins of the documents, for `Origins::Documents`.
    doc_origins: Vec<String>,
    /// The tab (its document index) each document is in.
    tab_of: Vec<usize>,
}

/// Notes every valid tool name `stmts` (run in document `doc`) registers.
fn collect_registered(stmts: &[Stmt], doc: usize, docs: usize, out: &mut Vec<(String, Vec<usize>)>) {
    for s in stmts {
        match s {
            Stmt::Register(r) => {
                if let ToolName::Valid(_) = r.tool.name {
                    let name = r.tool.name.text();
                    let owner = r.document.map_or(doc, |p| p.index(docs));
                    match out.iter_mut().find(|(n, _)| *n == name) {
                        Some((_, owners)) if !owners.contains(&owner) => owners.push(owner),
                        Some(_) => {}
                        None => out.push((name, vec![owner])),
                    }
                }
            }
            Stmt::SetTimeout { body, .. } | Stmt::OnToolchange { body } => collect_registered(body, doc, docs, out),
            _ => {}
        }
    }
}

impl Builder {
    fn lay_out(plan: &Plan) -> Builder {
        let mut b = Builder {
            ids: Vec::new(),
            urls: Vec::new(),
            origins: Vec::new(),
            tabs: Vec::new(),
            iframes: Vec::new(),
            parent: BTreeMap::new(),
            doc: 0,
            controllers: Vec::new(),
            next: 0,
            registered: Vec::new(),
            doc_origins: Vec::new(),
            tab_of: Vec::new(),
        };
        for (i, doc) in plan.docs.iter().enumerate() {
            if i == 0 || (doc.new_tab && b.tabs.len() < 2) {
                b.ids.push(format!("tab{}", b.tabs.len()));
                b.tabs.push(i);
                b.tab_of.push(i);
            } else {
                b.ids.push(format!("f{i}"));
                b.iframes.push(i);
                let parent = doc.parent.index(i);
                b.parent.insert(i, parent);
                b.tab_of.push(b.tab_of[parent]);
            }
            b.urls.push(format!("{}/d{i}", doc.url.origin()));
            b.origins.push(doc.url.origin());
            if !b.doc_origins.contains(&doc.url.origin()) {
                b.doc_origins.push(doc.url.origin());
            }
        }
        let docs = plan.docs.len();
        if let Some(core) = &plan.core {
            b.registered.push((VALID_TOOL_NAMES[0].to_string(), vec![core.target.index(docs)]));
        }
        for (i, doc) in plan.docs.iter().enumerate() {
            collect_registered(&doc.script, i, docs, &mut b.registered);
        }
        for step in &plan.user {
            if let UserStep::Navigate { navigable, script, .. } = step {
                collect_registered(script, navigable.index(docs), docs, &mut b.registered);
            }
        }
        if let Some(nav) = &plan.script_navigation {
            let target = b.navigation_target(nav, docs);
            collect_registered(&nav.script, target, docs, &mut b.registered);
        }
        b
    }

    /// The document whose navigable a script's navigation navigates: one of the navigating
    /// document's iframes, or its own.
    fn navigation_target(&self, nav: &ScriptNavigation, docs: usize) -> usize {
        let doc = nav.doc.index(docs);
        let own: Vec<usize> = self.iframes.iter().copied().filter(|f| self.parent.get(f) == Some(&doc)).collect();
        match nav.iframe {
            Some(i) if !own.is_empty() => own[i.index(own.len())],
            _ => doc,
        }
    }

    /// A navigation the script of document `self.doc` starts (`nav.doc`), with the new
    /// document's script, from a timer or at once.
    fn script_navigation(&mut self, nav: &ScriptNavigation) -> Vec<Action> {
        let target = self.navigation_target(nav, self.ids.len());
        let (doc, controllers) = (self.doc, std::mem::take(&mut self.controllers));
        self.doc = target;
        let script = self.stmts(&nav.script);
        (self.doc, self.controllers) = (doc, controllers);
        let n = self.fresh("");
        let navigate = Action::Navigate(Navigate {
            navigable: self.ids[target].clone(),
            url: format!("{}/s{n}", nav.url.origin()),
            headers: BTreeMap::new(),
            script,
            frames: Vec::new(),
        });
        match nav.delay {
            None => vec![navigate],
            Some(ms) => vec![Action::SetTimeout(SetTimeout { ms, do_: vec![navigate] })],
        }
    }

    /// The core call's tool: `search`, registered first in the target's script, exposed to all.
    fn core_registration(&mut self, core: &CorePlan) -> Vec<Action> {
        self.register(&core_register_plan(core))
    }

    /// The core call, from a timer in the caller's script.
    fn core_call(&mut self, core: &CorePlan, target: usize) -> Vec<Action> {
        let saved = self.controllers.len();
        let name = VALID_TOOL_NAMES[0].to_string();
        let actions = if core.via_get_tools {
            let tools = self.fresh("tools");
            let get = self.get_tools(&Some(Origins::Documents), Some(tools.clone()));
            let tool = ToolRef::FromGetTools { promise: tools.clone(), name };
            let on_fulfilled = self.call(tool, Input::Object, &core.signal, true);
            vec![get, Action::Then(Then { promise: tools, on_fulfilled, on_rejected: Vec::new() })]
        } else {
            let origin = self.origins[target].clone();
            let window = self.ids[target].clone();
            let tool = ToolRef::Dictionary(RegisteredToolText { name, description: String::new(), origin, window });
            self.call(tool, Input::Object, &core.signal, true)
        };
        self.delayed(Some(core.delay), actions, saved)
    }

    /// A tool name to call: one a document of this tab registers, else one any document does
    /// (or `missing`).
    fn tool_name(&self, pick: Pick, missing: bool) -> String {
        if missing {
            return "missing".into();
        }
        let tab = self.tab_of[self.doc];
        let here: Vec<&String> = self
            .registered
            .iter()
            .filter(|(_, owners)| owners.iter().any(|o| self.tab_of[*o] == tab))
            .map(|(n, _)| n)
            .collect();
        if !here.is_empty() {
            return here[pick.index(here.len())].clone();
        }
        match self.registered.len() {
            0 => VALID_TOOL_NAMES[0].into(),
            n => self.registered[pick.index(n)].0.clone(),
        }
    }

    /// The document whose window a dictionary names: one of this tab that registers `name`, else
    /// any that does, else any of this tab.
    fn window_for(&self, name: &str, pick: Pick) -> usize {
        let tab = self.tab_of[self.doc];
        let owners: Vec<usize> =
            self.registered.iter().find(|(n, _)| n == name).map(|(_, o)| o.clone()).unwrap_or_default();
        let here: Vec<usize> = owners.iter().copied().filter(|o| self.tab_of[*o] == tab).collect();
        let pool = if !here.is_empty() {
            here
        } else if !owners.is_empty() {
            owners
        } else {
            (0..self.ids.len()).filter(|d| self.tab_of[*d] == tab).collect()
        };
        pool[pick.index(pool.len())]
    }

    fn origins_of(&self, origins: &Option<Origins>) -> Option<Vec<String>> {
        origins.as_ref().map(|o| match o {
            Origins::Documents => self.doc_origins.clone(),
            Origins::Texts(v) => v.iter().map(|i| ORIGIN_TEXTS[*i % ORIGIN_TEXTS.len()].to_string()).collect(),
        })
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    fn frame(&self, plan: &Plan, i: usize, scripts: &mut [Vec<Action>]) -> Frame {
        let doc = &plan.docs[i];
        let is_tab = self.tabs.contains(&i);
        let mut headers = BTreeMap::new();
        if doc.site_keyed {
            headers.insert("Origin-Agent-Cluster".to_string(), "?0".to_string());
        }
        if let Some(p) = doc.policy.text() {
            headers.insert("Permissions-Policy".to_string(), p.to_string());
        }
        let children: Vec<usize> = self.parent.iter().filter(|(_, p)| **p == i).map(|(c, _)| *c).collect();
        // A later tab opened by the first tab's page, when the plan says so.
        let opener =
            (is_tab && plan.tab_opened && self.tabs.first() != Some(&i)).then(|| self.ids[self.tabs[0]].clone());
        Frame {
            id: self.ids[i].clone(),
            url: self.urls[i].clone(),
            opener,
            allow: if is_tab { None } else { doc.allow.text().map(str::to_string) },
            sandbox: if is_tab { None } else { doc.sandbox.text().map(str::to_string) },
            headers,
            sets_document_domain: false,
            js: None,
            js_file: None,
            script: std::mem::take(&mut scripts[i]),
            frames: children.into_iter().map(|c| self.frame(plan, c, scripts)).collect(),
        }
    }

    fn log(&mut self, what: &str) -> Action {
        let n = self.fresh("");
        Action::Log(format!("{} {what} {n}", self.ids[self.doc]))
    }

    fn controller(&self, index: &Pick) -> Option<String> {
        (!self.controllers.is_empty()).then(|| self.controllers[index.index(self.controllers.len())].clone())
    }

    fn stmts(&mut self, stmts: &[Stmt]) -> Vec<Action> {
        stmts.iter().flat_map(|s| self.stmt(s)).collect()
    }

    fn stmt(&mut self, stmt: &Stmt) -> Vec<Action> {
        match stmt {
            Stmt::Log => vec![self.log("log")],
            Stmt::Register(r) => self.register(r),
            Stmt::ExecuteDict(e) => {
                let name = self.tool_name(e.name, e.missing);
                let target = self.window_for(&name, e.window);
                let window = self.ids[target].clone();
                let origin = match e.origin {
                    OriginChoice::OfWindow => self.origins[target].clone(),
                    OriginChoice::Text(i) => ORIGIN_TEXTS[i % ORIGIN_TEXTS.len()].to_string(),
                };
                let tool = ToolRef::Dictionary(RegisteredToolText { name, description: String::new(), origin, window });
                let saved = self.controllers.len();
                let actions = self.call(tool, e.input, &e.signal, e.then_log);
                self.delayed(e.delay, actions, saved)
            }
            Stmt::GetThenExecute(g) => {
                let tools = self.fresh("tools");
                let get = self.get_tools(&g.from, Some(tools.clone()));
                let saved = self.controllers.len();
                let mut on_fulfilled = Vec::new();
                for c in &g.calls {
                    let name = self.tool_name(c.name, c.missing);
                    let tool = ToolRef::FromGetTools { promise: tools.clone(), name };
                    on_fulfilled.extend(self.call(tool, c.input, &c.signal, c.then_log));
                }
                // Controllers made inside a callback are not in scope after it.
                self.controllers.truncate(saved);
                let actions = vec![get, Action::Then(Then { promise: tools, on_fulfilled, on_rejected: Vec::new() })];
                self.delayed(g.delay, actions, saved)
            }
            Stmt::GetTools { from } => {
                let name = self.fresh("tools");
                vec![self.get_tools(from, Some(name))]
            }
            Stmt::NewController => {
                let name = self.fresh("ctl");
                self.controllers.push(name.clone());
                vec![Action::NewAbortController(name)]
            }
            Stmt::Abort { controller, when } => match self.controller(controller) {
                None => Vec::new(),
                Some(c) => self.abort(&c, *when),
            },
            Stmt::OnAbort { controller } => match self.controller(controller) {
                None => Vec::new(),
                Some(c) => {
                    let body = vec![self.log(&format!("{c} aborted"))];
                    vec![Action::On(On { event: "abort".into(), target: Some(c), do_: body })]
                }
            },
            Stmt::Throw => vec![Action::Throw(Throw { name: "TypeError".into(), message: "thrown".into() })],
            Stmt::RemoveIframe(index) => match self.iframe_for(index) {
                None => Vec::new(),
                Some(id) => vec![Action::RemoveIframe(id)],
            },
            Stmt::SetTimeout { ms, body } => {
                let saved = self.controllers.len();
                let do_ = self.stmts(body);
                self.controllers.truncate(saved);
                vec![Action::SetTimeout(SetTimeout { ms: *ms, do_ })]
            }
            Stmt::OnToolchange { body } => {
                let saved = self.controllers.len();
                let do_ = self.stmts(body);
                self.controllers.truncate(saved);
                vec![Action::On(On { event: "toolchange".into(), target: None, do_ })]
            }
        }
    }

    /// `actions`, or a timer running them; controllers they made stay in scope only without one.
    fn delayed(&mut self, delay: Option<u64>, actions: Vec<Action>, saved: usize) -> Vec<Action> {
        match delay {
            None => actions,
            Some(ms) => {
                self.controllers.truncate(saved);
                vec![Action::SetTimeout(SetTimeout { ms, do_: actions })]
            }
        }
    }

    /// An iframe of the current document, if it has one (removing another is a `TypeError`).
    fn iframe_for(&self, index: &Pick) -> Option<String> {
        let own: Vec<usize> = self.iframes.iter().copied().filter(|f| self.parent.get(f) == Some(&self.doc)).collect();
        (!own.is_empty()).then(|| self.ids[own[index.index(own.len())]].clone())
    }

    fn get_tools(&mut self, from: &Option<Origins>, as_: Option<String>) -> Action {
        let from_origins = self.origins_of(from);
        Action::GetTools(GetTools { document: None, options: GetToolsOptions { from_origins }, as_ })
    }

    fn abort(&mut self, controller: &str, when: AbortWhen) -> Vec<Action> {
        let abort = Action::Abort(Abort { controller: controller.to_string(), reason: None });
        match when {
            AbortWhen::Never => Vec::new(),
            AbortWhen::Now | AbortWhen::Before => vec![abort],
            AbortWhen::After(ms) => vec![Action::SetTimeout(SetTimeout { ms, do_: vec![abort] })],
        }
    }

    /// `executeTool` with its signal's set-up and abort, and a `then` that logs.
    fn call(&mut self, tool: ToolRef, input: Input, signal: &SignalPlan, then_log: bool) -> Vec<Action> {
        let mut out = Vec::new();
        let (signal, abort) = match signal {
            SignalPlan::Absent => (None, AbortWhen::Never),
            SignalPlan::Existing(i) => (self.controller(i), AbortWhen::Never),
            SignalPlan::Fresh(when) => {
                let name = self.fresh("ctl");
                self.controllers.push(name.clone());
                out.push(Action::NewAbortController(name.clone()));
                (Some(name), *when)
            }
        };
        if let (Some(c), AbortWhen::Before) = (&signal, abort) {
            out.extend(self.abort(c, abort));
        }
        let as_ = self.fresh("call");
        out.push(Action::ExecuteTool(ExecuteTool {
            document: None,
            tool,
            input_object: input.json(),
            options: ExecuteToolOptions { signal: signal.clone() },
            as_: Some(as_.clone()),
        }));
        if let Some(c) = &signal {
            if abort != AbortWhen::Before {
                out.extend(self.abort(c, abort));
            }
        }
        if then_log {
            let on_fulfilled = vec![self.log(&format!("{as_} fulfilled"))];
            let on_rejected = vec![self.log(&format!("{as_} rejected"))];
            out.push(Action::Then(Then { promise: as_, on_fulfilled, on_rejected }));
        }
        out
    }

    fn register(&mut self, r: &RegisterPlan) -> Vec<Action> {
        let t = &r.tool;
        let schema = match t.schema {
            Schema::Absent => None,
            Schema::Object => Some(json!({"type": "object", "properties": {"q": {"type": "string"}}})),
            Schema::NestedBigInt => Some(json!({"type": "object", "default": {"$js": "bigint"}})),
            Schema::Cycle => Some(json!({"$js": "cycle"})),
            Schema::Primitive => Some(json!("schema")),
            Schema::ToJsonUndefined => Some(json!({"$js": "toJSON-undefined"})),
        };
        let result = match t.result {
            ToolResult::Resolve(v) => ExecuteResult::Resolve(v.json()),
            ToolResult::Reject(v) => ExecuteResult::Reject(v.json()),
            ToolResult::Throw => ExecuteResult::Throw("tool threw".into()),
            ToolResult::Never => ExecuteResult::Never,
            ToolResult::After { ms, resolve } => ExecuteResult::After(Box::new(scenario::After {
                ms,
                then: if resolve {
                    ExecuteResult::Resolve(json!("late"))
                } else {
                    ExecuteResult::Reject(json!("late"))
                },
            })),
            ToolResult::RejectOnAbort => ExecuteResult::RejectOnAbort,
        };
        let name = t.name.text();
        let do_ = if t.log_in_execute { vec![self.log(&format!("tool {name} runs"))] } else { Vec::new() };
        let on_abort = if t.log_on_abort { vec![self.log(&format!("tool {name} aborted"))] } else { Vec::new() };
        let tool = ModelContextTool {
            name,
            title: t.title.then(|| "Title".to_string()),
            description: if t.description { "Does things.".into() } else { String::new() },
            input_schema: schema,
            execute: Execute { do_, on_abort, result, log_input: false, log_abort: false },
            annotations: t.annotations.map(|[read_only_hint, untrusted_content_hint, consequential_hint]| {
                ToolAnnotations { read_only_hint, untrusted_content_hint, consequential_hint }
            }),
        };
        let exposed_to = self.origins_of(&r.exposed_to);
        let signal = r.signal.as_ref().and_then(|i| self.controller(i));
        let document = r.document.as_ref().map(|i| self.ids[i.index(self.ids.len())].clone());
        let as_ = self.fresh("reg");
        let mut out = vec![Action::RegisterTool(RegisterTool {
            document,
            tool,
            options: RegisterToolOptions { exposed_to, signal },
            as_: Some(as_.clone()),
        })];
        if r.then_log {
            let on_fulfilled = vec![self.log(&format!("{as_} fulfilled"))];
            let on_rejected = vec![self.log(&format!("{as_} rejected"))];
            out.push(Action::Then(Then { promise: as_, on_fulfilled, on_rejected }));
        }
        out
    }

    fn user_step(&mut self, step: &UserStep) -> Vec<Action> {
        let tab = |b: &Builder, i: &Pick| b.ids[b.tabs[i.index(b.tabs.len())]].clone();
        match step {
            UserStep::Navigate { navigable, url, script } => {
                let target = navigable.index(self.ids.len());
                self.doc = target;
                let script = self.stmts(script);
                let n = self.fresh("");
                vec![Action::Navigate(Navigate {
                    navigable: self.ids[target].clone(),
                    url: format!("{}/n{n}", url.origin()),
                    headers: BTreeMap::new(),
                    script,
                    frames: Vec::new(),
                })]
            }
            UserStep::RemoveIframe(i) => {
                if self.iframes.is_empty() {
                    return Vec::new();
                }
                vec![Action::RemoveIframe(self.ids[self.iframes[i.index(self.iframes.len())]].clone())]
            }
            UserStep::EnterBfcache(i) => vec![Action::EnterBfcache(tab(self, i))],
            UserStep::RestoreFromBfcache(i) => vec![Action::RestoreFromBfcache(tab(self, i))],
            UserStep::BfcacheVisit(i) => {
                vec![Action::EnterBfcache(tab(self, i)), Action::RestoreFromBfcache(tab(self, i))]
            }
        }
    }

    fn agent_step(&mut self, step: &AgentStep) -> Vec<AgentAction> {
        match step {
            AgentStep::Observe(i) => vec![AgentAction::Observe(self.ids[self.tabs[i.index(self.tabs.len())]].clone())],
            AgentStep::ObserveAndCall { tab, navigable, name } => {
                let tab = self.ids[self.tabs[tab.index(self.tabs.len())]].clone();
                let navigable = self.ids[navigable.index(self.ids.len())].clone();
                let as_ = self.fresh("agent");
                vec![
                    AgentAction::Observe(tab.clone()),
                    AgentAction::CallTool(AgentCallTool {
                        tab,
                        navigable,
                        name: self.tool_name(*name, false),
                        input: Some(json!({"q": "agent"})),
                        input_from_result: None,
                        as_: Some(as_),
                    }),
                ]
            }
        }
    }
}

#[cfg(test)]
mod tests;

/// The registration of the core call's tool: `search`, logging in `execute` and on abort,
/// exposed to every document, settling as the core plan says.
pub fn core_register_plan(core: &CorePlan) -> RegisterPlan {
    let tool = ToolPlan {
        name: ToolName::Valid(0),
        description: true,
        title: false,
        schema: Schema::Absent,
        annotations: None,
        log_in_execute: true,
        log_on_abort: true,
        result: core.result,
    };
    RegisterPlan { tool, exposed_to: Some(Origins::Documents), signal: None, document: None, then_log: false }
}
