//! HTML `History` as pages use it (`history.rs`, `prelude/history.js`, `webmcp::history`,
//! `webmcp::session_history`): `back()`, `forward()` and `go(n)` outside the session history do
//! nothing, `go(0)` reloads, a History of a document that is not fully active throws HTML's
//! SecurityError; after navigations a traversal goes back to the entry, reloading its URL or,
//! with `options.bfcache` "keep-salvageable", restoring the kept document (pageshow persisted).

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

fn with_bfcache(mut scenario: Value) -> Value {
    scenario["options"] = json!({ "bfcache": "keep-salvageable" });
    scenario
}

const LISTENERS: &str = "addEventListener('pagehide', (e) => console.log('pagehide', e.persisted));\n\
                         addEventListener('pageshow', (e) => console.log('pageshow', e.persisted, history.length));\n";

#[test]
fn back_after_a_navigation_loads_the_entry_again_when_nothing_is_kept() {
    // options.bfcache "never" (the default): the page is destroyed when left, and going back to
    // its entry loads its URL again (the scenario's resource at /page).
    let page = format!("{LISTENERS}location.assign('/two');");
    let resources = json!({
        "/two": { "js": "console.log('two', history.length); history.back();" },
        "/page": { "js": "console.log('page again', history.length, location.pathname);" },
    });
    let trace = run_scenario(scenario(&page, json!([]), resources), 0);
    assert!(trace.outcome.uncaught.is_empty(), "{:?}", trace.outcome.uncaught);
    assert_eq!(lines(&trace.outcome.console), ["tab: pagehide false", "tab@2: two 2", "tab@3: page again 2 /page"]);
    let text = trace.render_text();
    for step in [
        "[HTML finalize a cross-document navigation]",
        "[HTML traverse the history by a delta 4.5]",
        "[HTML apply the history step 12]",
        "[HTML apply the history step 12.8]",
    ] {
        assert!(text.contains(step), "{step} in {text}");
    }
}

#[test]
fn back_and_forward_restore_the_documents_the_bfcache_keeps() {
    // options.bfcache "keep-salvageable": each page left is kept in its entry; back() restores
    // the first page (pageshow persisted), whose pageshow listener goes forward again once.
    let page = format!("{LISTENERS}let shown = 0; addEventListener('pageshow', () => {{ if (++shown === 1) history.forward(); }});\nlocation.assign('/two');");
    let resources = json!({
        "/two": { "js": "addEventListener('pageshow', (e) => console.log('two shown', e.persisted)); console.log('two', history.length); history.back();" },
    });
    let trace = run_scenario(with_bfcache(scenario(&page, json!([]), resources)), 0);
    assert!(trace.outcome.uncaught.is_empty(), "{:?}", trace.outcome.uncaught);
    assert_eq!(
        lines(&trace.outcome.console),
        ["tab: pagehide true", "tab@2: two 2", "tab: pageshow true 2", "tab: pagehide true", "tab@2: two shown true"]
    );
    assert!(trace.render_text().contains("[HTML update document for history step application]"));
}

#[test]
fn a_navigation_after_back_clears_the_forward_history_and_its_kept_document() {
    let page = "addEventListener('pageshow', () => location.assign('/three')); location.assign('/two');";
    let resources = json!({
        "/two": { "js": "history.back();" },
        "/three": { "js": "console.log('three', history.length); history.forward(); setTimeout(() => console.log('still three'), 5);" },
    });
    let trace = run_scenario(with_bfcache(scenario(page, json!([]), resources)), 0);
    assert!(trace.outcome.uncaught.is_empty(), "{:?}", trace.outcome.uncaught);
    // /two's entry (after the current step) is removed with its kept document; /three takes
    // step 1, so history.length is 2 and forward() finds no step.
    assert_eq!(lines(&trace.outcome.console), ["tab@3: three 2", "tab@3: still three"]);
    let text = trace.render_text();
    assert!(text.contains("[HTML clear the forward session history]"), "{text}");
    assert!(text.contains("[HTML traverse the history by a delta 4.4]"), "{text}");
}

#[test]
fn location_replace_replaces_the_current_entry() {
    let page = "location.replace('/two');";
    let resources = json!({ "/two": { "js": "console.log('two', history.length); history.back(); setTimeout(() => console.log('stays'), 5);" } });
    let trace = run_scenario(scenario(page, json!([]), resources), 0);
    assert!(trace.outcome.uncaught.is_empty(), "{:?}", trace.outcome.uncaught);
    assert_eq!(lines(&trace.outcome.console), ["tab@2: two 1", "tab@2: stays"]);
}

#[test]
fn an_iframe_navigation_is_a_step_of_its_traversable() {
    // The frame navigates (a new entry of the child navigable at step 1); the top page's back()
    // goes back to step 0, which changes only the frame (its old document is loaded again).
    let page = "frames[0].location.assign('https://example.com/child2');\n\
                setTimeout(() => { console.log('length', history.length); history.back(); }, 5);";
    let frames = json!([{ "id": "child", "url": "https://example.com/child" }]);
    let resources = json!({
        "/child": { "js": "console.log('child', history.length);" },
        "/child2": { "js": "console.log('child2');" },
    });
    let trace = run_scenario(scenario(page, frames, resources), 0);
    assert!(trace.outcome.uncaught.is_empty(), "{:?}", trace.outcome.uncaught);
    assert_eq!(lines(&trace.outcome.console), ["child@2: child2", "tab: length 2", "child@3: child 2"]);
}

#[test]
fn a_traversal_after_a_navigated_iframe_was_destroyed_names_the_html_step() {
    // The frame navigated, then the top page navigated without the bfcache: the top entry's
    // nested histories are not kept, so the simulator cannot count the steps.
    let page = "frames[0].location.assign('https://example.com/child2'); setTimeout(() => location.assign('/two'), 5);";
    let frames = json!([{ "id": "child", "url": "https://example.com/child" }]);
    let resources = json!({ "/two": { "js": "try { console.log(history.length); } catch (e) { console.log(e.name, e.message); }" } });
    let trace = run_scenario(scenario(page, frames, resources), 0);
    let console = lines(&trace.outcome.console);
    assert_eq!(console.len(), 1, "{console:?}");
    assert!(
        console[0].starts_with("tab@2: TypeError History.length after a document of tab was destroyed")
            && console[0].contains("\"getting all used history steps\"")
            && console[0].ends_with("is not modelled by webmcp-sim"),
        "{console:?}"
    );
}
