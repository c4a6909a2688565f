//! What an outcome carries beyond the console and promises: a finding's call site, what the
//! browser's agent saw, and the per-document count of the events a `count` names.

use std::process::{Command, Output};

use crate::workspace_root;

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_webmcp-sim")).current_dir(workspace_root()).args(args).output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn summaries(text: &str) -> Vec<&str> {
    text.lines().filter_map(|l| l.trim().strip_prefix("summary: ")).collect()
}

#[test]
fn a_finding_names_its_call_site_in_the_trace_the_outcome_and_explore() {
    let file = "scenarios/races/cancel-after-target-destroyed.jsonc";
    let trace = stdout(&sim(&["replay", file, "--schedule", "par:el0.timer/2"]));
    assert!(
        trace.contains("it was destroyed (reached from executeTool 14.4.2)  [cancel a pending tool execution 5]"),
        "{trace}"
    );
    // The outcome names the known finding once, with its call site.
    assert!(
        trace.contains("known (finding 2): cancel a pending tool execution 5, from executeTool 14.4.2\n"),
        "{trace}"
    );
    let explored = stdout(&sim(&["explore", file]));
    assert!(explored.contains("findings=[cancel a pending tool execution 5 from executeTool 14.4.2]"), "{explored}");
    // The completion steps' assert, reached from the reaction to the tool's promise.
    let explored = stdout(&sim(&["explore", "scenarios/execute/success-json-string.jsonc"]));
    assert!(explored.contains("findings=[executeTool 15.10.1 from imperative execute steps 9.1.5]"), "{explored}");
}

#[test]
fn explore_tells_apart_schedules_where_the_agent_saw_different_tool_lists() {
    // The agent observes before or after the page registers; its call of an unobserved tool fails
    // either way, so only what it saw tells the two schedules apart.
    let text = stdout(&sim(&["explore", "scenarios/agent/call-unobserved-tool.jsonc"]));
    let summaries = summaries(&text);
    assert_eq!(summaries.len(), 2, "{text}");
    assert!(summaries.iter().any(|s| s.ends_with("agent=[observation of tab: tab=[] | call #1 failed]")), "{text}");
    assert!(
        summaries.iter().any(|s| s.ends_with("agent=[observation of tab: tab=[read_balance] | call #1 failed]")),
        "{text}"
    );
}

#[test]
fn count_says_how_many_times_an_event_fired_at_each_document() {
    let file = "scenarios/events/toolchange-once-per-document.jsonc";
    let text = stdout(&sim(&["explore", file]));
    assert!(text.contains(" events=[toolchange@parent=1, toolchange@child=1]"), "{text}");
    // A count that does not hold is a violation.
    let source = std::fs::read_to_string(workspace_root().join(file)).unwrap();
    let wrong = source.replace(
        r#"{ "count": { "event": "toolchange", "times": 1, "document": "child" } }"#,
        r#"{ "count": { "event": "toolchange", "times": 2, "document": "child" } }"#,
    );
    assert_ne!(wrong, source);
    let dir = std::env::temp_dir().join(format!("webmcp-sim-count-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("count.jsonc"), wrong).unwrap();
    let out = sim(&["check", dir.to_str().unwrap()]);
    let text = stdout(&out);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(r#"always {"count":{"event":"toolchange","times":2,"document":"child"}} is violated"#),
        "{text}"
    );
    // A scenario that counts no event has no events in its outcomes.
    let text = stdout(&sim(&["explore", "scenarios/spec/notify-task-ordering.jsonc"]));
    assert!(!text.contains("events=["), "{text}");
}

#[test]
fn unknown_algorithms_and_events_in_expect_are_exit_2_with_a_location() {
    let out = sim(&["run", "fixtures/scenario-errors/unknown-algorithm-and-event-in-expect.jsonc"]);
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains(":15:36: expect.never[0].finding.at: unknown algorithm in \"exectueTool 15.10.1\""),
        "{text}"
    );
    assert!(text.contains("did you mean \"executeTool\"?"), "{text}");
    assert!(text.contains(":16:38: expect.always[0].count.event: unknown event \"toolchang\" to count"), "{text}");
}
