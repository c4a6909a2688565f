//! `explore --delay-bound K` (CHESS): the schedules that deviate at most K times from the first
//! runnable lane, never reported complete when the bound cut one.

use std::collections::BTreeSet;

use cli::load_program;
use webmcp::{explore, ExploreOptions, SearchOptions};

use crate::workspace_root;

fn outcomes(ex: &trace::Exploration) -> BTreeSet<String> {
    ex.outcomes.iter().map(|o| o.summary.clone()).collect()
}

fn fixtures() -> Vec<std::path::PathBuf> {
    let root = workspace_root();
    vec![
        root.join("fixtures/bench/three-executions.jsonc"),
        root.join("scenarios/races/navigation-to-exposed-origin-vs-notify.jsonc"),
    ]
}

#[test]
fn delay_bound_zero_is_the_first_lane_schedule() {
    for file in fixtures() {
        let program = load_program(&file).unwrap();
        let ex = explore(&program, &ExploreOptions::from(SearchOptions { delay_bound: Some(0), ..Default::default() }))
            .unwrap();
        let trace = webmcp::run(&program, &mut sched::FirstChooser, webmcp::Limits::default()).unwrap();
        assert_eq!(ex.outcomes.len(), 1, "{}", file.display());
        assert_eq!(ex.outcomes[0].outcome, trace.outcome.canonical(), "{}", file.display());
        assert!(!ex.complete);
        assert_eq!(ex.bounds_hit, ["delay-bound (0)"]);
        assert!(
            ex.options.contains(&"delay-bound=0".to_string()) && ex.options.contains(&"reduction=state-caching".into())
        );
    }
}

#[test]
fn a_delay_bound_finds_what_the_naive_search_within_it_finds_and_grows_to_the_whole() {
    for file in fixtures() {
        let program = load_program(&file).unwrap();
        let whole = outcomes(&explore(&program, &ExploreOptions::default()).unwrap());
        let mut before = BTreeSet::new();
        for k in 0..=3 {
            let bounded = |reduction| {
                ExploreOptions::from(SearchOptions { reduce: reduction, delay_bound: Some(k), ..Default::default() })
            };
            let cached = explore(&program, &bounded(true)).unwrap();
            let naive = explore(&program, &bounded(false)).unwrap();
            assert_eq!(outcomes(&cached), outcomes(&naive), "{}: bound {k}", file.display());
            assert!(outcomes(&cached).is_subset(&whole) && before.is_subset(&outcomes(&cached)));
            // Complete only when nothing was cut, and then it found everything.
            assert!(!cached.complete || outcomes(&cached) == whole, "{}: bound {k}", file.display());
            assert!(cached.complete || cached.bounds_hit == [format!("delay-bound ({k})")]);
            before = outcomes(&cached);
        }
        let large =
            explore(&program, &ExploreOptions::from(SearchOptions { delay_bound: Some(1_000), ..Default::default() }))
                .unwrap();
        assert!(large.complete, "{}: {:?}", file.display(), large.bounds_hit);
        assert_eq!(outcomes(&large), whole, "{}", file.display());
    }
}

#[test]
fn the_report_says_what_a_delay_bound_covered() {
    let file = workspace_root().join("fixtures/bench/three-executions.jsonc");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_webmcp-sim"))
        .args(["explore", "--delay-bound", "1"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("delay-bound=1"), "{stdout}");
    assert!(stdout.contains("INCOMPLETE: stopped by delay-bound (1)"), "{stdout}");
    assert!(!stdout.contains("complete: every schedule"), "{stdout}");
}
