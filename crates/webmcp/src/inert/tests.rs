use crate::explore::{explore, ExploreOptions, SearchOptions};
use crate::Program;

fn program(text: &str) -> Program {
    let scenario = scenario::parse_str("inert-test.jsonc", text).expect("the test scenario parses");
    crate::compile(&scenario).expect("the test scenario compiles")
}

fn registrations(n: usize, then_on_first: bool) -> String {
    let reg = |doc: &str, i: usize| {
        let name = format!("{doc}{i}");
        let as_ = if i == 0 && doc == "t" && then_on_first { r#", "as": "p0""# } else { "" };
        format!(
            r#"{{ "registerTool": {{ "tool": {{ "name": "{name}", "description": "d", "execute": {{ "result": {{ "resolve": "ok" }} }} }}{as_} }} }}"#
        )
    };
    let tab: Vec<String> = (0..n).map(|i| reg("t", i)).collect();
    let frame: Vec<String> = (0..n).map(|i| reg("f", i)).collect();
    let then = if then_on_first {
        r#", { "then": { "promise": "p0", "onFulfilled": [ { "log": "p0" } ] } }, { "log": "script" }"#
    } else {
        ""
    };
    format!(
        r#"{{ "version": 1, "name": "inert", "tabs": [ {{ "id": "top", "url": "https://a.example/",
            "frames": [ {{ "id": "f", "url": "https://a.example/f", "script": [ {} ] }} ],
            "script": [ {}{then} ] }} ] }}"#,
        frame.join(","),
        tab.join(",")
    )
}

#[test]
fn inert_tasks_give_the_naive_outcome_set_with_far_fewer_states() {
    for then in [false, true] {
        let p = program(&registrations(2, then));
        let reduced = explore(&p, &ExploreOptions::default()).unwrap();
        let faithful = explore(&p, &ExploreOptions { inert_tasks: false, ..ExploreOptions::default() }).unwrap();
        let naive = explore(&p, &ExploreOptions::from(SearchOptions { reduce: false, ..Default::default() })).unwrap();
        let sums = |e: &trace::Exploration| e.outcomes.iter().map(|c| c.summary.clone()).collect::<Vec<_>>();
        let mut a = sums(&reduced);
        let mut b = sums(&naive);
        a.sort();
        b.sort();
        assert_eq!(a, b, "then={then}");
        assert!(reduced.complete && naive.complete);
        assert!(
            reduced.states * 4 < faithful.states,
            "then={then}: {} states against {}",
            reduced.states,
            faithful.states
        );
    }
}

#[test]
fn what_scripts_can_do_is_read_from_every_script() {
    let facts = super::facts::InertFacts::of(&program(&registrations(1, true)));
    assert_eq!(facts.read_slots, vec![true], "p0 is read by `then`");
    let facts = super::facts::InertFacts::of(&program(&registrations(1, false)));
    assert!(facts.read_slots.is_empty() && facts.lifecycle_targets.is_empty() && facts.toolchange_targets.is_empty());
}

#[test]
fn witnesses_are_schedules_of_the_faithful_model() {
    let p = program(&registrations(2, true));
    let reduced = explore(&p, &ExploreOptions::default()).unwrap();
    for class in &reduced.outcomes {
        let schedule = sched::Schedule::parse(&class.witness).unwrap();
        let mut chooser = sched::ReplayChooser::new(&schedule);
        let trace = crate::run(&p, &mut chooser, crate::run::Limits::default()).expect("the witness replays");
        assert_eq!(trace.outcome.canonical().summary(), class.summary);
        assert_eq!(chooser.remaining(), 0, "the witness {} is used up", class.witness);
    }
}

#[test]
fn a_timed_user_step_that_removes_an_iframe_changes_lifecycles() {
    let text = r#"{ "version": 1, "name": "timed", "tabs": [ { "id": "top", "url": "https://a.example/",
        "frames": [ { "id": "f", "url": "https://a.example/f" } ] } ],
        "user": [ { "at": { "ms": 5, "step": { "removeIframe": "f" } } } ] }"#;
    let p = program(text);
    assert_eq!(super::facts::InertFacts::of(&p).lifecycle_targets, vec!["f".to_string()]);
    assert!(!super::facts::InertFacts::lifecycles_fixed(&p));
}

/// Two concurrent calls to a frame's tools, each with its own controller; `abort_second` adds a
/// timer that aborts the second call's controller.
fn two_calls(abort_second: bool) -> String {
    two_calls_of(abort_second, r#"{ "resolve": "ok" }"#)
}

/// `two_calls`, with tools whose `execute` is `execute` (a JSON object's members).
fn two_calls_of(abort_second: bool, execute: &str) -> String {
    let execute = format!(r#"{{ "result": {execute} }}"#);
    two_calls_with(abort_second, &execute)
}

fn two_calls_with(abort_second: bool, execute: &str) -> String {
    let tool = |n: &str| {
        format!(
            r#"{{ "registerTool": {{ "tool": {{ "name": "{n}", "description": "d", "execute": {execute} }},
                "options": {{ "exposedTo": ["https://a.example"] }} }} }}"#
        )
    };
    let call = |n: &str, c: &str| {
        format!(
            r#"{{ "executeTool": {{ "tool": {{ "fromGetTools": {{ "promise": "tools", "name": "{n}" }} }},
                "options": {{ "signal": "{c}" }}, "as": "call-{n}" }} }}"#
        )
    };
    let abort = if abort_second {
        r#", { "setTimeout": { "ms": 0, "do": [ { "abort": { "controller": "c1" } } ] } }"#
    } else {
        ""
    };
    format!(
        r#"{{ "version": 1, "name": "calls", "tabs": [ {{ "id": "top", "url": "https://a.example/",
            "frames": [ {{ "id": "b", "url": "https://b.example/", "allow": "tools", "script": [ {}, {} ] }} ],
            "script": [ {{ "setTimeout": {{ "ms": 1, "do": [
                {{ "getTools": {{ "options": {{ "fromOrigins": ["https://b.example"] }}, "as": "tools" }} }},
                {{ "then": {{ "promise": "tools", "onFulfilled": [
                    {{ "newAbortController": "c0" }}, {{ "newAbortController": "c1" }}, {}, {}{abort} ] }} }} ] }} }} ] }} ] }}"#,
        tool("t0"),
        tool("t1"),
        call("t0", "c0"),
        call("t1", "c1")
    )
}

#[test]
fn a_call_whose_signal_no_step_aborts_settles_inertly() {
    let slot = |p: &Program, name: &str| p.promise_names.iter().position(|n| n == name).unwrap();
    let p = program(&two_calls(false));
    let facts = super::facts::InertFacts::of(&p);
    assert!(!facts.signal_slots[slot(&p, "call-t0")] && !facts.signal_slots[slot(&p, "call-t1")]);
    let p = program(&two_calls(true));
    let facts = super::facts::InertFacts::of(&p);
    assert!(!facts.signal_slots[slot(&p, "call-t0")], "c0 is never aborted");
    assert!(facts.signal_slots[slot(&p, "call-t1")], "c1 is aborted by the timer: its call's promise is not inert");
    for abort in [false, true] {
        let p = program(&two_calls(abort));
        let reduced = explore(&p, &ExploreOptions::default()).unwrap();
        let naive = explore(&p, &ExploreOptions::from(SearchOptions { reduce: false, ..Default::default() })).unwrap();
        let sums = |e: &trace::Exploration| {
            let mut s = e.outcomes.iter().map(|c| c.summary.clone()).collect::<Vec<_>>();
            s.sort();
            s
        };
        assert!(reduced.complete && naive.complete);
        assert_eq!(sums(&reduced), sums(&naive), "abort={abort}");
    }
}

fn sorted_summaries(e: &trace::Exploration) -> Vec<String> {
    let mut s = e.outcomes.iter().map(|c| c.summary.clone()).collect::<Vec<_>>();
    s.sort();
    s
}

#[test]
fn plain_tools_are_read_from_every_registration() {
    let plain = |execute: &str| super::facts::InertFacts::of(&program(&two_calls_with(false, execute))).plain_tools;
    let both = vec!["t0".to_string(), "t1".to_string()];
    assert_eq!(plain(r#"{ "result": { "resolve": "ok" } }"#), both);
    assert_eq!(plain(r#"{ "result": { "after": { "ms": 0, "then": { "reject": "no" } } } }"#), both);
    // A later timer: kept in the timer list by the execution's uuid (issue 30).
    assert_eq!(plain(r#"{ "result": { "after": { "ms": 1, "then": { "resolve": "ok" } } } }"#), both);
    // Statements, a logged input, a promise that waits for the abort or never settles, a timer
    // whose end waits again: not plain.
    assert!(plain(r#"{ "do": [ { "log": "runs" } ], "result": { "resolve": "ok" } }"#).is_empty());
    assert!(plain(r#"{ "logInput": true, "result": { "resolve": "ok" } }"#).is_empty());
    assert!(plain(r#"{ "result": { "after": { "ms": 1, "then": "never" } } }"#).is_empty());
    assert!(plain(r#"{ "result": "rejectOnAbort" }"#).is_empty());
    assert!(plain(r#"{ "result": "never" }"#).is_empty());
}

#[test]
fn a_tool_execution_nothing_can_cancel_runs_inertly_and_keeps_the_outcome_set() {
    for execute in [
        r#"{ "resolve": "ok" }"#,
        r#"{ "after": { "ms": 0, "then": { "resolve": "ok" } } }"#,
        r#"{ "after": { "ms": 1, "then": { "resolve": "ok" } } }"#,
    ] {
        for abort in [false, true] {
            let p = program(&two_calls_of(abort, execute));
            let reduced = explore(&p, &ExploreOptions::default()).unwrap();
            let naive =
                explore(&p, &ExploreOptions::from(SearchOptions { reduce: false, ..Default::default() })).unwrap();
            assert!(reduced.complete && naive.complete);
            assert_eq!(sorted_summaries(&reduced), sorted_summaries(&naive), "{execute} abort={abort}");
            // The same scenario with a tool that logs when it runs: its executions are not inert.
            let logged = program(&two_calls_with(
                abort,
                &format!(r#"{{ "do": [ {{ "log": "runs" }} ], "result": {execute} }}"#),
            ));
            let queued = explore(&logged, &ExploreOptions::default()).unwrap();
            assert!(
                reduced.states < queued.states,
                "{execute} abort={abort}: {} states against {}",
                reduced.states,
                queued.states
            );
            // Every witness replays in the faithful model to its outcome.
            for class in &reduced.outcomes {
                let schedule = sched::Schedule::parse(&class.witness).unwrap();
                let mut chooser = sched::ReplayChooser::new(&schedule);
                let trace = crate::run(&p, &mut chooser, crate::run::Limits::default()).expect("the witness replays");
                assert_eq!(trace.outcome.canonical().summary(), class.summary);
            }
            let audit = crate::audit::audit_independence(&p, 100_000, 5_000).unwrap();
            assert!(audit.complete && audit.violations.is_empty(), "{:?}", audit.violations);
        }
    }
}

/// Three calls of a tool that settles after 1 ms, on one document: the first aborted by a timer
/// of the same deadline, the second read by `then` (so neither is inert), the third inert; and a
/// cross-site frame's 1 ms timer that logs, racing the reaction to the second call. The inert
/// execution's timer waits in the list placed by its uuid (issue 30) among timers of its
/// deadline.
fn calls_racing_timers_of_one_deadline() -> String {
    let call = |i: u32, signal: &str| {
        format!(
            r#"{{ "executeTool": {{ "tool": {{ "dictionary": {{ "name": "wait", "origin": "https://a.example", "window": "tab" }} }}{signal}, "as": "call{i}" }} }}"#
        )
    };
    format!(
        r#"{{ "version": 1, "name": "keyed", "tabs": [ {{ "id": "tab", "url": "https://a.example/",
          "frames": [ {{ "id": "f", "url": "https://b.example/",
            "script": [ {{ "setTimeout": {{ "ms": 1, "do": [ {{ "log": "the frame's timer" }} ] }} }} ] }} ],
          "script": [
            {{ "registerTool": {{ "tool": {{ "name": "wait", "description": "d",
                "execute": {{ "result": {{ "after": {{ "ms": 1, "then": {{ "resolve": "done" }} }} }} }} }} }} }},
            {{ "newAbortController": "ac" }},
            {}, {}, {},
            {{ "then": {{ "promise": "call2", "onFulfilled": [ {{ "log": "call2 settled" }} ] }} }},
            {{ "setTimeout": {{ "ms": 1, "do": [ {{ "log": "a timer of the same deadline" }}, {{ "abort": {{ "controller": "ac" }} }} ] }} }}
        ] }} ] }}"#,
        call(1, r#", "options": { "signal": "ac" }"#),
        call(2, ""),
        call(3, "")
    )
}

#[test]
fn an_inert_executions_later_timer_keeps_the_outcome_set_and_replays() {
    let p = program(&calls_racing_timers_of_one_deadline());
    let facts = super::facts::InertFacts::of(&p);
    assert!(facts.plain("wait") && facts.executions_may_be_inert);
    let reduced = explore(&p, &ExploreOptions::default()).unwrap();
    let naive = explore(&p, &ExploreOptions::from(SearchOptions { reduce: false, ..Default::default() })).unwrap();
    assert!(reduced.complete && naive.complete);
    assert_eq!(sorted_summaries(&reduced), sorted_summaries(&naive));
    assert!(reduced.outcomes.len() > 1, "the abort and the log race the tools' timers");
    let faithful = explore(&p, &ExploreOptions { inert_tasks: false, ..ExploreOptions::default() }).unwrap();
    assert!(reduced.states < faithful.states, "{} states against {}", reduced.states, faithful.states);
    for class in &reduced.outcomes {
        let schedule = sched::Schedule::parse(&class.witness).unwrap();
        let mut chooser = sched::ReplayChooser::new(&schedule);
        let trace = crate::run(&p, &mut chooser, crate::run::Limits::default()).expect("the witness replays");
        assert_eq!(trace.outcome.canonical().summary(), class.summary);
        assert_eq!(chooser.remaining(), 0, "the witness {} is used up", class.witness);
    }
    let audit = crate::audit::audit_independence(&p, 100_000, 5_000).unwrap();
    assert!(audit.complete && audit.violations.is_empty(), "{:?}", audit.violations);
}
