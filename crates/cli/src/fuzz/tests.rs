//! Tests of the fuzz commands on a few seeds.

use super::*;

fn args(out: &Path) -> FuzzArgs {
    FuzzArgs {
        seeds: "0..6".into(),
        max_docs: 3,
        max_statements: 4,
        schedules: 2,
        explore_max_states: 200,
        naive_max_states: 0,
        stateless_max_executions: 500,
        max_units: 10_000,
        shrink_iters: 50,
        out: out.to_path_buf(),
        known: None,
    }
}

#[test]
fn fuzzing_a_few_seeds_finds_no_bugs_and_writes_findings_as_scenarios() {
    let out = std::env::temp_dir().join(format!("webmcp-sim-fuzz-test-{}", std::process::id()));
    let args = args(&out);
    // No finding known, so that the findings are shrunk and written.
    let report = super::run_fuzz_knowing(&args, 0..6, &trace::known::Known::default(), &mut |_| {});
    let text = render(&args, &(0..6), &report);
    assert_eq!(report.scenarios, 6);
    assert!(report.bugs.is_empty(), "{text}");
    assert!(text.contains("simulator bugs: 0"), "{text}");
    for path in written(&report) {
        let file = std::fs::read_to_string(path).expect("written");
        let (scenario, _) = scenario::load(path).unwrap_or_else(|d| panic!("{d:?}\n{file}"));
        assert!(file.contains("// replay: webmcp-sim replay "), "{file}");
        assert!(scenario.name.starts_with("fuzz-"));
    }
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn the_same_seeds_give_the_same_report() {
    let out = std::env::temp_dir().join(format!("webmcp-sim-fuzz-det-{}", std::process::id()));
    let args = FuzzArgs { shrink_iters: 0, ..args(&out) };
    let a = render(&args, &(0..4), &run_fuzz(&args, 0..4, &mut |_| {}));
    let b = render(&args, &(0..4), &run_fuzz(&args, 0..4, &mut |_| {}));
    let strip = |s: &str| s.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(&a), strip(&b));
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn slugs_are_file_names() {
    assert_eq!(slug("executeTool 15.10.1"), "executeTool-15.10.1");
    assert_eq!(slug("cancel a pending tool execution 5"), "cancel-a-pending-tool-execution-5");
}

#[test]
fn known_findings_are_set_apart_and_not_written() {
    let out = std::env::temp_dir().join(format!("webmcp-sim-fuzz-known-{}", std::process::id()));
    let args = FuzzArgs { shrink_iters: 0, ..args(&out) };
    let all = super::run_fuzz_knowing(&args, 0..6, &trace::known::Known::default(), &mut |_| {});
    let report = run_fuzz(&args, 0..6, &mut |_| {});
    let known: u64 = report.known.values().map(|(n, _)| n).sum();
    assert!(known > 0, "{}", render(&args, &(0..6), &report));
    assert!(report.findings.len() < all.findings.len(), "{}", render(&args, &(0..6), &report));
    assert!(!report.findings.keys().any(|k| k.starts_with("executeTool 15.10.1:")));
    std::fs::remove_dir_all(&out).ok();
}
