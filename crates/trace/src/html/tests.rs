//! Tests for the HTML report. The cli crate's `render` tests load reports in headless Chromium.

use base64::Engine as _;
use sha2::{Digest, Sha256};

use crate::html::{escape, render_report, SCRIPT, SCRIPT_HASH, STYLE, STYLE_HASH};
use crate::render::{About, OutcomeGroup};
use crate::testdata::{hostile, notify, HOSTILE};

fn csp_hash(text: &str) -> String {
    format!("sha256-{}", base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text.as_bytes())))
}

#[test]
fn the_policy_allows_exactly_the_inline_style_and_script() {
    assert_eq!(STYLE_HASH, csp_hash(STYLE), "update STYLE_HASH");
    assert_eq!(SCRIPT_HASH, csp_hash(SCRIPT), "update SCRIPT_HASH");
}

fn groups() -> Vec<OutcomeGroup> {
    let mut other = notify();
    other.outcome.console.reverse();
    vec![
        OutcomeGroup { count: 150, found_by: "seed 0".into(), witness: notify() },
        OutcomeGroup { count: 50, found_by: "seed 3".into(), witness: other },
    ]
}

#[test]
fn a_report_has_a_section_diagram_and_step_through_per_outcome() {
    let about = About {
        path: "scenarios/spec/notify-task-ordering.jsonc",
        description: "A race.",
        runs: "seeds 0..200",
        counted: "",
        flags: "",
        ..About::default()
    };
    let html = render_report(&groups(), &about);
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"));
    assert!(html.contains("<body data-outcomes=\"2\" data-runs=\"200\">"), "{html}");
    assert!(html.contains("<title>webmcp-sim report: notify-task-ordering (2 outcomes)</title>"));
    assert!(html.contains("seeds 0..200: 200 runs, 2 distinct outcomes"));
    assert_eq!(html.matches("<section class=\"outcome\"").count(), 2);
    assert_eq!(html.matches("<svg ").count(), 2);
    assert!(html.contains("<td><a href=\"#o1\">1</a></td><td>150 (75%)</td>"), "{html}");
    assert!(html.contains("<li id=\"o2-u5\" data-unit=\"5\""), "{html}");
    assert!(html.contains("resolve p <cite>registerTool 21.2</cite>"), "{html}");
    assert!(html
        .contains("webmcp-sim replay scenarios/spec/notify-task-ordering.jsonc --schedule &#39;par#0,el0.timer&#39;"));
    // No network resource: nothing refers to another document.
    for needle in ["src=", "http-equiv=\"refresh\"", "<link", "@import", "url(http", "//fonts"] {
        assert!(!html.contains(needle), "{needle}");
    }
    assert_eq!(html.matches("<script").count(), 1);
    assert_eq!(html.matches("<style").count(), 1);
}

#[test]
fn hostile_strings_are_escaped_everywhere() {
    let groups = vec![OutcomeGroup { count: 1, found_by: HOSTILE[1].into(), witness: hostile() }];
    let about = About {
        path: HOSTILE[0],
        description: HOSTILE[1],
        runs: HOSTILE[4],
        counted: HOSTILE[3],
        flags: "",
        ..About::default()
    };
    let html = render_report(&groups, &about);
    // Strings with a character HTML gives meaning to never appear as they are.
    for h in HOSTILE.iter().filter(|h| h.contains(['<', '>', '&', '"', '\''])) {
        assert!(!html.contains(h), "{h:?} got through");
    }
    assert_eq!(html.matches("<script").count(), 1, "only the report's own script");
    assert!(!html.contains("<img") && !html.contains("<!--") && !html.contains("<![CDATA["));
}

#[test]
fn escape_covers_text_and_both_quotes() {
    assert_eq!(
        escape("<a href=\"x\" title='y'>&</a>"),
        "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
    );
    assert_eq!(escape("a\u{0}b\u{7}c\nd"), "a b c\nd");
}

#[test]
fn no_outcomes_is_a_page_that_says_so() {
    let html = render_report(&[], &About::default());
    assert!(html.contains("<p>No runs.</p>"));
    assert!(html.contains("data-outcomes=\"0\""));
}

#[test]
fn a_report_caps_what_it_embeds_and_says_so() {
    use crate::html::{MAX_LINE, MAX_SECTIONS, MAX_UNITS};
    let about =
        About { path: "s.jsonc", flags: "", description: "", runs: "seeds 0..200", counted: "", ..About::default() };
    let mut long = notify();
    let units = long.units.clone();
    while long.units.len() <= MAX_UNITS {
        long.units.extend(units.iter().cloned());
    }
    long.outcome.console[0].text = "x".repeat(10_000);
    let mut groups = vec![OutcomeGroup { count: 1, found_by: "seed 0".into(), witness: long }];
    for i in 1..MAX_SECTIONS + 20 {
        let mut t = notify();
        t.schedule = format!("par#0,el0.timer*{i}");
        groups.push(OutcomeGroup { count: 1, found_by: format!("seed {i}"), witness: t });
    }
    let html = render_report(&groups, &about);
    assert_eq!(html.matches("<section class=\"outcome\"").count(), MAX_SECTIONS);
    assert!(html.contains(&format!(
        "Outcomes {} to {} are left out of this page",
        MAX_SECTIONS + 1,
        MAX_SECTIONS + 20
    )));
    assert!(html.contains(&format!("--schedule &#39;par#0,el0.timer*{}&#39;", MAX_SECTIONS + 19)), "the last left out");
    assert!(html.contains("No diagram: the witness runs "), "a long witness is drawn");
    assert!(html.contains(&format!("The first {MAX_UNITS} of ")), "a long step-through is not cut");
    assert!(!html.contains(&"x".repeat(MAX_LINE)), "a long line is not cut");
    assert!(html.contains(&format!("{}…", "x".repeat(MAX_LINE - 1))));
}

#[test]
fn bidi_overrides_show_as_text() {
    assert_eq!(escape("a\u{202e}b\u{2066}"), "a\\u{202e}b\\u{2066}");
}
