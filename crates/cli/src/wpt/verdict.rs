//! From an exploration of a WPT page to a verdict per subtest: each explored outcome's harness
//! results (the console line our `testharness.js` writes), then, per subtest, what every
//! schedule says.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The console line our harness writes its results on.
pub const MARK: &str = "webmcp-sim:wpt-results ";

/// The harness's results of one run, as `testharness.js` reports them.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Results {
    pub status: String,
    pub message: Option<String>,
    #[serde(default)]
    pub allow_uncaught_exception: bool,
    pub tests: Vec<SubtestResult>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct SubtestResult {
    pub name: String,
    pub status: String,
    pub message: Option<String>,
}

/// A subtest's (or the harness's) verdict over every explored schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE")]
pub enum Verdict {
    Pass,
    Fail,
    ScheduleDependent,
    Timeout,
    Notrun,
    PreconditionFailed,
    Error,
    Unsupported,
    Incomplete,
    /// The harness's own status on every schedule: OK.
    Ok,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::ScheduleDependent => "SCHEDULE-DEPENDENT",
            Verdict::Timeout => "TIMEOUT",
            Verdict::Notrun => "NOTRUN",
            Verdict::PreconditionFailed => "PRECONDITION_FAILED",
            Verdict::Error => "ERROR",
            Verdict::Unsupported => "UNSUPPORTED",
            Verdict::Incomplete => "INCOMPLETE",
            Verdict::Ok => "OK",
        }
    }

    /// Every verdict, in the order the summary lists them.
    pub const ALL: [Verdict; 10] = [
        Verdict::Pass,
        Verdict::Fail,
        Verdict::ScheduleDependent,
        Verdict::Timeout,
        Verdict::Notrun,
        Verdict::PreconditionFailed,
        Verdict::Error,
        Verdict::Unsupported,
        Verdict::Incomplete,
        Verdict::Ok,
    ];
}

/// What one explored outcome said of a subtest (or the harness): its status and message, and
/// the outcome's witness.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Observed {
    pub status: String,
    pub message: Option<String>,
    /// A schedule reaching it (`webmcp-sim replay FILE --schedule S`).
    pub schedule: String,
    pub choices: usize,
}

/// A subtest's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SubtestVerdict {
    pub name: String,
    pub verdict: Verdict,
    /// FAIL, TIMEOUT, …: the message of the witness with the fewest choices; SCHEDULE-DEPENDENT: the first
    /// status that differs from the first witness's and its message; UNSUPPORTED: the member.
    pub message: Option<String>,
    /// One witness per distinct (status, message), in status order (PASS first): the schedule
    /// with the fewest choices among those the search met.
    pub witnesses: Vec<Observed>,
    /// SCHEDULE-DEPENDENT: where the first two witnesses part ([`race`]), for a reviewer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub race: Option<String>,
}

/// Where two witness schedules of one page part: the first unit the two runs take differently,
/// each with the spec algorithm and step it runs and the lanes that were runnable there. Both
/// units were runnable at that choice, so nothing the spec (as modelled) says ordered them: the
/// subtest's result depends on that order (or on one that follows from it).
pub fn race(program: &webmcp::Program, first: &Observed, second: &Observed) -> Option<String> {
    let trace = |o: &Observed| {
        let schedule = sched::Schedule::parse(&o.schedule).ok()?;
        webmcp::run(program, &mut sched::ReplayChooser::new(&schedule), webmcp::Limits::default()).ok()
    };
    let (a, b) = (trace(first)?, trace(second)?);
    let (i, (ua, ub)) =
        a.units.iter().zip(&b.units).enumerate().find(|(_, (x, y))| x.lane != y.lane || x.what != y.what)?;
    let unit = |u: &trace::Unit| format!("`{}` [{}] on {}", u.what, u.cite, u.lane);
    let among = if ua.choice_among.is_empty() {
        String::new()
    } else {
        format!("; runnable there: {}", ua.choice_among.join(", "))
    };
    Some(format!(
        "the two schedules part at unit #{i:03} (t={} ms): the {} schedule runs {}, the {} schedule runs {}{among}. Both were runnable at that choice, so the spec's steps (as modelled) leave their order open, and the subtest's result follows from it.",
        ua.time,
        first.status,
        unit(ua),
        second.status,
        unit(ub)
    ))
}

/// Every explored outcome's results, in the exploration's order, with its schedule.
pub struct Explored {
    pub runs: Vec<(Results, String, usize)>,
    pub complete: bool,
    /// Why the search is incomplete.
    pub bounds_hit: Vec<String>,
}

/// The results an outcome holds: the harness's line (from the test page's document), with an
/// uncaught exception turned into a harness ERROR as testharness.js's error handler would
/// (unless `allow_uncaught_exception`). An outcome without the line: a harness ERROR saying why.
pub fn results_of(outcome: &trace::Outcome) -> Results {
    // Only the test page's own document (navigable `test`) reports; a resource document that
    // loads the harness does not (`page::resource_script`), and a line it logged is not read.
    let line = outcome.console.iter().rev().filter(|c| c.document == "test").find_map(|c| c.text.strip_prefix(MARK));
    let mut results = match line.map(serde_json::from_str::<Results>) {
        Some(Ok(results)) => results,
        Some(Err(e)) => Results {
            status: "ERROR".into(),
            message: Some(format!("the harness's results did not read: {e}")),
            allow_uncaught_exception: false,
            tests: Vec::new(),
        },
        None => Results {
            status: "ERROR".into(),
            message: Some(format!("the harness never completed (the run ended: {})", outcome.end)),
            allow_uncaught_exception: false,
            tests: Vec::new(),
        },
    };
    if !results.allow_uncaught_exception {
        if let Some(first) = outcome.uncaught.first() {
            if results.status == "OK" || line.is_none() {
                results.status = "ERROR".into();
                results.message = Some(first.text.clone());
            }
        }
    }
    results
}

/// The member a message says is not modelled (`ModelContext.addEventListener`), or the global a
/// ReferenceError says is not defined.
pub fn unsupported_member(message: &str) -> Option<String> {
    if let Some(end) = message.find(" is not modelled by webmcp-sim") {
        let start = message[..end].rfind(|c: char| c.is_whitespace() || c == '"' || c == '(').map_or(0, |i| i + 1);
        return Some(message[start..end].to_string());
    }
    // QuickJS: `'ToolActivatedEvent' is not defined`; V8-style without quotes too.
    let end = message.find(" is not defined")?;
    let name = message[..end].trim_end_matches('\'');
    let start = name.rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).map_or(0, |i| i + 1);
    let name = &name[start..];
    (!name.is_empty()).then(|| format!("Window.{name} (not defined)"))
}

/// Orders statuses as the verdicts list them: PASS first.
fn status_rank(status: &str) -> u8 {
    match status {
        "PASS" | "OK" => 0,
        "FAIL" | "ERROR" => 1,
        "TIMEOUT" => 2,
        "NOTRUN" => 3,
        "PRECONDITION_FAILED" => 4,
        _ => 5,
    }
}

/// Groups what every outcome said into one verdict.
fn decide(name: &str, observed: Vec<Observed>, complete: bool, harness: bool) -> SubtestVerdict {
    // One witness per distinct (status, message): the fewest choices met, then the least schedule.
    let mut distinct: BTreeMap<(u8, String, Option<String>), Observed> = BTreeMap::new();
    for o in observed {
        let key = (status_rank(&o.status), o.status.clone(), o.message.clone());
        match distinct.get(&key) {
            Some(kept) if (kept.choices, &kept.schedule) <= (o.choices, &o.schedule) => {}
            _ => {
                distinct.insert(key, o);
            }
        }
    }
    let witnesses: Vec<Observed> = distinct.into_values().collect();
    let unsupported = witnesses.iter().find_map(|w| w.message.as_deref().and_then(unsupported_member));
    let statuses: std::collections::BTreeSet<&str> = witnesses.iter().map(|w| w.status.as_str()).collect();
    let first = &witnesses[0];
    let (verdict, message) = if let Some(member) = unsupported {
        (Verdict::Unsupported, Some(member))
    } else if statuses.len() > 1 {
        let other = witnesses.iter().find(|w| w.status != first.status).unwrap_or(first);
        let text = match &other.message {
            Some(m) => format!("{} on some schedules: {m}", other.status),
            None => format!("{} on some schedules", other.status),
        };
        (Verdict::ScheduleDependent, Some(text))
    } else if !complete {
        let seen = match &first.message {
            Some(m) => format!("{} ({m})", first.status),
            None => first.status.clone(),
        };
        (Verdict::Incomplete, Some(format!("{seen} on every schedule explored; a budget cut the search")))
    } else {
        let fewest = witnesses.iter().min_by_key(|w| (w.choices, w.schedule.clone())).unwrap_or(first);
        let verdict = match first.status.as_str() {
            "PASS" => Verdict::Pass,
            "OK" if harness => Verdict::Ok,
            "FAIL" => Verdict::Fail,
            "TIMEOUT" => Verdict::Timeout,
            "NOTRUN" => Verdict::Notrun,
            "PRECONDITION_FAILED" => Verdict::PreconditionFailed,
            _ => Verdict::Error,
        };
        (verdict, fewest.message.clone())
    };
    SubtestVerdict { name: name.to_string(), verdict, message, witnesses, race: None }
}

/// The harness's verdict and each subtest's, subtests in the order the outcome with the fewest choices
/// created them (then any others in the order met). A subtest some schedule never created
/// counts as status `NOT-CREATED` there.
pub fn verdicts(explored: &Explored) -> (SubtestVerdict, Vec<SubtestVerdict>) {
    let mut order: Vec<String> = Vec::new();
    let mut runs: Vec<&(Results, String, usize)> = explored.runs.iter().collect();
    runs.sort_by(|a, b| (a.2, &a.1).cmp(&(b.2, &b.1)));
    for (results, _, _) in &runs {
        for t in &results.tests {
            if !order.contains(&t.name) {
                order.push(t.name.clone());
            }
        }
    }
    let harness_observed = runs
        .iter()
        .map(|(r, schedule, choices)| Observed {
            status: r.status.clone(),
            message: r.message.clone(),
            schedule: schedule.clone(),
            choices: *choices,
        })
        .collect();
    let harness = decide("(harness)", harness_observed, explored.complete, true);
    let subtests = order
        .iter()
        .map(|name| {
            let observed = runs
                .iter()
                .map(|(r, schedule, choices)| {
                    let found = r.tests.iter().find(|t| &t.name == name);
                    Observed {
                        status: found.map_or("NOT-CREATED".into(), |t| t.status.clone()),
                        message: found.and_then(|t| t.message.clone()),
                        schedule: schedule.clone(),
                        choices: *choices,
                    }
                })
                .collect();
            decide(name, observed, explored.complete, false)
        })
        .collect();
    (harness, subtests)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(
        status: &str,
        tests: &[(&str, &str, Option<&str>)],
        schedule: &str,
        choices: usize,
    ) -> (Results, String, usize) {
        let tests = tests
            .iter()
            .map(|(n, s, m)| SubtestResult { name: n.to_string(), status: s.to_string(), message: m.map(String::from) })
            .collect();
        (
            Results { status: status.into(), message: None, allow_uncaught_exception: false, tests },
            schedule.into(),
            choices,
        )
    }

    #[test]
    fn a_subtest_that_passes_on_one_schedule_and_fails_on_another_depends_on_the_schedule() {
        let explored = Explored {
            runs: vec![
                run("OK", &[("a", "PASS", None), ("b", "PASS", None)], "x,y", 2),
                run("OK", &[("a", "PASS", None), ("b", "FAIL", Some("assert_true: expected true got false"))], "y", 1),
            ],
            complete: true,
            bounds_hit: vec![],
        };
        let (harness, subtests) = verdicts(&explored);
        assert_eq!(harness.verdict, Verdict::Ok);
        assert_eq!(subtests[0].verdict, Verdict::Pass);
        assert_eq!(subtests[1].verdict, Verdict::ScheduleDependent);
        assert_eq!(subtests[1].witnesses.len(), 2);
        assert_eq!(subtests[1].witnesses[0].status, "PASS");
        assert_eq!(subtests[1].witnesses[1].schedule, "y");
    }

    #[test]
    fn a_budget_cut_never_says_pass_and_an_unmodelled_member_is_named() {
        let explored = Explored {
            runs: vec![run(
                "OK",
                &[
                    ("a", "PASS", None),
                    ("b", "FAIL", Some("ModelContext.addEventListener is not modelled by webmcp-sim")),
                ],
                "",
                0,
            )],
            complete: false,
            bounds_hit: vec!["max-states".into()],
        };
        let (_, subtests) = verdicts(&explored);
        assert_eq!(subtests[0].verdict, Verdict::Incomplete);
        assert_eq!(subtests[1].verdict, Verdict::Unsupported);
        assert_eq!(subtests[1].message.as_deref(), Some("ModelContext.addEventListener"));
        assert_eq!(
            unsupported_member("promise_test: Unhandled rejection with value: object \"ReferenceError: 'ToolActivatedEvent' is not defined\""),
            Some("Window.ToolActivatedEvent (not defined)".into())
        );
    }
}
