//! The formats for people and their tools, on the shipped scenarios: Markdown whose Mermaid the
//! real Mermaid parser accepts, JSON that validates against docs/trace.schema.json, Perfetto
//! JSON with matched flows, the HTML report in headless Chromium, `snapshot`, and byte-identical
//! output across processes.
//!
//! The Mermaid and Chromium tests need `npm ci --prefix tools/mermaid-check` and Debian's
//! `chromium`, so they are `#[ignore]`d with the reason: `cargo test` reports them as ignored,
//! never as passed. `.ci/run` installs both and runs them (`cargo test -p cli --test it --
//! --ignored`); run that way, a missing tool is a failure.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cli::report::{self, View};
use cli::Driver;
use serde_json::Value;
use trace::Trace;

use crate::workspace_root;

/// The `webmcp-sim` binary.
fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_webmcp-sim"))
}

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("render").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the target directory is writable");
    dir
}

/// Fails when an external tool is missing: the tests that need one are `#[ignore]`d, so they
/// run only when asked for (`-- --ignored`, as CI does), and then checking nothing is no pass.
#[track_caller]
pub fn require_tool(present: bool, what: &str, install: &str) {
    assert!(present, "{what} is missing; install it with: {install}");
}

fn scenarios() -> Vec<PathBuf> {
    let files = cli::scenario_files(&workspace_root().join("scenarios")).expect("scenarios/");
    assert!(files.len() >= 2, "the corpus is missing");
    files
}

fn hostile_scenario() -> PathBuf {
    workspace_root().join("scenarios/hostile/hostile-strings.jsonc")
}

fn trace_of(path: &Path, seed: u64) -> (Trace, String) {
    let loaded = cli::load(path, &[]).unwrap_or_else(|e| panic!("{e}"));
    let trace = report::run_trace(&loaded.program, &Driver::Seed(seed), 10_000)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (trace, loaded.scenario.description)
}

fn markdown(path: &Path, trace: &Trace, description: &str) -> String {
    report::render_run(trace, View::Markdown, path, description, &Driver::Seed(0))
}

// --- Markdown and Mermaid ------------------------------------------------------------------

/// `explore --format markdown` of every shipped scenario (`scenarios/` and `fixtures/bench/`), as
/// the command renders it (the expectations checked, the default outcomes drawn).
pub fn issue_markdowns() -> Vec<(PathBuf, String)> {
    let mut files = scenarios();
    files.extend(cli::scenario_files(&workspace_root().join("fixtures/bench")).expect("fixtures/bench/"));
    files
        .into_iter()
        .map(|file| {
            let loaded = cli::load(&file, &[]).unwrap_or_else(|e| panic!("{e}"));
            // A JavaScript page is explored by the stateless search (the stateful one copies states).
            let kind = if loaded.program.has_page_scripts() {
                webmcp::SearchKind::Stateless
            } else {
                webmcp::SearchKind::Stateful
            };
            let options = webmcp::ExploreOptions { kind, ..webmcp::ExploreOptions::default() };
            let ex = webmcp::explore(&loaded.program, &options).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let verdicts = cli::verdicts(&file, &loaded.program, &[], &ex, &options);
            let md = report::render_exploration_issue(&loaded, &ex, &file, &verdicts, &[], trace::known::shipped())
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            (file, md)
        })
        .collect()
}

/// The text between the first ```mermaid fence and its end.
fn mermaid_block(markdown: &str) -> &str {
    let start = markdown.find("```mermaid\n").expect("a mermaid block") + "```mermaid\n".len();
    let len = markdown[start..].find("\n```\n").expect("the block ends") + 1;
    &markdown[start..start + len]
}

/// Mermaid's entity codes (`#35;`) decoded, as Mermaid shows them.
fn decode_entities(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('#') {
        out.push_str(&rest[..i]);
        let code = &rest[i + 1..];
        let digits = code.chars().take_while(char::is_ascii_digit).count();
        match (code[digits..].starts_with(';'), code[..digits].parse::<u32>().ok().and_then(char::from_u32)) {
            (true, Some(c)) if digits > 0 => {
                out.push(c);
                rest = &code[digits + 1..];
            }
            _ => {
                out.push('#');
                rest = code;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A message or note as Mermaid reads it: `(from, to, kind, text)`.
type Statement = (String, String, String, String);

/// What the renderer meant a diagram to hold: its participants `(id, label)` and its messages
/// and notes `(from, to, kind, text)`, read back from the statements it writes (one per line).
fn intended(diagram: &str) -> (Vec<(String, String)>, Vec<Statement>) {
    let (mut actors, mut messages) = (Vec::new(), Vec::new());
    for line in diagram.lines().skip(1).map(str::trim) {
        if let Some(rest) = line.strip_prefix("participant ") {
            let (id, label) = rest.split_once(" as ").expect("participant ID as label");
            actors.push((id.to_string(), decode_entities(label)));
            continue;
        }
        let (head, text) = line.split_once(": ").expect("statement: text");
        let text = decode_entities(text);
        let note = |over: &str| {
            let (from, to) = over.split_once(',').unwrap_or((over, over));
            (from.to_string(), to.to_string(), "note".to_string(), text.clone())
        };
        let message = if let Some(over) = head.strip_prefix("Note over ") {
            note(over)
        } else if let Some(of) = head.strip_prefix("Note right of ") {
            note(of)
        } else if let Some((from, to)) = head.split_once("->>") {
            (from.to_string(), to.to_string(), "solid".to_string(), text)
        } else if let Some((from, to)) = head.split_once("-)") {
            (from.to_string(), to.to_string(), "solid-point".to_string(), text)
        } else {
            panic!("unexpected statement {line:?}")
        };
        messages.push(message);
    }
    (actors, messages)
}

/// The trace with every string replaced by a hostile one (lanes too, when `lanes`), so the
/// renderers meet every kind of string in every place.
fn poisoned(trace: &Trace, lanes: bool) -> Trace {
    const HOSTILE: &[&str] = &[
        "</script><script>alert(1)</script>",
        "a;b#c-->d\nparticipant Z",
        "%%{init: {'theme':'dark'}}%%",
        "x --> y ->> z; Note over EL0: pwned",
        "| col | ```mermaid\n# heading",
        "end",
        "par",
        "\"quoted\" & 'single' \\ back`tick`",
        "ünïcödé ✓ 漢字 #9829; &amp;",
    ];
    fn walk(v: &mut Value, key: &str, lanes: bool, n: &mut usize) {
        match v {
            Value::String(s) if key != "kind" && (lanes || !matches!(key, "lane" | "event_loop" | "label")) => {
                *s = format!("{}{}", HOSTILE[*n % HOSTILE.len()], *n);
                *n += 1;
            }
            Value::Array(items) => items.iter_mut().for_each(|i| walk(i, key, lanes, n)),
            Value::Object(map) => map.iter_mut().for_each(|(k, v)| walk(v, k, lanes, n)),
            _ => {}
        }
    }
    let mut v = serde_json::to_value(trace).expect("a trace serializes");
    walk(&mut v, "", lanes, &mut 0);
    serde_json::from_value(v).expect("a poisoned trace is still a trace")
}

/// Runs the Mermaid checker on files (it must be installed).
fn mermaid_check(files: &[PathBuf]) -> Vec<Value> {
    let tool = workspace_root().join("tools/mermaid-check");
    let installed = tool.join("node_modules/mermaid/package.json").is_file()
        && Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    require_tool(
        installed,
        "the Mermaid parser (node and tools/mermaid-check/node_modules)",
        "npm ci --prefix tools/mermaid-check",
    );
    let out = Command::new("node").arg(tool.join("check.mjs")).args(files).output().expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.trim().is_empty(), "the checker printed nothing: {}", String::from_utf8_lossy(&out.stderr));
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

#[test]
#[ignore = "needs the Mermaid parser (npm ci --prefix tools/mermaid-check); CI runs it with -- --ignored"]
fn markdown_diagrams_are_accepted_by_the_real_mermaid_parser_and_mean_what_we_wrote() {
    let dir = scratch("mermaid");
    let mut files = Vec::new();
    let mut diagrams = BTreeMap::new();
    let mut add = |name: String, md: String| {
        let file = dir.join(format!("{name}.md"));
        diagrams.insert(file.display().to_string(), mermaid_block(&md).to_string());
        std::fs::write(&file, md).expect("scratch is writable");
        files.push(file);
    };
    for (i, path) in scenarios().into_iter().enumerate() {
        let (trace, description) = trace_of(&path, 0);
        add(format!("{i:02}-seed0"), markdown(&path, &trace, &description));
        if path == hostile_scenario() {
            for (lanes, name) in [(false, "poisoned-text"), (true, "poisoned-all")] {
                add(format!("{i:02}-{name}"), markdown(&path, &poisoned(&trace, lanes), &description));
            }
        }
    }
    let spec = workspace_root().join("scenarios/spec/notify-task-ordering.jsonc");
    for seed in 1..4 {
        let (trace, description) = trace_of(&spec, seed);
        add(format!("spec-seed{seed}"), markdown(&spec, &trace, &description));
        add(format!("spec-seed{seed}-poisoned"), markdown(&spec, &poisoned(&trace, true), &description));
    }
    // Every diagram of `explore --format markdown` of every shipped scenario: Mermaid parses each.
    let mut issues = Vec::new();
    for (i, (_, md)) in issue_markdowns().into_iter().enumerate().filter(|(_, (_, md))| md.contains("```mermaid\n")) {
        let file = dir.join(format!("issue-{i:03}.md"));
        std::fs::write(&file, md).expect("scratch is writable");
        issues.push(file.clone());
        files.push(file);
    }
    // A control the checker must reject: `par` is a Mermaid keyword, not a participant id.
    let control = dir.join("control.mmd");
    std::fs::write(&control, "sequenceDiagram\n    participant PAR as x\n    PAR->>PAR: y\n").unwrap();
    files.push(control.clone());

    let results = mermaid_check(&files);
    let by_file: BTreeMap<String, &Value> =
        results.iter().map(|r| (r["file"].as_str().unwrap().to_string(), r)).collect();
    assert_eq!(by_file[&control.display().to_string()]["ok"], false, "the checker accepted a broken diagram");
    for file in &issues {
        for r in results.iter().filter(|r| r["file"].as_str() == Some(&file.display().to_string())) {
            assert_eq!(r["ok"], true, "{}: Mermaid rejects diagram {}: {}", file.display(), r["diagram"], r["error"]);
        }
    }
    let by_file: BTreeMap<String, &Value> =
        by_file.into_iter().filter(|(f, _)| !issues.iter().any(|i| i.display().to_string() == *f)).collect();
    assert_eq!(by_file.len(), files.len() - issues.len(), "one result per file");
    for (file, diagram) in &diagrams {
        let r = by_file.get(file).unwrap_or_else(|| panic!("no result for {file}"));
        assert_eq!(r["ok"], true, "{file}: Mermaid rejects the diagram: {}\n{diagram}", r["error"]);
        assert_eq!(r["type"], "sequence", "{file}");
        let (actors, messages) = intended(diagram);
        let parsed_actors: Vec<(String, String)> = r["actors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| (a["id"].as_str().unwrap().into(), a["label"].as_str().unwrap().into()))
            .collect();
        assert_eq!(parsed_actors, actors, "{file}: Mermaid read other participants");
        let parsed: Vec<Statement> = r["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let s = |k: &str| m[k].as_str().unwrap_or_default().to_string();
                (s("from"), s("to"), s("kind"), s("text"))
            })
            .collect();
        assert_eq!(parsed.len(), messages.len(), "{file}: Mermaid read another number of statements");
        for (p, m) in parsed.iter().zip(&messages) {
            assert_eq!(p, m, "{file}: Mermaid read a statement differently");
        }
    }
}

#[test]
fn markdown_of_the_spec_example_has_diagram_outcome_and_replay() {
    let path = Path::new("scenarios/spec/notify-task-ordering.jsonc");
    let out = bin()
        .current_dir(workspace_root())
        .args(["run"])
        .arg(path)
        .args(["--seed", "3", "--format", "markdown"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(
        md.starts_with("### webmcp-sim: notify-task-ordering\n\nregisterTool queues toolchange tasks in parallel"),
        "{md}"
    );
    let diagram = md.find("```mermaid\nsequenceDiagram\n").expect("a diagram");
    let table = md.find("| outcome | runs | console |").expect("an outcome table");
    let replay =
        md.find("```sh\nwebmcp-sim replay scenarios/spec/notify-task-ordering.jsonc --schedule '").expect("replay");
    assert!(diagram < table && table < replay, "diagram, then outcome, then replay");
    assert!(
        md.contains("    participant EL0 as el0 (parent, child)\n    participant BR as Browser (in parallel)\n"),
        "{md}"
    );
    assert!(md.contains("Note over EL0: #35;003 t=0 el0.webmcp parent<br/>fire toolchange<br/>[notify documents of a tool change 3.3]"), "{md}");
}

#[test]
fn markdown_of_an_exploration_has_a_row_and_a_diagram_per_outcome() {
    let spec = workspace_root().join("scenarios/spec/notify-task-ordering.jsonc");
    let loaded = cli::load(&spec, &[]).unwrap_or_else(|e| panic!("{e}"));
    let exploration = webmcp::explore(&loaded.program, &webmcp::ExploreOptions::default()).expect("explores");
    let md = report::render_exploration_markdown(&loaded.program, &exploration, &spec, &loaded.scenario.description)
        .unwrap();
    let n = exploration.outcomes.len();
    assert!(n >= 3, "the spec example has several outcomes");
    assert!(md.contains("| outcome | end states | console | promises | tool maps | end |"), "{md}");
    assert_eq!(md.matches("\n```mermaid\n").count(), n, "{md}");
    assert_eq!(md.matches("\n#### Outcome ").count(), n, "{md}");
    assert!(md.contains("exhaustive exploration (complete)"), "{md}");
}

// --- JSON Schema --------------------------------------------------------------------------

fn trace_schema() -> jsonschema::Validator {
    let text =
        std::fs::read_to_string(workspace_root().join("docs/trace.schema.json")).expect("docs/trace.schema.json");
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema")
}

#[track_caller]
fn assert_valid(validator: &jsonschema::Validator, json: &str, what: &str) {
    let value: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{what}: not JSON: {e}"));
    let errors: Vec<String> =
        validator.iter_errors(&value).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{what} does not validate against docs/trace.schema.json:\n{}", errors.join("\n"));
}

#[test]
fn every_json_trace_and_exploration_validates_against_the_published_schema() {
    let validator = trace_schema();
    for path in scenarios() {
        for seed in [0, 1, 7] {
            let (trace, _) = trace_of(&path, seed);
            assert_valid(&validator, &trace.render_json(), &format!("{} seed {seed}", path.display()));
        }
    }
    let spec = workspace_root().join("scenarios/spec/notify-task-ordering.jsonc");
    let loaded = cli::load(&spec, &[]).unwrap_or_else(|e| panic!("{e}"));
    let exploration = webmcp::explore(&loaded.program, &webmcp::ExploreOptions::default()).expect("explores");
    assert_valid(&validator, &exploration.render_json(), "the spec example's exploration");
}

#[test]
fn the_schema_rejects_what_is_not_a_trace() {
    let validator = trace_schema();
    let (trace, _) = trace_of(&workspace_root().join("scenarios/spec/notify-task-ordering.jsonc"), 0);
    let good: Value = serde_json::from_str(&trace.render_json()).unwrap();
    for (what, edit) in [
        ("another version", Box::new(|v: &mut Value| v["version"] = 2.into()) as Box<dyn Fn(&mut Value)>),
        ("an unknown field", Box::new(|v: &mut Value| v["extra"] = true.into())),
        ("an unknown event kind", Box::new(|v: &mut Value| v["units"][0]["events"][0]["kind"] = "teleported".into())),
        (
            "a unit without its cite",
            Box::new(|v: &mut Value| drop(v["units"][0].as_object_mut().unwrap().remove("cite"))),
        ),
    ] {
        let mut bad = good.clone();
        edit(&mut bad);
        assert!(!validator.is_valid(&bad), "the schema accepts {what}");
    }
}

// --- Perfetto -----------------------------------------------------------------------------

#[test]
fn perfetto_json_of_every_scenario_has_complete_slices_and_matched_flows() {
    for path in scenarios() {
        let (trace, _) = trace_of(&path, 0);
        let name = path.display();
        let json = report::render_run(&trace, View::Perfetto, &path, "", &Driver::Seed(0));
        let v: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        let events = v["traceEvents"].as_array().unwrap_or_else(|| panic!("{name}: no traceEvents"));
        let threads: Vec<(&Value, &Value)> =
            events.iter().filter(|e| e["name"] == "thread_name").map(|e| (&e["pid"], &e["tid"])).collect();
        let mut slices = 0;
        let (mut starts, mut ends) = (BTreeMap::new(), BTreeMap::new());
        for e in events {
            match e["ph"].as_str() {
                Some("X") => {
                    slices += 1;
                    for key in ["name", "ph", "ts", "dur", "pid", "tid"] {
                        assert!(!e[key].is_null(), "{name}: slice without {key}: {e}");
                    }
                    assert!(threads.contains(&(&e["pid"], &e["tid"])), "{name}: slice on an unnamed track: {e}");
                    assert!(e["args"]["cite"].is_string(), "{name}: slice without its spec step");
                }
                Some("s") => assert!(starts.insert(e["id"].as_u64().unwrap(), e["ts"].as_u64().unwrap()).is_none()),
                Some("f") => assert!(ends.insert(e["id"].as_u64().unwrap(), e["ts"].as_u64().unwrap()).is_none()),
                Some("M" | "i") => {}
                other => panic!("{name}: unexpected phase {other:?}"),
            }
        }
        assert_eq!(slices, trace.units.len(), "{name}: a slice per unit");
        assert_eq!(
            starts.keys().collect::<Vec<_>>(),
            ends.keys().collect::<Vec<_>>(),
            "{name}: a flow without its end"
        );
        assert!(starts.iter().all(|(id, ts)| ts < &ends[id]), "{name}: a flow goes back in time");
        let ran = trace.links().iter().filter(|l| l.ran.is_some()).count();
        assert_eq!(starts.len(), ran, "{name}: a flow per task that ran");
    }
}

// --- The HTML report in headless Chromium ---------------------------------------------------

const CHROMIUM: &str = "/usr/bin/chromium";

/// Loads a page in headless Chromium: its DOM after scripts ran, every console message, and a
/// screenshot written to `png`.
fn chromium(page: &Path, png: &Path) -> (String, Vec<String>) {
    let installed = Path::new(CHROMIUM).is_file();
    require_tool(installed, "headless Chromium (/usr/bin/chromium)", "apt-get install -y chromium");
    let profile = page.with_extension("profile");
    let _ = std::fs::remove_dir_all(&profile);
    let out: Output = Command::new(CHROMIUM)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"])
        .args(["--disable-background-networking", "--disable-component-update", "--disable-sync"])
        .args(["--hide-scrollbars", "--window-size=1400,1700", "--enable-logging=stderr", "--v=0"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    let _ = std::fs::remove_dir_all(&profile);
    assert!(out.status.success(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    // Every console message, whatever its level, is logged as `…:CONSOLE…] "message", source: …`.
    let console =
        String::from_utf8_lossy(&out.stderr).lines().filter(|l| l.contains(":CONSOLE")).map(String::from).collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), console)
}

/// The value of `name="…"` on the dumped DOM's `<body>`.
fn body_attribute<'a>(dom: &'a str, name: &str) -> Option<&'a str> {
    let body = &dom[dom.find("<body")?..];
    let body = &body[..body.find('>')?];
    let start = body.find(&format!("{name}=\""))? + name.len() + 2;
    Some(&body[start..start + body[start..].find('"')?])
}

#[test]
#[ignore = "needs headless Chromium (apt-get install chromium); CI runs it with -- --ignored"]
fn the_html_report_loads_in_headless_chromium_without_console_messages() {
    let dir = scratch("report");
    // A control page: its error must show up, or the check below proves nothing.
    let control = dir.join("control.html");
    std::fs::write(&control, "<!DOCTYPE html><title>c</title><script>undefinedFunction();</script>").unwrap();
    let (_, console) = chromium(&control, &dir.join("control.png"));
    assert!(
        console.iter().any(|l| l.contains("Uncaught ReferenceError")),
        "the console check sees nothing: {console:?}"
    );

    let spec = workspace_root().join("scenarios/spec/notify-task-ordering.jsonc");
    for (name, scenario, explore) in
        [("spec-explored", &spec, true), ("spec", &spec, false), ("hostile", &hostile_scenario(), false)]
    {
        let page = dir.join(format!("{name}.html"));
        let mut cmd = bin();
        cmd.arg("report").arg(scenario).arg("-o").arg(&page);
        cmd.args(if explore { ["--explore"].as_slice() } else { ["--seeds", "0..200"].as_slice() });
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let loaded = cli::load(scenario, &[]).unwrap_or_else(|e| panic!("{e}"));
        let groups = if explore {
            report::explored_groups(&loaded.program).unwrap().0
        } else {
            report::outcomes_by_seed(&loaded.program, 0..200, 10_000).unwrap()
        };
        assert!(groups.len() >= 3, "{name}: the report should show several outcomes, got {}", groups.len());

        let png = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("report-{name}.png"));
        let (dom, console) = chromium(&page, &png);
        assert!(console.is_empty(), "{name}: the page logged to the console:\n{}", console.join("\n"));
        let count = groups.len().to_string();
        assert_eq!(body_attribute(&dom, "data-outcomes"), Some(count.as_str()), "{name}: outcomes in the page");
        assert_eq!(
            body_attribute(&dom, "data-outcomes-rendered"),
            Some(count.as_str()),
            "{name}: the page's script did not run to the end"
        );
        assert_eq!(dom.matches("<section class=\"outcome\"").count(), groups.len());
        // Hostile strings are text: the only script element is the report's own, no tag got in.
        assert_eq!(dom.matches("<script").count(), 1, "{name}: an injected script element");
        assert!(!dom.contains("<img") && !dom.contains("<b>"), "{name}: injected markup");
        let image = std::fs::read(&png).expect("a screenshot");
        assert!(image.starts_with(b"\x89PNG\r\n\x1a\n") && image.len() > 10_000, "{name}: not a real screenshot");
        eprintln!("screenshot: {}", png.display());
    }
}

// --- snapshot -----------------------------------------------------------------------------

fn snapshot(dir: &Path, review: bool) -> (i32, String) {
    let mut cmd = bin();
    cmd.arg("snapshot").arg(dir);
    if review {
        cmd.arg("--review");
    }
    let out = cmd.output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn snapshot_writes_pending_files_fails_until_reviewed_and_catches_changes() {
    let dir = scratch("snapshot");
    std::fs::create_dir_all(dir.join("races")).unwrap();
    let spec = std::fs::read_to_string(workspace_root().join("scenarios/spec/notify-task-ordering.jsonc")).unwrap();
    std::fs::write(dir.join("top.jsonc"), &spec).unwrap();
    std::fs::write(dir.join("races/two.jsonc"), spec.replace("Post-register task", "Timer task")).unwrap();
    let snap = dir.join("snapshots/races__two.jsonc.snap");
    let pending = dir.join("snapshots/races__two.jsonc.snap.new");

    let (code, text) = snapshot(&dir, false);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("new      races/two.jsonc"), "{text}");
    assert!(pending.is_file() && !snap.exists());

    let (code, text) = snapshot(&dir, true);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("accepted races/two.jsonc"), "{text}");
    assert!(snap.is_file() && !pending.exists());
    let file = std::fs::read_to_string(&snap).unwrap();
    assert!(file.starts_with("---\nsource: races/two.jsonc\nexpression: \"webmcp-sim run races/two.jsonc --seed 0\"\ninput_file: races/two.jsonc\n---\nwebmcp-sim trace v1: notify-task-ordering\n"), "{file}");

    let (code, text) = snapshot(&dir, false);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("2 scenarios: 2 match"), "{text}");

    std::fs::write(dir.join("races/two.jsonc"), spec.replace("Post-register task", "Changed")).unwrap();
    let (code, text) = snapshot(&dir, false);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("changed  (first difference: line "), "{text}");
    assert!(pending.is_file(), "the new snapshot waits for review");
    assert_eq!(std::fs::read_to_string(&snap).unwrap(), file, "an unreviewed change leaves the .snap alone");

    std::fs::write(dir.join("broken.jsonc"), "{ \"version\": 1 }").unwrap();
    let (code, text) = snapshot(&dir, false);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("FAILED   broken.jsonc"), "{text}");
}

/// insta itself reads the files `snapshot` writes: an `assert_snapshot!` against them passes.
#[test]
fn insta_reads_the_snapshot_files() {
    let dir = scratch("insta");
    let spec = workspace_root().join("scenarios/spec/notify-task-ordering.jsonc");
    std::fs::copy(&spec, dir.join("spec.jsonc")).unwrap();
    let (code, text) = snapshot(&dir, true);
    assert_eq!(code, 0, "{text}");
    let (trace, _) = trace_of(&dir.join("spec.jsonc"), 0);
    insta::with_settings!({ snapshot_path => dir.join("snapshots"), prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("spec.jsonc", trace.render_text());
    });
}

// --- Determinism ------------------------------------------------------------------------------

#[test]
fn every_format_is_byte_identical_across_processes() {
    let dir = scratch("determinism");
    let scenarios = [
        workspace_root().join("scenarios/spec/notify-task-ordering.jsonc"),
        workspace_root().join("scenarios/races/cancel-vs-completion.jsonc"),
        hostile_scenario(),
    ];
    for scenario in &scenarios {
        for format in ["text", "json", "markdown", "perfetto"] {
            let run = || bin().arg("run").arg(scenario).args(["--seed", "5", "--format", format]).output().unwrap();
            let (a, b) = (run(), run());
            assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
            assert!(a.stdout == b.stdout, "{}: --format {format} differs between two runs", scenario.display());
        }
        let schedule = trace_of(scenario, 5).0.schedule;
        for format in ["markdown", "perfetto"] {
            let replay = || {
                bin().arg("replay").arg(scenario).args(["--schedule", &schedule, "--format", format]).output().unwrap()
            };
            let run = bin().arg("run").arg(scenario).args(["--seed", "5", "--format", format]).output().unwrap();
            let (a, b) = (replay(), replay());
            assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
            assert!(a.stdout == b.stdout, "{}: replay --format {format} differs between two runs", scenario.display());
            if format == "perfetto" {
                assert!(a.stdout == run.stdout, "{}: the replay's Perfetto JSON is not the run's", scenario.display());
            }
        }
        let reports: Vec<Vec<u8>> = (0..2)
            .map(|i| {
                let page = dir.join(format!("report-{i}.html"));
                let out =
                    bin().arg("report").arg(scenario).arg("-o").arg(&page).args(["--seeds", "0..40"]).output().unwrap();
                assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
                std::fs::read(&page).unwrap()
            })
            .collect();
        assert!(reports[0] == reports[1], "{}: the HTML report differs between two runs", scenario.display());
    }
    let snaps: Vec<String> = (0..2)
        .map(|i| {
            let d = dir.join(format!("snap-{i}"));
            std::fs::create_dir_all(&d).unwrap();
            for s in &scenarios {
                std::fs::copy(s, d.join(s.file_name().unwrap())).unwrap();
            }
            assert_eq!(snapshot(&d, true).0, 0);
            let names = ["notify-task-ordering.jsonc", "cancel-vs-completion.jsonc", "hostile-strings.jsonc"];
            names
                .iter()
                .map(|n| std::fs::read_to_string(d.join("snapshots").join(format!("{n}.snap"))).unwrap())
                .collect()
        })
        .collect();
    assert_eq!(snaps[0], snaps[1], "snapshot files differ between two runs");
}
