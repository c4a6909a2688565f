//! Turns a scenario into real pages: each document's script becomes JavaScript that calls the
//! real `document.modelContext` API, and the whole scenario becomes the plan the Node driver
//! (tools/chromium-driver/driver.mjs) runs in Chromium.

use std::collections::BTreeMap;

use scenario::model as sc;
use serde_json::{json, Value};

mod timing;
use timing::{all_moments, gap_of, start_jitter_for, start_slack_for};
pub use timing::{shortest_gap, start_jitter, start_slack, Timing};

/// The in-page runtime every served document starts with.
const RUNTIME: &str = include_str!("runtime.js");

/// The instrumentation prelude of a JavaScript page, run after the runtime and before the
/// page's own script (docs/chromium.md, "JavaScript pages").
const JSPAGE: &str = include_str!("jspage.js");

/// Where the driver writes a resource document's configuration (its label, navigable and tab
/// are known only when a page's own navigation or iframe requests it).
pub const CFG_SLOT: &str = "__WMCP_CFG__";

/// The page a tab shows while its document is in the back/forward cache.
pub const AWAY_URL: &str = "https://webmcp-sim.invalid/away";

/// A scenario compiled for Chromium: the driver's plan (without run count and paths).
pub struct Plan {
    pub json: Value,
    /// The bound of each event loop's random start delay (and, a quarter of it, of each
    /// document's busy-wait): `--jitter`, or less when the scenario's timers are closer than
    /// that ([`start_jitter`]).
    pub start_jitter_ms: u64,
    /// Why the start jitter is less than `--jitter`, for a warning that names the scenario.
    pub jitter_cut: Option<String>,
    /// How late past its planned moment an event loop's start may land before the run no longer
    /// realizes the scenario ([`start_slack`]); `None` when the scenario names no moment but 0.
    pub start_slack_ms: Option<u64>,
    /// Real milliseconds without a record before a run counts as quiescent.
    pub quiet_ms: u64,
    /// Real milliseconds after which a run stops unfinished.
    pub timeout_ms: u64,
}

/// Compiles `s` into a plan, or says why it cannot run in Chromium. `loops` maps each initial
/// document's label to its simulated event loop (documents sharing one keep tree order).
/// `moments`: the virtual times at which a simulated run of the scenario ran units, for a
/// scenario of JavaScript pages, whose timers the plan cannot read from the scenario's text
/// (empty for the action language, whose timers it reads).
pub fn compile(
    s: &sc::Scenario,
    loops: &BTreeMap<String, String>,
    timing: Timing,
    moments: &[u64],
) -> Result<Plan, String> {
    if let Some(feature) = untranslated(s) {
        if let Some((_, why)) = NOT_YET_TRANSLATED.iter().find(|(key, _)| *key == feature) {
            return Err(format!("{feature}: {why}"));
        }
        return Err(format!(
            "{feature}: the Chromium plan does not translate this feature of the scenario format (crates/cli/src/chromium/plan.rs, TRANSLATED)"
        ));
    }
    let agent = agent_steps(s)?;
    let js = is_javascript(s);
    if js {
        if let Some(why) = mixed(s) {
            return Err(why);
        }
    }
    let mut c = Compiler {
        pages: BTreeMap::new(),
        served: 0,
        generations: BTreeMap::new(),
        paths: BTreeMap::new(),
        tab_ids: s.tabs.iter().map(|t| t.id.clone()).collect(),
        scale: timing.scale,
        js,
    };
    for (t, tab) in s.tabs.iter().enumerate() {
        c.paths_of(t, tab, "");
    }
    let mut tabs = Vec::new();
    let mut starts = Vec::new();
    for (t, tab) in s.tabs.iter().enumerate() {
        tabs.push(Value::String(c.frame(t, tab, None, false)?));
        c.starts(tab, loops, &mut starts);
    }
    let mut user = Vec::new();
    for action in &s.user {
        user.push(c.user_step(action)?);
    }
    c.pages.insert(AWAY_URL.to_string(), json!({"headers": {}, "body": "<!doctype html><title>away</title>"}));
    // The documents the scenario's server holds, served by path at any origin; the driver writes
    // each one's configuration (label, navigable, tab) when it serves it.
    let mut resources = BTreeMap::new();
    for (path, r) in &s.resources {
        resources.insert(path.clone(), c.resource(r)?);
    }
    let empty_page =
        c.resource(&sc::Resource { js: String::new(), js_file: None, headers: BTreeMap::new(), frames: Vec::new() })?;
    let frame_paths: BTreeMap<String, BTreeMap<String, String>> = s
        .tabs
        .iter()
        .enumerate()
        .map(|(t, tab)| (tab.id.clone(), c.paths.get(&t).cloned().unwrap_or_default()))
        .collect();
    let longest = moments.iter().copied().max().unwrap_or(0);
    let total_ms = total_ms(s).saturating_add(longest);
    let scaled = (total_ms as f64 * timing.scale).ceil() as u64;
    let quiet_ms = scaled.saturating_add(250);
    let steps = 2 + s.user.len() as u64 + s.agent.len() as u64;
    let timeout_ms =
        scaled.saturating_mul(2).saturating_add(10_000).saturating_add(timing.jitter_ms.saturating_mul(steps));
    let gap = gap_of(&all_moments(s, moments));
    let (start_jitter_ms, jitter_cut) = start_jitter_for(gap, timing);
    let start_slack_ms = start_slack_for(gap, timing);
    let tab_ids: Vec<&str> = s.tabs.iter().map(|t| t.id.as_str()).collect();
    let json = json!({
        "pages": c.pages,
        "resources": resources,
        "emptyPage": empty_page,
        "cfgSlot": CFG_SLOT,
        "framePaths": frame_paths,
        "scale": timing.scale,
        "javascript": js,
        "tabs": tabs,
        "tabIds": tab_ids,
        "starts": starts,
        "user": user,
        "agent": agent,
        "awayUrl": AWAY_URL,
        "jitterMs": timing.jitter_ms,
        "startJitterMs": start_jitter_ms,
        "startSlackMs": start_slack_ms,
        "quietMs": quiet_ms,
        "timeoutMs": timeout_ms,
    });
    Ok(Plan { json, start_jitter_ms, jitter_cut, start_slack_ms, quiet_ms, timeout_ms })
}

/// Every key of the scenario format (docs/scenario.schema.json) that this plan translates into
/// pages and driver steps, or refuses with its own reason. A scenario that uses any other key
/// cannot run ([`untranslated`]), so a feature added to the format is never silently dropped:
/// translate it (exactly as the simulator runs it), then list it here. The unit test
/// `every_feature_of_the_scenario_format_is_translated` walks the format's schema against it.
/// (A value that is a unit variant, `"result": "never"`, needs no entry: the plan matches every
/// enum exhaustively, so a new variant does not compile until it is translated.)
pub const TRANSLATED: &[&str] = &[
    // The scenario and its options (the options shape the simulated sets, not the pages).
    "version",
    "name",
    "description",
    "options",
    "parallel",
    "variants",
    "bfcache",
    // `network` "unbounded" widens the spec's set (a navigation may respond after later timers);
    // Chromium's network is real either way.
    "network",
    // Frames.
    "tabs",
    "id",
    "url",
    "allow",
    "sandbox",
    "headers",
    "setsDocumentDomain",
    "script",
    "frames",
    // JavaScript pages (served as the document's script after an instrumentation prelude) and
    // the documents the scenario's server holds (served by path at every origin).
    "js",
    "jsFile",
    "resources",
    // Script statements.
    "log",
    "registerTool",
    "getTools",
    "executeTool",
    "newAbortController",
    "abort",
    "setTimeout",
    "then",
    "on",
    "throw",
    "navigate",
    "removeIframe",
    "enterBfcache",
    "restoreFromBfcache",
    "at",
    "within",
    // Their members.
    "document",
    "tool",
    "as",
    "title",
    "inputSchema",
    "execute",
    "annotations",
    "readOnlyHint",
    "untrustedContentHint",
    "consequentialHint",
    "do",
    "onAbort",
    "logInput",
    "logAbort",
    "result",
    "resolve",
    "reject",
    "after",
    "ms",
    "exposedTo",
    "signal",
    "fromOrigins",
    "fromGetTools",
    "promise",
    "dictionary",
    "origin",
    "window",
    "inputObject",
    "controller",
    "reason",
    "onFulfilled",
    "onRejected",
    "event",
    "target",
    "message",
    "navigable",
    "step",
    "from",
    "to",
    // The user's and the agent's steps.
    "user",
    "agent",
    "observe",
    "callTool",
    "tab",
    "input",
    "inputFromResult",
    "awaitResult",
];

/// Keys whose values are data (JavaScript values, header maps), not features: not walked.
const DATA: &[&str] = &["resolve", "reject", "inputObject", "inputSchema", "reason", "input", "headers"];

/// Keys of the scenario format the plan knowingly does not translate yet, each with the reason a
/// scenario using it gives as "cannot run" (declared here so the schema test still catches a key
/// nobody thought about).
pub const NOT_YET_TRANSLATED: &[(&str, &str)] = &[(
    "opener",
    "a tab opened by another tab's page: the driver opens every tab itself, each in a browsing context group of its own, so the tab would not be in its opener's group (write the pages in JavaScript with window.open to run them in Chromium)",
)];

/// Keys that say what the simulator checks, not what runs: not walked, never translated.
pub const NOT_RUN: &[&str] = &["expect", "extras"];

/// The first key the scenario uses (with a value other than `false`, `null`, `[]` or `{}`)
/// that [`TRANSLATED`] does not list, if any.
pub fn untranslated(s: &sc::Scenario) -> Option<String> {
    first_untranslated(&serde_json::to_value(s).ok()?, TRANSLATED)
}

/// [`untranslated`] over a scenario's JSON with a given list of translated keys.
pub(crate) fn first_untranslated(v: &Value, translated: &[&str]) -> Option<String> {
    let unused = |x: &Value| match x {
        Value::Null | Value::Bool(false) => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    };
    match v {
        Value::Object(m) => m.iter().find_map(|(k, x)| {
            if NOT_RUN.contains(&k.as_str()) || unused(x) {
                None
            } else if !translated.contains(&k.as_str()) {
                Some(k.clone())
            } else if DATA.contains(&k.as_str()) {
                None
            } else if k == "resources" {
                // Keyed by URL path: its values are the documents.
                x.as_object().and_then(|m| m.values().find_map(|d| first_untranslated(d, translated)))
            } else {
                first_untranslated(x, translated)
            }
        }),
        Value::Array(a) => a.iter().find_map(|x| first_untranslated(x, translated)),
        _ => None,
    }
}

/// The agent's steps for the driver, which runs them through the DevTools `WebMCP` domain
/// (docs/chromium.md): `{"kind": "observe", "tab"}`, `{"kind": "callTool", "tab",
/// "navigable", "name", "input", "call"}`, where `input` is the scenario's JSON value (`{}` when
/// left out, as the simulator's agent sends) and `call` the label the simulator's outcome gives
/// the call's result (its `as` name, or `call #N` counting the agent's calls from 1), with
/// `"inputFrom": CALL` when the input is an earlier call's result (`inputFromResult`), and
/// `{"kind": "awaitResult", "call"}`.
pub(crate) fn agent_steps(s: &sc::Scenario) -> Result<Vec<Value>, String> {
    if s.agent.is_empty() {
        return Ok(Vec::new());
    }
    if s.user.iter().any(|a| {
        let step = match a {
            sc::Action::At(at) => &*at.step,
            sc::Action::Within(w) => &*w.step,
            other => other,
        };
        matches!(step, sc::Action::EnterBfcache(_) | sc::Action::RestoreFromBfcache(_))
    }) {
        return Err("agent steps with a back/forward cache user step: the DevTools WebMCP domain has no event for a page entering or leaving the back/forward cache (toolsAdded fires at registration, toolsRemoved only for an AbortSignal's unregistration), so the driver's agent cannot tell which tools an observation of the cached or restored tab sees".into());
    }
    let mut calls = 0;
    let mut steps = Vec::new();
    for a in &s.agent {
        steps.push(match a {
            sc::AgentAction::Observe(tab) => json!({"kind": "observe", "tab": tab}),
            sc::AgentAction::CallTool(c) => {
                calls += 1;
                let mut step = json!({
                    "kind": "callTool",
                    "tab": c.tab,
                    "navigable": c.navigable,
                    "name": c.name,
                    "input": c.input.clone().unwrap_or_else(|| json!({})),
                    "call": c.as_.clone().unwrap_or_else(|| format!("call #{calls}")),
                });
                if let Some(from) = &c.input_from_result {
                    step["inputFrom"] = json!(from);
                }
                step
            }
            sc::AgentAction::AwaitResult(call) => json!({"kind": "awaitResult", "call": call}),
            sc::AgentAction::At(_) | sc::AgentAction::Within(_) => {
                return Err("timed agent steps (at, within): the driver's agent takes its steps as soon as it can, with no window of real time for them".into());
            }
        });
    }
    Ok(steps)
}

/// Whether the scenario's pages are JavaScript: a document with `js` (or `jsFile`, which the
/// loader reads into it), or documents on the scenario's server (`resources`, JavaScript pages'
/// only).
pub fn is_javascript(s: &sc::Scenario) -> bool {
    fn any(frames: &[sc::Frame]) -> bool {
        frames.iter().any(|f| f.js.is_some() || f.js_file.is_some() || any(&f.frames))
    }
    any(&s.tabs) || !s.resources.is_empty()
}

/// Why a scenario of JavaScript pages cannot run when one of its documents has an action-language
/// script: the comparison of JavaScript pages names every WebMCP promise of a document
/// (`registerTool#1@app`), which the action language's pages record only when named.
fn mixed(s: &sc::Scenario) -> Option<String> {
    fn frames(list: &[sc::Frame]) -> Option<String> {
        list.iter().find_map(|f| if f.script.is_empty() { frames(&f.frames) } else { Some(f.id.clone()) })
    }
    fn navigations(list: &[sc::Action]) -> Option<String> {
        list.iter().find_map(|a| match a {
            sc::Action::Navigate(n) if !n.script.is_empty() => Some(n.navigable.clone()),
            sc::Action::Navigate(n) => frames(&n.frames),
            sc::Action::At(at) => navigations(std::slice::from_ref(&*at.step)),
            sc::Action::Within(w) => navigations(std::slice::from_ref(&*w.step)),
            _ => None,
        })
    }
    let resource_frames = s.resources.values().find_map(|r| frames(&r.frames));
    let id = frames(&s.tabs).or_else(|| navigations(&s.user)).or(resource_frames)?;
    Some(format!(
        "{id}'s document has an action-language script in a scenario of JavaScript pages: the plan runs a scenario's pages in one language or the other, not both"
    ))
}

/// Every virtual millisecond the scenario's timers can add up to (an upper bound of its length).
fn total_ms(s: &sc::Scenario) -> u64 {
    // Saturating: a scenario's times are u64 (an `at` step may name any moment).
    fn actions(list: &[sc::Action]) -> u64 {
        list.iter().map(action).fold(0, u64::saturating_add)
    }
    fn result(r: &sc::ExecuteResult) -> u64 {
        match r {
            sc::ExecuteResult::After(a) => a.ms.saturating_add(result(&a.then)),
            _ => 0,
        }
    }
    fn action(a: &sc::Action) -> u64 {
        match a {
            sc::Action::RegisterTool(r) => {
                [actions(&r.tool.execute.do_), actions(&r.tool.execute.on_abort), result(&r.tool.execute.result)]
                    .into_iter()
                    .fold(0, u64::saturating_add)
            }
            sc::Action::SetTimeout(t) => t.ms.saturating_add(actions(&t.do_)),
            sc::Action::Then(t) => actions(&t.on_fulfilled).saturating_add(actions(&t.on_rejected)),
            sc::Action::On(o) => actions(&o.do_),
            sc::Action::Navigate(n) => actions(&n.script).saturating_add(frames(&n.frames)),
            sc::Action::At(a) => a.ms.saturating_add(action(&a.step)),
            sc::Action::Within(w) => w.to.saturating_add(action(&w.step)),
            _ => 0,
        }
    }
    fn frames(list: &[sc::Frame]) -> u64 {
        list.iter().map(|f| actions(&f.script).saturating_add(frames(&f.frames))).fold(0, u64::saturating_add)
    }
    frames(&s.tabs).saturating_add(actions(&s.user))
}

struct Compiler {
    /// Served URL → `{headers, body}`.
    pages: BTreeMap<String, Value>,
    served: usize,
    /// Documents created so far per navigable (for `name@N` labels, as the simulator counts).
    generations: BTreeMap<String, usize>,
    /// Per tab: frame path (`0/1`) → navigable id, for rendering a `Window`.
    paths: BTreeMap<usize, BTreeMap<String, String>>,
    tab_ids: Vec<String>,
    scale: f64,
    /// The scenario's pages are JavaScript (`is_javascript`).
    js: bool,
}

impl Compiler {
    fn paths_of(&mut self, tab: usize, frame: &sc::Frame, path: &str) {
        for (i, child) in frame.frames.iter().enumerate() {
            let p = if path.is_empty() { i.to_string() } else { format!("{path}/{i}") };
            self.paths.entry(tab).or_default().insert(p.clone(), child.id.clone());
            self.paths_of(tab, child, &p);
        }
    }

    /// The tab holding navigable `id` and its frame path.
    fn locate(&self, id: &str) -> Option<(usize, String)> {
        for (tab, paths) in &self.paths {
            if let Some((p, _)) = paths.iter().find(|(_, n)| n.as_str() == id) {
                return Some((*tab, p.clone()));
            }
        }
        None
    }

    fn starts(&self, frame: &sc::Frame, loops: &BTreeMap<String, String>, out: &mut Vec<Value>) {
        let group = loops.get(&frame.id).cloned().unwrap_or_else(|| frame.id.clone());
        out.push(json!({"navigable": frame.id, "group": group}));
        for child in &frame.frames {
            self.starts(child, loops, out);
        }
    }

    /// Serves one document (and, recursively, its iframes' initial documents); returns its URL.
    fn frame(
        &mut self,
        tab: usize,
        frame: &sc::Frame,
        nav: Option<&sc::Navigate>,
        autostart: bool,
    ) -> Result<String, String> {
        let (id, url, headers, script, frames) = match nav {
            None => (&frame.id, &frame.url, &frame.headers, &frame.script, &frame.frames),
            Some(n) => (&n.navigable, &n.url, &n.headers, &n.script, &n.frames),
        };
        let scheme = url.split(':').next().unwrap_or_default();
        if scheme != "https" && scheme != "http" {
            return Err(format!("{id}'s URL {url}: only http and https documents can be served to Chromium"));
        }
        let generation = self.generations.entry(id.clone()).or_insert(0);
        *generation += 1;
        let generation = *generation;
        let label = if generation == 1 { id.clone() } else { format!("{id}@{generation}") };
        self.served += 1;
        let served = served_url(url, self.served);
        let cfg = json!({
            "label": label,
            "nav": id,
            "tab": self.tab_ids.get(tab).cloned().unwrap_or_default(),
            "scale": self.scale,
            "frames": self.paths.get(&tab).cloned().unwrap_or_default(),
        });
        let mut headers: BTreeMap<String, String> = headers.clone();
        // `setsDocumentDomain`: such a page must be served site-keyed (docs/model.md).
        if nav.is_none() && frame.sets_document_domain {
            headers.entry("Origin-Agent-Cluster".into()).or_insert_with(|| "?0".into());
        }
        let js = match (nav, &frame.js, &frame.js_file) {
            (None, Some(source), file) => {
                Some((source.as_str(), file.clone().unwrap_or_else(|| format!("{id}.inline.js"))))
            }
            (None, None, Some(file)) => {
                return Err(format!("{id}'s jsFile {file} was not read (scenarios are loaded with cli::load)"))
            }
            _ => None,
        };
        let body = self.page(tab, &label, &cfg.to_string(), frames, script, js, autostart)?;
        let page = json!({"headers": headers, "body": body, "navigable": id, "generation": generation, "label": label});
        self.pages.insert(served.clone(), page);
        Ok(served)
    }

    /// A document the scenario's server holds: its page, with the configuration left to the
    /// driver (`CFG_SLOT`), started at its load event.
    fn resource(&mut self, r: &sc::Resource) -> Result<Value, String> {
        let js = (!r.js.is_empty()).then(|| (r.js.as_str(), r.js_file.clone().unwrap_or_else(|| "resource.js".into())));
        let body = self.page(0, "resource", CFG_SLOT, &r.frames, &[], js, true)?;
        Ok(json!({"headers": r.headers, "body": body}))
    }

    /// A served document's HTML: the runtime with its configuration (`cfg`, a JavaScript
    /// expression), the document's script (the scenario's actions compiled, or, for a JavaScript
    /// page, the instrumentation prelude and the page's own script), and its iframes.
    #[allow(clippy::too_many_arguments)]
    fn page(
        &mut self,
        tab: usize,
        title: &str,
        cfg: &str,
        frames: &[sc::Frame],
        script: &[sc::Action],
        js: Option<(&str, String)>,
        autostart: bool,
    ) -> Result<String, String> {
        let mut iframes = String::new();
        for child in frames {
            let src = self.frame(tab, child, None, autostart)?;
            iframes.push_str(&format!("<iframe name=\"{}\"", attr(&child.id)));
            // A JavaScript page finds its iframes by id (`document.getElementById`), as the
            // simulator's pages do.
            if self.js {
                iframes.push_str(&format!(" id=\"{}\"", attr(&child.id)));
            }
            iframes.push_str(&format!(" src=\"{}\"", attr(&src)));
            if let Some(a) = &child.allow {
                iframes.push_str(&format!(" allow=\"{}\"", attr(a)));
            }
            if let Some(s) = &child.sandbox {
                iframes.push_str(&format!(" sandbox=\"{}\"", attr(s)));
            }
            iframes.push_str("></iframe>");
        }
        let start = if autostart { "addEventListener('load', () => window.__wmcp_start(0));" } else { "" };
        let script = if self.js {
            let run = match &js {
                Some((source, file)) => format!("__wmcpRun({}, {})", q(source), q(file)),
                None => String::new(),
            };
            format!(
                "const __wmcpCfg = {cfg};\nconst __wmcpW = ({RUNTIME})(__wmcpCfg);\nconst __wmcpRun = ({JSPAGE})(__wmcpW, __wmcpCfg);\nwindow.__wmcp_start = (busy) => __wmcpW.start(busy, () => {{ {run} }});\n{start}"
            )
        } else {
            let body = self.actions(tab, script, false)?;
            format!(
                "const __wmcpW = ({RUNTIME})({cfg});\nwindow.__wmcp_start = (busy) => __wmcpW.start(busy, () => {{ const W = __wmcpW; {body} }});\n{start}"
            )
        };
        Ok(format!(
            "<!doctype html><meta charset=\"utf-8\"><title>{}</title><script>\n{}\n</script>{iframes}",
            attr(title),
            script.replace("</", "<\\/")
        ))
    }

    /// A navigation's new document, served at its own URL (its script starts at its load event).
    fn navigation(&mut self, n: &sc::Navigate) -> Result<String, String> {
        let (tab, path) = self.locate(&n.navigable).unwrap_or((self.tab_index(&n.navigable), String::new()));
        let dummy = sc::Frame {
            id: n.navigable.clone(),
            url: n.url.clone(),
            opener: None,
            allow: None,
            sandbox: None,
            headers: n.headers.clone(),
            sets_document_domain: false,
            js: None,
            js_file: None,
            script: Vec::new(),
            frames: n.frames.clone(),
        };
        for (i, child) in n.frames.iter().enumerate() {
            let p = if path.is_empty() { i.to_string() } else { format!("{path}/{i}") };
            self.paths.entry(tab).or_default().insert(p, child.id.clone());
        }
        self.frame(tab, &dummy, Some(n), true)
    }

    /// One user step for the driver. A timed one (`at`, `within`) carries its real window: the
    /// step waits until `fromMs` real ms after the initial scripts were started (virtual time 0)
    /// and happens at a seeded random moment up to `toMs` (docs/chromium.md).
    fn user_step(&mut self, action: &sc::Action) -> Result<Value, String> {
        let scale = self.scale;
        let real = move |ms: u64| (ms as f64 * scale).round() as u64;
        Ok(match action {
            sc::Action::Navigate(n) => {
                let url = self.navigation(n)?;
                json!({"kind": "navigate", "navigable": n.navigable, "url": url})
            }
            sc::Action::RemoveIframe(id) => json!({"kind": "removeIframe", "navigable": id}),
            sc::Action::EnterBfcache(id) => json!({"kind": "enterBfcache", "navigable": id}),
            sc::Action::RestoreFromBfcache(id) => json!({"kind": "restoreFromBfcache", "navigable": id}),
            sc::Action::At(a) => {
                let mut step = self.user_step(&a.step)?;
                step["fromMs"] = real(a.ms).into();
                step["toMs"] = real(a.ms).into();
                step
            }
            sc::Action::Within(w) => {
                let mut step = self.user_step(&w.step)?;
                step["fromMs"] = real(w.from).into();
                step["toMs"] = real(w.to).into();
                step
            }
            _ => return Err("a user step that is a script statement".into()),
        })
    }

    /// Fails when `id` names a navigable of another tab than `tab`: the pages of two tabs here
    /// have no reference to each other's windows (no opener).
    fn same_tab(&self, tab: usize, id: &str) -> Result<(), String> {
        let other = match self.tab_ids.iter().position(|t| t == id) {
            Some(t) => Some(t),
            None => self.locate(id).map(|(t, _)| t),
        };
        match other {
            Some(t) if t != tab => Err(format!(
                "a script of tab {} reaches navigable {id} of tab {}: pages of two tabs have no reference to each other's windows here",
                self.tab_ids[tab], self.tab_ids[t]
            )),
            _ => Ok(()),
        }
    }

    fn tab_index(&self, id: &str) -> usize {
        self.tab_ids.iter().position(|t| t == id).unwrap_or(0)
    }

    fn actions(&mut self, tab: usize, list: &[sc::Action], _nested: bool) -> Result<String, String> {
        let mut out = String::new();
        for a in list {
            out.push_str(&self.action(tab, a)?);
            out.push('\n');
        }
        Ok(out)
    }

    fn body(&mut self, tab: usize, list: &[sc::Action]) -> Result<String, String> {
        Ok(format!("() => W.body(() => {{ {} }})", self.actions(tab, list, true)?))
    }

    fn action(&mut self, tab: usize, a: &sc::Action) -> Result<String, String> {
        let reached = match a {
            sc::Action::RegisterTool(r) => r.document.clone(),
            sc::Action::GetTools(g) => g.document.clone(),
            sc::Action::ExecuteTool(e) => match &e.tool {
                sc::ToolRef::Dictionary(d) => Some(d.window.clone()),
                _ => e.document.clone(),
            },
            sc::Action::On(o) if o.event == "toolchange" => o.target.clone(),
            sc::Action::Navigate(n) => Some(n.navigable.clone()),
            _ => None,
        };
        if let Some(id) = reached {
            self.same_tab(tab, &id)?;
        }
        if let sc::Action::ExecuteTool(sc::ExecuteTool { document: Some(id), .. }) = a {
            self.same_tab(tab, id)?;
        }
        Ok(match a {
            sc::Action::Log(t) => format!("W.log({});", q(t)),
            sc::Action::RegisterTool(r) => {
                let t = &r.tool;
                let mut tool = format!("{{name: {}", q(&t.name));
                if let Some(title) = &t.title {
                    tool.push_str(&format!(", title: {}", q(title)));
                }
                tool.push_str(&format!(", description: {}", q(&t.description)));
                if let Some(schema) = &t.input_schema {
                    tool.push_str(&format!(", inputSchema: {}", value(schema)));
                }
                if let Some(an) = &t.annotations {
                    tool.push_str(&format!(
                        ", annotations: {{readOnlyHint: {}, untrustedContentHint: {}, consequentialHint: {}}}",
                        an.read_only_hint, an.untrusted_content_hint, an.consequential_hint
                    ));
                }
                tool.push_str(&format!(", execute: {}}}", self.execute(tab, &t.execute)?));
                let mut options = Vec::new();
                if let Some(e) = &r.options.exposed_to {
                    options.push(format!("exposedTo: {}", strings(e)));
                }
                if let Some(s) = &r.options.signal {
                    options.push(format!("signal: W.lookup('C', {}).signal", q(s)));
                }
                let d = opt_q(&r.document);
                format!(
                    "W.prom({}, {d}, W.doc({d}).modelContext.registerTool({tool}, {{{}}}));",
                    opt_q(&r.as_),
                    options.join(", ")
                )
            }
            sc::Action::GetTools(g) => {
                let options = match &g.options.from_origins {
                    Some(o) => format!("{{fromOrigins: {}}}", strings(o)),
                    None => "{}".into(),
                };
                format!(
                    "W.prom({}, {d}, W.doc({d}).modelContext.getTools({options}));",
                    opt_q(&g.as_),
                    d = opt_q(&g.document)
                )
            }
            sc::Action::ExecuteTool(e) => {
                let tool = match &e.tool {
                    sc::ToolRef::FromGetTools { promise, name } => {
                        format!("W.fromGetTools({}, {})", q(promise), q(name))
                    }
                    sc::ToolRef::Dictionary(d) => format!(
                        "{{name: {}, description: {}, origin: {}, window: W.window({})}}",
                        q(&d.name),
                        q(&d.description),
                        q(&d.origin),
                        q(&d.window)
                    ),
                };
                format!(
                    "W.prom({}, {d}, W.doc({d}).modelContext.executeTool({}));",
                    opt_q(&e.as_),
                    execute_tool_arguments(tool, e).join(", "),
                    d = opt_q(&e.document)
                )
            }
            sc::Action::NewAbortController(n) => format!("W.C[{}] = new AbortController();", q(n)),
            sc::Action::Abort(ab) => match &ab.reason {
                Some(r) => format!("W.lookup('C', {}).abort({});", q(&ab.controller), value(r)),
                None => format!("W.lookup('C', {}).abort();", q(&ab.controller)),
            },
            sc::Action::SetTimeout(t) => format!("W.timer({}, {});", t.ms, self.body(tab, &t.do_)?),
            // A reaction's exception rejects the promise `then` returns (runtime.js, `W.derived`).
            sc::Action::Then(t) => format!(
                "W.derived.add(W.lookup('P', {}).then(() => {{ {} }}, () => {{ {} }}));",
                q(&t.promise),
                self.actions(tab, &t.on_fulfilled, true)?,
                self.actions(tab, &t.on_rejected, true)?
            ),
            sc::Action::On(o) => match o.event.as_str() {
                "toolchange" => {
                    format!("W.doc({}).modelContext.ontoolchange = {};", opt_q(&o.target), self.body(tab, &o.do_)?)
                }
                "abort" => format!(
                    "W.lookup('C', {}).signal.addEventListener('abort', {});",
                    q(o.target.as_deref().unwrap_or_default()),
                    self.body(tab, &o.do_)?
                ),
                other => return Err(format!("the event {other:?} has no Chromium counterpart here")),
            },
            sc::Action::Throw(t) => format!("W.throw({}, {});", q(&t.name), q(&t.message)),
            sc::Action::Navigate(n) => {
                let url = self.navigation(n)?;
                format!("W.navigate({}, {});", q(&n.navigable), q(&url))
            }
            sc::Action::RemoveIframe(id) => format!("W.removeIframe({});", q(id)),
            sc::Action::EnterBfcache(_) | sc::Action::RestoreFromBfcache(_) => {
                "throw new TypeError(\"the back/forward cache is the user's: use it in `user` steps\");".into()
            }
            sc::Action::At(_) | sc::Action::Within(_) => {
                return Err("a timed step (`at`, `within`) is a user step, not a script statement".into())
            }
        })
    }

    /// A tool's `execute` callback: `onAbort` listener, `do` statements, then the result.
    fn execute(&mut self, tab: usize, e: &sc::Execute) -> Result<String, String> {
        let mut out = String::from("(input, client) => { const signal = client && client.signal; ");
        // As the simulator's "invoke execute": log the input first, then add the logAbort
        // listener before the onAbort one (listeners run in the order they were added).
        if e.log_input {
            out.push_str("W.log('input: ' + JSON.stringify(input)); ");
        }
        if e.log_abort {
            out.push_str("if (signal) signal.addEventListener('abort', () => W.log('signal aborted: ' + W.settled(signal.reason))); ");
        }
        if !e.on_abort.is_empty() {
            out.push_str(&format!("if (signal) signal.addEventListener('abort', {}); ", self.body(tab, &e.on_abort)?));
        }
        out.push_str(&self.actions(tab, &e.do_, true)?);
        match &e.result {
            sc::ExecuteResult::Throw(m) => out.push_str(&format!("throw new TypeError({}); }}", q(m))),
            r => out.push_str(&format!("return new Promise((res, rej) => {{ {} }}); }}", settle(r))),
        }
        Ok(out)
    }
}

/// `executeTool`'s arguments as the scenario writes them: a trailing argument the scenario leaves
/// out is not passed (`executeTool(tool)`, as docs/scenario-format.md says), and `{"$js":
/// "undefined"}` is passed as `undefined`. An `inputObject` left out before a given `options`
/// cannot be skipped in JavaScript: it is passed as its WebIDL default, `{}` (WebIDL gives the
/// method the same value for a missing argument); passing `undefined` there would test Chromium's
/// bindings instead (docs/chromium.md: `executeTool(tool, undefined, options)` rejects).
pub(crate) fn execute_tool_arguments(tool: String, e: &sc::ExecuteTool) -> Vec<String> {
    let mut args = vec![tool];
    let options = e.options.signal.as_ref().map(|s| format!("{{signal: W.lookup('C', {}).signal}}", q(s)));
    match (&e.input_object, &options) {
        (Some(input), _) => args.push(value(input)),
        (None, Some(_)) => args.push("{}".into()),
        (None, None) => {}
    }
    args.extend(options);
    args
}

/// Statements that settle `res`/`rej` as a tool's `result` says.
fn settle(r: &sc::ExecuteResult) -> String {
    match r {
        sc::ExecuteResult::Resolve(v) => format!("res({});", value(v)),
        sc::ExecuteResult::Reject(v) => format!("rej({});", value(v)),
        sc::ExecuteResult::Throw(m) => format!("rej(new TypeError({}));", q(m)),
        sc::ExecuteResult::Never => String::new(),
        sc::ExecuteResult::After(a) => format!("W.timer({}, () => {{ {} }});", a.ms, settle(&a.then)),
        sc::ExecuteResult::RejectOnAbort => {
            "if (signal) signal.addEventListener('abort', () => rej(signal.reason));".into()
        }
    }
}

/// A served URL: the scenario's URL with a query naming the served document, so two documents
/// at one URL stay apart (only the path and query change; the origin is the scenario's).
fn served_url(url: &str, n: usize) -> String {
    let (base, fragment) = match url.find('#') {
        Some(i) => (&url[..i], &url[i..]),
        None => (url, ""),
    };
    let base = if base.matches('/').count() < 3 { format!("{base}/") } else { base.to_string() };
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}wmcp={n}{fragment}")
}

fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn opt_q(s: &Option<String>) -> String {
    s.as_deref().map(q).unwrap_or_else(|| "null".into())
}

fn strings(list: &[String]) -> String {
    format!("[{}]", list.iter().map(|s| q(s)).collect::<Vec<_>>().join(", "))
}

fn attr(s: &str) -> String {
    s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;")
}

/// A scenario's JavaScript value as a JavaScript expression (`{"$js": …}` escapes included).
pub fn value(v: &Value) -> String {
    match v {
        Value::Object(m) if m.len() == 1 && m.contains_key("$js") => match m["$js"].as_str() {
            Some("undefined") | None => "undefined".into(),
            Some(other) => format!("W.special({})", q(other)),
        },
        Value::Object(m) => {
            // A `__proto__` key is written as a computed key: a literal `"__proto__": v` sets the
            // object's prototype (ECMA-262, PropertyDefinitionEvaluation's isProtoSetter), a
            // computed one defines an own property (CreateDataPropertyOrThrow), as JSON.parse does.
            let key = |k: &str| if k == "__proto__" { format!("[{}]", q(k)) } else { q(k) };
            let members: Vec<String> = m.iter().map(|(k, v)| format!("{}: {}", key(k), value(v))).collect();
            format!("{{{}}}", members.join(", "))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(value).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}
