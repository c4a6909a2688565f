//! Predicates on hand-made outcomes: `with` by name or by JSON value, and `count`.

use scenario::Predicate;
use trace::{Cite, ConsoleLine, Finding, Outcome, PromiseOutcome};

use super::holds;

fn outcome(promises: &[(&str, &str)], console: &[(&str, &str)]) -> Outcome {
    Outcome {
        console: console.iter().map(|(d, t)| ConsoleLine { document: d.to_string(), text: t.to_string() }).collect(),
        promises: promises
            .iter()
            .map(|(p, s)| PromiseOutcome { promise: p.to_string(), document: "tab".into(), state: s.to_string() })
            .collect(),
        tool_maps: Vec::new(),
        uncaught: Vec::new(),
        findings: Vec::new(),
        agent: Vec::new(),
        events: Vec::new(),
        pending_executions: Vec::new(),
        end: "quiescent".into(),
    }
}

fn predicate(json: &str) -> Predicate {
    serde_json::from_str(json).unwrap()
}

#[test]
fn with_matches_an_error_by_name_and_any_other_value_by_its_json() {
    let o = outcome(
        &[
            ("a", "rejected(AbortError)"),
            ("b", "fulfilled(\"\\\"sunny\\\"\")"),
            ("c", "fulfilled([])"),
            ("d", "rejected(\"AbortError\")"),
            ("e", "fulfilled(undefined)"),
        ],
        &[],
    );
    let is = |name: &str, state: &str, with: &str| {
        holds(&predicate(&format!(r#"{{"promise": {{"name": "{name}", "is": "{state}", "with": {with}}}}}"#)), &o)
    };
    assert!(is("a", "rejected", r#""AbortError""#));
    assert!(!is("a", "rejected", r#""TypeError""#));
    // The string "sunny" with its quotes, escaped once.
    assert!(is("b", "fulfilled", r#""\"sunny\"""#));
    assert!(!is("b", "fulfilled", r#""sunny""#));
    assert!(is("c", "fulfilled", "[]"));
    assert!(!is("c", "fulfilled", r#""[]""#));
    // A rejection with the string "AbortError" is not an AbortError.
    assert!(is("d", "rejected", r#""AbortError""#) && !is("a", "rejected", r#"{"$js": "undefined"}"#));
    assert!(is("e", "fulfilled", r#"{"$js": "undefined"}"#));
}

#[test]
fn count_is_exact_and_can_be_per_document() {
    let o = outcome(&[], &[("tab", "changed"), ("child", "changed"), ("child@1", "changed"), ("tab", "other")]);
    let count = |json: &str| holds(&predicate(&format!(r#"{{"count": {json}}}"#)), &o);
    assert!(count(r#"{"logged": "changed", "times": 3}"#));
    assert!(!count(r#"{"logged": "changed", "times": 2}"#));
    assert!(count(r#"{"logged": "changed", "times": 1, "document": "tab"}"#));
    assert!(count(r#"{"logged": "changed", "times": 2, "document": "child"}"#));
    assert!(count(r#"{"logged": "changed", "times": 1, "document": "child@1"}"#));
    assert!(count(r#"{"logged": "missing", "times": 0}"#));
}

#[test]
fn count_counts_events_per_document() {
    let mut o = outcome(&[], &[]);
    o.events = vec![
        ("child".into(), "toolchange".into(), 1),
        ("child@1".into(), "toolchange".into(), 2),
        ("tab".into(), "toolchange".into(), 1),
        ("tab".into(), "toolcancel".into(), 1),
    ];
    let count = |json: &str| holds(&predicate(&format!(r#"{{"count": {json}}}"#)), &o);
    assert!(count(r#"{"event": "toolchange", "times": 1, "document": "tab"}"#));
    assert!(!count(r#"{"event": "toolchange", "times": 2, "document": "tab"}"#));
    assert!(count(r#"{"event": "toolchange", "times": 3, "document": "child"}"#));
    assert!(count(r#"{"event": "toolchange", "times": 2, "document": "child@1"}"#));
    assert!(count(r#"{"event": "toolchange", "times": 4}"#));
    assert!(count(r#"{"event": "toolactivated", "times": 0, "document": "tab"}"#));
    assert!(count(r#"{"event": "toolcancel", "times": 1}"#));
}

#[test]
fn a_finding_can_be_matched_by_its_assert_and_its_call_site() {
    let mut o = outcome(&[], &[]);
    o.findings = vec![Finding {
        unit: 3,
        cite: Cite::new("executeTool", "15.10.1"),
        message: "these steps are running in parallel".into(),
        called_from: Some(Cite::new("imperative execute steps", "9.1.4")),
    }];
    let finding = |json: &str, o: &Outcome| holds(&predicate(&format!(r#"{{"finding": {json}}}"#)), o);
    assert!(finding(r#""executeTool 15.10.1""#, &o));
    assert!(finding(r#"{"at": "executeTool 15.10.1", "from": "imperative execute steps 9.1.4"}"#, &o));
    assert!(finding(r#"{"from": "imperative execute steps 9.1.4"}"#, &o));
    assert!(!finding(r#"{"at": "executeTool 15.10.1", "from": "imperative execute steps 9.2.5"}"#, &o));
    assert!(!finding(r#"{"at": "executeTool 15.10"}"#, &o));
    o.findings[0].called_from = None;
    assert!(!finding(r#"{"from": "imperative execute steps 9.1.4"}"#, &o));
    assert!(finding(r#"{"at": "executeTool 15.10.1"}"#, &o));
}

#[test]
fn agent_matches_one_entry_exactly() {
    let mut o = outcome(&[], &[]);
    o.agent = vec!["observation of tab: tab=[search]; frame=[]".into(), "call #1 succeeded: 1".into()];
    let agent = |text: &str| holds(&Predicate::Agent(text.into()), &o);
    assert!(agent("observation of tab: tab=[search]; frame=[]"));
    assert!(agent("call #1 succeeded: 1"));
    assert!(!agent("observation of tab: tab=[search]"));
}
