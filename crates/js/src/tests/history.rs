//! HTML `History` as pages use it (`history.rs`, `prelude/history.js`, `webmcp::history`):
//! `back()`, `forward()` and `go(n)` where the session history has one step do nothing, `go(0)`
//! reloads, a History of a document that is not fully active throws HTML's SecurityError, and a
//! traversal after a navigation (whose entries the simulator does not keep) names the HTML step.

use serde_json::{json, Value};

fn run_scenario(scenario: Value, seed: u64) -> trace::Trace {
    crate::link();
    let s = scenario::parse_str("t.jsonc", &scenario.to_string()).expect("the scenario parses");
    let program = webmcp::compile(&s).expect("the scenario compiles");
    webmcp::run(&program, &mut sched::RandomChooser::new(seed), webmcp::Limits::default()).expect("the page runs")
}

fn scenario(page: &str, frames: Value, resources: Value) -> Value {
    json!({
        "version": 1, "name": "history", "description": "a page",
        "tabs": [{ "id": "tab", "url": "https://example.com/page", "js": page, "frames": frames }],
        "resources": resources,
    })
}

fn lines(lines: &[trace::ConsoleLine]) -> Vec<String> {
    lines.iter().map(|c| format!("{}: {}", c.document, c.text)).collect()
}

#[test]
fn back_and_forward_with_one_step_of_session_history_do_nothing() {
    let page = "history.back(); history.forward(); history.go(-2); console.log(history.length, history.state, String(history));\n\
                setTimeout(() => console.log('still here', location.pathname), 5);";
    let trace = run_scenario(scenario(page, json!([]), json!({})), 0);
    assert!(trace.outcome.uncaught.is_empty(), "{:?}", trace.outcome.uncaught);
    assert_eq!(lines(&trace.outcome.console), ["tab: 1 null [object History]", "tab: still here /page"]);
    let text = trace.render_text();
    assert_eq!(text.matches("[HTML traverse the history by a delta 4.4]").count(), 3, "{text}");
    // A window a page opened has one step too (its first navigation replaces the initial
    // about:blank document's entry).
    let page = "window.open('/popup', 'p');";
    let resources = json!({ "/popup": { "js": "history.back(); console.log('popup', history.length);" } });
    let trace = run_scenario(scenario(page, json!([]), resources), 0);
    assert!(trace.outcome.uncaught.is_empty(), "{:?}", trace.outcome.uncaught);
    assert_eq!(lines(&trace.outcome.console), ["p: popup 1"]);
}

#[test]
fn go_zero_reloads() {
    let page = "history.go(); console.log('going');";
    let resources = json!({ "/page": { "js": "console.log('reloaded', location.href);" } });
    let trace = run_scenario(scenario(page, json!([]), resources), 0);
    assert_eq!(lines(&trace.outcome.console), ["tab: going", "tab@2: reloaded https://example.com/page"]);
    let text = trace.render_text();
    assert!(text.contains("[HTML History go() 3]") && text.contains("[HTML reload 4]"), "{text}");
}

#[test]
fn the_history_of_a_document_that_is_not_fully_active_throws_a_security_error() {
    let page = "const h = frames[0].history; document.getElementById('child').remove();\n\
                for (const f of [() => h.back(), () => h.go(0), () => h.length]) { try { f(); } catch (e) { console.log(e.name); } }";
    let frames = json!([{ "id": "child", "url": "https://example.com/child" }]);
    let trace = run_scenario(scenario(page, frames, json!({})), 0);
    assert!(trace.outcome.uncaught.is_empty(), "{:?}", trace.outcome.uncaught);
    assert_eq!(lines(&trace.outcome.console), ["tab: SecurityError", "tab: SecurityError", "tab: SecurityError"]);
}

#[test]
fn a_traversal_after_a_navigation_names_the_html_step() {
    let page = "location.assign('/two');";
    let resources =
        json!({ "/two": { "js": "try { history.back(); } catch (e) { console.log(e.name, e.message); }" } });
    let trace = run_scenario(scenario(page, json!([]), resources), 0);
    let console = lines(&trace.outcome.console);
    assert_eq!(console.len(), 1, "{console:?}");
    assert!(
        console[0].starts_with(
            "tab@2: TypeError History.back after navigable tab navigated (HTML \"traverse the history by a delta\" 4.1"
        ) && console[0].ends_with("is not modelled by webmcp-sim"),
        "{console:?}"
    );
}
