//! `webmcp-sim chromium`: the plan's JavaScript, the chromium profile, and (with Chromium
//! installed, run explicitly by .ci/run) real runs and the table in docs/chromium.md.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use cli::chromium::{self, plan, Options, Result_, Verdict};

use crate::render::require_tool;
use crate::workspace_root;

const CHROMIUM: &str = "/usr/bin/chromium";

fn options(runs: u32) -> Options {
    Options {
        runs,
        jitter_ms: 20,
        scale: 20.0,
        chromium: PathBuf::from(CHROMIUM),
        driver: chromium::default_driver(),
        seed: 0,
        time_limit: None,
        log_dir: None,
    }
}

/// Every page of every shipped scenario Chromium can run is valid JavaScript (`node --check`),
/// and the scenarios that cannot run say why.
#[test]
#[ignore = "needs Node.js (node); .ci/run runs it"]
fn every_page_script_parses() {
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    require_tool(node, "Node.js (node)", "apt-get install -y nodejs");
    let root = workspace_root();
    let dir = std::env::temp_dir().join(format!("webmcp-sim-chromium-pages-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for file in cli::scenario_files(&root.join("scenarios")).unwrap() {
        // The command's loader: a JavaScript page's jsFile read into its js.
        let cli::Loaded { scenario, program, .. } = cli::load(&file, &[]).unwrap();
        let loops = chromium::event_loops(&program).unwrap();
        let moments = chromium::moments(&program, &scenario).unwrap();
        let timing = plan::Timing { scale: 20.0, jitter_ms: 20 };
        let plan = match plan::compile(&scenario, &loops, timing, &moments) {
            Ok(p) => p,
            Err(reason) => {
                assert!(!reason.is_empty(), "{}: a scenario that cannot run says why", file.display());
                continue;
            }
        };
        // The pages, the documents of the scenario's server and the document with no script
        // (those two with the configuration the driver writes in).
        let mut served: Vec<(String, serde_json::Value)> =
            plan.json["pages"].as_object().unwrap().iter().map(|(u, p)| (u.clone(), p.clone())).collect();
        for (path, page) in plan.json["resources"].as_object().into_iter().flatten() {
            served.push((format!("resource {path}"), page.clone()));
        }
        served.push(("the document with no script".into(), plan.json["emptyPage"].clone()));
        for (url, page) in &served {
            let cfg = r#"{"label": "x", "nav": "x", "tab": "t", "scale": 20, "frames": {}}"#;
            let page =
                serde_json::json!({"body": page["body"].as_str().unwrap_or_default().replace(plan::CFG_SLOT, cfg)});
            let body = page["body"].as_str().unwrap();
            let Some(script) =
                body.split_once("<script>\n").and_then(|(_, s)| s.split_once("\n</script>")).map(|(s, _)| s)
            else {
                continue;
            };
            let js = dir.join(format!("page{checked}.js"));
            std::fs::write(&js, script.replace("<\\/", "</")).unwrap();
            let out =
                Command::new("node").arg("--check").arg(&js).output().expect("node runs (apt-get install nodejs)");
            assert!(
                out.status.success(),
                "{}: the page served at {url} is not valid JavaScript:\n{}\n{script}",
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked > 60, "only {checked} pages checked");
}

/// The state of the promise named `call` in a scenario with one outcome.
fn call_state(program: &webmcp::Program) -> String {
    let ex = webmcp::explore(program, &webmcp::ExploreOptions::default()).unwrap();
    assert_eq!(ex.outcomes.len(), 1);
    let call = ex.outcomes[0].outcome.promises.iter().find(|p| p.promise == "call").unwrap();
    call.state.clone()
}

/// The chromium profile's raw-string variant changes the explored outcome; the spec's set keeps
/// the JSON serialization.
#[test]
fn chromium_profile_returns_a_string_result_raw() {
    let file = workspace_root().join("scenarios/execute/success-string-result.jsonc");
    let program = cli::load_program(&file).unwrap();
    assert_eq!(call_state(&program), r#"fulfilled("\"success\"")"#);
    assert_eq!(call_state(&chromium::profile(&program)), r#"fulfilled("success")"#);
}

/// The chromium profile's undefined-result variant: the spec's set rejects the call (serializing
/// undefined throws), the profile's fulfills it with the string "undefined", as Chromium does.
#[test]
fn chromium_profile_returns_an_undefined_result_as_a_string() {
    let file = workspace_root().join("scenarios/execute/tool-returns-undefined.jsonc");
    let program = cli::load_program(&file).unwrap();
    assert_eq!(call_state(&program), "rejected(UnknownError)");
    assert_eq!(call_state(&chromium::profile(&program)), r#"fulfilled("undefined")"#);
}

/// A timed user step runs in Chromium: `at` and `within` become a window of real milliseconds
/// counted from virtual time 0 (`--time-scale` real ms per virtual ms), and the run's limits
/// count the window.
#[test]
fn timed_user_steps_get_their_real_window() {
    let window = |path: &str, scale: f64| {
        let file = workspace_root().join(path);
        let (scenario, _) = scenario::load(&file).unwrap();
        let loops = chromium::event_loops(&cli::load_program(&file).unwrap()).unwrap();
        let plan = plan::compile(&scenario, &loops, plan::Timing { scale, jitter_ms: 0 }, &[]).unwrap();
        let step = &plan.json["user"][0];
        assert_eq!(step["kind"], "removeIframe");
        assert!(plan.timeout_ms > step["toMs"].as_u64().unwrap(), "the timeout comes after the step");
        (step["fromMs"].as_u64().unwrap(), step["toMs"].as_u64().unwrap())
    };
    assert_eq!(window("scenarios/timing/user-step-after-tool-timer.jsonc", 20.0), (1200, 1200));
    assert_eq!(window("scenarios/timing/user-step-window-races-timer.jsonc", 20.0), (0, 2000));
    assert_eq!(window("scenarios/timing/user-step-window-races-timer.jsonc", 1.5), (0, 150));
}

/// Without Chromium the subcommand stops with exit 2 and a hint, never a pass.
#[test]
fn missing_chromium_is_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_webmcp-sim"))
        .args(["chromium", "scenarios/spec/notify-task-ordering.jsonc", "--chromium", "/nonexistent/chromium"])
        .current_dir(workspace_root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hint: install Chromium"));
}

/// `--runs 0` would check nothing and report success: it is an error (exit 2), before any run.
#[test]
fn zero_runs_is_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_webmcp-sim"))
        .args(["chromium", "scenarios/spec/notify-task-ordering.jsonc", "--runs", "0"])
        .current_dir(workspace_root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--runs"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty());
}

fn run(path: &str, runs: u32) -> chromium::ScenarioResult {
    chromium::check_scenario(&workspace_root().join(path), &options(runs)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The raw-string divergence: outside the spec's set, inside the chromium profile's.
#[test]
#[ignore = "needs /usr/bin/chromium and `npm ci --prefix tools/chromium-driver` (.ci/run runs it)"]
fn real_chromium_string_result_is_a_profile_divergence() {
    let r = run("scenarios/execute/success-string-result.jsonc", 2);
    let Result_::Ran { observed, .. } = &r.result else { panic!("cannot run") };
    assert!(!observed.is_empty());
    assert!(observed.iter().all(|o| o.verdict == Verdict::InsideProfile), "{}", chromium::render(&r, &options(2)));
    // The verdict names the variant that explains it.
    assert!(
        observed.iter().all(|o| o.explained_by == [scenario::Variant::ChromiumRawStringResult]),
        "{}",
        chromium::render(&r, &options(2))
    );
    assert!(
        chromium::render(&r, &options(2)).contains("(explained by the variant chromium-"),
        "{}",
        chromium::render(&r, &options(2))
    );
}

/// The driver follows a window a page opens (`window.open`), labels its documents by its target
/// name, and labels an iframe a page inserts as the simulator does (its name attribute, else its
/// container and its place): every run of these pages is inside the spec's set, the opened
/// window's rejected call included, except the one outcome docs/chromium.md records as not yet
/// attributed ("An opened window's call left pending"): in about 1 driver run in 50, the opened
/// window's `executeTool#1@b` never settles (its page's own reaction never ran either). The
/// driver's part is checked in every run: window b's call is there, under b's label.
#[test]
#[ignore = "needs /usr/bin/chromium and `npm ci --prefix tools/chromium-driver` (.ci/run runs it)"]
fn real_chromium_follows_opened_windows_and_names_inserted_iframes() {
    let r = run("scenarios/js/page-inserted-iframes.jsonc", 2);
    let Result_::Ran { observed, .. } = &r.result else { panic!("page-inserted-iframes: cannot run") };
    assert_eq!(r.counts().0, 2, "{}", chromium::render(&r, &options(2)));
    assert!(observed.iter().all(|o| o.verdict == Verdict::InsideSpec), "{}", chromium::render(&r, &options(2)));

    let r = run("scenarios/js/different-traversable.jsonc", 3);
    let Result_::Ran { observed, .. } = &r.result else { panic!("different-traversable: cannot run") };
    let shown = chromium::render(&r, &options(3));
    let call = |o: &chromium::Observed| o.view.0.get("b").and_then(|d| d.promises.get("executeTool#1@b")).cloned();
    for o in observed {
        match o.verdict {
            Verdict::InsideSpec => assert_eq!(call(o).as_deref(), Some("rejected(UnknownError)"), "{shown}"),
            // The unattributed divergence, and nothing else outside.
            _ => assert_eq!(call(o).as_deref(), Some("pending"), "{shown}"),
        }
    }
    assert!(r.counts().0 >= 1, "no run of 3 inside the spec's set: {shown}");
}

/// The spec's own example runs in Chromium; its orders are inside the explored set (or a
/// documented divergence of the chromium profile).
#[test]
#[ignore = "needs /usr/bin/chromium and `npm ci --prefix tools/chromium-driver` (.ci/run runs it)"]
fn real_chromium_notify_task_ordering() {
    let r = run("scenarios/spec/notify-task-ordering.jsonc", 5);
    let Result_::Ran { runs, .. } = &r.result else { panic!("cannot run") };
    assert_eq!(*runs, 5);
    let (spec, _, _) = r.counts();
    assert!(spec > 0, "{}", chromium::render(&r, &options(5)));
}

/// Agent steps run through the DevTools WebMCP domain: the agent's observation and call reach
/// the page, and its result is compared with the simulator's `agent=[…]` (inside the spec's set).
#[test]
#[ignore = "needs /usr/bin/chromium and `npm ci --prefix tools/chromium-driver` (.ci/run runs it)"]
fn real_chromium_agent_observes_and_calls() {
    let r = run("scenarios/agent/observe-and-call.jsonc", 2);
    let Result_::Ran { runs, observed, not_judged, .. } = &r.result else { panic!("cannot run") };
    assert_eq!(*runs, 2);
    // A run whose event loop started late on a busy machine is not judged (never inside or
    // outside); every judged run is inside the spec's set, and at least one was judged.
    let (spec, _, _) = r.counts();
    assert_eq!(spec + not_judged, 2, "{}", chromium::render(&r, &options(2)));
    assert!(spec >= 1, "{}", chromium::render(&r, &options(2)));
    // What the agent saw, then its call's result (the outcome's agent list).
    let agent = ["observation of tab: tab=[search_flights]", "call #1 succeeded: {\"flights\":2}"];
    assert!(observed.iter().all(|o| o.view.1 == agent), "{}", chromium::render(&r, &options(2)));
}

/// Start jitter cannot reorder what the scenario orders (issue 32, item 3): a 1 ms timer removes
/// a cross-site iframe whose script registers a tool at virtual time 0. At the default jitter
/// (20 ms, 20 real ms per virtual ms) the event loops' start delay is cut to fit the timer, the
/// report warns naming the scenario, and no run lands outside the spec's set: the iframe's
/// script always runs before the removal, as in every simulated schedule. A run whose iframe
/// loop started too late (past the start barrier's slack; CI's busy cores once made one 18 ms
/// late) did not realize the scenario and is reported as not judged, never as outside; half the
/// runs at least must be judged, or the check says nothing (20 of 20 were on an idle machine).
#[test]
#[ignore = "needs /usr/bin/chromium and `npm ci --prefix tools/chromium-driver` (.ci/run runs it)"]
fn real_chromium_start_jitter_cannot_outlast_a_1_ms_timer() {
    let path = "fixtures/chromium/iframe-removed-by-1ms-timer.jsonc";
    let r = run(path, 20);
    let text = chromium::render(&r, &options(20));
    let Result_::Ran { runs, start_jitter_ms, jitter_cut, not_judged, .. } = &r.result else {
        panic!("cannot run: {text}")
    };
    assert_eq!(*runs, 20);
    assert!(*start_jitter_ms < 20 && jitter_cut.is_some(), "{text}");
    assert!(text.contains(&format!("warning: {}", workspace_root().join(path).display())), "{text}");
    let (spec, profile, outside) = r.counts();
    assert_eq!((outside, profile, spec + not_judged), (0, 0, 20), "{text}");
    assert!(spec >= 10, "only {spec} of 20 runs realized the scenario:\n{text}");
}

/// A bfcache user step with agent steps cannot run, and says why.
#[test]
fn agent_with_bfcache_cannot_run_and_says_why() {
    let path = workspace_root().join("scenarios/agent/observe-bfcached-tab.jsonc");
    let (scenario, _) = scenario::load(&path).unwrap();
    let loops = chromium::event_loops(&cli::load_program(&path).unwrap()).unwrap();
    let timing = plan::Timing { scale: 20.0, jitter_ms: 20 };
    let why = plan::compile(&scenario, &loops, timing, &[]).err().expect("cannot run");
    assert!(why.starts_with("agent steps with a back/forward cache user step"), "{why}");
}

const BEGIN: &str = "<!-- generated table: begin -->\n";
const END: &str = "<!-- generated table: end -->\n";

/// A tool that logs its input (`logInput`) and its signal's abort (`logAbort`), called with a
/// trailing `undefined` input and with an input and a signal its caller aborts: Chromium logs
/// what the simulator does (`input: {}`, `input: {"n":1}`, `signal aborted: AbortError`) in
/// every run. The plan once dropped both features, and every run was a false OUTSIDE (issue 32).
#[test]
#[ignore = "needs /usr/bin/chromium and `npm ci --prefix tools/chromium-driver` (.ci/run runs it)"]
fn real_chromium_logs_input_and_abort_as_the_simulator_does() {
    let dir = std::env::temp_dir().join(format!("webmcp-sim-chromium-log-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("log-input-and-abort.jsonc");
    std::fs::write(&path, LOG_INPUT_AND_ABORT).unwrap();
    let opts = options(3);
    let r = chromium::check_scenario(&path, &opts).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let Result_::Ran { observed, runs, not_judged, .. } = &r.result else { panic!("{}", chromium::render(&r, &opts)) };
    // Every judged run inside the spec's set (a run whose loop started late is not judged), at
    // least one judged.
    assert_eq!((*runs, r.counts().0 + not_judged), (3, 3), "{}", chromium::render(&r, &opts));
    assert!(r.counts().0 >= 1, "{}", chromium::render(&r, &opts));
    assert!(
        observed.iter().all(|o| o.view.render().contains("signal aborted: AbortError")),
        "{}",
        chromium::render(&r, &opts)
    );
}

const LOG_INPUT_AND_ABORT: &str = r#"{
  "version": 1,
  "name": "log-input-and-abort",
  "description": "logInput logs the input a trailing undefined inputObject becomes ({}), logAbort the caller's abort reason.",
  "tabs": [
    {
      "id": "tab",
      "url": "https://example.com/",
      "script": [
        { "registerTool": { "tool": { "name": "echo", "description": "Echoes.",
            "execute": { "logInput": true, "logAbort": true, "result": { "resolve": { "ok": true } } } }, "as": "registered" } },
        { "registerTool": { "tool": { "name": "wait", "description": "Waits.",
            "execute": { "logInput": true, "logAbort": true, "result": "never" } } } },
        { "executeTool": { "tool": { "dictionary": { "name": "echo", "origin": "https://example.com", "window": "tab" } },
            "inputObject": { "$js": "undefined" }, "as": "call" } },
        { "newAbortController": "ac" },
        { "executeTool": { "tool": { "dictionary": { "name": "wait", "origin": "https://example.com", "window": "tab" } },
            "inputObject": { "n": 1 }, "options": { "signal": "ac" }, "as": "waiting" } },
        { "setTimeout": { "ms": 5, "do": [ { "abort": { "controller": "ac", "reason": "stop" } } ] } }
      ]
    }
  ]
}"#;

/// The back/forward cache is on in the driver's Chromium (Playwright's default switches turn it
/// off): in every run of every shipped scenario with a `restoreFromBfcache` user step, each one
/// restores its page from the cache (`pageshow.persisted`), and every run lands inside the spec's
/// set or the chromium profile's.
#[test]
#[ignore = "needs /usr/bin/chromium and `npm ci --prefix tools/chromium-driver` (.ci/run runs it)"]
fn real_chromium_restores_pages_from_the_back_forward_cache() {
    let root = workspace_root();
    let mut checked = 0;
    for file in cli::scenario_files(&root.join("scenarios")).unwrap() {
        if !std::fs::read_to_string(&file).unwrap().contains("\"restoreFromBfcache\"") {
            continue;
        }
        let opts = options(2);
        let r = chromium::check_scenario(&file, &opts).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let Result_::Ran { runs, not_restored, restores, .. } = &r.result else { continue };
        assert!(*restores > 0, "{}: no restoreFromBfcache step in the plan", file.display());
        assert_eq!((*runs, *not_restored), (2, 0), "{}", chromium::render(&r, &opts));
        assert_eq!(r.counts().2, 0, "{}", chromium::render(&r, &opts));
        checked += 1;
    }
    assert!(checked >= 2, "only {checked} back/forward cache scenarios ran in Chromium");
}

/// docs/chromium.md's table, regenerated from real runs of the corpus: the scenarios, which
/// cannot run and why, and the run counts must match; the outcome counts are Chromium's timing
/// and are rewritten with WEBMCP_SIM_BLESS=1.
///
/// The whole table has a time budget (`WEBMCP_SIM_CHROMIUM_BUDGET_S`, 3,000 s unless set; about
/// 1,000 to 1,520 s on a shared two-core machine with the JavaScript pages' rows, 2026-12-03): on a machine so slow that runs end at their timeouts,
/// the scenarios left when it runs out are listed as skipped, and only the rows that ran are
/// compared.
#[test]
#[ignore = "needs /usr/bin/chromium and `npm ci --prefix tools/chromium-driver` (.ci/run runs it)"]
fn real_chromium_corpus_table() {
    let root = workspace_root();
    let opts = options(3);
    let budget = std::env::var("WEBMCP_SIM_CHROMIUM_BUDGET_S")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(std::time::Duration::from_secs(3000), std::time::Duration::from_secs);
    let started = std::time::Instant::now();
    let (mut results, mut skipped) = (Vec::new(), Vec::new());
    for file in cli::scenario_files(&root.join("scenarios")).unwrap() {
        let name = file.strip_prefix(&root).unwrap_or(&file).display().to_string();
        if started.elapsed() >= budget {
            skipped.push(name);
            continue;
        }
        let r = chromium::check_scenario(&file, &opts).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        print!("{}", chromium::render(&r, &opts));
        results.push(r);
    }
    let ran = results.iter().filter(|r| matches!(r.result, Result_::Ran { .. })).count();
    if !skipped.is_empty() {
        eprintln!(
            "SKIPPED, not checked: {} scenario(s) left when the {} s budget ran out: {}",
            skipped.len(),
            budget.as_secs(),
            skipped.join(", ")
        );
    }
    assert!(ran >= 40 || !skipped.is_empty() && ran >= 10, "only {ran} scenarios ran in Chromium");
    let table = chromium::table(&results, &root);
    let doc_path = root.join("docs/chromium.md");
    let doc = std::fs::read_to_string(&doc_path).unwrap();
    let (head, rest) = doc.split_once(BEGIN).expect("docs/chromium.md has the table's begin marker");
    let (old, tail) = rest.split_once(END).expect("docs/chromium.md has the table's end marker");
    if std::env::var_os("WEBMCP_SIM_BLESS").is_some() {
        assert!(
            skipped.is_empty(),
            "a table with skipped scenarios is not written: raise WEBMCP_SIM_CHROMIUM_BUDGET_S"
        );
        std::fs::write(&doc_path, format!("{head}{BEGIN}{table}{END}{tail}")).unwrap();
        return;
    }
    let checked = |row: &String| !skipped.iter().any(|name| row.starts_with(&format!("| `{name}` |")));
    let expected: Vec<String> = stable(old).into_iter().filter(checked).collect();
    assert_eq!(expected, stable(&table), "docs/chromium.md's table is stale: regenerate it with WEBMCP_SIM_BLESS=1 cargo test -p cli --test it real_chromium_corpus_table -- --ignored");
}

/// A table's columns that do not depend on Chromium's timing: scenario, runs or why not.
fn stable(table: &str) -> Vec<String> {
    table.lines().map(|l| l.split(" | ").take(2).collect::<Vec<_>>().join(" | ")).collect()
}

/// docs/chromium.md's prose says how many runs of a scenario did what ("`scenarios/F.jsonc` (K
/// of N runs outside …)", "(K of N inside …)"): each such count must be the table's. The table
/// is regenerated from real runs (`real_chromium_corpus_table`); prose that was written from
/// other runs says so in other words, never as "K of N" beside the path.
#[test]
fn the_prose_run_counts_are_the_tables() {
    let doc = std::fs::read_to_string(workspace_root().join("docs/chromium.md")).unwrap();
    let (_, rest) = doc.split_once(BEGIN).expect("docs/chromium.md has the table's begin marker");
    let (table, _) = rest.split_once(END).expect("docs/chromium.md has the table's end marker");
    // scenario → (runs, inside spec, outside both)
    let mut rows = BTreeMap::new();
    for row in table.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let number = |i: usize| cells.get(i).and_then(|c| c.parse::<u32>().ok());
        if let (Some(runs), Some(inside), Some(outside)) = (number(1), number(3), number(5)) {
            rows.insert(cells[0].trim_matches('`').to_string(), (runs, inside, outside));
        }
    }
    let (mut checked, mut errors) = (0, Vec::new());
    for (n, line) in doc.lines().enumerate().filter(|(_, l)| !l.starts_with('|')) {
        for (at, _) in line.match_indices("`scenarios/") {
            let claim = &line[at + 1..];
            let Some((path, after)) = claim.split_once("` (") else { continue };
            let mut words = after.split(' ');
            let (Some(k), Some("of"), Some(total)) = (words.next(), words.next(), words.next()) else { continue };
            let (Ok(k), Ok(total)) = (k.parse::<u32>(), total.trim_end_matches([')', ';', ',']).parse::<u32>()) else {
                continue;
            };
            let Some(&(runs, inside, outside)) = rows.get(path) else {
                errors.push(format!("docs/chromium.md:{}: {path} has no row in the table", n + 1));
                continue;
            };
            let says_inside = after.split(';').next().unwrap_or_default().contains("inside");
            let (what, expected) = if says_inside { ("inside", inside) } else { ("outside", outside) };
            if (k, total) != (expected, runs) {
                errors.push(format!(
                    "docs/chromium.md:{}: {path}: the prose says {k} of {total} ({what}), the table {expected} of {runs}",
                    n + 1
                ));
            }
            checked += 1;
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(checked >= 3, "only {checked} run counts in docs/chromium.md's prose");
}
