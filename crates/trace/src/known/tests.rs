//! Tests for the known findings list.

use crate::known::{grouped, shipped, Known};
use crate::{Cite, Finding};

fn finding(step: &str, message: &str, from: Option<&str>) -> Finding {
    let cite = |s: &str| {
        let (alg, n) = s.rsplit_once(' ').unwrap();
        Cite { algorithm: alg.to_string(), step: n.to_string() }
    };
    Finding { unit: 3, cite: cite(step), message: message.into(), called_from: from.map(cite) }
}

#[test]
fn the_shipped_list_knows_finding_1_and_not_a_step_that_only_starts_like_it() {
    let f1 = finding("executeTool 15.10.1", "these steps are running in parallel (reached from x 1)", None);
    assert_eq!(shipped().id_of(&f1), Some(1));
    let null = finding("executeTool 15.1", "targetDocument's node navigable is not null (…)", None);
    assert_eq!(shipped().id_of(&null), Some(10));
    let other = finding("executeTool 15.10", "these steps are running in parallel", None);
    assert_eq!(shipped().id_of(&other), None);
    let agent = finding("agent tool call completion 1", "these steps are running in parallel", None);
    assert_eq!(shipped().id_of(&agent), None, "the simulator's own algorithm is never a spec finding");
}

#[test]
fn known_findings_are_grouped_once_per_outcome_and_new_ones_kept_whole() {
    let fs = [
        finding("executeTool 15.10.1", "these steps are running in parallel", Some("imperative execute steps 9.1.5")),
        finding("executeTool 15.10.1", "these steps are running in parallel", Some("imperative execute steps 9.1.5")),
        finding("executeTool 15.10.1", "these steps are running in parallel", Some("imperative execute steps 3")),
        finding("registerTool 9", "something new", None),
    ];
    assert_eq!(
        grouped(shipped(), &fs),
        vec![
            "known (finding 1): executeTool 15.10.1, from imperative execute steps 9.1.5 (2×); from imperative execute steps 3"
                .to_string(),
            "#003 registerTool 9: something new".to_string(),
        ]
    );
    assert_eq!(shipped().new_findings(&fs).len(), 1);
}

#[test]
fn a_bad_line_is_an_error_that_names_it() {
    assert!(Known::parse("# c\n1 | executeTool 15.10.1 |\n").is_ok());
    let e = Known::parse("\n\nx | y |").unwrap_err();
    assert!(e.starts_with("line 3: "), "{e}");
    assert!(Known::parse("1 | | text").is_err());
    assert_eq!(Known::parse("").unwrap(), Known::default());
}
