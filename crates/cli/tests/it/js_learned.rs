//! Inert tasks learned from JavaScript pages (issue 28, `webmcp::inert::learned`): the stateless
//! search that runs the tasks inert under the learned facts when they are queued reaches exactly
//! the outcomes of the stateless search that queues every task (the faithful model), on every
//! page of the corpus that unloads a document, and on two pages built to tell a document
//! unloaded at the virtual time a task was queued for it (a contradicted fact) from one unloaded
//! later (none).

use std::collections::BTreeSet;

use cli::load_program;

use crate::js::outcome_key;
use crate::workspace_root;

/// The outcomes of the complete stateless search of `path`, with or without inert tasks, and
/// the report's options.
fn explored(path: &std::path::Path, inert_tasks: bool) -> (BTreeSet<String>, Vec<String>) {
    let program = load_program(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let options = webmcp::ExploreOptions {
        kind: webmcp::SearchKind::Stateless,
        inert_tasks,
        ..webmcp::ExploreOptions::default()
    };
    let exploration = webmcp::explore(&program, &options).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(exploration.complete, "{}: the search was cut short", path.display());
    (exploration.outcomes.iter().map(|class| outcome_key(&class.outcome)).collect(), exploration.options)
}

/// Each page's outcomes, with the learned inert tasks and without any, differ nowhere.
#[test]
fn pages_that_unload_documents_reach_the_same_outcomes_with_learned_inert_tasks() {
    let mut differ = Vec::new();
    for page in [
        "abort-then-remove-fifo",
        "agent-call-completes-as-target-removed-variant",
        "agent-call-target-iframe-removed",
        "caller-iframe-removed-mid-call",
        "cancel-after-target-destroyed-fifo",
        "cancel-after-target-destroyed",
        "completion-15-10-2-after-target-unloads",
        "execute-15-1-target-removed",
        "execute-caller-not-fully-active",
        "get-tools-9-2-requestor-removed",
        "get-tools-not-fully-active",
        "navigation-adds-exposed-frame-vs-notify",
        "navigation-to-exposed-origin-vs-notify",
        "notify-2-tool-owner-removed",
        "register-not-fully-active",
        "same-document-navigates",
        "script-navigates-then-registers",
        "target-iframe-removed-mid-call",
        "target-navigated-away",
    ] {
        let path = workspace_root().join(format!("scenarios/js/{page}.jsonc"));
        let (learned, _) = explored(&path, true);
        let (faithful, _) = explored(&path, false);
        if learned != faithful {
            let only_faithful: Vec<&String> = faithful.difference(&learned).collect();
            let only_learned: Vec<&String> = learned.difference(&faithful).collect();
            differ.push(format!(
                "{page}:\n  only without inert tasks: {only_faithful:#?}\n  only with them: {only_learned:#?}"
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// A scenario whose tab removes its iframe `f` after `ms` milliseconds, while `f`'s script
/// registers a tool (registerTool 21.2 queues the task that resolves the page's promise, which
/// nobody reads: inert while `f` stays fully active).
fn removal_after(ms: u32) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("webmcp-sim-js-learned-{ms}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = format!(
        r#"{{ "version": 1, "name": "removal-after-{ms}", "description": "d", "tabs": [ {{ "id": "app", "url": "https://example.com/",
  "js": "setTimeout(() => document.getElementById('f').remove(), {ms});",
  "frames": [ {{ "id": "f", "url": "https://example.com/f", "js": "document.modelContext.registerTool({{ name: 't', description: 'd', execute: () => 'x' }});" }} ] }} ] }}"#
    );
    std::fs::write(dir.join("s.jsonc"), scenario).unwrap();
    dir.join("s.jsonc")
}

/// Removed at the virtual time the resolve task is queued (0 ms), the iframe can go before the
/// task runs, leaving the promise pending: the search learns that `f` is unloaded then, stops
/// running its tasks early, and finds that outcome. Removed at 5 ms, every schedule has run the
/// task by then (virtual time advances only when no lane can run): no fact is contradicted, and
/// the one outcome is the faithful model's.
#[test]
fn a_document_unloaded_at_the_time_of_its_task_contradicts_a_fact_and_one_unloaded_later_does_not() {
    let (learned, options) = explored(&removal_after(0), true);
    let (faithful, _) = explored(&removal_after(0), false);
    assert_eq!(learned, faithful);
    // The iframe removed between registerTool 21's in-parallel steps and the resolve task.
    let pending = r#"promises=["f: pending"] tools=[("app", []), ("f", ["t"])] findings=[] agent=[] end=quiescent"#;
    assert!(learned.iter().any(|o| o.ends_with(pending)), "{learned:#?}");
    assert_eq!(learned.len(), 4, "{learned:#?}");
    assert!(options.iter().any(|o| o.contains("documents unloaded [f]")), "{options:?}");

    let (learned, options) = explored(&removal_after(5), true);
    let (faithful, _) = explored(&removal_after(5), false);
    assert_eq!(learned, faithful);
    assert_eq!(learned.len(), 1, "{learned:#?}");
    assert!(options.iter().any(|o| o.contains("no fact contradicted")), "{options:?}");
}
