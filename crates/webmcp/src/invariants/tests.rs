//! Tests of the run invariants: clean runs have no violations, named reasons are named, and each
//! deliberate `Fault` is caught by the check that is for it.

use sched::{ReplayChooser, Schedule};

use super::*;

fn program(text: &str) -> Program {
    let scenario = scenario::parse_str("t.jsonc", text).unwrap_or_else(|d| panic!("{d:?}"));
    crate::compile(&scenario).expect("compiles")
}

#[track_caller]
fn checked(text: &str, seed: u64, fault: Fault) -> Checked {
    check_seed(&program(text), seed, Limits::default(), fault).unwrap_or_else(|v| panic!("{v}"))
}

#[track_caller]
fn replayed(text: &str, schedule: &str, fault: Fault) -> Checked {
    let schedule = Schedule::parse(schedule).expect("schedule");
    let mut chooser = ReplayChooser::new(&schedule);
    run_checked(&program(text), &mut chooser, Limits::default(), fault).expect("runs")
}

fn invariants(c: &Checked) -> Vec<Invariant> {
    let mut v: Vec<Invariant> = c.violations.iter().map(|v| v.invariant).collect();
    v.dedup();
    v
}

/// A page calls its own tool, which resolves.
const SELF_CALL: &str = include_str!("../../../../fixtures/scenarios/self-call.jsonc");

/// The corpus race between a caller's abort and the tool's own completion, across two event loops.
const CANCEL_RACE: &str = r#"{
  "version": 1, "name": "cancel-race",
  "tabs": [{ "id": "app", "url": "https://app.example/", "script": [
    { "getTools": { "options": { "fromOrigins": ["https://search.example"] }, "as": "tools" } },
    { "then": { "promise": "tools", "onFulfilled": [
      { "newAbortController": "ac" },
      { "executeTool": { "tool": { "fromGetTools": { "promise": "tools", "name": "s" } }, "options": { "signal": "ac" }, "as": "call" } },
      { "setTimeout": { "ms": 10, "do": [{ "abort": { "controller": "ac" } }] } }
    ] } }
  ], "frames": [{ "id": "search", "url": "https://search.example/", "allow": "tools", "script": [
    { "registerTool": { "tool": { "name": "s", "description": "d", "execute": {
      "onAbort": [{ "log": "aborted" }], "result": { "after": { "ms": 10, "then": { "resolve": 3 } } } } },
      "options": { "exposedTo": ["https://app.example"] } } }
  ] }] }]
}"#;

#[test]
fn clean_runs_have_no_violations() {
    for seed in 0..30 {
        for text in [SELF_CALL, CANCEL_RACE] {
            let c = checked(text, seed, Fault::None);
            assert!(c.violations.is_empty(), "seed {seed}: {:?}", c.violations);
            assert!(c.pending.is_empty() && c.leaks.is_empty() && !c.stopped);
        }
    }
}

#[test]
fn a_tool_that_never_settles_is_a_named_reason() {
    let text = SELF_CALL.replace(r#""result": { "resolve": 1 }"#, r#""result": "never""#);
    let c = checked(&text, 0, Fault::None);
    assert!(c.violations.is_empty(), "{:?}", c.violations);
    assert_eq!(c.pending, vec![NamedPending { promise: "call".into(), reason: PendingReason::ToolNeverSettles }]);
}

#[test]
fn a_bfcached_target_is_a_named_reason() {
    let text = SELF_CALL.replace("}]\n}", "}],\n \"user\": [{ \"enterBfcache\": \"tab\" }] }");
    // The script runs, then the user puts the tab in the bfcache before the call reaches the tool.
    // Entering the bfcache runs the cleanup steps (HTML "unload a document" 18): the page is both
    // caller and target, so 2.3.4 drops the entry and nothing settles the call.
    let c = replayed(&text, "el0.net,par:el0.net/1,user,par:user/0", Fault::None);
    assert!(c.violations.is_empty(), "{:?}", c.violations);
    assert_eq!(c.pending.len(), 1, "{}", c.trace.render_text());
    assert_eq!(c.pending[0].reason, PendingReason::CallerUnloadedIntoBfcache, "{:?}", c.pending);
    // Under the variant that keeps executions across the bfcache, the call waits for the target.
    let kept = text.replacen("{", r#"{ "options": { "variants": ["bfcache-keeps-executions"] },"#, 1);
    let c = replayed(&kept, "el0.net,par:el0.net/1,user", Fault::None);
    assert!(c.violations.is_empty(), "{:?}", c.violations);
    assert_eq!(c.pending.len(), 1, "{}", c.trace.render_text());
    assert!(
        matches!(c.pending[0].reason, PendingReason::TargetNotFullyActive | PendingReason::CallerNotFullyActive),
        "{:?}",
        c.pending
    );
}

#[test]
fn a_target_destroyed_before_the_entry_exists_is_a_leak() {
    // The child registers a tool; the parent calls it and removes the child at once. When the
    // child's cleanup block runs before executeTool's in-parallel steps, the entry added at 15.12
    // is never removed: a leak, not a violation.
    let text = r#"{
      "version": 1, "name": "leak",
      "tabs": [{ "id": "tab", "url": "https://a.example/", "script": [
        { "setTimeout": { "ms": 1, "do": [
          { "executeTool": { "tool": { "dictionary": { "name": "t", "origin": "https://a.example", "window": "child" } }, "as": "call" } },
          { "removeIframe": "child" }
        ] } }
      ], "frames": [{ "id": "child", "url": "https://a.example/c", "script": [
        { "registerTool": { "tool": { "name": "t", "description": "d", "execute": {} } } }
      ] }] }]
    }"#;
    let runs: Vec<Checked> = (0..40).map(|seed| checked(text, seed, Fault::None)).collect();
    for c in &runs {
        assert!(c.violations.is_empty(), "{:?}\n{}", c.violations, c.trace.render_text());
    }
    let leaked = runs.iter().find(|c| !c.leaks.is_empty()).expect("some schedule leaks");
    assert_eq!((leaked.leaks[0].role, leaked.leaks[0].document.as_str()), ("target", "child"));
    assert_eq!(leaked.pending[0].reason, PendingReason::TargetDestroyedBefore15_12);
    let rejected = runs.iter().find(|c| c.leaks.is_empty()).expect("some schedule does not");
    assert!(rejected.pending.is_empty(), "{:?}", rejected.pending);
}

/// Finding 13: under `cross-traversable-execution` a caller in another tab navigates away; its
/// cleanup steps do not iterate the target's map, so the entry is a leak of its own kind, not a
/// broken invariant, and `cleanup-iterates-every-traversable` cancels the call instead.
#[test]
fn a_caller_in_another_traversable_leaks_and_the_fix_variant_cancels() {
    const TEXT: &str =
        include_str!("../../../../scenarios/execute/different-traversable-variant-caller-navigates.jsonc");
    for seed in 0..10 {
        let c = checked(TEXT, seed, Fault::None);
        assert!(c.violations.is_empty(), "{:?}\n{}", c.violations, c.trace.render_text());
        let roles: Vec<(&str, &str)> = c.leaks.iter().map(|l| (l.role, l.document.as_str())).collect();
        assert_eq!(roles, [(CALLER_IN_ANOTHER_TRAVERSABLE, "b")]);
    }
    let fixed = TEXT.replace(
        r#""variants": [ "cross-traversable-execution" ]"#,
        r#""variants": [ "cross-traversable-execution", "cleanup-iterates-every-traversable" ]"#,
    );
    assert_ne!(fixed, TEXT, "the scenario's variants line moved");
    for seed in 0..10 {
        let c = checked(&fixed, seed, Fault::None);
        assert!(c.violations.is_empty(), "{:?}\n{}", c.violations, c.trace.render_text());
        assert!(c.leaks.is_empty(), "{:?}", c.leaks);
        assert!(c.trace.render_text().contains("watch_inbox aborted"));
    }
    // With the fix, a call whose 15.12 comes after the caller's cleanup ran (the navigation in the
    // task that calls) is the ordinary caller leak (finding P1's kind), which the fix does not close.
    let same_task = fixed.replace(r#""ms": 20, "do": [ { "navigate""#, r#""ms": 10, "do": [ { "navigate""#);
    assert_ne!(same_task, fixed, "the scenario's navigation moved");
    let roles: BTreeSet<&str> = (0..40)
        .flat_map(|seed| {
            let c = checked(&same_task, seed, Fault::None);
            assert!(c.violations.is_empty(), "{:?}\n{}", c.violations, c.trace.render_text());
            c.leaks.into_iter().map(|l| l.role).collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(roles, BTreeSet::from(["caller"]));
    for text in [TEXT, fixed.as_str(), same_task.as_str()] {
        let audit = crate::audit::audit_independence(&program(text), 100_000, 5_000).unwrap();
        assert!(audit.complete && audit.violations.is_empty(), "{:?}", audit.violations);
    }
}

/// Issue #227 proposes calls across the top-level traversables of one browsing context group:
/// the same tabs without `opener` are two groups, and step 15.1 still rejects the call (no entry,
/// no leak).
#[test]
fn across_browsing_context_groups_the_variant_still_rejects() {
    const TEXT: &str =
        include_str!("../../../../scenarios/execute/different-traversable-variant-caller-navigates.jsonc");
    let two_groups = TEXT.replace(r#""opener": "a","#, "");
    assert_ne!(two_groups, TEXT, "the scenario's opener moved");
    for seed in 0..10 {
        let c = checked(&two_groups, seed, Fault::None);
        assert!(c.violations.is_empty() && c.leaks.is_empty(), "{:?} {:?}", c.violations, c.leaks);
        let text = c.trace.render_text();
        assert!(text.contains("another browsing context group (variant cross-traversable-execution"), "{text}");
        assert!(text.contains("call (b): rejected(UnknownError)"), "{text}");
    }
}

/// A scenario built without validation whose tab names a later tab as its opener is an error
/// from `Sim::new` that says how to fix it, not a panic.
#[test]
fn an_opener_that_is_not_an_earlier_tab_is_an_error() {
    let json = r#"{"version": 1, "name": "x", "tabs": [
      {"id": "a", "url": "https://a.example/", "opener": "b"}, {"id": "b", "url": "https://a.example/b"}]}"#;
    let scenario: scenario::Scenario = serde_json::from_str(json).expect("the model reads it");
    let program = crate::compile(&scenario).expect("compiles");
    let error = crate::Sim::new(&program).err().expect("an error");
    assert_eq!(
        error.to_string(),
        "tab \"a\": its opener \"b\" is not an earlier tab (give `opener` the id of a tab listed before it)"
    );
}

#[test]
fn keeping_pending_executions_breaks_the_pending_maps_invariant() {
    let c = checked(SELF_CALL, 0, Fault::KeepPendingExecutions);
    assert!(invariants(&c).contains(&Invariant::PendingMaps), "{:?}", c.violations);
    // The replay with the same fault is the same run.
    assert!(!invariants(&c).contains(&Invariant::Replay), "{:?}", c.violations);
}

#[test]
fn resettling_a_promise_breaks_settled_once() {
    let c = checked(SELF_CALL, 0, Fault::ResettleSilently);
    assert!(invariants(&c).contains(&Invariant::SettledOnce), "{:?}", c.violations);
}

#[test]
fn running_tasks_of_bfcached_documents_breaks_fully_active() {
    let text = r#"{ "version": 1, "name": "bf", "tabs": [{ "id": "tab", "url": "https://a.example/", "script": [{ "log": "x" }] }],
      "user": [{ "enterBfcache": "tab" }] }"#;
    let c = replayed(text, "user,par:user/0", Fault::RunTasksOfBfcachedDocuments);
    assert_eq!(invariants(&c), vec![Invariant::FullyActive], "{:?}", c.violations);
    let clean = replayed(text, "user,par:user/0", Fault::None);
    assert!(clean.violations.is_empty());
    assert!(clean.trace.outcome.end.contains("in bfcache"), "{}", clean.trace.outcome.end);
}

#[test]
fn a_run_that_never_ends_stops_at_the_unit_limit() {
    // A toolchange handler that registers a tool and aborts its signal: the unregistration
    // notifies again, forever.
    let text = include_str!("../../../../fixtures/scenarios/endless.jsonc");
    let c = check_seed(&program(text), 0, Limits { max_units: 500 }, Fault::None).expect("runs");
    assert!(c.stopped);
    assert_eq!(invariants(&c), vec![Invariant::UnitLimit]);
    assert_eq!(c.trace.outcome.end, "stopped: unit limit reached (500 units); the run is not finished");
}

#[test]
fn the_json_trace_round_trips_and_witnesses_replay() {
    let p = program(CANCEL_RACE);
    let ex = crate::explore::explore(
        &p,
        &crate::explore::ExploreOptions::from(crate::explore::SearchOptions {
            max_states: 5_000,
            ..Default::default()
        }),
    )
    .expect("explores");
    assert!(ex.complete);
    assert!(ex.outcomes.len() > 1);
    let runs = check_witnesses(&p, &ex, Limits::default());
    assert_eq!(runs.len(), ex.outcomes.len());
    assert!(runs.iter().all(|r| r.violations.is_empty() && r.checked.is_some()), "{runs:?}");
}

#[test]
fn a_panic_is_a_violation() {
    let v = guarded(|| -> Result<(), RunError> { panic!("boom") }).unwrap_err();
    assert_eq!((v.invariant, v.message.as_str()), (Invariant::Panic, "boom"));
}
