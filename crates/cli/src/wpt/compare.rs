//! The spec's verdict of each subtest beside what real Chromium observed in N runs and what
//! Chromium's WPT expectation file (`NAME-expected.txt`) says, and the differences a reviewer
//! reads (issue 29 item 5). Pure data in, data out: no browser, no file (tested below).
//!
//! Every subtest either agrees (the spec's one status is the only one Chromium showed) or is a
//! [`Difference`]; nothing is dropped: a subtest the spec cannot judge (UNSUPPORTED, a file that
//! did not explore) is a difference of kind `not-judged`, a Chromium run that never reported is
//! a `NO-RESULT` observation in every row.

use std::collections::BTreeMap;

use serde::Serialize;

use super::verdict::{Observed, Results, SubtestVerdict, Verdict};

/// Status of a subtest in a Chromium run that did not create it.
pub const NOT_CREATED: &str = "NOT-CREATED";
/// Status of every subtest (and the harness) in a Chromium run that never reported.
pub const NO_RESULT: &str = "NO-RESULT";

/// One Chromium run: the harness's results, or why there were none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub results: Option<Results>,
    /// How the run ended (`reported`, `timeout`, `error: …`).
    pub end: String,
}

/// What Chromium's runs showed for one subtest: each distinct (status, message), with how many
/// runs showed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Seen {
    pub status: String,
    pub message: Option<String>,
    pub runs: u32,
}

/// One status of Chromium's expectation file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Expected {
    pub status: String,
    pub message: Option<String>,
    /// The file lists only subtests that do not pass: this one is PASS because it is not listed.
    pub implied: bool,
}

/// Chromium's `NAME-expected.txt`, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expectation {
    pub harness: Option<Expected>,
    pub subtests: BTreeMap<String, Expected>,
    /// Today's format (`[FAIL] name` lines) lists only the subtests that do not pass.
    pub passes_omitted: bool,
}

impl Expectation {
    /// The expectation of one subtest (`None`: the harness row, not stated).
    pub fn of(&self, name: &str) -> Option<Expected> {
        if let Some(e) = self.subtests.get(name) {
            return Some(e.clone());
        }
        self.passes_omitted.then(|| Expected { status: "PASS".into(), message: None, implied: true })
    }
}

/// Reads a Chromium WPT expectation file. Two formats: today's,
/// ```text
/// This is a testharness.js-based test.
/// [FAIL] name
///   assert_equals: expected 1 but got 2
/// Harness: the test ran to completion.
/// ```
/// listing only subtests that do not pass (`Harness Error. harness_status.status = 1 ,
/// harness_status.message = …` for a harness error), and the older one, a line per subtest
/// (`PASS name`, `FAIL name message`).
pub fn parse_expectation(text: &str) -> Expectation {
    let mut e = Expectation { harness: None, subtests: BTreeMap::new(), passes_omitted: false };
    let statuses = ["PASS", "FAIL", "TIMEOUT", "NOTRUN", "PRECONDITION_FAILED"];
    let mut last: Option<String> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix('[') {
            if let Some((status, name)) = rest.split_once("] ") {
                if statuses.contains(&status) {
                    e.passes_omitted = true;
                    e.subtests
                        .insert(name.to_string(), Expected { status: status.into(), message: None, implied: false });
                    last = Some(name.to_string());
                    continue;
                }
            }
        }
        if let Some(more) = line.strip_prefix("  ") {
            if let Some(name) = &last {
                if let Some(x) = e.subtests.get_mut(name) {
                    let m = x.message.get_or_insert_with(String::new);
                    if !m.is_empty() {
                        m.push('\n');
                    }
                    m.push_str(more);
                }
                continue;
            }
        }
        last = None;
        if let Some(rest) = line.strip_prefix("Harness Error. harness_status.status = ") {
            let (code, message) = rest.split_once(" , harness_status.message = ").unwrap_or((rest, ""));
            let status = match code.trim() {
                "1" => "ERROR",
                "2" => "TIMEOUT",
                "3" => "PRECONDITION_FAILED",
                _ => "ERROR",
            };
            e.harness = Some(Expected {
                status: status.into(),
                message: (!message.is_empty()).then(|| message.to_string()),
                implied: false,
            });
        } else if line.starts_with("Harness: the test ran to completion") {
            e.harness.get_or_insert(Expected { status: "OK".into(), message: None, implied: false });
        } else if line.starts_with("Harness timed out") {
            e.harness = Some(Expected { status: "TIMEOUT".into(), message: None, implied: false });
        } else if let Some((status, rest)) = line.split_once(' ') {
            // The older format: `FAIL name message` (the name and message are not delimited:
            // the whole rest is kept as the name, and matched by prefix in `lookup`).
            if statuses.contains(&status) {
                e.subtests.insert(rest.to_string(), Expected { status: status.into(), message: None, implied: false });
            }
        }
    }
    e
}

impl Expectation {
    /// The expectation of `name`, also in the older format where a line is `STATUS name message`.
    pub fn lookup(&self, name: &str) -> Option<Expected> {
        if let Some(e) = self.of(name) {
            return Some(e);
        }
        self.subtests.iter().find_map(|(line, e)| {
            let message = line.strip_prefix(name)?.strip_prefix(' ')?;
            Some(Expected { message: Some(message.to_string()), ..e.clone() })
        })
    }
}

/// Why a subtest is listed as a difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// The spec lets it end differently on different schedules (whatever Chromium did).
    ScheduleDependent,
    /// FAIL on every schedule, Chromium passed on some run.
    SpecFailsChromiumPasses,
    /// PASS on every schedule, Chromium did not pass on some run.
    SpecPassesChromiumFails,
    /// Any other status Chromium showed that the spec's verdict does not allow.
    OtherStatus,
    /// A subtest only Chromium created, or only the simulator.
    OnlyInChromium,
    OnlyInSpec,
    /// The spec's verdict is not a status to compare (UNSUPPORTED, ERROR of a file that did not
    /// explore).
    NotJudged,
    /// Chromium's expectation file says another status than the one Chromium showed.
    Expectation,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::ScheduleDependent => "schedule-dependent",
            Kind::SpecFailsChromiumPasses => "spec FAIL, Chromium PASS",
            Kind::SpecPassesChromiumFails => "spec PASS, Chromium not PASS",
            Kind::OtherStatus => "other status",
            Kind::OnlyInChromium => "only in Chromium",
            Kind::OnlyInSpec => "only in the simulator",
            Kind::NotJudged => "not judged by the spec",
            Kind::Expectation => "expectation file",
        }
    }
}

/// One subtest (or the harness, named `(harness)`) in both columns and the expectation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    pub name: String,
    /// The spec's verdict (the simulator's, over every schedule); `None`: it never created it.
    pub spec: Option<SubtestVerdict>,
    pub chromium: Vec<Seen>,
    pub expected: Option<Expected>,
}

/// A difference a reviewer reads: the subtest, why, what each side said, and the spec's witness
/// schedules (each replayable).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Difference {
    pub subtest: String,
    pub kind: Kind,
    pub text: String,
    pub witnesses: Vec<Observed>,
}

/// Both columns of one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Comparison {
    pub rows: Vec<Row>,
    pub differences: Vec<Difference>,
    /// Subtests on which the spec and every Chromium run agree.
    pub agree: usize,
}

/// The status the spec's verdict allows, when it is one: PASS, FAIL, TIMEOUT, NOTRUN,
/// PRECONDITION_FAILED, OK, ERROR (the harness), or the one status every explored schedule
/// showed when a budget cut the search (INCOMPLETE).
pub fn spec_status(v: &SubtestVerdict) -> Option<&str> {
    match v.verdict {
        Verdict::Pass => Some("PASS"),
        Verdict::Fail => Some("FAIL"),
        Verdict::Timeout => Some("TIMEOUT"),
        Verdict::Notrun => Some("NOTRUN"),
        Verdict::PreconditionFailed => Some("PRECONDITION_FAILED"),
        Verdict::Ok => Some("OK"),
        Verdict::Error => Some("ERROR"),
        Verdict::Incomplete => v.witnesses.first().map(|w| w.status.as_str()),
        Verdict::ScheduleDependent | Verdict::Unsupported => None,
    }
}

/// "PASS 5/5", "FAIL 3/5: message; PASS 2/5".
pub fn describe(seen: &[Seen], runs: u32, messages: bool) -> String {
    if seen.is_empty() {
        return "no run".into();
    }
    seen.iter()
        .map(|s| match (&s.message, messages) {
            (Some(m), true) => format!("{} {}/{runs}: {m}", s.status, s.runs),
            _ => format!("{} {}/{runs}", s.status, s.runs),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Groups the runs' results for one subtest (`None`: the harness).
fn seen(runs: &[Run], name: Option<&str>) -> Vec<Seen> {
    let mut by: BTreeMap<(String, Option<String>), u32> = BTreeMap::new();
    for run in runs {
        let (status, message) = match (&run.results, name) {
            (None, _) => (NO_RESULT.to_string(), Some(format!("the run ended without a report: {}", run.end))),
            (Some(r), None) => (r.status.clone(), r.message.clone()),
            (Some(r), Some(n)) => match r.tests.iter().find(|t| t.name == n) {
                Some(t) => (t.status.clone(), t.message.clone()),
                None => (NOT_CREATED.to_string(), None),
            },
        };
        *by.entry((status, message)).or_default() += 1;
    }
    let mut out: Vec<Seen> = by.into_iter().map(|((status, message), runs)| Seen { status, message, runs }).collect();
    // Most runs first, then by status and message (a stable order: the output is the same for
    // the same runs).
    out.sort_by(|a, b| b.runs.cmp(&a.runs).then_with(|| (&a.status, &a.message).cmp(&(&b.status, &b.message))));
    out
}

/// Compares one file: the spec's harness verdict and subtests (the simulator's report) with
/// Chromium's runs and the expectation file.
pub fn compare(
    harness: &SubtestVerdict,
    subtests: &[SubtestVerdict],
    runs: &[Run],
    expectation: Option<&Expectation>,
) -> Comparison {
    let n = runs.len() as u32;
    let mut names: Vec<String> = subtests.iter().map(|s| s.name.clone()).collect();
    for run in runs {
        for t in run.results.iter().flat_map(|r| &r.tests) {
            if !names.contains(&t.name) {
                names.push(t.name.clone());
            }
        }
    }
    let mut rows = vec![Row {
        name: "(harness)".into(),
        spec: Some(harness.clone()),
        chromium: seen(runs, None),
        expected: expectation.and_then(|e| e.harness.clone()),
    }];
    for name in names {
        rows.push(Row {
            spec: subtests.iter().find(|s| s.name == name).cloned(),
            chromium: seen(runs, Some(&name)),
            expected: expectation.and_then(|e| e.lookup(&name)),
            name,
        });
    }
    let mut differences = Vec::new();
    let mut agree = 0;
    for row in &rows {
        let before = differences.len();
        judge(row, n, &mut differences);
        if differences.len() == before && row.name != "(harness)" {
            agree += 1;
        }
        if let Some(e) = &row.expected {
            let statuses: Vec<&str> = row.chromium.iter().map(|s| s.status.as_str()).collect();
            if statuses.iter().any(|s| *s != e.status && *s != NO_RESULT) {
                let implied = if e.implied { " (not listed, so PASS)" } else { "" };
                differences.push(Difference {
                    subtest: row.name.clone(),
                    kind: Kind::Expectation,
                    text: format!(
                        "Chromium's expectation file says {}{implied}; Chromium showed {}",
                        e.status,
                        describe(&row.chromium, n, false)
                    ),
                    witnesses: Vec::new(),
                });
            }
        }
    }
    Comparison { rows, differences, agree }
}

/// The spec-versus-Chromium difference of one row, if any.
fn judge(row: &Row, n: u32, out: &mut Vec<Difference>) {
    let chromium = describe(&row.chromium, n, true);
    let statuses: Vec<&str> = row.chromium.iter().map(|s| s.status.as_str()).collect();
    let push = |out: &mut Vec<Difference>, kind, text: String, witnesses: Vec<Observed>| {
        out.push(Difference { subtest: row.name.clone(), kind, text, witnesses })
    };
    let Some(spec) = &row.spec else {
        push(out, Kind::OnlyInChromium, format!("the simulator never created it; Chromium: {chromium}"), Vec::new());
        return;
    };
    if !statuses.is_empty() && statuses.iter().all(|s| *s == NOT_CREATED) {
        push(
            out,
            Kind::OnlyInSpec,
            format!("no Chromium run created it; the spec says {}", spec.verdict.label()),
            fewest(spec),
        );
        return;
    }
    match spec.verdict {
        Verdict::ScheduleDependent => {
            let results: Vec<&str> = spec.witnesses.iter().map(|w| w.status.as_str()).collect();
            let mut text =
                format!("the spec allows {} (one witness schedule each); Chromium: {chromium}", results.join(" or "));
            if row.chromium.len() == 1 {
                text.push_str(": the test assumes the order Chromium took, which the spec does not fix");
            }
            push(out, Kind::ScheduleDependent, text, spec.witnesses.clone());
            return;
        }
        Verdict::Unsupported => {
            let member = spec.message.as_deref().unwrap_or("a member");
            push(
                out,
                Kind::NotJudged,
                format!(
                    "UNSUPPORTED: {member} is not modelled, so the spec's verdict is unknown; Chromium: {chromium}"
                ),
                Vec::new(),
            );
            return;
        }
        _ => {}
    }
    let Some(want) = spec_status(spec) else { return };
    if statuses.iter().all(|s| *s == want) {
        return;
    }
    let incomplete = if spec.verdict == Verdict::Incomplete {
        " on every schedule explored (a budget cut the search)"
    } else {
        " on every schedule"
    };
    let spec_message = spec.message.as_deref().map(|m| format!(" ({m})")).unwrap_or_default();
    let text = format!("the spec says {want}{incomplete}{spec_message}; Chromium: {chromium}");
    let kind = if want == "FAIL" && statuses.contains(&"PASS") {
        Kind::SpecFailsChromiumPasses
    } else if want == "PASS" {
        Kind::SpecPassesChromiumFails
    } else {
        Kind::OtherStatus
    };
    push(out, kind, text, fewest(spec));
}

/// The spec's witness with the fewest choices (one replay command for a difference).
fn fewest(spec: &SubtestVerdict) -> Vec<Observed> {
    spec.witnesses.iter().min_by_key(|w| (w.choices, w.schedule.clone())).cloned().into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::super::verdict::SubtestResult;
    use super::*;

    fn verdict(name: &str, verdict: Verdict, statuses: &[(&str, &str)]) -> SubtestVerdict {
        SubtestVerdict {
            name: name.into(),
            verdict,
            message: None,
            witnesses: statuses
                .iter()
                .enumerate()
                .map(|(i, (s, sched))| Observed {
                    status: s.to_string(),
                    message: None,
                    schedule: sched.to_string(),
                    choices: i,
                })
                .collect(),
            race: None,
        }
    }

    fn run(tests: &[(&str, &str, Option<&str>)]) -> Run {
        Run {
            results: Some(Results {
                status: "OK".into(),
                message: None,
                allow_uncaught_exception: false,
                tests: tests
                    .iter()
                    .map(|(n, s, m)| SubtestResult {
                        name: n.to_string(),
                        status: s.to_string(),
                        message: m.map(String::from),
                    })
                    .collect(),
            }),
            end: "reported".into(),
        }
    }

    #[test]
    fn each_kind_of_difference_is_listed_and_agreement_is_not() {
        let harness = verdict("(harness)", Verdict::Ok, &[("OK", "")]);
        let subtests = vec![
            verdict("agrees", Verdict::Pass, &[("PASS", "a")]),
            verdict("raw string", Verdict::Fail, &[("FAIL", "b")]),
            verdict("race", Verdict::ScheduleDependent, &[("PASS", "p"), ("FAIL", "f")]),
            verdict("flaky in chromium", Verdict::Pass, &[("PASS", "c")]),
            verdict("navigator", Verdict::Unsupported, &[("FAIL", "d")]),
            verdict("only here", Verdict::Pass, &[("PASS", "e")]),
            verdict("timeout", Verdict::Timeout, &[("TIMEOUT", "t")]),
        ];
        let runs = vec![
            run(&[
                ("agrees", "PASS", None),
                ("raw string", "PASS", None),
                ("race", "PASS", None),
                ("flaky in chromium", "PASS", None),
                ("navigator", "PASS", None),
                ("timeout", "FAIL", Some("x")),
                ("new", "PASS", None),
            ]),
            run(&[
                ("agrees", "PASS", None),
                ("raw string", "PASS", None),
                ("race", "PASS", None),
                ("flaky in chromium", "FAIL", Some("assert_true: expected true got false")),
                ("navigator", "PASS", None),
                ("timeout", "FAIL", Some("x")),
                ("new", "PASS", None),
            ]),
        ];
        let c = compare(&harness, &subtests, &runs, None);
        let kinds: Vec<(&str, Kind)> = c.differences.iter().map(|d| (d.subtest.as_str(), d.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("raw string", Kind::SpecFailsChromiumPasses),
                ("race", Kind::ScheduleDependent),
                ("flaky in chromium", Kind::SpecPassesChromiumFails),
                ("navigator", Kind::NotJudged),
                ("only here", Kind::OnlyInSpec),
                ("timeout", Kind::OtherStatus),
                ("new", Kind::OnlyInChromium),
            ]
        );
        assert_eq!(c.agree, 1);
        // Every subtest of either side is a row (the harness first), none dropped.
        assert_eq!(c.rows.len(), 1 + subtests.len() + 1);
        assert_eq!(describe(&c.rows[4].chromium, 2, true), "FAIL 1/2: assert_true: expected true got false; PASS 1/2");
        assert_eq!(describe(&c.rows[1].chromium, 2, true), "PASS 2/2");
        // A schedule-dependent subtest carries both witnesses; the others the fewest-choice one.
        assert_eq!(c.differences[1].witnesses.len(), 2);
        assert!(
            c.differences[1].text.contains("the test assumes the order Chromium took"),
            "{}",
            c.differences[1].text
        );
        assert_eq!(c.differences[0].witnesses.iter().map(|w| w.schedule.as_str()).collect::<Vec<_>>(), ["b"]);
    }

    #[test]
    fn a_run_without_a_report_is_a_result_of_every_row() {
        let harness = verdict("(harness)", Verdict::Ok, &[("OK", "")]);
        let subtests = vec![verdict("a", Verdict::Pass, &[("PASS", "")])];
        let runs = vec![run(&[("a", "PASS", None)]), Run { results: None, end: "timeout after 40000 ms".into() }];
        let c = compare(&harness, &subtests, &runs, None);
        assert_eq!(c.differences.len(), 2, "{:?}", c.differences);
        assert_eq!(c.differences[0].subtest, "(harness)");
        assert_eq!(c.differences[0].kind, Kind::OtherStatus);
        assert_eq!(c.differences[1].kind, Kind::SpecPassesChromiumFails);
        assert!(
            describe(&c.rows[1].chromium, 2, true).contains("NO-RESULT 1/2: the run ended without a report: timeout")
        );
        // An incomplete search compares the status every explored schedule showed.
        let mut inc = verdict("a", Verdict::Incomplete, &[("FAIL", "")]);
        inc.message = Some("FAIL on every schedule explored".into());
        let c = compare(&harness, &[inc], &[run(&[("a", "FAIL", Some("m"))])], None);
        assert!(c.differences.is_empty(), "{:?}", c.differences);
        assert_eq!(c.agree, 1);
    }

    #[test]
    fn chromium_expectation_files_read_in_both_formats() {
        let today = "This is a testharness.js-based test.\n[FAIL] raw string\n  assert_equals: expected \"a\" but got \"b\"\n  second line\n[TIMEOUT] slow\n  Test timed out\nHarness: the test ran to completion.\n";
        let e = parse_expectation(today);
        assert_eq!(e.harness.as_ref().unwrap().status, "OK");
        assert_eq!(
            e.lookup("raw string").unwrap().message.as_deref(),
            Some("assert_equals: expected \"a\" but got \"b\"\nsecond line")
        );
        assert_eq!(e.lookup("slow").unwrap().status, "TIMEOUT");
        let pass = e.lookup("unlisted").unwrap();
        assert_eq!((pass.status.as_str(), pass.implied), ("PASS", true));
        let old = "This is a testharness.js-based test.\nPASS a subtest\nFAIL raw string assert_equals: expected 1 but got 2\nHarness Error. harness_status.status = 1 , harness_status.message = boom\n";
        let e = parse_expectation(old);
        assert_eq!(e.harness.as_ref().unwrap().status, "ERROR");
        assert_eq!(e.harness.as_ref().unwrap().message.as_deref(), Some("boom"));
        assert_eq!(e.lookup("a subtest").unwrap().status, "PASS");
        let f = e.lookup("raw string").unwrap();
        assert_eq!((f.status.as_str(), f.message.as_deref()), ("FAIL", Some("assert_equals: expected 1 but got 2")));
        assert_eq!(e.lookup("unlisted"), None);

        // An expectation that Chromium contradicts is a difference of its own.
        let harness = verdict("(harness)", Verdict::Ok, &[("OK", "")]);
        let subtests = vec![verdict("raw string", Verdict::Fail, &[("FAIL", "")])];
        let c = compare(&harness, &subtests, &[run(&[("raw string", "PASS", None)])], Some(&parse_expectation(today)));
        let kinds: Vec<Kind> = c.differences.iter().map(|d| d.kind).collect();
        assert_eq!(kinds, [Kind::SpecFailsChromiumPasses, Kind::Expectation]);
        assert_eq!(c.rows[1].expected.as_ref().unwrap().status, "FAIL");
    }
}
