//! Navigation from JavaScript pages (issue 27): `location.assign`, `location.href = …`,
//! `location.replace` and `location.reload()` navigate through the simulator's own navigation (the
//! steps the action language's `navigate` runs), so a page that navigates at some point reaches
//! the outcomes of the action-language scenario that navigates at that point; and a run that
//! navigates replays byte for byte.

use cli::{load_program, run_program, Driver, Format};
use sched::{RandomChooser, Schedule};

use crate::js::explored;
use crate::workspace_root;

/// Each page explored by the stateless search reaches exactly its action-language twin's
/// explored outcomes (the stateful search), and as many as written.
#[track_caller]
fn same_outcomes(pairs: &[(&str, &str, usize)]) {
    let mut differ = Vec::new();
    for (action, js, count) in pairs {
        let twin = explored(action, webmcp::SearchKind::Stateful);
        let page = explored(js, webmcp::SearchKind::Stateless);
        if twin != page {
            let only_twin: Vec<&String> = twin.difference(&page).collect();
            let only_page: Vec<&String> = page.difference(&twin).collect();
            differ.push(format!(
                "{action} and {js} differ:\n  only the twin: {only_twin:#?}\n  only the page: {only_page:#?}"
            ));
        } else if page.len() != *count {
            differ.push(format!("{js}: {} outcomes, not {count}", page.len()));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// A page that navigates while a tool call is pending: itself (`location.href = …`, cleanup 2.3.4
/// drops its own execution) or the target iframe (`contentWindow.location.assign`, cleanup 2.3.2
/// rejects the call).
#[test]
fn a_page_that_navigates_mid_call_reaches_the_outcomes_of_navigate_at_that_point() {
    same_outcomes(&[
        ("scenarios/lifecycle/same-document-navigates.jsonc", "scenarios/js/same-document-navigates.jsonc", 1),
        ("scenarios/lifecycle/target-navigated-away.jsonc", "scenarios/js/target-navigated-away.jsonc", 1),
    ]);
}

/// `location.assign` then `registerTool` in one task: the navigation completes in a later task.
#[test]
fn a_page_that_navigates_then_registers_reaches_its_twins_outcomes() {
    same_outcomes(&[(
        "scenarios/lifecycle/script-navigates-then-registers.jsonc",
        "scenarios/js/script-navigates-then-registers.jsonc",
        3,
    )]);
}

/// A sibling's `location.href` set across origins (`parent[0].location.href = …`) races the
/// toolchange walk, to another origin or to a server document with an iframe of its own.
#[test]
fn a_navigation_racing_a_notification_reaches_its_twins_outcomes() {
    same_outcomes(&[
        (
            "scenarios/races/navigation-to-exposed-origin-vs-notify.jsonc",
            "scenarios/js/navigation-to-exposed-origin-vs-notify.jsonc",
            2,
        ),
        (
            "scenarios/races/navigation-adds-exposed-frame-vs-notify.jsonc",
            "scenarios/js/navigation-adds-exposed-frame-vs-notify.jsonc",
            2,
        ),
    ]);
}

#[test]
fn a_page_that_navigates_replays_byte_for_byte() {
    for file in ["scenarios/js/script-navigates-then-registers.jsonc", "scenarios/js/target-navigated-away.jsonc"] {
        let program = load_program(&workspace_root().join(file)).unwrap();
        for seed in 0..10 {
            let ran = webmcp::run(&program, &mut RandomChooser::new(seed), webmcp::Limits::default()).unwrap();
            let schedule = Schedule::parse(&ran.schedule).unwrap();
            let first = run_program(&program, &Driver::Seed(seed), Format::Text, 10_000).unwrap();
            let replayed = run_program(&program, &Driver::Replay(schedule), Format::Text, 10_000).unwrap();
            assert_eq!(first, replayed, "{file} seed {seed}");
            assert!(first.contains("[HTML Location-object navigate 4]"), "{file}: {first}");
        }
    }
}
