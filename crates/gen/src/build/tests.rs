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
        docs: vec![doc(false, vec![abort, remove])],
        core: None,
        user: vec![UserStep::RemoveIframe(Pick(0))],
        agent: vec![],
    };
    let s = build(&plan, "empty");
    assert!(s.tabs[0].script.is_empty() && s.user.is_empty());
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
