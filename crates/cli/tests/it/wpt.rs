//! `webmcp-sim wpt` on the project's own WPT-style corpus (tests/wpt/): every subtest reaches the
//! verdict tests/wpt/EXPECTED.txt records, a wrong expectation is caught, the output is the
//! same from run to run, and the wptreport is what `wpt run --log-wptreport` consumers read.

use std::path::Path;
use std::process::Command;

use cli::options::SpecArgs;
use cli::wpt::{compare_expected, run_file, test_files, Args, FileReport, WptFormat};

use crate::workspace_root;

fn args(paths: Vec<std::path::PathBuf>) -> Args {
    Args {
        paths,
        wpt_root: None,
        format: WptFormat::Text,
        max_states: 200_000,
        max_executions: 5_000,
        max_units: 20_000,
        max_depth: 2_000,
        time_limit: None,
        spec: SpecArgs::default(),
        chromium: false,
        runs: 5,
        chromium_binary: "/usr/bin/chromium".into(),
        driver_dir: None,
    }
}

fn corpus() -> (Vec<FileReport>, String) {
    let dir = workspace_root().join("tests/wpt");
    let files = test_files(std::slice::from_ref(&dir)).unwrap();
    assert!(files.len() >= 10, "the corpus is missing: {files:?}");
    let a = args(vec![dir.clone()]);
    let reports = files.iter().map(|f| run_file(f, &a).unwrap_or_else(|e| panic!("{}: {e}", f.display()))).collect();
    (reports, std::fs::read_to_string(dir.join("EXPECTED.txt")).unwrap())
}

#[test]
fn every_corpus_subtest_reaches_its_recorded_verdict_and_a_wrong_one_is_caught() {
    let (reports, expected) = corpus();
    let base = workspace_root().join("tests/wpt");
    let problems = compare_expected(&reports, &expected, &base);
    assert!(problems.is_empty(), "tests/wpt/EXPECTED.txt is not met:\n{}", problems.join("\n"));
    // Every kind of verdict the corpus is there to show is shown.
    let verdicts: std::collections::BTreeSet<&str> = reports
        .iter()
        .flat_map(|r| std::iter::once(&r.harness).chain(&r.subtests))
        .map(|s| s.verdict.label())
        .collect();
    for v in ["PASS", "FAIL", "SCHEDULE-DEPENDENT", "TIMEOUT", "NOTRUN", "UNSUPPORTED", "OK", "ERROR"] {
        assert!(verdicts.contains(v), "no subtest of the corpus is {v}: {verdicts:?}");
    }

    // A deliberately wrong expectation fails, and so do an unlisted subtest and a listed one that
    // does not exist.
    let wrong = expected.replace(
        "execute-order.https.html | two executions settle in call order | SCHEDULE-DEPENDENT",
        "execute-order.https.html | two executions settle in call order | PASS",
    );
    assert_ne!(wrong, expected);
    let problems = compare_expected(&reports, &wrong, &base);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("execute-order.https.html | two executions settle in call order : expected PASS"),
        "{problems:?}"
    );
    let missing = expected.replace("abort.https.html | an already aborted signal rejects with its reason | PASS\n", "")
        + "abort.https.html | no such subtest | PASS\n";
    let problems = compare_expected(&reports, &missing, &base);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains("an already aborted signal rejects with its reason | PASS : not listed"),
        "{problems:?}"
    );
    assert!(problems[1].contains("no such subtest"), "{problems:?}");
}

#[test]
fn a_schedule_dependent_subtest_has_a_replayable_witness_for_each_result() {
    let file = workspace_root().join("tests/wpt/execute-order.https.html");
    let report = run_file(&file, &args(vec![file.clone()])).unwrap();
    let subtest = &report.subtests[0];
    assert_eq!(subtest.verdict.label(), "SCHEDULE-DEPENDENT");
    assert_eq!(subtest.witnesses.iter().map(|w| w.status.as_str()).collect::<Vec<_>>(), ["PASS", "FAIL"]);
    for w in &subtest.witnesses {
        let out = Command::new(env!("CARGO_BIN_EXE_webmcp-sim"))
            .args(["replay"])
            .arg(&file)
            .args(["--schedule", &w.schedule])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let trace = String::from_utf8_lossy(&out.stdout);
        assert!(
            trace.contains(&format!("\"status\":\"{}\"", w.status)),
            "the replay of {} did not {}:\n{trace}",
            w.schedule,
            w.status
        );
    }
    // Where the two witnesses part, for a reviewer: the two calls' executeTool 15 blocks, each
    // runnable where the other ran.
    let race = subtest.race.as_deref().expect("a SCHEDULE-DEPENDENT subtest says where its witnesses part");
    assert!(
        race.contains("the PASS schedule runs `route the call to tool \"a\"` [executeTool 15]")
            && race.contains("the FAIL schedule runs `route the call to tool \"b\"` [executeTool 15]"),
        "{race}"
    );
    // Under the fifo reading of "in parallel" the two executions settle in call order.
    let mut fifo = args(vec![file.clone()]);
    fifo.spec.parallel = Some("fifo".into());
    let report = run_file(&file, &fifo).unwrap();
    assert_eq!(report.subtests[0].verdict.label(), "PASS");
    assert_eq!(report.flags, " --parallel fifo");
}

fn wpt(paths: &[&Path], format: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_webmcp-sim"))
        .arg("wpt")
        .args(paths)
        .args(["--format", format])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_output_is_byte_identical_from_run_to_run_and_the_wptreport_reads() {
    let dir = workspace_root().join("tests/wpt");
    let files = [dir.join("execute-order.https.html"), dir.join("timeout.html"), dir.join("unsupported.https.html")];
    let paths: Vec<&Path> = files.iter().map(|f| f.as_path()).collect();
    for format in ["text", "json", "wptreport"] {
        assert_eq!(wpt(&paths, format), wpt(&paths, format), "{format}");
    }
    let json: serde_json::Value = serde_json::from_str(&wpt(&paths, "json")).unwrap();
    assert_eq!(json["version"], 2);
    let report: serde_json::Value = serde_json::from_str(&wpt(&paths, "wptreport")).unwrap();
    let results = report["results"].as_array().unwrap();
    assert_eq!(results[0]["test"], "/execute-order.https.html");
    assert_eq!(results[0]["status"], "OK");
    let subtest = &results[0]["subtests"][0];
    assert_eq!(subtest["status"], "FAIL");
    assert!(
        subtest["message"].as_str().unwrap().starts_with("SCHEDULE-DEPENDENT: FAIL on some schedules"),
        "{subtest}"
    );
    assert_eq!(results[1]["status"], "TIMEOUT");
    assert_eq!(results[2]["subtests"][0]["status"], "NOTRUN");
    assert!(results[2]["subtests"][0]["message"].as_str().unwrap().contains("Window.navigator"));
    let text = wpt(&paths, "text");
    assert!(
        text.contains(
            "unsupported members (subtests):\n     1  Window.OffscreenCanvas (not defined)\n     1  Window.navigator\n"
        ),
        "{text}"
    );
}

#[test]
fn a_folder_without_test_files_and_a_missing_file_are_bad_input() {
    // A folder holding only a script that is not a test file (`.js`, not `.window.js`).
    let dir = std::env::temp_dir().join(format!("webmcp-sim-wpt-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("helpers.js"), "function helper() {}\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_webmcp-sim")).args(["wpt"]).arg(&dir).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_webmcp-sim")).args(["wpt", "no-such-file.html"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-file.html"));
}

/// `wpt --chromium --runs 2` on seven files of the corpus (issue 29 items 4 and 5; the whole folder
/// takes about 5 minutes on a loaded 2-core machine, these about 2): both columns print for
/// every file, the expectation file beside a test is read, the schedule-dependent subtest is a
/// difference with both witnesses, a subtest the spec cannot judge is listed, and no subtest is
/// dropped: each one agrees or is a difference.
#[test]
#[ignore = "needs /usr/bin/chromium and `npm ci --prefix tools/chromium-driver` (.ci/run runs it)"]
fn wpt_chromium_prints_both_columns_and_lists_every_difference() {
    use cli::wpt::{chromium, render, serve, Report, VERSION};
    let dir = workspace_root().join("tests/wpt");
    let files: Vec<std::path::PathBuf> = [
        "cleanup-returns-value.html",
        "execute-order.https.html",
        "harness-basics.html",
        "iframe-resource.https.html",
        "insecure-context.html",
        "toolchange-order.https.html",
        "unsupported.https.html",
    ]
    .iter()
    .map(|f| dir.join(f))
    .collect();
    let driver_dir = chromium::default_driver_dir();
    let opts = chromium::Options {
        runs: 2,
        binary: "/usr/bin/chromium".into(),
        harness: serve::harness(&driver_dir, None).unwrap_or_else(|e| panic!("{e}")),
        driver_dir,
    };
    let a = args(vec![dir.clone()]);
    let mut report = Report { version: VERSION, options: vec!["parallel=unordered".into()], files: Vec::new() };
    for f in &files {
        let mut r = run_file(f, &a).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        r.chromium = Some(chromium::run(f, None, &r, &opts).unwrap_or_else(|e| panic!("{}: {e}", f.display())));
        report.files.push(r);
    }
    let text = render::text(&report);
    for file in &report.files {
        let c = file.chromium.as_ref().unwrap();
        assert!(c.version.starts_with("156."), "{}", c.version);
        assert_eq!(c.runs, 2);
        // Every Chromium run reported (none timed out or failed in the driver).
        assert!(
            c.comparison.rows.iter().all(|r| r.chromium.iter().all(|s| s.status != "NO-RESULT")),
            "{}: a run did not report:\n{text}",
            file.file
        );
        // None dropped: each subtest agrees or is a difference.
        let listed: std::collections::BTreeSet<&str> = c
            .comparison
            .differences
            .iter()
            .filter(|d| d.kind != cli::wpt::compare::Kind::Expectation && d.subtest != "(harness)")
            .map(|d| d.subtest.as_str())
            .collect();
        assert_eq!(c.comparison.agree + listed.len(), c.comparison.rows.len() - 1, "{}:\n{text}", file.file);
    }
    assert_eq!(
        text.matches("  spec                chromium                 expected  subtest\n").count(),
        files.len(),
        "{text}"
    );
    assert!(text.contains("  SCHEDULE-DEPENDENT  PASS 2/2"), "{text}");
    assert!(
        text.contains("[schedule-dependent] two executions settle in call order: the spec allows PASS or FAIL"),
        "{text}"
    );
    assert!(text.contains("toolchange-order.https-expected.txt"), "{text}");
    assert!(
        text.contains(
            "  FAIL                FAIL 2/2                 FAIL      one registration fires toolchange once"
        ),
        "{text}"
    );
    assert!(text.contains("\nchromium: 7 file(s), "), "{text}");
    assert!(text.contains("[not judged by the spec] window.navigator is not modelled: UNSUPPORTED"), "{text}");
    // webmcp-sim's harness aborts on a cleanup's value as testharness.js does: the two agree.
    assert!(text.contains("  ERROR               ERROR 2/2                -         harness status\n      spec: Test named 'a cleanup returning a value' specified 1 'cleanup' function, and 1 returned a non-undefined value.\n"), "{text}");
    // The JSON carries both columns; the wptreport names Chromium's results in each message.
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["version"], 2);
    assert!(json["files"][0]["chromium"]["rows"].as_array().unwrap().len() > 1);
    let wptreport = render::wptreport(&report);
    assert!(wptreport.contains("DIFFERENCE (schedule-dependent)"), "{wptreport}");
    assert!(wptreport.contains("\"chromium_runs\": 2"), "{wptreport}");
    eprintln!("{text}");
}
