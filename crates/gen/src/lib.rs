//! Generated scenarios for property testing webmcp-sim.
//!
//! - `plan` holds the proptest strategies (`plan::plan`, and `scenario_strategy` here): valid
//!   scenarios with 1–4 documents in 1–2 tabs, varied origins, `allow`, origin-keying, tools with
//!   valid and invalid names, schemas, annotations and `exposedTo`, and scripts that register,
//!   abort, get and execute tools, set timers, navigate, remove iframes and use the bfcache.
//! - `build` turns a plan into a `scenario::Scenario`; `jsonc` writes one as a short file.
//! - `check` runs a scenario under random and exhaustive schedules through `webmcp::invariants`
//!   and sorts what it sees into simulator bugs, spec findings and named reasons.
//! - `shrink` finds the smallest plan that still shows a bug or a finding (proptest's shrinking,
//!   driven by a `TestRunner` seeded per seed) and writes it with its replay command.
//! - `hostile` makes inputs for the scenario parser: arbitrary bytes, mutated scenarios, deep
//!   nesting, huge numbers.
//!
//! ```
//! use proptest::strategy::{Strategy, ValueTree};
//! let mut runner = proptest::test_runner::TestRunner::deterministic();
//! let scenario = gen::scenario_strategy(gen::GenConfig::default()).new_tree(&mut runner).unwrap().current();
//! assert!(scenario::validate(&scenario).is_empty());
//! ```

pub mod build;
pub mod check;
pub mod hostile;
pub mod jsonc;
pub mod plan;
pub mod shrink;
pub mod tree;

pub use build::build;
pub use check::{check_scenario, Bug, BugKind, CaseReport, CheckConfig, SpecFinding};
pub use plan::{plan, GenConfig, Plan};
pub use shrink::{generate, minimize, replay_command, write_case, Case};

use proptest::strategy::Strategy;

/// Valid scenarios, named `generated`.
pub fn scenario_strategy(config: GenConfig) -> impl Strategy<Value = scenario::Scenario> {
    plan::plan(config).prop_map(|p| build::build(&p, "generated"))
}
