//! Tests of the plan strategies: sizes stay within the config, and every kind of statement and
//! step shows up.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

use super::*;

fn plans(config: GenConfig, n: usize) -> Vec<Plan> {
    let mut runner = TestRunner::deterministic();
    let strategy = plan(config);
    (0..n).map(|_| strategy.new_tree(&mut runner).expect("tree").current()).collect()
}

fn kinds(stmts: &[Stmt], out: &mut std::collections::BTreeSet<&'static str>) {
    for s in stmts {
        let kind = match s {
            Stmt::Log => "log",
            Stmt::Register(_) => "register",
            Stmt::ExecuteDict(_) => "execute-dict",
            Stmt::GetThenExecute(g) => {
                if !g.calls.is_empty() {
                    out.insert("execute-from-get-tools");
                }
                "get-then-execute"
            }
            Stmt::GetTools { .. } => "get-tools",
            Stmt::NewController => "new-controller",
            Stmt::Abort { .. } => "abort",
            Stmt::OnAbort { .. } => "on-abort",
            Stmt::Throw => "throw",
            Stmt::RemoveIframe(_) => "remove-iframe",
            Stmt::SetTimeout { body, .. } => {
                kinds(body, out);
                "set-timeout"
            }
            Stmt::OnToolchange { body } => {
                kinds(body, out);
                "on-toolchange"
            }
        };
        out.insert(kind);
    }
}

#[test]
fn plans_stay_within_the_config() {
    for max_docs in 1..=4 {
        let config = GenConfig { max_docs, ..GenConfig::default() };
        for p in plans(config, 100) {
            assert!((1..=max_docs).contains(&p.docs.len()));
            assert!(p.docs.iter().all(|d| d.script.len() <= config.max_statements));
        }
    }
    let bare = GenConfig { user_steps: false, agent_steps: false, options: false, ..GenConfig::default() };
    assert!(plans(bare, 100).iter().all(|p| p.user.is_empty()
        && p.agent.is_empty()
        && !p.fifo
        && !p.network_unbounded
        && !p.cleanup_every_traversable
        && p.script_navigation.is_none()));
}

#[test]
fn every_kind_of_statement_and_step_is_generated() {
    let mut seen = std::collections::BTreeSet::new();
    let mut user = std::collections::BTreeSet::new();
    for p in plans(GenConfig { max_docs: 4, ..GenConfig::default() }, 400) {
        for d in &p.docs {
            kinds(&d.script, &mut seen);
        }
        for u in &p.user {
            user.insert(format!("{u:?}").split(['(', ' ']).next().unwrap_or_default().to_string());
        }
    }
    let want = [
        "log",
        "register",
        "execute-dict",
        "get-then-execute",
        "execute-from-get-tools",
        "get-tools",
        "new-controller",
        "abort",
        "on-abort",
        "throw",
        "remove-iframe",
        "set-timeout",
        "on-toolchange",
    ];
    for w in want {
        assert!(seen.contains(w), "{w} never generated: {seen:?}");
    }
    assert_eq!(user.len(), 5, "every kind of user step");
}

/// `options.network` "unbounded" is generated, and with a navigation a script starts (where it
/// matters: the navigation's response may then come after a later timer).
#[test]
fn unbounded_network_is_generated_with_navigations() {
    let ps = plans(GenConfig { max_docs: 4, ..GenConfig::default() }, 400);
    let navigates = |p: &Plan| p.script_navigation.is_some();
    let navigations = ps.iter().filter(|p| navigates(p)).count();
    assert!(navigations > 100 && navigations < 220, "{navigations} of 400 plans with a script navigation (weight 0.4)");
    let with = ps.iter().filter(|p| p.network_unbounded && navigates(p)).count();
    let unbounded = ps.iter().filter(|p| p.network_unbounded).count();
    assert!(with > 20, "{with} of 400 plans navigate from a script with an unbounded network");
    for p in ps.iter().filter(|p| navigates(p)) {
        let want =
            if p.network_unbounded { scenario::NetworkModel::Unbounded } else { scenario::NetworkModel::Instant };
        assert_eq!(crate::build::build(p, "net").options.network, want);
    }
    assert!(unbounded > 40 && unbounded < 200, "{unbounded} of 400 plans with an unbounded network (weight 0.3)");
}
