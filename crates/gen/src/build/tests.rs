//! Tests of building scenarios from plans: every generated scenario validates and its `.jsonc`
//! text reads back equal; the layout follows the plan.

use proptest::prelude::*;

use super::*;
use crate::plan::{plan, GenConfig};

fn doc(new_tab: bool, script: Vec<Stmt>) -> DocPlan {
    DocPlan {
        new_tab,
        parent: Pick(0),
        url: UrlPlan { https: true, host: 0 },
        allow: Allow::Tools,
        sandbox: Sandbox::Absent,
        site_keyed: false,
        policy: PolicyHeader::Absent,
        script,
    }
}

#[test]
fn documents_become_tabs_and_iframes() {
    let plan = Plan {
        fifo: false,
        variants: [false, true, false],
        network_unbounded: false,
        cleanup_every_traversable: false,
        tab_opened: false,
        script_navigation: None,
        docs: vec![doc(false, vec![]), doc(false, vec![Stmt::Log]), doc(true, vec![]), doc(true, vec![])],
        core: None,
        user: vec![UserStep::BfcacheVisit(Pick(0)), UserStep::RemoveIframe(Pick(0))],
        agent: vec![],
    };
    let s = build(&plan, "layout");
    assert_eq!(s.tabs.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(), ["tab0", "tab1"]);
    // The fourth document asks for a new tab, but there are two already.
    assert_eq!(s.tabs[0].frames.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["f1", "f3"]);
    assert_eq!(s.tabs[0].frames[0].allow.as_deref(), Some("tools"));
    assert_eq!(s.tabs[1].allow, None);
    assert_eq!(s.options.variants, [scenario::Variant::TitleUndefined]);
    assert_eq!(s.user.len(), 3);
    assert!(scenario::validate(&s).is_empty());
}

#[test]
fn unresolvable_references_are_left_out() {
    let abort = Stmt::Abort { controller: Pick(0), when: AbortWhen::Now };
    let remove = Stmt::RemoveIframe(Pick(0));
    let plan = Plan {
        fifo: false,
        variants: [false; 3],
        network_unbounded: false,
        cleanup_every_traversable: false,
        tab_opened: false,
        script_navigation: None,
        docs: vec![doc(false, vec![abort, remove])],
        core: None,
        user: vec![UserStep::RemoveIframe(Pick(0))],
        agent: vec![],
    };
    let s = build(&plan, "empty");
    assert!(s.tabs[0].script.is_empty() && s.user.is_empty());
}

/// A script's navigation: a `navigate` of the document's iframe (or its own navigable) from a
/// timer at the end of its script, carrying the new document's script, whose registration counts
/// as the navigated document's.
#[test]
fn a_script_navigation_navigates_from_the_script() {
    let nav = |iframe: Option<Pick>, delay: Option<u64>| ScriptNavigation {
        doc: Pick(0),
        iframe,
        delay,
        url: UrlPlan { https: true, host: 1 },
        script: vec![Stmt::Log],
    };
    let plan = |n: ScriptNavigation| Plan {
        fifo: false,
        variants: [false; 3],
        network_unbounded: true,
        cleanup_every_traversable: false,
        tab_opened: false,
        script_navigation: Some(n),
        docs: vec![doc(false, vec![Stmt::Log]), doc(false, vec![])],
        core: None,
        user: vec![],
        agent: vec![],
    };
    let s = build(&plan(nav(Some(Pick(0)), Some(5))), "nav");
    assert_eq!(s.options.network, scenario::NetworkModel::Unbounded);
    let script = &s.tabs[0].script;
    assert_eq!(script.len(), 2, "{script:?}");
    let Action::SetTimeout(timer) = &script[1] else { panic!("{script:?}") };
    assert_eq!(timer.ms, 5);
    let [Action::Navigate(n)] = timer.do_.as_slice() else { panic!("{:?}", timer.do_) };
    assert_eq!(n.navigable, "f1");
    assert!(n.url.starts_with("https://") && n.url.contains("/s"), "{}", n.url);
    // The new document's log names it (the navigated navigable).
    let [Action::Log(line)] = n.script.as_slice() else { panic!("{:?}", n.script) };
    assert!(line.starts_with("f1 log"), "{line}");
    assert!(scenario::validate(&s).is_empty());
    // Its own navigable, at the end of the script.
    let s = build(&plan(nav(None, None)), "nav");
    let Action::Navigate(n) = &s.tabs[0].script[1] else { panic!("{:?}", s.tabs[0].script) };
    assert_eq!(n.navigable, "tab0");
    assert!(scenario::validate(&s).is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_scenarios_validate_and_round_trip(p in plan(GenConfig { max_docs: 4, ..GenConfig::default() })) {
        let s = build(&p, "generated");
        let problems = scenario::validate(&s);
        prop_assert!(problems.is_empty(), "{:?}", problems);
        let text = crate::jsonc::to_jsonc(&s, &["generated".into()]);
        let back = scenario::parse_str("generated.jsonc", &text);
        prop_assert_eq!(back.as_ref().ok(), Some(&s), "{}", text);
        let pretty = serde_json::to_string_pretty(&s).unwrap();
        prop_assert_eq!(scenario::parse_str("pretty.json", &pretty).ok(), Some(s.clone()));
        prop_assert!(webmcp::compile(&s).is_ok());
    }
}
