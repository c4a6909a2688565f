//! The wpt report as a table per file with a summary (text), and as the wptreport JSON that
//! `wpt run --log-wptreport` writes and wpt.fyi reads. Both are functions of the report alone:
//! no time, no machine (the wptreport's `time_start`/`time_end` and `duration` are 0).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use trace::escape::{shell, terminal};

use super::chromium::ChromiumFile;
use super::compare::{describe, Kind};
use super::verdict::{unsupported_member, Observed, SubtestVerdict, Verdict};
use super::{FileReport, Report};

/// The replay command of a witness.
pub fn replay_command(file: &FileReport, schedule: &str) -> String {
    // `flags` starts with its own space (`options::flags`).
    format!("webmcp-sim replay {} --schedule {}{}", shell(&file.file), shell(schedule), file.flags)
}

fn witness_line(out: &mut String, file: &FileReport, w: &Observed) {
    let message = w.message.as_deref().map(|m| format!(" {}", terminal(m))).unwrap_or_default();
    let _ = writeln!(out, "      {}:{message}", w.status);
    let _ = writeln!(out, "        {}", replay_command(file, &w.schedule));
}

fn subtest_lines(out: &mut String, file: &FileReport, s: &SubtestVerdict) {
    let _ = writeln!(out, "  {:<19} {}", s.verdict.label(), terminal(&s.name));
    match s.verdict {
        Verdict::Pass | Verdict::Ok => {}
        Verdict::ScheduleDependent => {
            for w in &s.witnesses {
                witness_line(out, file, w);
            }
            if let Some(race) = &s.race {
                let _ = writeln!(out, "      race: {}", terminal(race));
            }
        }
        _ => {
            if let Some(m) = &s.message {
                let _ = writeln!(out, "      {}", terminal(m));
            }
        }
    }
}

/// The text report: each file's harness and subtest verdicts, then the counts.
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "spec reading: {}", report.options.join("; "));
    for file in &report.files {
        let _ = writeln!(out, "\n{} ({})", terminal(&file.file), terminal(&file.url));
        if let Some(e) = &file.error {
            let _ = writeln!(out, "  ERROR               the file did not explore: {}", terminal(e));
            continue;
        }
        let search = if file.complete {
            "every schedule".to_string()
        } else {
            format!("INCOMPLETE: stopped by {}", file.bounds_hit.join(", "))
        };
        let _ = writeln!(out, "  explored: {} outcome(s), {} schedule(s), {search}", file.outcomes, file.executions);
        if !file.witnesses.is_empty() {
            let _ = writeln!(out, "  witnesses: {}", terminal(&file.witnesses));
        }
        if let Some(c) = &file.chromium {
            chromium_lines(&mut out, file, c);
        } else {
            let mut harness = file.harness.clone();
            harness.name = "harness status".into();
            subtest_lines(&mut out, file, &harness);
            for s in &file.subtests {
                subtest_lines(&mut out, file, s);
            }
        }
        for note in &file.notes {
            let _ = writeln!(out, "  note: {}", terminal(note));
        }
    }
    out.push('\n');
    out.push_str(&summary(report));
    if report.files.iter().any(|f| f.chromium.is_some()) {
        out.push_str(&chromium_summary(report));
    }
    out
}

/// A file's rows with `--chromium`: the spec's verdict, Chromium's results and the expectation
/// file side by side (messages below), then every difference with the spec's witnesses.
fn chromium_lines(out: &mut String, file: &FileReport, c: &ChromiumFile) {
    let _ = writeln!(
        out,
        "  Chromium {}: {} run(s); testharness.js: {}",
        terminal(&c.version),
        c.runs,
        terminal(&c.harness)
    );
    match &c.expectation {
        Some(e) => {
            let _ = writeln!(out, "  expectation file: {}", terminal(e));
        }
        None => {
            let _ = writeln!(out, "  expectation file: none beside the test");
        }
    }
    let _ = writeln!(out, "  {:<19} {:<24} {:<9} subtest", "spec", "chromium", "expected");
    for row in &c.comparison.rows {
        let spec = row.spec.as_ref().map_or("(not created)", |s| s.verdict.label());
        let expected = row.expected.as_ref().map_or("-".to_string(), |e| e.status.clone());
        let name = if row.name == "(harness)" { "harness status".to_string() } else { terminal(&row.name) };
        let _ = writeln!(out, "  {spec:<19} {:<24} {expected:<9} {name}", describe(&row.chromium, c.runs, false));
        if let Some(m) = row.spec.as_ref().and_then(|s| s.message.as_ref()) {
            if !matches!(row.spec.as_ref().map(|s| s.verdict), Some(Verdict::Pass | Verdict::Ok)) {
                let _ = writeln!(out, "      spec: {}", terminal(m));
            }
        }
        for seen in row.chromium.iter().filter(|s| s.message.is_some()) {
            let _ = writeln!(
                out,
                "      chromium {} {}/{}: {}",
                seen.status,
                seen.runs,
                c.runs,
                terminal(seen.message.as_deref().unwrap_or_default())
            );
        }
        if let Some(m) = row.expected.as_ref().and_then(|e| e.message.as_ref()) {
            let _ = writeln!(out, "      expected: {}", terminal(m));
        }
    }
    let subtests = c.comparison.rows.len().saturating_sub(1);
    let _ = writeln!(
        out,
        "  differences: {} ({} of {subtests} subtest(s) agree: the spec's one result is the only one Chromium showed)",
        c.comparison.differences.len(),
        c.comparison.agree
    );
    for (i, d) in c.comparison.differences.iter().enumerate() {
        let name = if d.subtest == "(harness)" { "harness status".to_string() } else { terminal(&d.subtest) };
        let _ = writeln!(out, "    {}. [{}] {name}: {}", i + 1, d.kind.label(), terminal(&d.text));
        for w in &d.witnesses {
            witness_line(out, file, w);
        }
        // A schedule-dependent subtest's race (`verdict::race`), so the finding says which steps
        // the spec leaves unordered.
        let race = file.subtests.iter().chain(std::iter::once(&file.harness)).find(|s| s.name == d.subtest);
        if let Some(race) = race.and_then(|s| s.race.as_ref()) {
            let _ = writeln!(out, "      race: {}", terminal(race));
        }
    }
    for note in &c.notes {
        let _ = writeln!(out, "  note (chromium): {}", terminal(note));
    }
}

/// The differences of every file, by kind.
fn chromium_summary(report: &Report) -> String {
    let mut out = String::new();
    let mut kinds: BTreeMap<Kind, usize> = BTreeMap::new();
    let (mut agree, mut subtests, mut files) = (0, 0, 0);
    for c in report.files.iter().filter_map(|f| f.chromium.as_ref()) {
        files += 1;
        agree += c.comparison.agree;
        subtests += c.comparison.rows.len().saturating_sub(1);
        for d in &c.comparison.differences {
            *kinds.entry(d.kind).or_default() += 1;
        }
    }
    let total: usize = kinds.values().sum();
    let _ = writeln!(
        out,
        "chromium: {files} file(s), {subtests} subtest(s): {agree} agree with the spec, {total} difference(s)"
    );
    for (k, n) in kinds {
        let _ = writeln!(out, "  {:<30} {n}", k.label());
    }
    out
}

/// The counts of every verdict over all files, and the unmodelled members behind UNSUPPORTED.
pub fn summary(report: &Report) -> String {
    let mut out = String::new();
    let mut counts: BTreeMap<Verdict, usize> = BTreeMap::new();
    let mut members: BTreeMap<String, usize> = BTreeMap::new();
    let mut subtests = 0;
    for file in &report.files {
        for s in &file.subtests {
            subtests += 1;
            *counts.entry(s.verdict).or_default() += 1;
            if s.verdict == Verdict::Unsupported {
                *members.entry(s.message.clone().unwrap_or_default()).or_default() += 1;
            }
        }
        if file.subtests.is_empty() {
            // A file whose harness reported no subtest counts once, as its harness's verdict.
            subtests += 1;
            let member = file.harness.message.as_deref().and_then(unsupported_member);
            let verdict = if member.is_some() { Verdict::Unsupported } else { Verdict::Error };
            *counts.entry(verdict).or_default() += 1;
            if let Some(m) = member {
                *members.entry(m).or_default() += 1;
            }
        }
    }
    let _ = writeln!(out, "summary: {} file(s), {subtests} subtest(s)", report.files.len());
    for v in Verdict::ALL {
        if let Some(n) = counts.get(&v) {
            let _ = writeln!(out, "  {:<19} {n}", v.label());
        }
    }
    let decided =
        subtests - counts.get(&Verdict::Unsupported).unwrap_or(&0) - counts.get(&Verdict::Error).unwrap_or(&0);
    if let Some(share) = (decided * 100).checked_div(subtests) {
        let _ = writeln!(out, "  verdict other than UNSUPPORTED/ERROR: {decided} of {subtests} ({share}%)");
    }
    if !members.is_empty() {
        let mut by_count: Vec<(&String, &usize)> = members.iter().collect();
        by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let _ = writeln!(out, "unsupported members (subtests):");
        for (member, n) in by_count {
            let _ = writeln!(out, "  {n:>4}  {}", terminal(member));
        }
    }
    out
}

/// WPT's status for a verdict, and the message carrying what the status cannot say.
fn wpt_status(s: &SubtestVerdict) -> (&'static str, Option<String>) {
    let with = |prefix: &str| Some(format!("{prefix}: {}", s.message.clone().unwrap_or_default()));
    match s.verdict {
        Verdict::Pass => ("PASS", None),
        Verdict::Ok => ("OK", None),
        Verdict::Fail => ("FAIL", s.message.clone()),
        Verdict::Timeout => ("TIMEOUT", s.message.clone()),
        Verdict::Notrun => ("NOTRUN", s.message.clone()),
        Verdict::PreconditionFailed => ("PRECONDITION_FAILED", s.message.clone()),
        Verdict::Error => ("ERROR", s.message.clone()),
        // A subtest that can fail under the spec fails; the message says on which schedules.
        Verdict::ScheduleDependent => {
            let witnesses: Vec<String> =
                s.witnesses.iter().map(|w| format!("{} with --schedule {}", w.status, shell(&w.schedule))).collect();
            (
                "FAIL",
                Some(format!(
                    "SCHEDULE-DEPENDENT: {} ({}){}",
                    s.message.clone().unwrap_or_default(),
                    witnesses.join("; "),
                    s.race.as_ref().map(|r| format!(" Race: {r}")).unwrap_or_default()
                )),
            )
        }
        Verdict::Unsupported => ("NOTRUN", with("UNSUPPORTED, not modelled by webmcp-sim")),
        Verdict::Incomplete => ("NOTRUN", with("INCOMPLETE")),
    }
}

/// A wptreport message with Chromium's results and the subtest's differences after it.
fn with_chromium(message: Option<String>, c: &ChromiumFile, name: &str) -> String {
    let mut parts: Vec<String> = message.into_iter().collect();
    if let Some(row) = c.comparison.rows.iter().find(|r| r.name == name) {
        parts.push(format!("Chromium {}: {}", c.version, describe(&row.chromium, c.runs, true)));
    }
    for d in c.comparison.differences.iter().filter(|d| d.subtest == name) {
        parts.push(format!("DIFFERENCE ({}): {}", d.kind.label(), d.text));
    }
    parts.join(" | ")
}

/// The wptreport JSON (`wpt run --log-wptreport`): one result per file, its harness status and
/// subtests.
pub fn wptreport(report: &Report) -> String {
    let results: Vec<serde_json::Value> = report
        .files
        .iter()
        .map(|file| {
            let test = file.url.split_once("://").and_then(|(_, rest)| rest.find('/').map(|i| rest[i..].to_string()));
            let (status, message) = match &file.error {
                Some(e) => ("ERROR", Some(e.clone())),
                None => {
                    let (s, m) = wpt_status(&file.harness);
                    (if s == "NOTRUN" { "ERROR" } else { s }, m)
                }
            };
            let subtests: Vec<serde_json::Value> = file
                .subtests
                .iter()
                .map(|s| {
                    let (status, message) = wpt_status(s);
                    let message = match &file.chromium {
                        Some(c) => Some(with_chromium(message, c, &s.name)),
                        None => message,
                    };
                    serde_json::json!({ "name": s.name, "status": status, "message": message })
                })
                .collect();
            let mut subtests = subtests;
            let mut message = message;
            if let Some(c) = &file.chromium {
                message = Some(with_chromium(message, c, "(harness)"));
                // A subtest only Chromium created is still listed (as NOTRUN here: the simulator
                // never created it), with what Chromium showed.
                for row in c.comparison.rows.iter().skip(1).filter(|r| r.spec.is_none()) {
                    subtests.push(serde_json::json!({
                        "name": row.name,
                        "status": "NOTRUN",
                        "message": with_chromium(Some("not created by the simulator".into()), c, &row.name),
                    }));
                }
            }
            serde_json::json!({
                "test": test.unwrap_or_default(),
                "status": status,
                "message": message,
                "subtests": subtests,
                "duration": 0,
            })
        })
        .collect();
    let value = serde_json::json!({
        "run_info": {
            "product": "webmcp-sim",
            "browser_version": env!("CARGO_PKG_VERSION"),
            "os": "simulated",
            "webmcp_sim_spec_reading": report.options.join("; "),
            "chromium_version": report.files.iter().find_map(|f| f.chromium.as_ref().map(|c| c.version.clone())),
            "chromium_runs": report.files.iter().find_map(|f| f.chromium.as_ref().map(|c| c.runs)),
        },
        "time_start": 0,
        "time_end": 0,
        "results": results,
    });
    serde_json::to_string_pretty(&value).expect("the report serializes") + "\n"
}

#[cfg(test)]
mod tests {
    use super::super::chromium::ChromiumFile;
    use super::super::compare::{compare, Run};
    use super::super::verdict::{Results, SubtestResult};
    use super::*;

    fn verdict(name: &str, verdict: Verdict, status: &str, message: Option<&str>) -> SubtestVerdict {
        SubtestVerdict {
            name: name.into(),
            verdict,
            message: message.map(String::from),
            witnesses: vec![Observed {
                status: status.into(),
                message: message.map(String::from),
                schedule: "el0.webmcp".into(),
                choices: 1,
            }],
            race: None,
        }
    }

    /// Both columns and the differences print, in text and in the wptreport, without a browser.
    #[test]
    fn the_chromium_column_and_the_differences_print() {
        let harness = verdict("(harness)", Verdict::Ok, "OK", None);
        let subtests = vec![
            verdict("raw", Verdict::Fail, "FAIL", Some("assert_equals: expected \"a\" but got \"\\\"a\\\"\"")),
            verdict("same", Verdict::Pass, "PASS", None),
        ];
        let run = |raw: &str| Run {
            results: Some(Results {
                status: "OK".into(),
                message: None,
                allow_uncaught_exception: false,
                tests: vec![
                    SubtestResult { name: "raw".into(), status: raw.into(), message: None },
                    SubtestResult { name: "same".into(), status: "PASS".into(), message: None },
                    SubtestResult { name: "extra".into(), status: "PASS".into(), message: None },
                ],
            }),
            end: "reported".into(),
        };
        let comparison = compare(&harness, &subtests, &[run("PASS"), run("PASS")], None);
        let file = FileReport {
            file: "t.https.html".into(),
            url: "https://web-platform.test:8443/t.https.html".into(),
            harness,
            subtests,
            complete: true,
            bounds_hit: vec![],
            witnesses: String::new(),
            outcomes: 1,
            executions: 1,
            notes: vec![],
            flags: String::new(),
            error: None,
            chromium: Some(ChromiumFile {
                version: "156.0".into(),
                runs: 2,
                harness: "npm package wpt-runner 7.0.0".into(),
                expectation: None,
                comparison,
                notes: vec![],
            }),
        };
        let report =
            Report { version: super::super::VERSION, options: vec!["parallel=unordered".into()], files: vec![file] };
        let text = text(&report);
        for line in [
            "  Chromium 156.0: 2 run(s); testharness.js: npm package wpt-runner 7.0.0\n",
            "  OK                  OK 2/2                   -         harness status\n",
            "  FAIL                PASS 2/2                 -         raw\n",
            "  PASS                PASS 2/2                 -         same\n",
            "  (not created)       PASS 2/2                 -         extra\n",
            "  differences: 2 (1 of 3 subtest(s) agree",
            "    1. [spec FAIL, Chromium PASS] raw: the spec says FAIL on every schedule",
            "        webmcp-sim replay t.https.html --schedule el0.webmcp\n",
            "    2. [only in Chromium] extra: the simulator never created it; Chromium: PASS 2/2\n",
            "chromium: 1 file(s), 3 subtest(s): 1 agree with the spec, 2 difference(s)\n",
        ] {
            assert!(text.contains(line), "{line:?} not in:\n{text}");
        }
        let json: serde_json::Value = serde_json::from_str(&wptreport(&report)).unwrap();
        let subtests = json["results"][0]["subtests"].as_array().unwrap();
        assert!(subtests[0]["message"]
            .as_str()
            .unwrap()
            .contains("| Chromium 156.0: PASS 2/2 | DIFFERENCE (spec FAIL, Chromium PASS)"));
        assert_eq!(subtests[2]["name"], "extra");
        assert_eq!(subtests[2]["status"], "NOTRUN");
        assert_eq!(json["run_info"]["chromium_runs"], 2);
    }
}
