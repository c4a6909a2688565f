//! Tests for the SVG sequence diagram.

use crate::svg::render_svg;
use crate::testdata::{hostile, notify, HOSTILE};

#[test]
fn one_box_per_unit_and_one_arrow_per_queued_task() {
    let svg = render_svg(&notify(), "o1");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"seq\""), "{svg}");
    assert!(svg.ends_with("</svg>\n"));
    assert_eq!(svg.matches("<g class=\"unit ").count(), 6);
    assert_eq!(svg.matches("<path class=\"flow\"").count(), 4);
    assert_eq!(svg.matches("<path class=\"flow never\"").count(), 0);
    assert!(svg.contains("<a href=\"#o1-u3\"><g class=\"unit k-task\" data-unit=\"3\">"), "{svg}");
    assert!(svg.contains("<g class=\"unit k-par\" data-unit=\"1\">"), "{svg}");
    assert!(svg.contains(">el0 · parent, child</text>"), "{svg}");
    // Lanes: user, agent, then each event loop's lanes by first appearance, then parallel lanes.
    let order: Vec<usize> = ["el0.net", "el0.webmcp", "el0.timer", "par#0"]
        .iter()
        .map(|l| svg.find(&format!(">{l}</text>")).unwrap_or_else(|| panic!("no column {l}")))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
}

#[test]
fn never_run_work_gets_a_dashed_stub() {
    let mut t = notify();
    t.units.truncate(4);
    let svg = render_svg(&t, "x");
    assert_eq!(svg.matches("<path class=\"flow never\"").count(), 2);
}

#[test]
fn hostile_strings_are_escaped() {
    let svg = render_svg(&hostile(), "o\"><script>");
    // Strings with a character HTML gives meaning to never appear as they are.
    for h in HOSTILE.iter().filter(|h| h.contains(['<', '>', '&', '"', '\''])) {
        assert!(!svg.contains(h), "{h:?} got through");
    }
    assert!(!svg.contains("<script") && !svg.contains("<img") && !svg.contains("<!--"), "{svg}");
    assert!(!svg.contains('\0'));
}
