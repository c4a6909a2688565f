//! Checks one scenario the way the property suite and `webmcp-sim fuzz` do: the file round trip,
//! then runs under seeded random schedules and, when small, exhaustive exploration, each through
//! `webmcp::invariants`. Violations are simulator bugs; failed spec asserts are findings, kept
//! apart; pending promises with a named reason and leaked map entries are counted.

use std::collections::{BTreeMap, BTreeSet};

use scenario::Scenario;
use webmcp::invariants::{self, Fault, Invariant, Leak, PendingReason};
use webmcp::{ExploreOptions, Limits, SearchKind, SearchOptions};

/// How hard to check a scenario.
#[derive(Clone, Copy, Debug)]
pub struct CheckConfig {
    /// Random schedules per scenario (seeds `seed * schedules ..`).
    pub schedules: u64,
    pub limits: Limits,
    /// Explore every schedule, up to this many choice points (0: do not explore).
    pub explore_max_states: u64,
    /// Also explore without reduction, up to this many choice points, and compare the outcome
    /// sets when both searches complete (0: do not).
    pub naive_max_states: u64,
    /// Also explore with the stateless search (optimal DPOR, every schedule run from the start),
    /// up to this many executions, and compare the outcome sets when both searches complete
    /// (0: do not).
    pub stateless_max_executions: u64,
    /// A deliberate engine bug (tests of the checks only).
    pub fault: Fault,
}

impl Default for CheckConfig {
    fn default() -> CheckConfig {
        CheckConfig {
            schedules: 4,
            limits: Limits::default(),
            explore_max_states: 2_000,
            naive_max_states: 0,
            stateless_max_executions: 0,
            fault: Fault::None,
        }
    }
}

/// What kind of bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BugKind {
    /// A `webmcp::invariants` invariant does not hold.
    Invariant(Invariant),
    /// The generator made a scenario that does not validate.
    InvalidScenario,
    /// The scenario's `.jsonc` text does not read back equal.
    FileRoundTrip,
    /// The scenario does not compile.
    Compile,
}

impl BugKind {
    pub fn name(self) -> String {
        match self {
            BugKind::Invariant(i) => i.name().to_string(),
            BugKind::InvalidScenario => "generator-invalid-scenario".into(),
            BugKind::FileRoundTrip => "jsonc-round-trip".into(),
            BugKind::Compile => "compile".into(),
        }
    }
}

/// A simulator (or generator) bug, with the schedule that shows it when a run does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bug {
    pub kind: BugKind,
    pub message: String,
    pub schedule: Option<String>,
}

/// A failed spec `Assert:`, with a schedule that reaches it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecFinding {
    /// `algorithm step`.
    pub cite: String,
    pub message: String,
    pub schedule: String,
}

/// Everything one scenario's check saw.
#[derive(Clone, Debug, Default)]
pub struct CaseReport {
    pub bugs: Vec<Bug>,
    /// Distinct findings (by cite and message), each with the first schedule that showed it.
    pub findings: Vec<SpecFinding>,
    /// `executeTool` promises pending at quiescence, by reason, over all runs.
    pub pending: BTreeMap<PendingReason, u64>,
    /// Leaked pending-map entries, each with a schedule that shows it.
    pub leaks: Vec<(Leak, String)>,
    /// Checked runs (seeded runs and witness replays).
    pub runs: u64,
    /// The exploration's result: complete, choice points, outcomes.
    pub explored: Option<(bool, u64, usize)>,
    /// The stateless search completed too and its outcome set was compared with the stateful
    /// search's.
    pub stateless_compared: bool,
}

impl CaseReport {
    fn bug(&mut self, kind: BugKind, message: String, schedule: Option<String>) {
        self.bugs.push(Bug { kind, message, schedule });
    }

    fn finding(&mut self, cite: String, message: String, schedule: &str) {
        if !self.findings.iter().any(|f| f.cite == cite && f.message == message) {
            self.findings.push(SpecFinding { cite, message, schedule: schedule.to_string() });
        }
    }

    fn checked(&mut self, checked: &invariants::Checked) {
        for v in &checked.violations {
            self.bug(BugKind::Invariant(v.invariant), v.to_string(), Some(checked.schedule.to_string()));
        }
        self.observed(checked);
    }

    /// Findings, named reasons and leaks of a run.
    fn observed(&mut self, checked: &invariants::Checked) {
        let schedule = checked.schedule.to_string();
        self.runs += 1;
        for f in &checked.trace.outcome.findings {
            self.finding(f.cite.to_string(), f.message.clone(), &schedule);
        }
        for p in &checked.pending {
            *self.pending.entry(p.reason).or_default() += 1;
        }
        for l in &checked.leaks {
            if !self.leaks.iter().any(|(k, _)| k.role == l.role) {
                self.leaks.push((l.clone(), schedule.clone()));
            }
        }
    }

    /// The first bug of `kind`, or of any kind.
    pub fn first_bug(&self, kind: Option<BugKind>) -> Option<&Bug> {
        self.bugs.iter().find(|b| kind.is_none_or(|k| b.kind == k))
    }
}

/// Checks `scenario` under `config`; `seed` picks its random schedules.
pub fn check_scenario(scenario: &Scenario, config: &CheckConfig, seed: u64) -> CaseReport {
    let mut report = CaseReport::default();
    let problems = scenario::validate(scenario);
    if !problems.is_empty() {
        let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        report.bug(BugKind::InvalidScenario, text.join("; "), None);
        return report;
    }
    let text = crate::jsonc::to_jsonc(scenario, &[]);
    match scenario::parse_str("generated.jsonc", &text) {
        Ok(back) if back == *scenario => {}
        Ok(_) => report.bug(BugKind::FileRoundTrip, "the .jsonc text reads back as a different scenario".into(), None),
        Err(d) => {
            let text: Vec<String> = d.iter().map(|d| d.to_string()).collect();
            report.bug(
                BugKind::FileRoundTrip,
                format!("the .jsonc text does not read back: {}", text.join("; ")),
                None,
            );
        }
    }
    let program = match webmcp::compile(scenario) {
        Ok(p) => p,
        Err(e) => {
            report.bug(BugKind::Compile, e, None);
            return report;
        }
    };
    let mut run_outcomes = BTreeMap::new();
    for k in 0..config.schedules {
        let run_seed = seed.wrapping_mul(config.schedules.max(1)).wrapping_add(k);
        match invariants::check_seed(&program, run_seed, config.limits, config.fault) {
            Ok(checked) => {
                if !checked.stopped {
                    run_outcomes.insert(outcome_key(&checked.trace.outcome), checked.schedule.to_string());
                }
                report.checked(&checked);
            }
            Err(v) => report.bug(BugKind::Invariant(v.invariant), v.to_string(), None),
        }
    }
    if config.explore_max_states > 0 && config.fault == Fault::None {
        explore(&program, config, &run_outcomes, &mut report);
    }
    report
}

fn outcome_key(outcome: &trace::Outcome) -> String {
    serde_json::to_string(&outcome.canonical()).unwrap_or_default()
}

/// Exhaustive exploration, bounded: every outcome's witness replays with the checks on and
/// reaches that outcome; units taken to commute do commute (`webmcp::audit`); when the search
/// completes, every random run's outcome is among the outcomes found, and the reduced search
/// finds what the naive one does.
fn explore(
    program: &webmcp::Program,
    config: &CheckConfig,
    run_outcomes: &BTreeMap<String, String>,
    report: &mut CaseReport,
) {
    let options = ExploreOptions::from(SearchOptions {
        max_states: config.explore_max_states,
        max_units: config.limits.max_units,
        split_depth: 0,
        jobs: 1,
        ..SearchOptions::default()
    });
    let exploration = match invariants::guarded(|| webmcp::explore(program, &options)) {
        Ok(ex) => ex,
        Err(v) => {
            report.bug(BugKind::Invariant(Invariant::Exploration), format!("explore: {v}"), None);
            return;
        }
    };
    report.explored = Some((exploration.complete, exploration.states, exploration.outcomes.len()));
    for class in &exploration.outcomes {
        for f in &class.outcome.findings {
            report.finding(f.cite.to_string(), f.message.clone(), &class.witness);
        }
    }
    for run in invariants::check_witnesses(program, &exploration, config.limits) {
        for v in &run.violations {
            report.bug(BugKind::Invariant(v.invariant), v.to_string(), Some(run.witness.clone()));
        }
        if let Some(checked) = &run.checked {
            report.observed(checked);
        }
    }
    // The independence relation the reduction relies on, at every choice point (webmcp::audit).
    let audit = invariants::guarded(|| {
        webmcp::audit::audit_independence(program, config.explore_max_states, config.limits.max_units)
    });
    match audit {
        Ok(audit) => {
            for v in audit.violations.iter().take(3) {
                report.bug(BugKind::Invariant(Invariant::Exploration), v.to_string(), Some(v.schedule.clone()));
            }
        }
        Err(v) => report.bug(BugKind::Invariant(Invariant::Exploration), format!("independence audit: {v}"), None),
    }
    if !exploration.complete {
        return;
    }
    let explored: BTreeSet<String> = exploration.outcomes.iter().map(|c| outcome_key(&c.outcome)).collect();
    for (missing, schedule) in run_outcomes.iter().filter(|(k, _)| !explored.contains(*k)) {
        let msg = format!("a random run reached an outcome the complete exploration did not find: {missing}");
        report.bug(BugKind::Invariant(Invariant::Exploration), msg, Some(schedule.clone()));
    }
    compare_stateless(program, config, &options, &explored, report);
    if config.naive_max_states == 0 {
        return;
    }
    // The naive search meets every schedule, so its shortest witnesses have the fewest choices.
    let naive_options = ExploreOptions {
        search: SearchOptions { reduce: false, max_states: config.naive_max_states, ..options.search.clone() },
        shortest_witnesses: false,
        ..options
    };
    if let Ok(naive) = invariants::guarded(|| webmcp::explore(program, &naive_options)) {
        let naive_set: BTreeSet<String> = naive.outcomes.iter().map(|c| outcome_key(&c.outcome)).collect();
        if naive.complete && naive_set != explored {
            let lost = naive_set.difference(&explored).count();
            let extra = explored.difference(&naive_set).count();
            let msg = format!("state caching and sleep sets change the outcome set: {lost} lost, {extra} extra");
            report.bug(BugKind::Invariant(Invariant::Exploration), msg, None);
        } else if naive.complete && exploration.witnesses == trace::WITNESSES_FEWEST {
            let fewest: BTreeMap<String, usize> =
                naive.outcomes.iter().map(|c| (outcome_key(&c.outcome), c.witness_choices)).collect();
            for class in &exploration.outcomes {
                // (The outcome sets are equal here.)
                let Some(&naive_choices) = fewest.get(&outcome_key(&class.outcome)) else { continue };
                if class.witness_choices != naive_choices {
                    let msg = format!(
                        "a fewest-choice witness has {} choices, the naive search's shortest {naive_choices}",
                        class.witness_choices
                    );
                    report.bug(BugKind::Invariant(Invariant::Exploration), msg, Some(class.witness.clone()));
                }
            }
        }
    }
}

/// The stateless search (`explore::stateless`: optimal DPOR, each schedule run from the start)
/// against the stateful one's complete outcome set `explored`: when it completes too, the two
/// sets must be equal (docs/model.md, "Stateless exploration").
fn compare_stateless(
    program: &webmcp::Program,
    config: &CheckConfig,
    stateful: &ExploreOptions,
    explored: &BTreeSet<String>,
    report: &mut CaseReport,
) {
    if config.stateless_max_executions == 0 {
        return;
    }
    let options = ExploreOptions {
        search: SearchOptions { max_executions: config.stateless_max_executions, ..stateful.search.clone() },
        kind: SearchKind::Stateless,
        kind_given: true,
        shortest_witnesses: false,
        ..stateful.clone()
    };
    let explored_stateless = invariants::guarded(|| webmcp::explore(program, &options));
    // Worker threads running executions ahead (every branch they can) change nothing in the
    // report (`explore::stateless`).
    if let Ok(one) = &explored_stateless {
        let mut threads = options.clone();
        threads.search.jobs = 2;
        threads.search.always_run_ahead = true;
        match invariants::guarded(|| webmcp::explore(program, &threads)) {
            Ok(two) if &two == one => {}
            Ok(_) => report.bug(
                BugKind::Invariant(Invariant::Exploration),
                "the stateless search with a worker thread running executions ahead gave a different report than with one thread".into(),
                None,
            ),
            Err(v) => report.bug(BugKind::Invariant(Invariant::Exploration), format!("stateless explore, 2 threads: {v}"), None),
        }
    }
    match explored_stateless {
        Ok(stateless) if stateless.complete => {
            report.stateless_compared = true;
            let found: BTreeSet<String> = stateless.outcomes.iter().map(|c| outcome_key(&c.outcome)).collect();
            if &found != explored {
                let lost = explored.difference(&found).count();
                let extra = found.difference(explored).count();
                let msg = format!(
                    "the stateless search (optimal DPOR) and the stateful search find different outcome sets: {lost} of the stateful search's outcomes not found, {extra} outcomes it did not find"
                );
                // A witness of an outcome the stateless search found and the stateful did not.
                let witness = stateless
                    .outcomes
                    .iter()
                    .find(|c| !explored.contains(&outcome_key(&c.outcome)))
                    .map(|c| c.witness.clone());
                report.bug(BugKind::Invariant(Invariant::Exploration), msg, witness);
            }
        }
        // Cut by its bound: nothing to compare.
        Ok(_) => {}
        Err(v) => report.bug(BugKind::Invariant(Invariant::Exploration), format!("stateless explore: {v}"), None),
    }
}

#[cfg(test)]
mod tests;
