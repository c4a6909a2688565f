//! Exploration: the reductions are sound, results do not depend on threads or shards, bounds
//! are reported, and every witness replays to its outcome.

use std::collections::BTreeSet;

use cli::load_program;
use sched::{ReplayChooser, Schedule};
use webmcp::Footprint;
use webmcp::{explore, ExploreOptions, LaneOrder, SearchOptions};

use crate::workspace_root;

fn corpus() -> Vec<std::path::PathBuf> {
    let root = workspace_root();
    let mut files = crate::explorable(cli::scenario_files(&root.join("scenarios")).unwrap());
    // The small benchmark only: the larger one (~200,000 states) is for `bench-explore`.
    files.push(root.join("fixtures/bench/three-executions.jsonc"));
    assert!(files.len() > 10, "the corpus is missing");
    files
}

fn summaries(ex: &trace::Exploration) -> BTreeSet<String> {
    ex.outcomes.iter().map(|o| o.summary.clone()).collect()
}

#[test]
fn reduced_search_finds_exactly_the_outcomes_of_the_naive_one() {
    let mut compared = 0;
    for file in corpus() {
        let program = load_program(&file).unwrap_or_else(|e| panic!("{e}"));
        let naive = explore(
            &program,
            &ExploreOptions::from(SearchOptions { reduce: false, max_states: 20_000, ..Default::default() }),
        )
        .unwrap();
        if !naive.complete {
            continue;
        }
        // Split into work items (the default) and as one work item: splitting expands the
        // first choice points naively, which can hide a missing dependency the one-item search
        // shows (scenarios/regressions/script-reads-navigated-frame.jsonc).
        // Every lane order: any order is sound.
        let orders = [LaneOrder::RevisitedFirst, LaneOrder::BroadestFirst, LaneOrder::Label];
        let cases = [ExploreOptions::default().search.split_depth, 0]
            .into_iter()
            .flat_map(|split_depth| orders.map(|order| (split_depth, order)));
        for (split_depth, lane_order) in cases {
            let reduced = explore(
                &program,
                &ExploreOptions::from(SearchOptions { split_depth, lane_order, ..Default::default() }),
            )
            .unwrap();
            let at = format!("{} (split depth {split_depth}, {lane_order:?} order)", file.display());
            assert!(reduced.complete, "{at}");
            assert_eq!(summaries(&reduced), summaries(&naive), "{at}: reduction changed the outcome set");
            assert!(reduced.transitions <= naive.transitions, "{at}");
        }
        compared += 1;
    }
    assert!(compared >= 40, "only {compared} scenarios were small enough to compare");
}

#[test]
fn reduced_search_finds_exactly_the_outcomes_of_the_naive_one_in_both_in_parallel_models() {
    use cli::options::Change;
    use scenario::model::ParallelModel;
    let mut compared = [0, 0];
    for file in corpus() {
        for (i, model) in [ParallelModel::Unordered, ParallelModel::Fifo].into_iter().enumerate() {
            let loaded = cli::load(&file, &[Change::Parallel(model)]).unwrap_or_else(|e| panic!("{e}"));
            let program = &loaded.program;
            let naive = explore(
                program,
                &ExploreOptions::from(SearchOptions { reduce: false, max_states: 20_000, ..Default::default() }),
            )
            .unwrap();
            if !naive.complete {
                continue;
            }
            let reduced = explore(program, &ExploreOptions::default()).unwrap();
            let at = format!("{} (parallel {model:?})", file.display());
            assert!(reduced.complete, "{at}");
            assert_eq!(summaries(&reduced), summaries(&naive), "{at}: reduction changed the outcome set");
            compared[i] += 1;
        }
    }
    assert!(compared.iter().all(|&n| n >= 40), "only {compared:?} scenarios were small enough to compare");
}

#[test]
fn lane_order_changes_the_transitions_not_the_states_or_outcomes() {
    let program = load_program(&workspace_root().join("fixtures/bench/four-executions.jsonc")).unwrap();
    let run = |lane_order| {
        webmcp::explore::explore_measured(
            &program,
            // Without inert tasks: a unit explored alone from its choice point (a persistent set
            // of one) makes the states visited depend on the order too.
            &ExploreOptions {
                search: SearchOptions { split_depth: 0, lane_order, ..Default::default() },
                inert_tasks: false,
                ..Default::default()
            },
        )
        .unwrap()
    };
    let with_inert = |lane_order| {
        explore(&program, &ExploreOptions::from(SearchOptions { split_depth: 0, lane_order, ..Default::default() }))
            .unwrap()
    };
    assert_eq!(summaries(&with_inert(LaneOrder::Label)), summaries(&with_inert(LaneOrder::BroadestFirst)));
    let (label, label_memory) = run(LaneOrder::Label);
    let (broadest, broadest_memory) = run(LaneOrder::BroadestFirst);
    assert!(label.complete && broadest.complete);
    assert_eq!(summaries(&broadest), summaries(&label));
    // State caching with sleep sets reaches every choice point with a lane awake in any order;
    // a choice point where every runnable lane is asleep ends its branch uncounted (issue 30),
    // and which ones are asleep depends on the order, so the counts differ by those only.
    assert!(broadest_memory.states > 0 && label_memory.states > 0);
    // Measured: 21,861 against 23,741 transitions.
    assert!(
        broadest.transitions * 100 < label.transitions * 95,
        "broadest-first explored {} transitions, label order {}",
        broadest.transitions,
        label.transitions
    );
}

/// The footprints of two units runnable after the first `forced` choices of a scenario: the
/// in-parallel block `block` and the task lane `task`, each run from the same state.
fn footprints_after(program: &webmcp::Program, forced: &[&str], block: &str, task: &str) -> (Footprint, Footprint) {
    let mut sim = webmcp::Sim::new(program).unwrap();
    sim.record = false;
    let run = |sim: &mut webmcp::Sim, label: &str| {
        let lanes = sim.runnable();
        let (lane, lane_ref) =
            lanes.into_iter().find(|(l, _)| l.as_str() == label).unwrap_or_else(|| panic!("{label} is not runnable"));
        sim.step(&lane, lane_ref, Vec::new()).unwrap()
    };
    for label in forced {
        run(&mut sim, label);
    }
    (run(&mut sim.clone(), block), run(&mut sim.clone(), task))
}

#[test]
fn a_notification_that_skipped_a_frame_conflicts_with_a_navigation_that_changes_what_it_shows() {
    // The shop's script registers the tool (its notification is `par:el0.net/0`); the driver
    // iframe's script (`el1.net`) starts a navigation of the skipped ads iframe, which completes
    // in the driver's next task (`el1.nav`).
    let root = workspace_root();
    for name in ["navigation-to-exposed-origin-vs-notify", "navigation-adds-exposed-frame-vs-notify"] {
        let program = load_program(&root.join(format!("scenarios/races/{name}.jsonc"))).unwrap();
        let (notify, navigate) = footprints_after(&program, &["el0.net", "el1.net"], "par:el0.net/0", "el1.nav");
        assert!(notify.conflicts(&navigate), "{name}: the notification and the navigation were taken to commute");
    }
    // The same race when the navigation keeps the origin and adds no iframe: the skip does not
    // depend on it, and the two commute.
    let text =
        std::fs::read_to_string(root.join("scenarios/races/navigation-to-exposed-origin-vs-notify.jsonc")).unwrap();
    let same_origin = text.replace("https://partner.example/widget", "https://ads.example/slot?page=2");
    let file = std::env::temp_dir().join(format!("webmcp-sim-same-origin-{}.jsonc", std::process::id()));
    std::fs::write(&file, same_origin).unwrap();
    let program = load_program(&file).unwrap();
    let _ = std::fs::remove_file(&file);
    let (notify, navigate) = footprints_after(&program, &["el0.net", "el1.net"], "par:el0.net/0", "el1.nav");
    assert!(!notify.conflicts(&navigate), "a same-origin navigation without iframes conflicted with the skip");
}

#[test]
fn units_taken_to_commute_do_commute_on_every_corpus_state() {
    // The independence relation itself, at every choice point of every corpus scenario: two units
    // whose footprints do not conflict must leave each other runnable, reach the same state in
    // either order, and touch nothing new after each other (webmcp::audit).
    let (mut states, mut pairs, mut audited) = (0, 0, 0);
    for file in corpus() {
        let program = load_program(&file).unwrap_or_else(|e| panic!("{e}"));
        let audit = webmcp::audit::audit_independence(&program, 20_000, 5_000).unwrap();
        if !audit.complete {
            continue;
        }
        let lines: Vec<String> = audit.violations.iter().map(|v| v.to_string()).collect();
        assert!(lines.is_empty(), "{}:\n{}", file.display(), lines.join("\n"));
        states += audit.states;
        pairs += audit.pairs;
        audited += 1;
    }
    assert!(audited >= 70, "only {audited} scenarios were audited completely");
    // Measured: 904 pairs in 807 states (with inert tasks run when queued there are fewer choice
    // points; 1,000+ before).
    assert!(pairs > 800, "only {pairs} independent pairs in {states} states");
}

#[test]
fn threads_and_shards_give_the_same_result() {
    for name in ["scenarios/races/unregister-reregister-new-schema.jsonc", "fixtures/bench/three-executions.jsonc"] {
        let program = load_program(&workspace_root().join(name)).unwrap();
        let with = |search: SearchOptions| explore(&program, &ExploreOptions { search, ..Default::default() }).unwrap();
        let one = with(SearchOptions::default());
        // Threads sharing one visited table: the same outcomes, witnesses and everything else;
        // the counts vary with thread timing, and the report says so among its options.
        for jobs in [2, 4] {
            let threads = with(SearchOptions { jobs, ..Default::default() });
            let said = threads.options.last().unwrap().clone();
            assert!(said.starts_with(&format!("jobs={jobs} (the threads share one visited table")), "{said}");
            assert_eq!(without_counts(threads), without_counts(one.clone()), "{name}: {jobs} threads differ from one");
        }
        // Shards keep a visited table per work item: merged, they are exactly one process that
        // does the same.
        let per_item = with(SearchOptions { table_per_work_item: true, ..Default::default() });
        let parts: Vec<_> = (1..=3).map(|k| with(SearchOptions { shard: (k, 3), ..Default::default() })).collect();
        let merged = trace::Exploration::merge(&parts).unwrap();
        assert_eq!(merged, per_item, "{name}: merged shards differ from one run");
        // And the same outcomes and witnesses as one table.
        assert_eq!(without_counts(merged), without_counts(one), "{name}");
    }
}

/// An exploration without what depends on thread timing when threads share the visited table:
/// its counts, and the option that says they vary (or that tables were kept per work item).
fn without_counts(mut ex: trace::Exploration) -> trace::Exploration {
    ex.states = 0;
    ex.transitions = 0;
    ex.work_items = 0;
    ex.options.retain(|o| !o.starts_with("jobs=") && !o.starts_with("visited-table="));
    for class in &mut ex.outcomes {
        class.end_states = 0;
    }
    ex
}

#[test]
fn work_items_replayed_from_their_choices_find_the_same_outcomes() {
    // Work items carry only their choice paths; each is replayed from the initial state.
    let program = load_program(&workspace_root().join("fixtures/bench/three-executions.jsonc")).unwrap();
    let whole =
        explore(&program, &ExploreOptions::from(SearchOptions { split_depth: 0, ..Default::default() })).unwrap();
    assert_eq!(whole.work_items, 1);
    for split_depth in [1, 2, 4] {
        let split =
            explore(&program, &ExploreOptions::from(SearchOptions { split_depth, ..Default::default() })).unwrap();
        assert!(split.complete);
        assert!(split.work_items > 1, "split depth {split_depth} made one work item");
        assert_eq!(summaries(&split), summaries(&whole), "split depth {split_depth} changed the outcome set");
    }
}

#[test]
fn the_larger_benchmark_stops_at_its_bound_and_says_so() {
    // 5,502 distinct states in all.
    let program = load_program(&workspace_root().join("fixtures/bench/five-executions.jsonc")).unwrap();
    let options = ExploreOptions::from(SearchOptions { max_states: 2_000, split_depth: 0, ..Default::default() });
    let (ex, memory) = webmcp::explore::explore_measured(&program, &options).unwrap();
    assert!(!ex.complete);
    assert_eq!(ex.bounds_hit, ["max-states (2000)"]);
    assert!(memory.states > 1_000 && memory.states <= 2_001, "{} distinct states for 2,001 expansions", memory.states);
    assert!(memory.bytes_per_state() > 24.0, "a table entry alone is 24 bytes");
}

#[test]
fn a_bound_makes_the_result_incomplete() {
    let program = load_program(&workspace_root().join("fixtures/bench/three-executions.jsonc")).unwrap();
    let ex = explore(
        &program,
        &ExploreOptions::from(SearchOptions { max_states: 10, split_depth: 0, ..Default::default() }),
    )
    .unwrap();
    assert!(!ex.complete);
    assert_eq!(ex.bounds_hit, ["max-states (10)"]);
    let ex =
        explore(&program, &ExploreOptions::from(SearchOptions { max_depth: 3, split_depth: 0, ..Default::default() }))
            .unwrap();
    assert!(!ex.complete);
    assert_eq!(ex.bounds_hit, ["max-depth (3)"]);
}

/// Both the fewest-choice witnesses and the ones the search met (made faithful one after the
/// other, each run starting where it stops sharing its picks with the last, `FaithfulRuns`).
#[test]
fn every_witness_replays_to_its_outcome() {
    let as_found = ExploreOptions { shortest_witnesses: false, ..Default::default() };
    for (file, options) in
        corpus().into_iter().flat_map(|f| [(f.clone(), ExploreOptions::default()), (f, as_found.clone())])
    {
        let program = load_program(&file).unwrap();
        let ex = explore(&program, &options).unwrap();
        for class in &ex.outcomes {
            let schedule = Schedule::parse(&class.witness).unwrap();
            let mut chooser = ReplayChooser::new(&schedule);
            let trace = webmcp::run(&program, &mut chooser, webmcp::Limits::default()).unwrap();
            assert_eq!(chooser.remaining(), 0, "{}: witness {} has unused choices", file.display(), class.witness);
            assert_eq!(trace.outcome.canonical(), class.outcome, "{}: witness {}", file.display(), class.witness);
        }
    }
}

/// The witness passes run beside the search (on a thread of their own, answering once the
/// search's outcomes come) give the report the passes run after the search give: on the corpus;
/// on ten-registrations, whose pass over the faithful model stops at its budget and falls back
/// to inert tasks first; and with budgets that stop both passes (ten-registrations at 40 choice
/// points, four-executions at 1,500) or the search itself (at 30).
#[test]
fn witness_passes_beside_the_search_give_the_report_they_give_after_it() {
    let with = |beside: bool, max_states: u64| ExploreOptions {
        witnesses_beside_search: beside,
        search: SearchOptions { max_states, ..Default::default() },
        ..Default::default()
    };
    let default = SearchOptions::default().max_states;
    let bench = |name: &str| workspace_root().join("fixtures/bench").join(name);
    let runs = corpus()
        .into_iter()
        .map(|file| (file, default))
        .chain([(bench("ten-registrations.jsonc"), default), (bench("ten-registrations.jsonc"), 40)])
        .chain([(bench("four-executions.jsonc"), 1_500), (bench("four-executions.jsonc"), 30)]);
    let mut ends = Vec::new();
    for (file, max_states) in runs {
        let program = load_program(&file).unwrap();
        let one = explore(&program, &with(true, max_states)).unwrap();
        assert_eq!(one, explore(&program, &with(false, max_states)).unwrap(), "{} at {max_states}", file.display());
        ends.push(one.witnesses);
    }
    // Each way the passes end: fewest choices over every schedule, with inert tasks first,
    // neither (both passes stopped), and the search incomplete.
    for end in [
        trace::WITNESSES_FEWEST.to_string(),
        format!(
            "{} (over every schedule, the breadth-first pass stopped at max-states",
            trace::WITNESSES_FEWEST_INERT_FIRST
        ),
        format!("{} (over every schedule, the breadth-first pass stopped at max-states", trace::WITNESSES_FOUND),
        format!("{} (the search was incomplete)", trace::WITNESSES_FOUND),
    ] {
        assert!(ends.iter().any(|e| e.starts_with(&end)), "no run's witnesses line starts with {end:?}");
    }
}

#[test]
fn the_audit_command_reports_each_scenario_and_its_bound() {
    let scenario = workspace_root().join("scenarios/races/navigation-to-exposed-origin-vs-notify.jsonc");
    let run = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_webmcp-sim"))
            .arg("audit")
            .arg(&scenario)
            .args(extra)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).to_string())
    };
    let (code, stdout) = run(&[]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("violations 0; complete"), "{stdout}");
    let (code, stdout) = run(&["--max-states", "1"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("choice points 1,") && stdout.contains("incomplete (a bound stopped it)"), "{stdout}");
}

#[test]
fn a_forced_step_on_a_sleeping_lane_is_not_taken() {
    // Two tabs on two event loops; each script creates an AbortController and touches nothing
    // else, so the two networking tasks commute. After `el1.net`, `el0.net` is the only runnable
    // lane, and it is asleep (explored first from the root): the search stops there instead of
    // reaching the end state the first branch reached.
    let text = r#"{
      "version": 1,
      "name": "two-independent-scripts",
      "tabs": [
        { "id": "one", "url": "https://one.example/", "script": [ { "newAbortController": "a" } ] },
        { "id": "two", "url": "https://two.example/", "script": [ { "newAbortController": "b" } ] }
      ]
    }"#;
    let file = std::env::temp_dir().join(format!("webmcp-sim-forced-asleep-{}.jsonc", std::process::id()));
    std::fs::write(&file, text).unwrap();
    let program = load_program(&file).unwrap();
    let _ = std::fs::remove_file(&file);
    let options = ExploreOptions::from(SearchOptions { split_depth: 0, ..Default::default() });
    let reduced = explore(&program, &options).unwrap();
    let naive = explore(
        &program,
        &ExploreOptions { search: SearchOptions { reduce: false, ..options.search.clone() }, ..options.clone() },
    )
    .unwrap();
    assert_eq!(summaries(&reduced), summaries(&naive));
    assert_eq!(naive.outcomes.iter().map(|o| o.end_states).sum::<u64>(), 2, "both orders end");
    assert_eq!(reduced.transitions, 2, "both orders are tried from the root");
    assert_eq!(reduced.outcomes.iter().map(|o| o.end_states).sum::<u64>(), 1, "the second order was run to its end");
}

#[test]
fn witnesses_have_the_fewest_choices_of_any_schedule() {
    // The naive search meets every schedule, so the shortest witness it meets has the fewest
    // choices there are: the breadth-first pass must match it, outcome by outcome.
    let choices = |ex: &trace::Exploration| -> Vec<(String, usize)> {
        let mut v: Vec<_> = ex.outcomes.iter().map(|o| (o.summary.clone(), o.witness_choices)).collect();
        v.sort();
        v
    };
    let (mut compared, mut shortened) = (0, 0);
    for file in corpus() {
        let program = load_program(&file).unwrap();
        // The pass's own claim, in the model the naive search walks (no inert tasks run early).
        let as_found = ExploreOptions { shortest_witnesses: false, inert_tasks: false, ..Default::default() };
        let naive = explore(
            &program,
            &ExploreOptions {
                search: SearchOptions { reduce: false, max_states: 20_000, ..as_found.search.clone() },
                ..as_found.clone()
            },
        )
        .unwrap();
        if !naive.complete {
            continue;
        }
        let fewest = explore(&program, &ExploreOptions { inert_tasks: false, ..Default::default() }).unwrap();
        let found = explore(&program, &as_found).unwrap();
        // With inert tasks (the default), a witness is turned back into a faithful schedule: it
        // can have more choices than the fewest, never fewer.
        let converted = explore(&program, &ExploreOptions::default()).unwrap();
        let (c, f) = (choices(&converted), choices(&fewest));
        assert!(c.iter().zip(&f).all(|(a, b)| a.0 == b.0 && a.1 >= b.1), "{}: {c:?} vs {f:?}", file.display());
        let at = file.display();
        assert_eq!(fewest.witnesses, trace::WITNESSES_FEWEST, "{at}");
        assert_eq!(found.witnesses, trace::WITNESSES_FOUND, "{at}");
        assert_eq!(choices(&fewest), choices(&naive), "{at}: not the fewest choices");
        let (fewest, found) = (choices(&fewest), choices(&found));
        assert!(fewest.iter().zip(&found).all(|(a, b)| a.0 == b.0 && a.1 <= b.1), "{at}: {fewest:?} vs {found:?}");
        shortened += usize::from(fewest != found);
        compared += 1;
    }
    assert!(compared >= 40, "only {compared} scenarios were small enough to compare");
    // On the corpus the reduced search's own witnesses are longer than they need be for a dozen
    // scenarios (get-tools/sorted-by-name: 16 choices in all against 6).
    assert!(shortened >= 5, "the pass shortened only {shortened} scenarios' witnesses");
}

#[test]
fn a_witness_pass_stopped_by_a_bound_keeps_the_search_witnesses_and_says_why() {
    let program = load_program(&workspace_root().join("scenarios/get-tools/sorted-by-name.jsonc")).unwrap();
    let found = explore(&program, &ExploreOptions { shortest_witnesses: false, ..Default::default() }).unwrap();
    let mut ex = found.clone();
    let stopped = webmcp::explore::shortest_witnesses(
        &program,
        &ExploreOptions::from(SearchOptions { max_states: 1, ..Default::default() }),
        &mut ex,
    )
    .unwrap();
    assert_eq!(stopped, Err("the breadth-first pass stopped at max-states (1)".into()));
    assert_eq!(ex, found, "a stopped pass changes nothing");
    let incomplete =
        explore(&program, &ExploreOptions::from(SearchOptions { max_states: 3, split_depth: 0, ..Default::default() }))
            .unwrap();
    assert!(!incomplete.complete);
    assert!(incomplete.witnesses.starts_with(trace::WITNESSES_FOUND), "{}", incomplete.witnesses);
    assert!(incomplete.witnesses.ends_with("(the search was incomplete)"), "{}", incomplete.witnesses);
}

#[test]
fn merge_takes_every_shard_of_one_file_exactly_once() {
    let file = workspace_root().join("fixtures/bench/three-executions.jsonc");
    let program = load_program(&file).unwrap();
    let dir = std::env::temp_dir().join(format!("webmcp-sim-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let part = |k: u64, n: u64, source: &std::path::Path| {
        let mut ex =
            explore(&program, &ExploreOptions::from(SearchOptions { shard: (k, n), ..Default::default() })).unwrap();
        cli::mark_shard(&mut ex, source).unwrap();
        let path = dir.join(format!("part-{k}-{n}-{}.json", source.file_name().unwrap().to_string_lossy()));
        std::fs::write(&path, ex.render_json()).unwrap();
        path
    };
    let (one, two) = (part(1, 2, &file), part(2, 2, &file));
    // One process that, like the shards, keeps a visited table per work item.
    let whole = explore(
        &program,
        &ExploreOptions::from(SearchOptions { split_depth: 2, table_per_work_item: true, ..Default::default() }),
    )
    .unwrap();
    assert_eq!(cli::merge_files(&[one.clone(), two.clone()]).unwrap().render_json(), whole.render_json());
    let missing = cli::merge_files(std::slice::from_ref(&one)).unwrap_err();
    assert!(missing.contains("missing shard(s) 2/2"), "{missing}");
    let twice = cli::merge_files(&[one.clone(), one.clone(), two.clone()]).unwrap_err();
    assert!(twice.contains("given twice"), "{twice}");
    // The same scenario name and options from a file with other bytes.
    let edited = dir.join("edited.jsonc");
    std::fs::write(&edited, format!("{}\n// edited\n", std::fs::read_to_string(&file).unwrap())).unwrap();
    let other = part(2, 2, &edited);
    let differ = cli::merge_files(&[one, other]).unwrap_err();
    assert!(differ.contains("different scenario or options"), "{differ}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pct_sampling_finds_the_spec_examples_orders_and_never_claims_complete() {
    let program = load_program(&workspace_root().join("scenarios/spec/notify-task-ordering.jsonc")).unwrap();
    let sampled = webmcp::sample::sample_pct(&program, 200, 0, 3, 10_000).unwrap();
    let explored = explore(&program, &ExploreOptions::default()).unwrap();
    assert!(!sampled.complete && sampled.bounds_hit[0].starts_with("sampling: 200 PCT schedules of depth 3"));
    assert!(summaries(&sampled).is_subset(&summaries(&explored)), "sampled an outcome exploration does not have");
    assert_eq!(summaries(&sampled), summaries(&explored), "200 runs of depth 3 find all four orders");
    assert_eq!(sampled, webmcp::sample::sample_pct(&program, 200, 0, 3, 10_000).unwrap(), "same seed, same result");
    for class in &sampled.outcomes {
        let mut chooser = ReplayChooser::new(&Schedule::parse(&class.witness).unwrap());
        let trace = webmcp::run(&program, &mut chooser, webmcp::Limits::default()).unwrap();
        assert_eq!(trace.outcome.canonical().summary(), class.summary, "a sampled witness replays");
    }
}

#[test]
fn timed_agent_steps_are_explored_finitely_and_the_reduction_keeps_their_outcomes() {
    // `at` and `within` in the `agent` list (the `agent.wait` lane, which counts as touching
    // everything): the naive search ends, and the reduced one finds exactly its outcomes. An
    // observation `at` 60 ms follows the page's 50 ms registration; `at` 50 ms races the timer's
    // task due then; `within` 0..100 ms comes before or after it.
    let root = workspace_root();
    let text = std::fs::read_to_string(root.join("scenarios/agent/observe-after-delayed-registration.jsonc")).unwrap();
    let at_50 = text.replace(r#""at": { "ms": 60"#, r#""at": { "ms": 50"#);
    assert_ne!(at_50, text);
    let file = std::env::temp_dir().join(format!("webmcp-sim-agent-at-50-{}.jsonc", std::process::id()));
    std::fs::write(&file, at_50).unwrap();
    let cases = [
        (root.join("scenarios/agent/observe-after-delayed-registration.jsonc"), 1),
        (file.clone(), 2),
        (root.join("scenarios/agent/observe-window-races-registration.jsonc"), 2),
    ];
    for (path, outcomes) in cases {
        let program = load_program(&path).unwrap_or_else(|e| panic!("{e}"));
        let naive = explore(
            &program,
            &ExploreOptions::from(SearchOptions { reduce: false, max_states: 20_000, ..Default::default() }),
        )
        .unwrap();
        let at = path.display();
        assert!(naive.complete, "{at}: the naive search did not end");
        assert_eq!(summaries(&naive).len(), outcomes, "{at}: {:#?}", summaries(&naive));
        for split_depth in [ExploreOptions::default().search.split_depth, 0] {
            for lane_order in [LaneOrder::RevisitedFirst, LaneOrder::BroadestFirst, LaneOrder::Label] {
                let reduced = explore(
                    &program,
                    &ExploreOptions::from(SearchOptions { split_depth, lane_order, ..Default::default() }),
                )
                .unwrap();
                assert!(reduced.complete, "{at}");
                assert_eq!(summaries(&reduced), summaries(&naive), "{at}: reduction changed the outcome set");
            }
        }
    }
    let _ = std::fs::remove_file(&file);
}

#[test]
fn the_progress_line_says_what_it_estimates() {
    let shown =
        cli::Shown { states: 12_288, seconds: 2.0, outcomes: 3, fraction: 0.375, tree: Some(3.2e7), over: false };
    assert_eq!(
        cli::progress_line(&shown),
        "12288 choice points, 6144 per second, 3 outcomes so far, about 37.5 % done (a guess from the search's position); \
         unreduced tree about 3.2e7 choice points (Knuth, 64 random schedules; state caching searches far fewer)"
    );
    // Before the estimate is known.
    let early = cli::progress_line(&cli::Shown { tree: None, ..shown });
    assert!(early.ends_with("(a guess from the search's position)"), "{early}");
    // After the search, while the witness pass runs.
    assert_eq!(
        cli::progress_line(&cli::Shown { over: true, ..shown }),
        "searched 12288 choice points, 3 outcomes; finding each outcome's fewest-choice witness (breadth-first)"
    );
}

#[test]
fn check_says_its_state_counts_vary_when_threads_share_a_table() {
    let dir = workspace_root().join("scenarios/timing");
    let check = |jobs| {
        let options = ExploreOptions::from(SearchOptions { jobs, split_depth: 2, ..Default::default() });
        cli::check_dir_with(&dir, &options, &[]).unwrap().text
    };
    let note = "(states vary from run to run with --jobs 2: the threads share one visited table)";
    assert!(check(2).contains(note), "{}", check(2));
    assert!(!check(1).contains("states vary"), "{}", check(1));
}

#[test]
fn shards_never_decide_alone() {
    // Issue 32: a `never` violated only by outcomes of shard 1 of 2. Shard 2 alone sees none of
    // them, so no command may decide the expectation from it; `merge --check` decides it over all.
    let root = workspace_root();
    let text = std::fs::read_to_string(root.join("scenarios/spec/notify-task-ordering.jsonc")).unwrap();
    let at = text.find("\"expect\": {").unwrap();
    let scenario = format!(
        "{}\"expect\": {{ \"never\": [ {{ \"before\": [\"Parent toolchange\", \"Post-register task\"] }} ] }}\n}}\n",
        &text[..at]
    );
    let dir = std::env::temp_dir().join(format!("webmcp-sim-shards-decide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("never.jsonc");
    std::fs::write(&file, &scenario).unwrap();
    let sim = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_webmcp-sim")).current_dir(&dir).args(args).output();
        let out = out.unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // The whole search: violated.
    let (code, stdout, _) = sim(&["check", "never.jsonc"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("0 hold, 1 violated"), "{stdout}");
    // Shard 1 alone sees only the outcome where the expectation holds: the premise of the test.
    let (_, shard_one, _) = sim(&["explore", "never.jsonc", "--shard", "1/2"]);
    assert!(shard_one.contains("distinct outcomes: 1\n"), "{shard_one}");
    // `check --shard` refuses (both formats), pointing to `explore --shard` and `merge --check`.
    for format in ["text", "markdown"] {
        let (code, stdout, stderr) = sim(&["check", "never.jsonc", "--shard", "1/2", "--format", format]);
        assert_eq!(code, Some(2), "{stdout}{stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(stderr.contains("merge --check"), "{stderr}");
    }
    let (code, _, stderr) = sim(&["explore", "never.jsonc", "--shard", "1/2", "--format", "markdown"]);
    assert_eq!(code, Some(2), "{stderr}");
    // A shard's report never says the whole search is complete.
    assert!(!shard_one.contains("every schedule was covered"), "{shard_one}");
    assert!(shard_one.contains("complete for this shard only (1 of 2): merge the parts to decide"), "{shard_one}");
    // The parts, merged and checked: violated, exit 1, with a witness.
    let mut parts = Vec::new();
    for k in 1..=2 {
        let (code, json, stderr) = sim(&["explore", "never.jsonc", "--shard", &format!("{k}/2"), "--format", "json"]);
        assert_eq!(code, Some(0), "{stderr}");
        let part = format!("part-{k}.json");
        std::fs::write(dir.join(&part), json).unwrap();
        parts.push(part);
    }
    let merge = |extra: &[&str]| {
        let mut args = vec!["merge", "--check"];
        args.extend(extra);
        args.extend(parts.iter().map(String::as_str));
        sim(&args)
    };
    let (code, stdout, stderr) = merge(&[]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("complete: every schedule was covered"), "{stdout}");
    assert!(stdout.contains("expectations over all 2 shards:"), "{stdout}");
    assert!(stdout.contains(": VIOLATED: an outcome where it holds"), "{stdout}");
    assert!(stdout.contains("witness: webmcp-sim replay never.jsonc --schedule"), "{stdout}");
    assert!(stdout.ends_with("expectations: 0 hold, 1 violated, 0 unknown\n"), "{stdout}");
    // The same merge decides a `never` no outcome shows as holding, exit 0.
    let holds = scenario
        .replace(r#"["Parent toolchange", "Post-register task"]"#, r#"["Child toolchange", "Parent toolchange"]"#);
    assert_ne!(holds, scenario);
    std::fs::write(dir.join("holds.jsonc"), &holds).unwrap();
    let mut parts_holding = Vec::new();
    for k in 1..=2 {
        let (_, json, _) = sim(&["explore", "holds.jsonc", "--shard", &format!("{k}/2"), "--format", "json"]);
        let part = format!("holds-{k}.json");
        std::fs::write(dir.join(&part), json).unwrap();
        parts_holding.push(part);
    }
    let mut args = vec!["merge", "--check"];
    args.extend(parts_holding.iter().map(String::as_str));
    let (code, stdout, stderr) = sim(&args);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.ends_with("expectations: 1 hold, 0 violated, 0 unknown\n"), "{stdout}");
    // A scenario file other than the one the shards explored is refused, not checked.
    let (code, stdout, stderr) = merge(&["--scenario", "holds.jsonc"]);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(stdout.is_empty() && stderr.contains("not the file the shards explored"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A search that panics (a simulator bug) ends `with_progress` with that panic: the progress
/// display's thread is told the search is over as the panic unwinds, so the scope that runs both
/// can end. Before, the display waited for a flag only a normal return set, and the process hung
/// until killed. Run on a thread of its own, so that a hang fails the test after a minute instead
/// of holding up the run.
#[test]
fn a_search_that_panics_ends_with_its_panic_instead_of_hanging() {
    let (sent, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let ended = std::panic::catch_unwind(|| {
            cli::with_progress(ExploreOptions::default(), |_, _| None, |_| -> () { panic!("a simulator bug") })
        });
        let message = ended.err().and_then(|panic| panic.downcast_ref::<&str>().map(|s| s.to_string()));
        let _ = sent.send(message);
    });
    let ended = received.recv_timeout(std::time::Duration::from_secs(60));
    assert_eq!(
        ended,
        Ok(Some("a simulator bug".to_string())),
        "with_progress should end with the search's panic within a minute"
    );
}
