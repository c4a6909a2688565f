//! `docs/findings.md` shows, for each finding with a fix variant, the diff that variant produces
//! on the finding's scenario. Each block follows a marker
//! `<!-- webmcp-sim diff SCENARIO --with OPTIONS -->`; this test regenerates every block and
//! compares (`UPDATE_FINDINGS=1` rewrites them).

use cli::diff::{compare, explore_side};
use cli::options::parse_changes;

use crate::workspace_root;

const MARKER: &str = "<!-- webmcp-sim diff ";

/// The text `webmcp-sim diff` prints for `args` (`SCENARIO --with OPTIONS`), run from the root.
fn diff_text(args: &str) -> String {
    let (scenario, with) = args.split_once(" --with ").unwrap_or_else(|| panic!("marker {args:?}: no --with"));
    let with = parse_changes(with).unwrap_or_else(|e| panic!("{args}: {e}"));
    let path = workspace_root().join(scenario);
    let options = webmcp::ExploreOptions::default();
    let base = explore_side(&path, &[], &options).unwrap_or_else(|e| panic!("{e}"));
    let with = explore_side(&path, &with, &options).unwrap_or_else(|e| panic!("{e}"));
    compare(scenario, base, with).render_text()
}

/// `text` with every marked block regenerated, and the number of blocks.
fn regenerate(text: &str) -> (String, usize) {
    let mut out = String::new();
    let mut rest = text;
    let mut blocks = 0;
    while let Some(at) = rest.find(MARKER) {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let end = from.find(" -->\n").expect("a marker ends with ` -->`");
        let args = &from[MARKER.len()..end];
        let after = &from[end + " -->\n".len()..];
        let body = after.strip_prefix("```console\n").expect("a marker is followed by a ```console block");
        let close = body.find("```\n").expect("the block is closed");
        out.push_str(&from[..end + " -->\n".len()]);
        out.push_str("```console\n");
        out.push_str(&diff_text(args));
        out.push_str("```\n");
        rest = &body[close + "```\n".len()..];
        blocks += 1;
    }
    out.push_str(rest);
    (out, blocks)
}

#[test]
fn findings_show_the_diff_each_fix_variant_produces() {
    let path = workspace_root().join("docs/findings.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let (regenerated, blocks) = regenerate(&text);
    if std::env::var_os("UPDATE_FINDINGS").is_some() {
        std::fs::write(&path, &regenerated).unwrap();
    }
    assert!(blocks >= 6, "docs/findings.md has {blocks} diff blocks");
    assert!(
        regenerated == text,
        "docs/findings.md's diff blocks are out of date; regenerate them with \
         `UPDATE_FINDINGS=1 cargo test -p cli --test it findings_show_the_diff`"
    );
}

#[test]
fn every_variant_that_models_a_finding_has_its_diff_in_findings_md() {
    let text = std::fs::read_to_string(workspace_root().join("docs/findings.md")).unwrap();
    let mut missing = Vec::new();
    for v in scenario::Variant::ALL.iter().filter(|v| v.models().starts_with("finding ")) {
        if !text.contains(&format!("--with variant={} -->", v.name())) {
            missing.push(v.name());
        }
    }
    assert!(missing.is_empty(), "variants modelling a finding with no diff block in docs/findings.md: {missing:?}");
}

#[test]
fn every_finding_with_a_suggested_fix_says_how_the_fix_is_executed() {
    let text = std::fs::read_to_string(workspace_root().join("docs/findings.md")).unwrap();
    let mut missing = Vec::new();
    // Each finding is a section headed `## N.` or `### PN.`.
    let sections = text.split("\n## ").flat_map(|s| s.split("\n### ")).skip(1);
    for section in sections {
        if section.contains("**Suggested fix.**") && !section.contains("**The fix, executed.**") {
            missing.push(section.lines().next().unwrap_or_default().to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "findings with a suggested fix but no executed fix (a variant, or why none): {missing:?}"
    );
}
