//! Traces for people: one run as Markdown (for a spec issue) or Chrome trace-event JSON (for
//! Perfetto), and the self-contained HTML report of a scenario's distinct outcomes, grouped from
//! seeded runs or from an exploration.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::Path;

use sched::{RandomChooser, ReplayChooser, Schedule};
use trace::render::{About, OutcomeGroup};
use trace::Trace;
use webmcp::{Limits, Program, RunError};

use crate::Driver;

/// How the error of a replayed schedule with choices left over ends.
pub const UNUSED_CHOICES: &str = "the schedule is not from this scenario";

/// The exit code of a run that failed: 2 for bad input (a replayed schedule that does not fit
/// the scenario: a choice that is not runnable, too few choices, or choices left over; like a
/// schedule that does not parse or a scenario that does not load), 1 otherwise (a step the
/// simulator does not model, or a scenario the run finds impossible).
pub fn run_exit_code(error: &RunError, driver: &Driver) -> u8 {
    match (driver, error) {
        (_, RunError::Choose(sched::ChooseError::TimeLimit { .. })) => 1,
        (Driver::Replay(_), RunError::Choose(_)) => 2,
        (Driver::Replay(_), RunError::Scenario(m)) if m.ends_with(UNUSED_CHOICES) => 2,
        _ => 1,
    }
}

/// Runs a program once: with a seeded chooser, or replaying a schedule, every choice of which
/// must be used.
pub fn run_trace(program: &Program, driver: &Driver, max_units: usize) -> Result<Trace, RunError> {
    run_trace_until(program, driver, max_units, None)
}

/// A chooser that fails once its deadline has passed (`run --time-limit`). A run asks its
/// chooser at every choice point, so the limit is checked there (a stretch without choices is
/// bounded by `--max-units`).
struct Deadline<'c> {
    inner: &'c mut dyn sched::Chooser,
    deadline: Option<(std::time::Instant, std::time::Duration)>,
    choices: usize,
}

impl sched::Chooser for Deadline<'_> {
    fn choose(&mut self, runnable: &[sched::Lane]) -> Result<usize, sched::ChooseError> {
        self.choices += 1;
        if let Some((start, limit)) = self.deadline {
            if start.elapsed() >= limit {
                let micros = u64::try_from(limit.as_micros()).unwrap_or(u64::MAX);
                return Err(sched::ChooseError::TimeLimit { choice: self.choices, micros });
            }
        }
        self.inner.choose(runnable)
    }
}

/// [`run_trace`] with a wall-clock limit: a run still choosing when it passes is an error that
/// says so (a run that did not finish is never printed as if it had).
pub fn run_trace_until(
    program: &Program,
    driver: &Driver,
    max_units: usize,
    time_limit: Option<std::time::Duration>,
) -> Result<Trace, RunError> {
    let deadline = time_limit.map(|limit| (std::time::Instant::now(), limit));
    let run = |inner: &mut dyn sched::Chooser| {
        webmcp::run(program, &mut Deadline { inner, deadline, choices: 0 }, Limits { max_units })
    };
    match driver {
        Driver::Seed(seed) => run(&mut RandomChooser::new(*seed)),
        Driver::Prefix(prefix) => {
            let mut chooser = crate::prefix::PrefixChooser::new(prefix);
            let trace = run(&mut chooser)?;
            unused(chooser.remaining(), "prefix choice(s) unused: the schedule is not from this scenario")?;
            Ok(trace)
        }
        Driver::Replay(schedule) => {
            let mut chooser = ReplayChooser::new(schedule);
            let trace = run(&mut chooser)?;
            unused(chooser.remaining(), &format!("schedule choice(s) unused: {UNUSED_CHOICES}"))?;
            Ok(trace)
        }
    }
}

/// The error of a replayed or prefixed run that left `remaining` choices unused.
fn unused(remaining: usize, what: &str) -> Result<(), RunError> {
    if remaining > 0 {
        return Err(RunError::Scenario(format!("the run finished with {remaining} {what}")));
    }
    Ok(())
}

/// The formats of one run that are for people or their tools rather than for snapshots.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum View {
    /// GitHub-flavoured Markdown with a Mermaid sequence diagram (`trace::markdown`).
    Markdown,
    /// Chrome trace-event JSON for the Perfetto UI and chrome://tracing (`trace::perfetto`).
    Perfetto,
}

/// Renders one run of the scenario at `path`.
pub fn render_run(trace: &Trace, view: View, path: &Path, description: &str, driver: &Driver) -> String {
    render_run_with(trace, view, path, "", description, driver)
}

/// [`render_run`] of a loaded scenario: its replay command carries the command line's flags and
/// the Markdown shows the scenario's source.
pub fn render_loaded_run(trace: &Trace, view: View, path: &Path, loaded: &crate::Loaded, driver: &Driver) -> String {
    match view {
        View::Markdown => {
            let about = About {
                path: &path.display().to_string(),
                description: &loaded.scenario.description,
                runs: &runs_of(driver),
                counted: "",
                flags: &loaded.flags,
                source: &loaded.source,
                verdicts: &[],
            };
            trace::markdown::render_markdown(trace, &about)
        }
        View::Perfetto => trace::perfetto::render_perfetto(trace),
    }
}

/// How a run was made, for its Markdown header.
fn runs_of(driver: &Driver) -> String {
    match driver {
        Driver::Seed(seed) => format!("seed {seed}"),
        Driver::Replay(_) => "replayed schedule".to_string(),
        Driver::Prefix(_) => format!("replayed schedule prefix, completed by the default: {}", crate::prefix::DEFAULT),
    }
}

/// [`render_run`] whose replay command carries `flags` (see `trace::render::About::flags`).
pub fn render_run_with(
    trace: &Trace,
    view: View,
    path: &Path,
    flags: &str,
    description: &str,
    driver: &Driver,
) -> String {
    match view {
        View::Markdown => {
            let path = path.display().to_string();
            let runs = runs_of(driver);
            trace::markdown::render_markdown(
                trace,
                &About { path: &path, description, runs: &runs, counted: "", flags, ..About::default() },
            )
        }
        View::Perfetto => trace::perfetto::render_perfetto(trace),
    }
}

/// A run that failed while grouping outcomes.
#[derive(Debug)]
pub struct GroupError {
    pub seed: u64,
    pub error: RunError,
}

impl fmt::Display for GroupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seed {}: {}", self.seed, self.error)
    }
}

/// Runs `program` once per seed and groups the runs by identical outcome, keeping the first
/// seed's trace as each outcome's witness. Most frequent outcome first; ties in the order found.
///
/// Outcomes are compared in their canonical form (`trace::Outcome::canonical`: findings without
/// unit numbers), exactly as `explore` compares them, so both count the same distinct outcomes.
pub fn outcomes_by_seed(
    program: &Program,
    seeds: Range<u64>,
    max_units: usize,
) -> Result<Vec<OutcomeGroup>, GroupError> {
    outcomes_by_seed_until(program, seeds, max_units, None)
}

/// [`outcomes_by_seed`], stopped by Ctrl-C or when `time_limit` has passed (checked before each
/// run): the groups of the seeds run so far; the caller says the range was cut (the groups'
/// counts add up to the runs done).
pub fn outcomes_by_seed_until(
    program: &Program,
    seeds: Range<u64>,
    max_units: usize,
    time_limit: Option<std::time::Duration>,
) -> Result<Vec<OutcomeGroup>, GroupError> {
    let start = std::time::Instant::now();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut groups: Vec<OutcomeGroup> = Vec::new();
    for seed in seeds {
        if crate::interrupted() || time_limit.is_some_and(|limit| start.elapsed() >= limit) {
            break;
        }
        let trace = run_trace(program, &Driver::Seed(seed), max_units).map_err(|error| GroupError { seed, error })?;
        let key = serde_json::to_string(&trace.outcome.canonical()).unwrap_or_default();
        match index.get(&key) {
            Some(&i) => groups[i].count += 1,
            None => {
                index.insert(key, groups.len());
                groups.push(OutcomeGroup { count: 1, found_by: format!("seed {seed}"), witness: trace });
            }
        }
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.count));
    Ok(groups)
}

/// The outcome groups of an exploration: each outcome's shortest witness schedule replayed into a
/// trace, counted by the end states that reached it. Order as explored.
pub fn exploration_groups(
    program: &Program,
    exploration: &trace::Exploration,
    max_units: usize,
) -> Result<Vec<OutcomeGroup>, String> {
    exploration
        .outcomes
        .iter()
        .map(|class| {
            let schedule = Schedule::parse(&class.witness).map_err(|e| format!("witness {:?}: {e}", class.witness))?;
            let witness = run_trace(program, &Driver::Replay(schedule), max_units)
                .map_err(|e| format!("witness {:?}: {e}", class.witness))?;
            let choices = match class.witness_choices {
                1 => "1 choice".to_string(),
                n => format!("{n} choices"),
            };
            let found_by = format!("shortest schedule found ({choices})");
            Ok(OutcomeGroup { count: class.end_states, found_by, witness })
        })
        .collect()
}

/// Explores every schedule of `program` with the default bounds and returns its outcome groups
/// (see [`exploration_groups`]) and a line saying how complete the search was.
pub fn explored_groups(program: &Program) -> Result<(Vec<OutcomeGroup>, String), String> {
    explored_groups_with(program, &webmcp::ExploreOptions::default())
}

/// [`explored_groups`] with other bounds (`report --max-states`, `--time-limit`).
pub fn explored_groups_with(
    program: &Program,
    options: &webmcp::ExploreOptions,
) -> Result<(Vec<OutcomeGroup>, String), String> {
    let exploration = webmcp::explore(program, options).map_err(|e| e.to_string())?;
    let groups = exploration_groups(program, &exploration, webmcp::ExploreOptions::default().search.max_units)?;
    let how = if exploration.complete {
        "exhaustive exploration (complete)".to_string()
    } else {
        format!("exploration, incomplete: {}", exploration.bounds_hit.join(", "))
    };
    Ok((groups, how))
}

/// The Markdown of an exploration, for `explore --format markdown`: the outcome table, then each
/// outcome's witness (replayed from its shortest schedule) with its diagram and replay command.
pub fn render_exploration_markdown(
    program: &Program,
    exploration: &trace::Exploration,
    path: &Path,
    description: &str,
) -> Result<String, String> {
    render_exploration_markdown_with(program, exploration, path, "", description)
}

/// [`render_exploration_markdown`] whose replay commands carry `flags`.
pub fn render_exploration_markdown_with(
    program: &Program,
    exploration: &trace::Exploration,
    path: &Path,
    flags: &str,
    description: &str,
) -> Result<String, String> {
    let groups = exploration_groups(program, exploration, webmcp::ExploreOptions::default().search.max_units)?;
    let runs = if exploration.complete {
        "exhaustive exploration (complete)".to_string()
    } else {
        format!("exploration, incomplete: {}", exploration.bounds_hit.join(", "))
    };
    let path = path.display().to_string();
    let about = About { path: &path, description, runs: &runs, counted: "end states", flags, ..About::default() };
    Ok(trace::markdown::render_markdown_outcomes(&groups, &about))
}

/// The Markdown of an exploration for a spec issue (`explore`, `check` and `report` with
/// `--format markdown`): the scenario's source, its expectations' verdicts, the outcome table, and
/// the diagram and trace of each outcome `show` asks for (outcome numbers from 1; empty: those
/// that violate an expectation or show a finding `known` does not know, else none: the table is
/// the answer).
pub fn render_exploration_issue(
    loaded: &crate::Loaded,
    exploration: &trace::Exploration,
    path: &Path,
    verdicts: &[webmcp::expect::Verdict],
    show: &[usize],
    known: &trace::known::Known,
) -> Result<String, String> {
    let program = &loaded.program;
    let groups = exploration_groups(program, exploration, webmcp::ExploreOptions::default().search.max_units)?;
    let runs = if exploration.complete {
        "exhaustive exploration (complete)".to_string()
    } else {
        format!("exploration, incomplete: {}", exploration.bounds_hit.join(", "))
    };
    let (lines, violating) = verdict_lines(verdicts, exploration);
    let asked: Vec<usize> = if show.is_empty() {
        let mut list = violating;
        list.extend(
            exploration
                .outcomes
                .iter()
                .enumerate()
                .filter(|(_, c)| !known.new_findings(&c.outcome.findings).is_empty())
                .map(|(i, _)| i),
        );
        list.sort_unstable();
        list.dedup();
        list
    } else {
        if let Some(n) = show.iter().find(|&&n| n == 0 || n > groups.len()) {
            return Err(format!("--outcome {n}: the exploration has outcomes 1 to {}", groups.len()));
        }
        show.iter().map(|n| n - 1).collect()
    };
    let path = path.display().to_string();
    let about = About {
        path: &path,
        description: &loaded.scenario.description,
        runs: &runs,
        counted: "end states",
        flags: &loaded.flags,
        source: &loaded.source,
        verdicts: &lines,
    };
    Ok(trace::markdown::render_markdown_selected(&groups, &about, Some(&asked)))
}

/// Each verdict as a line for the Markdown, and the outcomes (indices into
/// `exploration.outcomes`) whose witness shows a violation.
pub fn verdict_lines(
    verdicts: &[webmcp::expect::Verdict],
    exploration: &trace::Exploration,
) -> (Vec<String>, Vec<usize>) {
    let mut violating = Vec::new();
    let lines = verdicts
        .iter()
        .map(|v| match &v.status {
            webmcp::expect::Status::Holds => format!("holds: {}", v.expectation),
            webmcp::expect::Status::Unknown => format!("unknown (the search hit a bound): {}", v.expectation),
            webmcp::expect::Status::Violated { reason, witness } => {
                let at = exploration.outcomes.iter().position(|c| !witness.is_empty() && &c.witness == witness);
                match at {
                    Some(i) => {
                        violating.push(i);
                        format!("VIOLATED: {}: {reason} (outcome {})", v.expectation, i + 1)
                    }
                    None => format!("VIOLATED: {}: {reason}", v.expectation),
                }
            }
        })
        .collect();
    (lines, violating)
}

/// How an HTML report's outcomes were found, and so what their counts count.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Counted {
    /// Seeded runs: a count is a number of runs.
    Runs,
    /// An exploration: a count is a number of end states.
    EndStates,
}

/// The self-contained HTML report of a scenario's outcome groups; `runs` says how the runs were
/// made (e.g. `seeds 0..200`).
pub fn render_report(groups: &[OutcomeGroup], path: &Path, description: &str, runs: &str, counted: Counted) -> String {
    render_report_with(groups, path, "", description, runs, counted)
}

/// [`render_report`] whose replay commands carry `flags`.
pub fn render_report_with(
    groups: &[OutcomeGroup],
    path: &Path,
    flags: &str,
    description: &str,
    runs: &str,
    counted: Counted,
) -> String {
    let path = path.display().to_string();
    let counted = match counted {
        Counted::Runs => "runs",
        Counted::EndStates => "end states",
    };
    trace::html::render_report(groups, &About { path: &path, description, runs, counted, flags, ..About::default() })
}

/// Reads `--seeds A..B` (B excluded, A < B).
pub fn parse_seeds(text: &str) -> Result<Range<u64>, String> {
    let bad = || format!("--seeds {text:?}: write a range like 0..200");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b): (u64, u64) = (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
    if a >= b {
        return Err(bad());
    }
    Ok(a..b)
}
