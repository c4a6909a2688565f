//! Unit tests of the Chromium projection: canonical values and the plan's JavaScript.

use super::view::canonical;

#[test]
fn canonical_sorts_members_and_drops_exception_messages() {
    assert_eq!(
        canonical(r#"[{name: "a", title: "", window: <Window of child@2>, origin: "https://a.example"}]"#),
        r#"[{name: "a", origin: "https://a.example", title: "", window: <Window of child>}]"#
    );
    assert_eq!(canonical(r#"TypeError("Cannot read properties of undefined (reading 'x')")"#), "TypeError");
    assert_eq!(canonical("DOMException(SecurityError: Blocked (a) frame)"), "DOMException(SecurityError)");
    assert_eq!(canonical(r#""\"success\"""#), r#""\"success\"""#);
    assert_eq!(canonical("NotAllowedError"), "NotAllowedError");
    // Text outside the notation stays as it is.
    assert_eq!(canonical("{odd"), "{odd");
}

#[test]
fn values_become_javascript_with_the_js_escapes() {
    let v: serde_json::Value =
        serde_json::from_str(r#"{"a": [1, "x"], "u": {"$js": "undefined"}, "c": {"$js": "cycle"}}"#).unwrap();
    assert_eq!(super::plan::value(&v), r#"{"a": [1, "x"], "u": undefined, "c": W.special("cycle")}"#);
}

#[test]
fn unnamed_promises_are_left_out_of_a_view() {
    let promise = |name: &str| trace::PromiseOutcome {
        promise: name.into(),
        document: "app".into(),
        state: "fulfilled(undefined)".into(),
    };
    let outcome = trace::Outcome {
        promises: vec![promise("registerTool#1@app"), promise("promise#2@app"), promise("p;#-->%%"), promise("named")],
        ..Default::default()
    };
    let view = super::view::View::of_outcome(&outcome);
    let names: Vec<&String> = view.0["app"].promises.keys().collect();
    assert_eq!(names, ["named", "p;#-->%%"]);
}

#[test]
fn execute_tool_passes_only_the_arguments_the_scenario_gives() {
    let args = |json: &str| {
        let e: scenario::model::ExecuteTool = serde_json::from_str(json).unwrap();
        super::plan::execute_tool_arguments("t".into(), &e).join(", ")
    };
    let tool = r#""tool": {"fromGetTools": {"promise": "tools", "name": "echo"}}"#;
    // Left out: not passed (docs/scenario-format.md), so Chromium's bindings see no argument.
    assert_eq!(args(&format!("{{{tool}}}")), "t");
    assert_eq!(args(&format!(r#"{{{tool}, "inputObject": {{"$js": "undefined"}}}}"#)), "t, undefined");
    assert_eq!(args(&format!(r#"{{{tool}, "inputObject": null}}"#)), "t, null");
    // An input left out before given options is its WebIDL default.
    assert_eq!(
        args(&format!(r#"{{{tool}, "options": {{"signal": "c"}}}}"#)),
        "t, {}, {signal: W.lookup('C', \"c\").signal}"
    );
    assert_eq!(
        args(&format!(r#"{{{tool}, "inputObject": {{"$js": "undefined"}}, "options": {{"signal": "c"}}}}"#)),
        "t, undefined, {signal: W.lookup('C', \"c\").signal}"
    );
}
