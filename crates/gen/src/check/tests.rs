//! Tests of the scenario check: a clean scenario has no bugs, and a fault is reported as one.

use super::*;

fn scenario(text: &str) -> Scenario {
    scenario::parse_str("t.jsonc", text).expect("valid")
}

const SELF_CALL: &str = include_str!("../../../../fixtures/scenarios/self-call.jsonc");

#[test]
fn a_clean_scenario_has_no_bugs_and_is_explored() {
    let config = CheckConfig { naive_max_states: 10_000, ..CheckConfig::default() };
    let report = check_scenario(&scenario(SELF_CALL), &config, 0);
    assert!(report.bugs.is_empty(), "{:?}", report.bugs);
    assert!(report.findings.iter().any(|f| f.cite == "executeTool 15.10.1"), "{:?}", report.findings);
    assert_eq!(report.explored.map(|(complete, _, _)| complete), Some(true));
}

#[test]
fn a_fault_is_a_bug_with_its_schedule() {
    let config = CheckConfig { fault: Fault::KeepPendingExecutions, ..CheckConfig::default() };
    let report = check_scenario(&scenario(SELF_CALL), &config, 0);
    let bug = report.first_bug(Some(BugKind::Invariant(Invariant::PendingMaps))).expect("caught");
    assert!(bug.schedule.is_some());
}

#[test]
fn an_invalid_scenario_is_a_generator_bug() {
    let mut s = scenario(SELF_CALL);
    s.tabs[0].id = "bad id".into();
    let report = check_scenario(&s, &CheckConfig::default(), 0);
    assert_eq!(report.bugs[0].kind, BugKind::InvalidScenario);
}
