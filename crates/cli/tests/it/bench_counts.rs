//! The benchmark families' measured counts, written in each fixture's comment, are what the
//! search gives, and the reduced search finds the naive one's outcomes on their small members.

use std::collections::BTreeSet;

use cli::load_program;
use webmcp::{explore, ExploreOptions, SearchOptions};

use crate::workspace_root;

/// `// Measured: 34 choice points, 37 transitions, 1 outcome, complete` in a fixture's comment:
/// (choice points, transitions, outcomes).
fn measured(text: &str) -> Option<(u64, u64, usize)> {
    let line = text.lines().find_map(|l| l.strip_prefix("// Measured: "))?;
    let numbers: Vec<u64> = line
        .split(", ")
        .take(3)
        .map(|part| part.split(' ').next().unwrap_or("").replace(',', "").parse().ok())
        .collect::<Option<_>>()?;
    Some((numbers[0], numbers[1], numbers[2] as usize))
}

fn n_calls() -> Vec<std::path::PathBuf> {
    let files = cli::scenario_files(&workspace_root().join("fixtures/bench/n-calls")).unwrap();
    assert_eq!(files.len(), 18, "N = 2 … 10, with and without an abort");
    files
}

#[test]
fn n_calls_counts_are_the_ones_their_comments_say() {
    // As `webmcp-sim explore` searches by default: one work item (split depth 0).
    let options = ExploreOptions {
        search: SearchOptions { split_depth: 0, ..Default::default() },
        shortest_witnesses: false,
        ..ExploreOptions::default()
    };
    for file in n_calls() {
        let text = std::fs::read_to_string(&file).unwrap();
        let (states, transitions, outcomes) =
            measured(&text).unwrap_or_else(|| panic!("{}: no `// Measured:` line", file.display()));
        let ex = explore(&load_program(&file).unwrap(), &options).unwrap();
        assert!(ex.complete, "{}", file.display());
        assert_eq!(
            (ex.states, ex.transitions, ex.outcomes.len()),
            (states, transitions, outcomes),
            "{}: the comment's counts are not the search's",
            file.display()
        );
    }
}

#[test]
fn n_calls_reduced_search_finds_the_naive_outcomes() {
    let summaries = |ex: &trace::Exploration| ex.outcomes.iter().map(|o| o.summary.clone()).collect::<BTreeSet<_>>();
    let mut compared = 0;
    for file in n_calls() {
        let program = load_program(&file).unwrap();
        let naive = explore(
            &program,
            &ExploreOptions::from(SearchOptions { reduce: false, max_states: 300_000, ..Default::default() }),
        )
        .unwrap();
        if !naive.complete {
            continue;
        }
        let reduced = explore(&program, &ExploreOptions::default()).unwrap();
        assert_eq!(summaries(&reduced), summaries(&naive), "{}", file.display());
        // Every witness replays in the faithful model to its outcome.
        for class in &reduced.outcomes {
            let schedule = sched::Schedule::parse(&class.witness).unwrap();
            let mut chooser = sched::ReplayChooser::new(&schedule);
            let trace = webmcp::run(&program, &mut chooser, webmcp::Limits::default()).unwrap();
            assert_eq!(trace.outcome.canonical().summary(), class.summary, "{}", file.display());
        }
        compared += 1;
    }
    assert!(compared >= 4, "only {compared} members were small enough for the naive search");
}
