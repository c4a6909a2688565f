//! HTML `Location` as pages use it (`location.rs`, `prelude/location.js`): navigation from
//! script through the simulator's navigation, the checks its members make, and the members that
//! are not modelled (each names itself).

use serde_json::{json, Value};

/// Runs a scenario given as JSON with seed `seed`.
fn run_scenario(scenario: Value, seed: u64) -> trace::Trace {
    crate::link();
    let s = scenario::parse_str("t.jsonc", &scenario.to_string()).expect("the scenario parses");
    let program = webmcp::compile(&s).expect("the scenario compiles");
    webmcp::run(&program, &mut sched::RandomChooser::new(seed), webmcp::Limits::default()).expect("the page runs")
}

/// A scenario of one tab at `url` running `page`, with `frames` and the server's `resources`.
fn scenario(url: &str, page: &str, frames: Value, resources: Value) -> Value {
    json!({
        "version": 1, "name": "location", "description": "a page",
        "tabs": [{ "id": "tab", "url": url, "js": page, "frames": frames }],
        "resources": resources,
    })
}

fn lines(lines: &[trace::ConsoleLine]) -> Vec<String> {
    lines.iter().map(|c| format!("{}: {}", c.document, c.text)).collect()
}

#[test]
fn assign_navigates_in_a_later_task_to_the_document_the_server_holds() {
    let page = "location.assign('/step2');\nconsole.log('still', location.href);";
    let resources =
        json!({ "/step2": { "js": "console.log('loaded', location.href, document.modelContext !== undefined);" } });
    let trace = run_scenario(scenario("https://example.com/step1", page, json!([]), resources), 0);
    assert_eq!(
        lines(&trace.outcome.console),
        ["tab: still https://example.com/step1", "tab@2: loaded https://example.com/step2 true"]
    );
    assert!(trace.outcome.uncaught.is_empty(), "{:?}", trace.outcome.uncaught);
    // The trace cites the algorithm and step of each part.
    let text = trace.render_text();
    for cite in ["[HTML Location-object navigate 4]", "[HTML navigate 23]"] {
        assert!(text.contains(cite), "{cite} missing from\n{text}");
    }
}

#[test]
fn setting_href_or_location_and_replace_navigate_too() {
    for page in
        ["location.href = 'https://example.com/next';", "window.location = '/next';", "location.replace('next');"]
    {
        let resources = json!({ "/next": { "js": "console.log('next', location.pathname);" } });
        let trace = run_scenario(scenario("https://example.com/start", page, json!([]), resources), 0);
        assert_eq!(lines(&trace.outcome.console), ["tab@2: next /next"], "{page}");
    }
}

#[test]
fn a_path_the_server_does_not_hold_gives_a_document_with_no_script() {
    let page = "location.assign('/nowhere'); console.log('went');";
    let trace = run_scenario(scenario("https://example.com/", page, json!([]), json!({})), 0);
    assert_eq!(lines(&trace.outcome.console), ["tab: went"]);
    assert!(trace.render_text().contains("tab@2"), "a new document was made");
}

#[test]
fn reload_makes_a_new_document_at_the_same_url() {
    let page = "location.reload(); console.log('reloading');";
    let resources = json!({ "/page": { "js": "console.log('reloaded', location.href);" } });
    let trace = run_scenario(scenario("https://example.com/page", page, json!([]), resources), 0);
    assert_eq!(lines(&trace.outcome.console), ["tab: reloading", "tab@2: reloaded https://example.com/page"]);
    assert!(trace.render_text().contains("[HTML reload 4]"));
}

#[test]
fn a_resource_brings_its_iframes_and_headers() {
    let page = "location.assign('/shell');";
    let resources = json!({ "/shell": {
        "js": "document.modelContext.registerTool({ name: 't', description: 'd', execute() {} }).catch((e) => console.log('shell', frames.length, e.name));",
        "headers": { "Permissions-Policy": "tools=()" },
        "frames": [{ "id": "inner", "url": "https://example.com/inner", "js": "console.log('inner', parent.location.pathname);" }],
    } });
    let trace = run_scenario(scenario("https://example.com/", page, json!([]), resources), 0);
    let console = lines(&trace.outcome.console);
    assert!(console.contains(&"tab@2: shell 1 NotAllowedError".to_string()), "{console:?}");
    assert!(console.contains(&"inner: inner /shell".to_string()), "{console:?}");
}

#[test]
fn members_that_are_not_modelled_name_themselves() {
    let page = r#"
        for (const f of [
            () => history.pushState({}, ''),
            () => window.print(),
            () => { location.hash = 'x'; },
            () => location.assign('#top'),
            () => location.assign('javascript:void 0'),
            () => location.ancestorOrigins,
            () => new Location(),
        ]) {
            try { f(); console.log('no error'); } catch (e) { console.log(e.name + ': ' + e.message); }
        }
    "#;
    let trace = run_scenario(scenario("https://example.com/", page, json!([]), json!({})), 0);
    assert_eq!(
        lines(&trace.outcome.console),
        [
            "tab: TypeError: History.pushState is not modelled by webmcp-sim",
            "tab: TypeError: Window.print is not modelled by webmcp-sim",
            "tab: TypeError: Location.hash (setting it navigates) is not modelled by webmcp-sim: set href",
            "tab: TypeError: navigating to a fragment (https://example.com/#top: HTML \"navigate\" 14, a same-document navigation) is not modelled by webmcp-sim",
            "tab: TypeError: navigating to a javascript: URL (javascript:void 0) is not modelled by webmcp-sim",
            "tab: TypeError: Location.ancestorOrigins is not modelled by webmcp-sim",
            "tab: TypeError: Illegal constructor",
        ]
    );
}

#[test]
fn a_url_that_does_not_parse_is_a_syntax_error() {
    let page = "try { location.assign('https://[bad'); } catch (e) { console.log(e.name, e instanceof DOMException); }";
    let trace = run_scenario(scenario("https://example.com/", page, json!([]), json!({})), 0);
    assert_eq!(lines(&trace.outcome.console), ["tab: SyntaxError true"]);
}

/// HTML lets any origin set a Location's `href` and call `replace`; `assign`, `reload` and the
/// getters need the same origin-domain.
#[test]
fn another_origins_location_can_be_set_and_replaced_but_not_read_or_assigned() {
    let page = r#"
        const child = frames[0];
        for (const f of [() => child.location.href, () => child.location.assign('/a'), () => child.location.reload()]) {
            try { f(); console.log('no error'); } catch (e) { console.log(e.name); }
        }
        child.location.href = 'https://b.example/next';
    "#;
    let frames = json!([{ "id": "child", "url": "https://b.example/child", "allow": "tools" }]);
    let resources = json!({ "/next": { "js": "console.log('next at', location.origin);" } });
    let trace = run_scenario(scenario("https://example.com/", page, frames, resources), 0);
    assert_eq!(
        lines(&trace.outcome.console),
        ["tab: SecurityError", "tab: SecurityError", "tab: SecurityError", "child@2: next at https://b.example"]
    );
}

/// HTML "allowed by sandboxing to navigate": a sandboxed iframe may navigate itself, but not its
/// sibling (rule 1) nor, without `allow-top-navigation`, its top-level traversable (rule 2).
#[test]
fn a_sandboxed_iframe_navigates_only_itself() {
    let child = r#"
        for (const f of [() => { parent.location.href = '/top'; }, () => { parent[1].location.href = '/sibling'; }]) {
            try { f(); console.log('no error'); } catch (e) { console.log(e.name); }
        }
        location.href = 'https://example.com/self';
    "#;
    let frames = json!([
        { "id": "child", "url": "https://example.com/child", "sandbox": "allow-scripts", "js": child },
        { "id": "sibling", "url": "https://example.com/sibling" },
    ]);
    let resources = json!({ "/self": { "js": "console.log('navigated itself');" } });
    let trace = run_scenario(scenario("https://example.com/", "", frames, resources), 0);
    assert_eq!(
        lines(&trace.outcome.console),
        ["child: SecurityError", "child: SecurityError", "child@2: navigated itself"]
    );
}
