//! HTML's auxiliary windows as pages use them (`window_open.rs`, `prelude/open.js`,
//! `webmcp::window_open`): `window.open` makes a new top-level traversable whose document the
//! simulator's navigation makes, `opener` and noopener, `close()` and `closed`, a window that
//! navigates away, and the parts that are not modelled (each names the HTML step).

use serde_json::{json, Value};

fn run_scenario(scenario: Value, seed: u64) -> trace::Trace {
    crate::link();
    let s = scenario::parse_str("t.jsonc", &scenario.to_string()).expect("the scenario parses");
    let program = webmcp::compile(&s).expect("the scenario compiles");
    webmcp::run(&program, &mut sched::RandomChooser::new(seed), webmcp::Limits::default()).expect("the page runs")
}

/// One tab at https://example.com/ running `page`, and the server's `resources`.
fn scenario(page: &str, resources: Value) -> Value {
    json!({
        "version": 1, "name": "open", "description": "a page",
        "tabs": [{ "id": "tab", "url": "https://example.com/", "js": page }],
        "resources": resources,
    })
}

fn lines(lines: &[trace::ConsoleLine]) -> Vec<String> {
    lines.iter().map(|c| format!("{}: {}", c.document, c.text)).collect()
}

#[test]
fn open_makes_a_new_top_level_traversable_whose_opener_is_the_page() {
    let page = "const w = window.open('/popup', 'popup');\n\
                console.log('opened', w === null, w.closed, w.opener === window, w === window.open('', 'popup'));";
    let resources = json!({ "/popup": { "js": "console.log('popup', location.href, opener === opener.window, opener.location.pathname, top === window, window.opener.document !== document);" } });
    let trace = run_scenario(scenario(page, resources), 0);
    assert!(trace.outcome.uncaught.is_empty(), "{:?}", trace.outcome.uncaught);
    assert_eq!(
        lines(&trace.outcome.console),
        ["tab: opened false false true true", "popup: popup https://example.com/popup true / true true"]
    );
    // Same site, same browsing context group: one agent cluster, one event loop.
    let text = trace.render_text();
    assert!(text.contains("https://example.com/popup origin=https://example.com loop=el0"), "{text}");
    assert!(!text.contains("loop=el1"), "{text}");
    for cite in [
        "[HTML window open steps 13]",
        "[HTML rules for choosing a navigable 8]",
        "[HTML create a new top-level traversable]",
        "[HTML window open steps 15.5]",
        "[HTML rules for choosing a navigable 9]",
    ] {
        assert!(text.contains(cite), "{cite} missing from\n{text}");
    }
}

#[test]
fn noopener_returns_null_and_the_new_window_has_no_opener_and_its_own_group() {
    for features in ["noopener", "noopener=1", "NoOpener=yes", " noreferrer", "noopener = true"] {
        let page =
            format!("console.log('returned', window.open('https://example.com/popup', '_blank', '{features}'));");
        let resources = json!({ "/popup": { "js": "console.log('opener', window.opener);" } });
        let trace = run_scenario(scenario(&page, resources), 0);
        assert!(trace.outcome.uncaught.is_empty(), "{features}: {:?}", trace.outcome.uncaught);
        assert_eq!(lines(&trace.outcome.console), ["tab: returned null", "window1: opener null"], "{features}");
        // A new browsing context group: its own agent cluster and event loop.
        assert!(trace.render_text().contains("loop=el1"), "{features}");
    }
    // A feature that parses to false is no noopener.
    let page = "console.log(window.open('/popup', '', 'noopener=0') !== null);";
    let trace = run_scenario(scenario(page, json!({})), 0);
    assert_eq!(lines(&trace.outcome.console), ["tab: true"]);
}

#[test]
fn a_cross_site_window_is_reached_only_through_its_cross_origin_members() {
    let page = "const w = window.open('https://other.example/p');\n\
                setTimeout(() => { console.log(w.closed, w.opener === window); try { w.document; } catch (e) { console.log(e.name); } }, 5);";
    let resources = json!({ "/p": { "js": "console.log('other', opener.closed); try { opener.document; } catch (e) { console.log(e.name); }" } });
    let trace = run_scenario(scenario(page, resources), 0);
    assert!(trace.outcome.uncaught.is_empty(), "{:?}", trace.outcome.uncaught);
    assert_eq!(
        lines(&trace.outcome.console),
        ["window1: other false", "window1: SecurityError", "tab: false true", "tab: SecurityError"]
    );
    // Another site: another agent cluster of the same group, another event loop.
    assert!(trace.render_text().contains("https://other.example/p origin=https://other.example loop=el1"));
}

#[test]
fn setting_opener_to_null_disowns_and_another_value_is_an_own_property() {
    let page = "window.open('/popup', 'p');";
    let resources = json!({ "/popup": { "js": "const before = opener !== null; window.opener = null; const after = opener; window.opener = 5; console.log(before, after, opener, Object.getOwnPropertyDescriptor(window, 'opener').value);" } });
    let trace = run_scenario(scenario(page, resources), 0);
    assert_eq!(lines(&trace.outcome.console), ["p: true null 5 5"]);
}

#[test]
fn a_closed_window_is_closed_and_its_document_is_unloaded() {
    let page = "const w = window.open('/popup', 'p');\n\
                setTimeout(() => { w.close(); console.log('closing', w.closed); setTimeout(() => console.log('after', w.closed, window.open('/other', 'p') !== w), 1); }, 5);";
    let resources = json!({ "/popup": { "js": "setTimeout(() => console.log('popup timer'), 20);" } });
    let trace = run_scenario(scenario(page, resources), 0);
    assert!(trace.outcome.uncaught.is_empty(), "{:?}", trace.outcome.uncaught);
    // The popup's timer never runs: its document was destroyed. `open` with the same name after
    // the close makes another window (the closed one is no navigable to find).
    assert_eq!(lines(&trace.outcome.console), ["tab: closing true", "tab: after true true"]);
    let text = trace.render_text();
    for cite in ["[HTML close() 6.2]", "[HTML definitely close a top-level traversable]"] {
        assert!(text.contains(cite), "{cite} missing from\n{text}");
    }
    // A window closes itself too; a tab the scenario declares that has not navigated is
    // script-closable (its session history has one entry).
    let trace = run_scenario(scenario("close(); console.log(closed);", json!({})), 0);
    assert_eq!(lines(&trace.outcome.console), ["tab: true"]);
}

#[test]
fn a_window_that_navigates_away_is_followed_by_its_window_proxy() {
    let page = "const w = window.open('/one', 'p');\n\
                setTimeout(() => console.log('now', w.location.pathname, w.opener === window), 10);";
    let resources = json!({
        "/one": { "js": "location.assign('/two');" },
        "/two": { "js": "console.log('two', opener.location.pathname);" },
    });
    let trace = run_scenario(scenario(page, resources), 0);
    assert!(trace.outcome.uncaught.is_empty(), "{:?}", trace.outcome.uncaught);
    assert_eq!(lines(&trace.outcome.console), ["p@2: two /", "tab: now /two true"]);
}

#[test]
fn what_is_not_modelled_names_the_html_step() {
    let cases = [
        ("window.open();", "initial about:blank document"),
        ("window.open('about:blank');", "15.4"),
        ("const w = window.open('/p'); w.document;", "before its first document loads"),
    ];
    for (page, expected) in cases {
        let trace = run_scenario(scenario(page, json!({})), 0);
        let uncaught: Vec<String> = trace.outcome.uncaught.iter().map(|c| c.text.clone()).collect();
        assert_eq!(uncaught.len(), 1, "{page}: {uncaught:?}");
        assert!(uncaught[0].contains(expected) && uncaught[0].contains("not modelled"), "{page}: {uncaught:?}");
    }
    // An invalid URL is HTML's SyntaxError.
    let trace =
        run_scenario(scenario("try { window.open('https://['); } catch (e) { console.log(e.name); }", json!({})), 0);
    assert_eq!(lines(&trace.outcome.console), ["tab: SyntaxError"]);
}

#[test]
fn a_sandboxed_iframe_without_allow_popups_opens_nothing() {
    let s = json!({
        "version": 1, "name": "open", "description": "a page",
        "tabs": [{ "id": "tab", "url": "https://example.com/", "frames": [
            { "id": "f", "url": "https://example.com/f", "sandbox": "allow-scripts", "js": "console.log(window.open('/x'));" }
        ] }],
    });
    let trace = run_scenario(s, 0);
    assert_eq!(lines(&trace.outcome.console), ["f: null"]);
    assert!(trace.render_text().contains("the popup is blocked"));
}
