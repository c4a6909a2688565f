//! GitHub-flavoured Markdown for a spec issue: the scenario in a paragraph, a Mermaid sequence
//! diagram, the outcome table, the `replay` command, and the text trace folded away.

use std::fmt::Write as _;

use crate::mermaid::render_mermaid;
use crate::render::{outcome_lines, replay_command_with, About, OutcomeGroup, OutcomeLines};
use crate::Trace;

#[cfg(test)]
mod tests;

/// One run, ready to paste into a GitHub issue: the diagram, the outcome, the `replay` command.
pub fn render_markdown(trace: &Trace, about: &About) -> String {
    let mut s = header(trace, about);
    diagram(&mut s, trace);
    let _ = writeln!(s, "{}", outcome_table(&[("this run".to_string(), trace)], "runs"));
    replay(&mut s, trace, about);
    s
}

/// The distinct outcomes of many runs (`about.runs` says which): the outcome table, then each
/// outcome's witness with its diagram and `replay` command.
pub fn render_markdown_outcomes(groups: &[OutcomeGroup], about: &About) -> String {
    let Some(first) = groups.first() else {
        let mut s = String::from("### webmcp-sim: no runs\n\n");
        if !about.description.is_empty() {
            let _ = writeln!(s, "{}\n", inline(about.description));
        }
        return s;
    };
    let mut s = header(&first.witness, about);
    let total: u64 = groups.iter().map(|g| g.count).sum();
    let rows: Vec<(String, &Trace)> = groups.iter().map(|g| (format!("{} of {total}", g.count), &g.witness)).collect();
    let _ = writeln!(s, "{}", outcome_table(&rows, &inline(about.counted())));
    for (i, g) in groups.iter().enumerate() {
        let _ = writeln!(
            s,
            "#### Outcome {} ({} of {total} {}; witness: {})\n",
            i + 1,
            g.count,
            inline(about.counted()),
            inline(&g.found_by)
        );
        diagram(&mut s, &g.witness);
        replay(&mut s, &g.witness, about);
    }
    s
}

/// The title, the description paragraph and the run's options.
fn header(trace: &Trace, about: &About) -> String {
    let mut s = format!("### webmcp-sim: {}\n\n", inline(&trace.scenario));
    if !about.description.is_empty() {
        let _ = writeln!(s, "{}\n", inline(about.description));
    }
    let mut facts = Vec::new();
    if !about.path.is_empty() {
        facts.push(format!("scenario `{}`", code(about.path)));
    }
    facts.extend(trace.options.iter().map(|o| inline(o)));
    if !about.runs.is_empty() {
        facts.push(inline(about.runs));
    }
    facts.push(format!("spec: {}", inline(&trace.spec_revision)));
    let _ = writeln!(s, "{}\n", facts.join(" · "));
    s
}

/// A run's Mermaid sequence diagram, fenced.
fn diagram(s: &mut String, trace: &Trace) {
    let _ = writeln!(s, "```mermaid\n{}```\n", render_mermaid(trace));
}

/// The command that replays a run, and its text trace folded away.
fn replay(s: &mut String, trace: &Trace, about: &About) {
    let replay = replay_command_with(about.path, about.flags, &trace.schedule);
    let fence = fence_for(&replay);
    let _ = writeln!(s, "Replay it:\n\n{fence}sh\n{replay}\n{fence}\n");
    let text = trace.render_text();
    let fence = fence_for(&text);
    let _ = writeln!(s, "<details><summary>Text trace</summary>\n\n{fence}text\n{text}{fence}\n\n</details>\n");
}

/// An outcome table: one row per `(runs, trace)`, a column for each part of the outcome that any
/// row has.
fn outcome_table(rows: &[(String, &Trace)], counted: &str) -> String {
    let lines: Vec<_> = rows.iter().map(|(_, t)| outcome_lines(t)).collect();
    let column = |pick: Pick| lines.iter().map(|l| cell(pick(l))).collect::<Vec<_>>();
    let mut columns: Vec<(&str, Vec<String>)> = vec![
        ("outcome", (1..=rows.len()).map(|i| i.to_string()).collect()),
        (counted, rows.iter().map(|(runs, _)| inline(runs)).collect()),
        ("console", column(|l| &l.console)),
        ("promises", column(|l| &l.promises)),
    ];
    let optional: [(&str, Pick); 3] =
        [("agent", |l| &l.agent), ("uncaught", |l| &l.uncaught), ("findings", |l| &l.findings)];
    for (name, pick) in optional {
        if lines.iter().any(|l| !pick(l).is_empty()) {
            columns.push((name, column(pick)));
        }
    }
    columns.push(("tool maps", column(|l| &l.tool_maps)));
    columns.push(("end", lines.iter().map(|l| inline(&l.end)).collect()));
    let mut s = String::new();
    let _ = writeln!(s, "| {} |", columns.iter().map(|(h, _)| *h).collect::<Vec<_>>().join(" | "));
    let _ = writeln!(s, "|{}", "---|".repeat(columns.len()));
    for i in 0..rows.len() {
        let _ = writeln!(s, "| {} |", columns.iter().map(|(_, c)| c[i].as_str()).collect::<Vec<_>>().join(" | "));
    }
    s
}

/// Picks one column's lines out of an outcome.
type Pick = fn(&OutcomeLines) -> &[String];

/// A table cell: the lines escaped and joined with `<br>`; `–` when there are none.
fn cell(lines: &[String]) -> String {
    if lines.is_empty() {
        return "–".to_string();
    }
    lines.iter().map(|l| inline(l)).collect::<Vec<_>>().join("<br>")
}

/// Escapes untrusted text for a line of Markdown or a table cell.
///
/// HTML's `<`, `>` and `&` become character references, so no tag, comment or entity gets
/// through; Markdown's emphasis, code, link, table, strike-through and math characters get a
/// backslash; line breaks become spaces, so the text stays inside its paragraph or cell.
pub fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' | '$' | '!' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Text for a one-backtick code span: backticks and line breaks would end it, so they go.
fn code(text: &str) -> String {
    text.chars().map(|c| if c == '`' || c.is_control() { '\'' } else { c }).collect()
}

/// A code fence longer than any run of backticks in `text`, so the text cannot close it.
fn fence_for(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}
