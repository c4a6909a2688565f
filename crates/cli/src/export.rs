//! `webmcp-sim export SCENARIO --schedule S --format testharness`: a WPT testharness.js page that
//! drives the scenario in a real browser and asserts what the schedule's outcome shows, so a spec
//! author can attach a test to an issue (docs/export.md).
//!
//! The page is the scenario's tab document as `webmcp-sim chromium` serves it: the same plan
//! (`chromium::plan`: frames, origins, scripts, timing, the in-page runtime), with a harness
//! (`export/harness.js`) that starts every event loop at one moment, collects what each document
//! observes (`export/shim.js` forwards every document's records to the test page), waits for
//! quiescence and then asserts. The documents at other origins travel inside the file (a JSON
//! block) and are served at their origins by tools/chromium-driver/export-runner.mjs.
//!
//! What is asserted is the projection `chromium::view::View` compares: each document's console
//! lines, uncaught exceptions and named promises' final states. A browser cannot be made to take
//! one schedule, so a field the explored outcomes all agree on is asserted exactly; a field they
//! disagree on is asserted to be one of the values the spec allows, and the test's name says it
//! is schedule-dependent and what the schedule shows; and the whole view is asserted to be one of
//! the explored outcomes' views. No test asserts one side of a race as if it were guaranteed.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use scenario::model as sc;
use serde_json::{json, Value};

use crate::chromium::{plan, view::View};
use crate::{CliError, Driver};

/// The harness of the test page.
const HARNESS: &str = include_str!("export/harness.js");
/// The first script of every exported document.
const SHIM: &str = include_str!("export/shim.js");
/// How far ahead of the test page's `load` event every event loop's start is set.
const BARRIER_MS: u64 = 100;

/// The longest a page may wait before it asserts: a WPT test's `long` timeout (60 s, the page's
/// `<meta name="timeout" content="long">`) less a margin for loading and reporting.
const LONG_TIMEOUT_MS: u64 = 50_000;

/// A scenario feature the export cannot express: the command stops with exit 2 naming it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The feature: a key of the scenario format (`agent`, `js`, `enterBfcache`, …) or a short
    /// name of what the plan cannot serve.
    pub feature: String,
    pub why: String,
}

/// Why an export stopped.
#[derive(Debug)]
pub enum Error {
    Refused(Refused),
    Cli(CliError),
}

impl From<CliError> for Error {
    fn from(e: CliError) -> Self {
        Error::Cli(e)
    }
}

/// How to export.
#[derive(Clone, Debug)]
pub struct Options {
    /// The schedule whose outcome the test asserts; `None`: the first explored outcome's
    /// fewest-choice witness.
    pub schedule: Option<String>,
    /// Real milliseconds per virtual millisecond of the scenario's timers.
    pub scale: f64,
    /// Wall-clock limit of the search for the allowed outcomes.
    pub time_limit: Option<std::time::Duration>,
}

impl Default for Options {
    fn default() -> Self {
        Options { schedule: None, scale: 20.0, time_limit: None }
    }
}

/// An exported test.
#[derive(Clone, Debug)]
pub struct Exported {
    pub html: String,
    /// The schedule the test names (given, or the default witness).
    pub schedule: String,
    /// Whether the schedule was the default (no `--schedule`).
    pub defaulted: bool,
    /// The distinct views the spec allows (the explored outcomes projected).
    pub allowed: usize,
    /// Fields asserted exactly (the same under every schedule) and fields asserted as one of the
    /// allowed values (schedule-dependent).
    pub exact: usize,
    pub dependent: usize,
}

/// The first feature of `s` the export cannot express, if any. Checked before anything runs.
pub fn refusal(s: &sc::Scenario) -> Option<Refused> {
    let refuse = |feature: &str, why: &str| Some(Refused { feature: feature.into(), why: why.into() });
    // JavaScript pages run in Chromium through the plan (with an instrumentation prelude that
    // records for `webmcp-sim chromium`), but an exported test asserts through the action
    // language's runtime, which has no such pages: refused by their first key, as before.
    let translated: Vec<&str> =
        plan::TRANSLATED.iter().copied().filter(|k| !JAVASCRIPT_KEYS.iter().any(|(j, _)| j == k)).collect();
    if let Some(key) = serde_json::to_value(s).ok().and_then(|v| plan::first_untranslated(&v, &translated)) {
        if let Some((_, why)) = JAVASCRIPT_KEYS.iter().find(|(k, _)| *k == key) {
            return Some(Refused { feature: key, why: why.to_string() });
        }
    }
    if let Some(key) = plan::untranslated(s) {
        let why = plan::NOT_YET_TRANSLATED
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, why)| why.to_string())
            .unwrap_or_else(|| "the Chromium plan does not translate this feature of the scenario format".into());
        return Some(Refused { feature: key, why });
    }
    if s.tabs.len() > 1 {
        return refuse(
            "tabs",
            "a testharness.js test is one page, and this scenario has more than one tab (a test page cannot open a second top-level traversable whose documents the scenario describes)",
        );
    }
    if let Some(tab) = s.tabs.first() {
        if navigates(&serde_json::to_value(&s.tabs).unwrap_or_default(), &tab.id) {
            return refuse(
                "navigate (the tab)",
                "a script navigates the tab's own document, which is the test page: the test would end with it",
            );
        }
    }
    if !s.agent.is_empty() {
        return refuse(
            "agent",
            "a testharness.js page cannot act as the browser's agent: Chromium exposes it only through the DevTools WebMCP domain, and WPT's testdriver has no WebMCP action",
        );
    }
    // The user's `removeIframe` is taken by the test page (in the iframe's parent, as the driver
    // of `webmcp-sim chromium` takes it); the other user steps are refused, the first names it.
    for step in &s.user {
        let inner = match step {
            sc::Action::At(a) => &*a.step,
            sc::Action::Within(w) => &*w.step,
            other => other,
        };
        let (feature, why) = match inner {
            sc::Action::RemoveIframe(_) => continue,
            sc::Action::EnterBfcache(_) | sc::Action::RestoreFromBfcache(_) => (
                if matches!(inner, sc::Action::EnterBfcache(_)) { "enterBfcache" } else { "restoreFromBfcache" },
                "a page cannot put its own tab into the back/forward cache or bring it back (WPT does it with remote-context helpers, which the export does not use)",
            ),
            sc::Action::Navigate(_) => (
                "navigate",
                "the user's navigation is browser-initiated; a test page can only start a script-initiated one (another initiator, other history handling), which is not the scenario's step",
            ),
            _ => ("user", "a user step the export does not know"),
        };
        return refuse(&format!("user: {feature}"), why);
    }
    None
}

/// Whether a script in `v` (the scenario's frames as JSON) navigates the navigable `id`.
fn navigates(v: &Value, id: &str) -> bool {
    match v {
        Value::Object(m) => {
            m.get("navigate").is_some_and(|n| n["navigable"] == id) || m.values().any(|x| navigates(x, id))
        }
        Value::Array(a) => a.iter().any(|x| navigates(x, id)),
        _ => false,
    }
}

/// The keys of JavaScript pages, which the export refuses, and why.
const JAVASCRIPT_KEYS: &[(&str, &str)] = &[
    ("js", "JavaScript pages are not exported yet (issue 27): an exported test asserts through the action language's in-page runtime"),
    ("jsFile", "JavaScript pages are not exported yet (issue 27): an exported test asserts through the action language's in-page runtime"),
    ("resources", "the documents a scenario's server holds are JavaScript pages', which are not exported yet (issue 27)"),
];

/// A plan's refusal (`plan::compile`'s reason) as a named feature.
fn from_plan(reason: String) -> Refused {
    let feature = if reason.contains("only http and https documents") {
        "url (a scheme other than http and https)"
    } else if reason.contains("pages of two tabs") {
        "a navigable of another tab"
    } else if reason.contains("has no Chromium counterpart") {
        "on (an event other than toolchange and abort)"
    } else {
        "the Chromium plan"
    };
    Refused { feature: feature.into(), why: reason }
}

/// Exports the scenario at `path` as a testharness.js page.
pub fn testharness(path: &Path, opts: &Options) -> Result<Exported, Error> {
    let crate::Loaded { program, scenario, .. } = crate::load(path, &[])?;
    if let Some(r) = refusal(&scenario) {
        return Err(Error::Refused(r));
    }
    let name = path.display().to_string();
    let loops = crate::chromium::event_loops(&program)
        .map_err(|e| CliError::failed(format!("{name}: the simulator cannot run it: {e}")))?;
    let timing = plan::Timing { scale: opts.scale, jitter_ms: 0 };
    let plan = plan::compile(&scenario, &loops, timing, &[]).map_err(|r| Error::Refused(from_plan(r)))?;
    if plan.timeout_ms + BARRIER_MS > LONG_TIMEOUT_MS {
        return Err(Error::Refused(Refused {
            feature: "timers (longer than a test may run)".into(),
            why: format!(
                "at --time-scale {} the page may need {} ms to reach quiescence, more than a WPT test's long timeout ({LONG_TIMEOUT_MS} ms, less a margin); a smaller --time-scale shortens it",
                opts.scale,
                plan.timeout_ms + BARRIER_MS
            ),
        }));
    }
    let mut explore_options = webmcp::ExploreOptions::default();
    explore_options.search.time_limit = opts.time_limit;
    let explored = webmcp::explore(&program, &explore_options)
        .map_err(|e| CliError::failed(format!("{name}: the simulator cannot explore it: {e}")))?;
    if !explored.complete {
        return Err(CliError::input(format!(
            "{name}: the search for the outcomes the spec allows did not finish ({}), so no test can assert them",
            explored.bounds_hit.join(", ")
        ))
        .into());
    }
    // The distinct views, in the order of the outcomes they first come from.
    let mut views: Vec<View> = Vec::new();
    for class in &explored.outcomes {
        let v = View::of_outcome(&class.outcome);
        if !views.contains(&v) {
            views.push(v);
        }
    }
    let (schedule, chosen, defaulted) = match &opts.schedule {
        Some(text) => {
            let parsed = sched::Schedule::parse(text).map_err(|e| {
                CliError::input(format!("--schedule: {}", trace::escape::terminal(&e.to_string())))
                    .hint("give a schedule that `explore` or a run of this scenario printed")
            })?;
            let trace =
                crate::report::run_trace_until(&program, &Driver::Replay(parsed), 10_000, None).map_err(|e| {
                    CliError::input(format!("{name}: --schedule {}: {e}", trace::escape::terminal(text)))
                        .hint("give a whole schedule that `explore` or a run of this scenario printed")
                })?;
            (trace.schedule.clone(), View::of_outcome(&trace.outcome), false)
        }
        None => match explored.outcomes.first() {
            Some(first) => (first.witness.clone(), View::of_outcome(&first.outcome), true),
            None => return Err(CliError::failed(format!("{name}: the search found no outcome")).into()),
        },
    };
    let Some(chosen) = views.iter().position(|v| *v == chosen) else {
        return Err(CliError::failed(format!(
            "{name}: the schedule's outcome is not among the explored ones (a simulator bug: replay it and report it)"
        ))
        .into());
    };
    let reading = reading(&scenario.options);
    let (tests, exact, dependent) = assertions(&views, chosen, &schedule, &reading.0);
    let html = page(&PageParts {
        file: &name,
        scenario: &scenario,
        plan: &plan,
        schedule: &schedule,
        defaulted,
        views: &views,
        chosen,
        outcomes: explored.outcomes.len(),
        tests: &tests,
        reading: reading.1.as_deref(),
        witnesses: &explored.witnesses,
    })?;
    Ok(Exported { html, schedule, defaulted, allowed: views.len(), exact, dependent })
}

/// Whose outcomes the test asserts: "the spec" (today's text), or the spec with the scenario's
/// options (variants, a proposed change; `parallel: fifo`, one reading of "in parallel"), and a
/// sentence for the page's comment when the options are not the defaults.
fn reading(options: &sc::Options) -> (String, Option<String>) {
    let mut changes = Vec::new();
    if options.parallel != sc::ParallelModel::Unordered {
        changes.push("parallel=fifo".to_string());
    }
    changes.extend(options.variants.iter().map(|v| format!("variant {v}")));
    if changes.is_empty() {
        return ("the spec".into(), None);
    }
    let list = changes.join(", ");
    let mut why = Vec::new();
    if !options.variants.is_empty() {
        why.push("a variant models a proposed change, not today's text");
    }
    if options.parallel != sc::ParallelModel::Unordered {
        why.push("parallel=fifo is one reading of \"in parallel\", not the only one");
    }
    (
        format!("the spec with {list}"),
        Some(format!(
            "The scenario's options change the model ({list}; {}): the outcomes asserted are the spec's with them, so a browser that implements today's text may fail this test.",
            why.join("; ")
        )),
    )
}

/// A JSON value as a JavaScript or JSON literal that is safe inside a `<script>` element.
fn literal(v: &Value) -> String {
    v.to_string().replace('<', "\\u003c")
}

fn doc_json(v: &crate::chromium::view::DocView) -> Value {
    json!({"console": v.console, "uncaught": v.uncaught, "promises": v.promises})
}

/// The assertions: one `test` per field of each document (exact when every allowed view agrees
/// on it, one of the allowed values otherwise), and one for the whole view. Returns the code and
/// the counts of exact and schedule-dependent fields.
fn assertions(views: &[View], chosen: usize, schedule: &str, spec: &str) -> (String, usize, usize) {
    let empty = crate::chromium::view::DocView::default();
    let docs: BTreeSet<&String> = views.iter().flat_map(|v| v.0.keys()).collect();
    let mut out = String::new();
    let (mut exact, mut dependent) = (0, 0);
    let mut field = |out: &mut String, what: String, expr: String, values: Vec<Value>| {
        let mut distinct: Vec<&Value> = Vec::new();
        for v in &values {
            if !distinct.contains(&v) {
                distinct.push(v);
            }
        }
        if distinct.len() == 1 {
            exact += 1;
            let _ = writeln!(
                out,
                "  test(() => assert_equals(JSON.stringify({expr}), JSON.stringify({})), {});",
                literal(distinct[0]),
                literal(&Value::String(format!("{what} (the same under every schedule)")))
            );
        } else {
            dependent += 1;
            let allowed: Vec<Value> = distinct.iter().map(|v| (*v).clone()).collect();
            let _ = writeln!(
                out,
                "  test(() => assert_in_array(JSON.stringify({expr}), {}.map((v) => JSON.stringify(v))), {});",
                literal(&Value::Array(allowed)),
                literal(&Value::String(format!(
                    "{what}: one of the {} values {spec} allows (schedule-dependent: the browser picks the order; schedule {schedule} shows {})",
                    distinct.len(),
                    values[chosen]
                )))
            );
        }
    };
    for d in docs {
        let of = |v: &View| v.0.get(d).unwrap_or(&empty).clone();
        let dq = literal(&Value::String(d.clone()));
        field(
            &mut out,
            format!("{d}: console lines"),
            format!("doc({dq}).console"),
            views.iter().map(|v| json!(of(v).console)).collect(),
        );
        field(
            &mut out,
            format!("{d}: uncaught exceptions"),
            format!("doc({dq}).uncaught"),
            views.iter().map(|v| json!(of(v).uncaught)).collect(),
        );
        let names: BTreeSet<String> = views.iter().flat_map(|v| of(v).promises.into_keys()).collect();
        for p in names {
            let pq = literal(&Value::String(p.clone()));
            let values = views
                .iter()
                .map(|v| Value::String(of(v).promises.get(&p).cloned().unwrap_or_else(|| "(no such promise)".into())))
                .collect();
            field(&mut out, format!("{d}: promise {p}"), format!("promise({dq}, {pq})"), values);
        }
    }
    let allowed: Vec<Value> =
        views.iter().map(|v| Value::Object(v.0.iter().map(|(d, dv)| (d.clone(), doc_json(dv))).collect())).collect();
    let _ = writeln!(
        out,
        "  test(() => assert_true(isOneOf({}), 'observed: ' + JSON.stringify(observed)), {});",
        literal(&Value::Array(allowed)),
        literal(&Value::String(format!(
            "every document's observations together are one of the {} outcome(s) {spec} allows",
            views.len()
        )))
    );
    (out, exact, dependent)
}

struct PageParts<'a> {
    file: &'a str,
    scenario: &'a sc::Scenario,
    plan: &'a plan::Plan,
    schedule: &'a str,
    defaulted: bool,
    views: &'a [View],
    chosen: usize,
    outcomes: usize,
    tests: &'a str,
    reading: Option<&'a str>,
    /// How the exploration chose its witnesses (`Exploration::witnesses`).
    witnesses: &'a str,
}

/// Text for an HTML comment: nothing that ends it or opens a nested one (`-->`, `--!>`, `<!--`).
fn comment(text: &str) -> String {
    let mut t = text.to_string();
    while t.contains("-->") || t.contains("--!>") || t.contains("<!--") {
        t = t.replace("-->", "- ->").replace("--!>", "- -!>").replace("<!--", "<!- -");
    }
    t
}

/// Puts `extra` right after a served page's `</title>` (every plan page starts with a title).
fn after_title(body: &str, extra: &str) -> Result<(String, String), CliError> {
    let Some(i) = body.find("</title>") else {
        return Err(CliError::failed(
            "a page of the Chromium plan has no <title> (crates/cli/src/chromium/plan.rs changed?)",
        ));
    };
    let (head, rest) = body.split_at(i + "</title>".len());
    Ok((head.to_string(), format!("{extra}{rest}")))
}

fn page(p: &PageParts) -> Result<String, CliError> {
    let json = &p.plan.json;
    let tab_url = json["tabs"][0].as_str().unwrap_or_default().to_string();
    let tab_id = p.scenario.tabs.first().map(|t| t.id.clone()).unwrap_or_default();
    let mut pages = json["pages"].as_object().cloned().unwrap_or_default();
    let tab_page = pages.remove(&tab_url).unwrap_or_default();
    pages.remove(plan::AWAY_URL);
    let shim = format!("<script>\n{SHIM}</script>");
    for page in pages.values_mut() {
        let body = page["body"].as_str().unwrap_or_default();
        let (head, rest) = after_title(body, &shim)?;
        page["body"] = Value::String(format!("{head}{rest}"));
    }
    // The start groups: the documents of each simulated event loop, in tree order.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for s in json["starts"].as_array().into_iter().flatten() {
        let (id, group) = (s["navigable"].as_str().unwrap_or_default(), s["group"].as_str().unwrap_or_default());
        match groups.iter_mut().find(|(g, _)| g == group) {
            Some((_, ids)) => ids.push(id.to_string()),
            None => groups.push((group.to_string(), vec![id.to_string()])),
        }
    }
    let starts: Vec<Vec<String>> = groups.into_iter().map(|(_, ids)| ids).collect();
    let embedded = json!({
        "tab": {"url": tab_url, "headers": tab_page["headers"]},
        "pages": pages,
        "harness": {
            "tab": tab_id,
            "starts": starts,
            "slackMs": p.plan.start_slack_ms,
            "quietMs": p.plan.quiet_ms,
            "timeoutMs": p.plan.timeout_ms,
            "barrierMs": BARRIER_MS,
            "user": json["user"],
        },
    });
    let (_, rest) = after_title(tab_page["body"].as_str().unwrap_or_default(), "")?;
    let mut out = String::from("<!doctype html>\n<meta charset=\"utf-8\">\n<meta name=\"timeout\" content=\"long\">\n");
    let _ = writeln!(out, "<title>{}</title>", attr(&format!("webmcp-sim export: {}", p.scenario.name)));
    let _ = writeln!(out, "<!--");
    let mut c = String::new();
    let _ = writeln!(c, "Exported by `webmcp-sim export {} --schedule '{}' --format testharness`.", p.file, p.schedule);
    if !p.scenario.description.is_empty() {
        let _ = writeln!(c, "Scenario: {} ({})", p.scenario.name, p.scenario.description);
    }
    if let Some(r) = p.reading {
        let _ = writeln!(c, "{r}");
    }
    if p.defaulted {
        let _ = writeln!(
            c,
            "No --schedule was given: the schedule is the fewest-choice witness of the first explored outcome{}.",
            if p.witnesses == trace::explore::WITNESSES_FEWEST {
                String::new()
            } else {
                format!(" (witnesses: {})", p.witnesses)
            }
        );
    }
    let _ = writeln!(
        c,
        "The spec allows {} outcome(s) of this scenario, {} distinct in what its documents observe; the schedule's is number {} of those.",
        p.outcomes,
        p.views.len(),
        p.chosen + 1
    );
    let _ = writeln!(
        c,
        "What is asserted: each document's console lines, uncaught exceptions (by name) and named promises' final states (values in webmcp-sim's canonical notation)."
    );
    let _ = writeln!(
        c,
        "A browser cannot be made to take one schedule: a field that differs between the allowed outcomes is asserted to be one of the allowed values, and its test's name says it is schedule-dependent and what the schedule shows."
    );
    let _ = writeln!(
        c,
        "Not asserted (no page can observe them): tool maps, the simulator's findings, pending tool executions, event counts."
    );
    let _ = writeln!(
        c,
        "The documents at other origins are in the JSON block `webmcp-sim-plan`; tools/chromium-driver/export-runner.mjs serves this page at the scenario's tab URL and those documents at theirs (docs/export.md)."
    );
    let _ = writeln!(c, "Schedule {}: {}", p.schedule, p.views[p.chosen].render().trim_end().replace('\n', "; "));
    out.push_str(&comment(&c));
    out.push_str("-->\n");
    out.push_str("<script src=\"/resources/testharness.js\"></script>\n<script src=\"/resources/testharnessreport.js\"></script>\n");
    let _ = writeln!(out, "<script type=\"application/json\" id=\"webmcp-sim-plan\">{}</script>", literal(&embedded));
    let _ = writeln!(out, "{shim}");
    let _ = writeln!(out, "<script>\n{HARNESS}</script>");
    let _ = writeln!(
        out,
        "<script>\n// The assertions, once every document is quiescent.\nwebmcpSimExport.assert(({{ doc, promise, isOneOf, observed }}) => {{\n{}}});\n</script>",
        p.tests
    );
    out.push_str(&rest);
    out.push('\n');
    Ok(out)
}

fn attr(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The output format of `export`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Format {
    /// A WPT testharness.js page (HTML).
    Testharness,
}

/// `webmcp-sim export`'s arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The scenario file (`.jsonc`).
    pub scenario: PathBuf,
    /// The schedule whose outcome the test asserts (as `explore` or a run prints it); default:
    /// the first explored outcome's fewest-choice witness.
    #[arg(long)]
    pub schedule: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "testharness")]
    pub format: Format,
    /// Write the test to this file instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Real milliseconds per virtual millisecond of the scenario's timers in the test.
    #[arg(long, default_value_t = 20.0)]
    pub time_scale: f64,
    /// Wall-clock limit in seconds of the search for the allowed outcomes; a search it stops
    /// exports nothing.
    #[arg(long)]
    pub time_limit: Option<f64>,
}

/// Runs the subcommand: the page on stdout or in `--out`; a refused feature is exit 2.
pub fn command(args: Args) -> Result<ExitCode, CliError> {
    if !(args.time_scale > 0.0 && args.time_scale <= 1_000.0) {
        return Err(CliError::input(format!(
            "--time-scale {}: write a positive number of real ms per virtual ms, at most 1000",
            args.time_scale
        )));
    }
    let Format::Testharness = args.format;
    let time_limit = args.time_limit.map(crate::parse_time_limit).transpose().map_err(CliError::input)?;
    let opts = Options { schedule: args.schedule.clone(), scale: args.time_scale, time_limit };
    let exported = match testharness(&args.scenario, &opts) {
        Ok(e) => e,
        Err(Error::Cli(e)) => return Err(e),
        Err(Error::Refused(r)) => {
            return Err(CliError::input(trace::escape::terminal(&format!(
                "{}: cannot export {}: {}",
                args.scenario.display(),
                r.feature,
                r.why
            )))
            .hint("docs/export.md lists what a testharness.js export can express"))
        }
    };
    match &args.out {
        Some(file) => {
            std::fs::write(file, &exported.html).map_err(|e| CliError::input(format!("{}: {e}", file.display())))?;
            crate::write_stdout(&format!(
                "wrote {}: schedule {}{}; {} allowed view(s), {} field(s) asserted exactly, {} schedule-dependent\n",
                file.display(),
                trace::escape::terminal(&exported.schedule),
                if exported.defaulted { " (the first outcome's fewest-choice witness)" } else { "" },
                exported.allowed,
                exported.exact,
                exported.dependent
            ))?;
        }
        None => crate::write_stdout(&exported.html)?,
    }
    Ok(ExitCode::SUCCESS)
}
