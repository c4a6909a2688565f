//! The property suite: every generated scenario, under random schedules and (bounded)
//! exhaustive exploration, holds every invariant of `webmcp::invariants`. A failure shrinks to a
//! minimal scenario, written under `target/tmp/gen-cases/` with its replay command; proptest
//! records its seed in `proptest-regressions/props.txt`.

use gen::{build, check_scenario, plan, CheckConfig, GenConfig};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Cases per `cargo test`: enough to exercise every generator branch, small enough to keep the
/// suite well under a minute in a debug build on two cores. `webmcp-sim fuzz` runs any number.
const CASES: u32 = 160;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_shrink_iters: 2_000,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("proptest-regressions/props.txt"))),
        ..ProptestConfig::default()
    }
}

fn check_config() -> CheckConfig {
    CheckConfig {
        schedules: 3,
        explore_max_states: 400,
        naive_max_states: 400,
        stateless_max_executions: 400,
        ..CheckConfig::default()
    }
}

proptest! {
    #![proptest_config(config(CASES))]

    #[test]
    fn generated_scenarios_hold_every_invariant(plan in plan(GenConfig::default()), seed in 0u64..1_000_000) {
        let scenario = build(&plan, "property");
        let report = check_scenario(&scenario, &check_config(), seed);
        if let Some(bug) = report.bugs.first() {
            prop_assert!(false, "{}", crate::describe("property-failure", &scenario, bug));
        }
    }
}

proptest! {
    #![proptest_config(config(CASES / 2))]

    #[test]
    fn four_documents_in_two_tabs_hold_every_invariant(
        plan in plan(GenConfig { max_docs: 4, max_statements: 3, ..GenConfig::default() }),
        seed in 0u64..1_000_000,
    ) {
        let scenario = build(&plan, "property-4");
        let config = CheckConfig { explore_max_states: 300, naive_max_states: 300, ..check_config() };
        let report = check_scenario(&scenario, &config, seed);
        if let Some(bug) = report.bugs.first() {
            prop_assert!(false, "{}", crate::describe("property-4-failure", &scenario, bug));
        }
    }
}
