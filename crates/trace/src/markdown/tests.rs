//! Tests for the Markdown renderer.

use crate::markdown::{inline, render_markdown, render_markdown_outcomes, render_markdown_selected, MAX_BODY};
use crate::render::{About, OutcomeGroup};
use crate::testdata::{hostile, notify, HOSTILE};

const ABOUT: About = About {
    path: "scenarios/spec/notify-task-ordering.jsonc",
    description: "registerTool queues toolchange tasks in parallel; a setTimeout task races them.",
    runs: "seed 3",
    counted: "",
    flags: "",
    source: "",
    verdicts: &[],
};

#[test]
fn one_run_has_title_description_diagram_table_and_replay() {
    let md = render_markdown(&notify(), &ABOUT);
    assert!(md.starts_with("### webmcp-sim: notify-task-ordering\n\nregisterTool queues toolchange tasks in parallel; a setTimeout task races them.\n\n"), "{md}");
    assert!(md.contains("\n```mermaid\nsequenceDiagram\n    participant EL0 as el0 (parent, child)\n"), "{md}");
    assert!(md.contains("| outcome | runs | console | promises | tool maps | end |\n|---|---|---|---|---|---|\n| 1 | this run | Post-register task<br>Parent toolchange<br>Child toolchange<br>Register promise resolved | p (parent): fulfilled(undefined) | parent: \\[tool\\_name\\]<br>child: \\[\\] | quiescent |\n"), "{md}");
    assert!(
        md.contains(
            "```sh\nwebmcp-sim replay scenarios/spec/notify-task-ordering.jsonc --schedule 'par#0,el0.timer'\n```\n"
        ),
        "{md}"
    );
    assert!(
        md.contains("<details><summary>Text trace</summary>\n\n```text\nwebmcp-sim trace v1: notify-task-ordering\n"),
        "{md}"
    );
    assert!(md.ends_with("schedule: par#0,el0.timer\n```\n\n</details>\n\n"), "{md}");
}

#[test]
fn many_runs_have_one_row_per_outcome_and_a_witness_each() {
    let mut other = notify();
    other.outcome.console.reverse();
    let groups = [
        OutcomeGroup { count: 150, found_by: "seed 0".into(), witness: notify() },
        OutcomeGroup { count: 50, found_by: "seed 3".into(), witness: other },
    ];
    let md = render_markdown_outcomes(&groups, &About { runs: "seeds 0..200", ..ABOUT });
    assert!(md.contains("\n| 1 | 150 of 200 | Post-register task<br>"), "{md}");
    assert!(md.contains("\n| 2 | 50 of 200 | Register promise resolved<br>"), "{md}");
    assert!(md.contains("#### Outcome 2 (50 of 200 runs; witness: seed 3)\n"), "{md}");
    assert_eq!(md.matches("```mermaid\n").count(), 2);
    assert!(render_markdown_outcomes(&[], &ABOUT).starts_with("### webmcp-sim: no runs\n"));
}

#[test]
fn inline_escapes_html_markdown_and_line_breaks() {
    assert_eq!(inline("<script>&"), "&lt;script&gt;&amp;");
    assert_eq!(
        inline("a|b `c` *d* _e_ [f](g) ~h~ $i$ !j #k \\"),
        "a\\|b \\`c\\` \\*d\\* \\_e\\_ \\[f\\](g) \\~h\\~ \\$i\\$ \\!j \\#k \\\\"
    );
    assert_eq!(inline("two\nlines"), "two lines");
}

#[test]
fn hostile_strings_stay_in_their_cell_and_fences() {
    let t = hostile();
    let md = render_markdown(
        &t,
        &About {
            path: "we'ird `dir`/x.jsonc",
            description: HOSTILE[0],
            runs: HOSTILE[5],
            counted: HOSTILE[6],
            flags: "",
            source: HOSTILE[4],
            verdicts: &[],
        },
    );
    // Every table row has as many unescaped pipes as the header.
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| ")).collect();
    let pipes = |l: &str| l.match_indices('|').filter(|(i, _)| !l[..*i].ends_with('\\')).count();
    assert_eq!(rows.len(), 2);
    assert_eq!(pipes(rows[0]), pipes(rows[1]), "{}", rows[1]);
    // Outside fenced code, no hostile string appears raw.
    let mut in_fence = None::<String>;
    let mut outside = String::new();
    for line in md.lines() {
        match &in_fence {
            Some(f) if line == f => in_fence = None,
            Some(_) => {}
            None if line.starts_with("```") => in_fence = Some(line.chars().take_while(|&c| c == '`').collect()),
            None => {
                outside.push_str(line);
                outside.push('\n');
            }
        }
    }
    assert!(in_fence.is_none(), "a fence was left open");
    for h in HOSTILE.iter().filter(|h| h.contains(['<', '>', '&', '|', '`', '[', '*', '_', '$', '\n'])) {
        assert!(!outside.contains(h), "{h:?} outside a fence");
    }
    assert!(!outside.contains("<script") && !outside.contains("<img"), "{outside}");
    // The path goes to the shell quoted.
    assert!(md.contains("webmcp-sim replay 'we'\\''ird `dir`/x.jsonc' --schedule 'el0.timer,par#0'"), "{md}");
}

/// A trace with `n` times the units of the spec example.
fn long_trace(n: usize) -> crate::Trace {
    let mut t = notify();
    let units = t.units.clone();
    for k in 1..n {
        t.units.extend(units.iter().cloned().map(|mut u| {
            u.index += k * units.len();
            u
        }));
    }
    t
}

#[test]
fn many_outcomes_fit_one_issue_body_with_a_note_and_the_replay_commands_of_the_rest() {
    let groups: Vec<OutcomeGroup> = (0..300)
        .map(|i| {
            let mut t = long_trace(3);
            t.outcome.console[0].text = format!("outcome {i}");
            t.schedule = format!("par#0,el0.timer*{}", i + 1);
            OutcomeGroup { count: 1, found_by: format!("seed {i}"), witness: t }
        })
        .collect();
    let md = render_markdown_outcomes(&groups, &About { runs: "exploration", counted: "end states", ..ABOUT });
    assert!(md.len() <= MAX_BODY, "{} bytes", md.len());
    assert!(md.contains("#### Outcome 1 "), "the first outcome is shown");
    assert!(md.contains("*To fit one GitHub issue (65536 characters), outcomes "), "no note");
    assert!(md.contains("webmcp-sim report scenarios/spec/notify-task-ordering.jsonc -o report.html"));
    let shown = md.matches("```mermaid\n").count();
    assert!((1..300).contains(&shown), "{shown} diagrams");
    assert!(md.contains(&format!("# outcome {}\n", shown + 1)), "the first outcome left out has its command");
}

#[test]
fn a_long_run_fits_one_issue_body_without_its_text_trace_then_without_its_diagram() {
    for n in [40, 400] {
        let md = render_markdown(&long_trace(n), &ABOUT);
        assert!(md.len() <= MAX_BODY, "{n}: {} bytes", md.len());
        assert!(md.contains("To fit one GitHub issue (65536 characters), "), "{n}: no note");
        assert!(md.contains("```sh\nwebmcp-sim replay scenarios/spec/notify-task-ordering.jsonc --schedule"), "{n}");
        assert!(!md.contains("<summary>Text trace</summary>"), "{n}");
    }
    assert!(render_markdown(&long_trace(40), &ABOUT).contains("```mermaid\n"));
    assert!(!render_markdown(&long_trace(400), &ABOUT).contains("```mermaid\n"));
    // A short run stays whole.
    assert!(!render_markdown(&notify(), &ABOUT).contains("To fit one GitHub issue"));
}

#[test]
fn an_issue_shows_the_source_the_verdicts_and_only_the_outcomes_asked_for() {
    let mut other = notify();
    other.outcome.console.reverse();
    other.schedule = "el0.timer,par#0".into();
    let groups = [
        OutcomeGroup { count: 3, found_by: "seed 0".into(), witness: notify() },
        OutcomeGroup { count: 1, found_by: "seed 3".into(), witness: other },
    ];
    let verdicts = ["holds: always {}".to_string(), "VIOLATED: never {} (outcome 2)".to_string()];
    let source = "{\n  // a `comment` with ``` in it\n  \"name\": \"x\"\n}\n";
    let about = About { source, verdicts: &verdicts, ..ABOUT };
    let md = render_markdown_selected(&groups, &about, Some(&[1]));
    assert!(md.contains("**Expectations**\n\n- holds: always {}\n- VIOLATED: never {} (outcome 2)\n"), "{md}");
    assert!(
        md.contains(&format!(
            "<summary>Scenario source (<code>{}</code>)</summary>\n\n````jsonc\n{source}````\n",
            ABOUT.path
        )),
        "{md}"
    );
    assert_eq!(md.matches("```mermaid\n").count(), 1, "{md}");
    assert!(md.contains("#### Outcome 2 "), "{md}");
    assert!(!md.contains("#### Outcome 1 "), "{md}");
    assert!(
        md.contains(
            "# outcome 1\nwebmcp-sim replay scenarios/spec/notify-task-ordering.jsonc --schedule 'par#0,el0.timer'\n"
        ),
        "{md}"
    );
    // Nothing asked for: the table and every outcome's replay command, and a note that says why.
    let md = render_markdown_selected(&groups, &about, Some(&[]));
    assert_eq!(md.matches("```mermaid\n").count(), 0, "{md}");
    assert!(md.contains("No outcome violates an expectation"), "{md}");
    assert!(md.contains("# outcome 1\n") && md.contains("# outcome 2\n"), "{md}");
    // A source too big for a quarter of the body is left out, and the note names the file.
    let big = "x".repeat(MAX_BODY);
    let md = render_markdown(&notify(), &About { source: &big, ..ABOUT });
    assert!(md.contains("The scenario source (65536 bytes) is left out"), "{md}");
    assert!(md.len() <= MAX_BODY);
}

#[test]
fn the_diagram_ends_with_the_end_state() {
    let mut t = notify();
    t.outcome.promises[0].state = "pending".into();
    t.outcome.pending_executions = vec![("tab".into(), vec!["uuid get_weather of tab for tab".into()])];
    let md = render_markdown(&t, &ABOUT);
    // The leak line is longer than a note's line: wrapped at a space, never cut.
    assert!(
        md.contains("    Note over EL0,BR: end state: quiescent<br/>pending forever: p (parent)<br/>leak: pending tool executions of tab: uuid get_weather of<br/>tab for tab\n```"),
        "{md}"
    );
}
