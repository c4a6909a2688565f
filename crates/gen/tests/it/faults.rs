//! Each deliberate engine bug (`webmcp::invariants::Fault`, a function parameter that only tests
//! pass) is caught by the invariant that is for it, shrunk by proptest to a scenario of a few
//! lines, and written as a file whose replay command reproduces the violation.

use gen::plan::{GenConfig, Plan};
use gen::{build, check_scenario, generate, minimize, BugKind, Case, CheckConfig};
use scenario::{Action, Scenario};
use sched::{ReplayChooser, Schedule};
use webmcp::invariants::{run_checked, Fault, Invariant};
use webmcp::Limits;

fn actions(list: &[Action]) -> usize {
    list.iter()
        .map(|a| {
            1 + match a {
                Action::RegisterTool(r) => actions(&r.tool.execute.do_) + actions(&r.tool.execute.on_abort),
                Action::SetTimeout(t) => actions(&t.do_),
                Action::Then(t) => actions(&t.on_fulfilled) + actions(&t.on_rejected),
                Action::On(o) => actions(&o.do_),
                Action::Navigate(n) => actions(&n.script),
                _ => 0,
            }
        })
        .sum()
}

fn frames(list: &[scenario::Frame]) -> (usize, usize) {
    list.iter().fold((0, 0), |(docs, acts), f| {
        let (d, a) = frames(&f.frames);
        (docs + 1 + d, acts + actions(&f.script) + a)
    })
}

/// Documents, and actions counted everywhere (scripts, callbacks, user and agent steps).
fn size(s: &Scenario) -> (usize, usize) {
    let (docs, acts) = frames(&s.tabs);
    (docs, acts + actions(&s.user) + s.agent.len())
}

/// Finds a seed whose scenario the fault breaks, shrinks it, writes it, and replays the file.
#[track_caller]
fn caught_and_shrunk(fault: Fault, invariant: Invariant, stem: &str) -> Scenario {
    let gen = GenConfig::default();
    let check = CheckConfig { schedules: 4, explore_max_states: 0, fault, ..CheckConfig::default() };
    let kind = BugKind::Invariant(invariant);
    let shows =
        |seed: u64, plan: &Plan| check_scenario(&build(plan, stem), &check, seed).first_bug(Some(kind)).is_some();
    let seed = (0..300).find(|s| shows(*s, &generate(*s, gen))).expect("the fault is caught within 300 seeds");
    let minimal = minimize(seed, gen, 5_000, |p| shows(seed, p)).expect("the first plan fails");
    let scenario = build(&minimal, stem);
    let report = check_scenario(&scenario, &check, seed);
    let bug = report.first_bug(Some(kind)).expect("the minimal plan fails").clone();
    let schedule = bug.schedule.clone().expect("a run shows it");
    let case = Case {
        scenario: scenario.clone(),
        schedule: schedule.clone(),
        title: format!("{:?} breaks {}: {}", fault, invariant.name(), bug.message),
        details: vec![format!("seed {seed}, shrunk")],
    };
    let path = gen::write_case(&crate::case_dir(), stem, &case).expect("written");
    let text = std::fs::read_to_string(&path).expect("read");
    let body: Vec<&str> = text.lines().filter(|l| !l.starts_with("//")).collect();
    let (docs, acts) = size(&scenario);
    assert!(
        docs == 1 && acts <= 3 && body.len() <= 16,
        "not shrunk to a few lines ({docs} documents, {acts} actions):\n{text}"
    );
    // The file and its replay command reproduce the violation.
    let (loaded, _) = scenario::load(&path).expect("the case loads");
    assert_eq!(loaded, scenario);
    let program = webmcp::compile(&loaded).expect("compiles");
    let mut chooser = ReplayChooser::new(&Schedule::parse(&schedule).expect("schedule"));
    let replayed = run_checked(&program, &mut chooser, Limits::default(), fault).expect("replays");
    assert!(replayed.violations.iter().any(|v| v.invariant == invariant), "{text}");
    assert_eq!(chooser.remaining(), 0);
    // Without the fault the same scenario and schedule are fine.
    let mut chooser = ReplayChooser::new(&Schedule::parse(&schedule).expect("schedule"));
    let clean = run_checked(&program, &mut chooser, Limits::default(), Fault::None).expect("replays");
    assert!(clean.violations.is_empty(), "{:?}", clean.violations);
    println!("{text}");
    scenario
}

#[test]
fn skipping_the_removal_of_a_pending_execution_is_caught_and_shrunk() {
    let s = caught_and_shrunk(Fault::KeepPendingExecutions, Invariant::PendingMaps, "fault-keep-pending-executions");
    let script = &s.tabs[0].script;
    assert!(script.iter().any(|a| matches!(a, Action::RegisterTool(_))), "{script:?}");
}

#[test]
fn settling_a_promise_twice_is_caught_and_shrunk() {
    caught_and_shrunk(Fault::ResettleSilently, Invariant::SettledOnce, "fault-resettle-silently");
}

#[test]
fn running_tasks_of_bfcached_documents_is_caught_and_shrunk() {
    let s = caught_and_shrunk(Fault::RunTasksOfBfcachedDocuments, Invariant::FullyActive, "fault-bfcached-tasks");
    assert!(s.user.iter().any(|a| matches!(a, Action::EnterBfcache(_))), "{:?}", s.user);
}
