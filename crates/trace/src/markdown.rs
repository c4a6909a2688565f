//! GitHub-flavoured Markdown for a spec issue: the scenario in a paragraph, a Mermaid sequence
//! diagram, the outcome table, the `replay` command, and the text trace folded away.

use std::fmt::Write as _;

use crate::escape::markdown as inline;
use crate::mermaid::render_mermaid;
use crate::render::{outcome_lines, replay_command_with, About, OutcomeGroup, OutcomeLines};
use crate::Trace;

#[cfg(test)]
mod tests;

/// The most characters GitHub takes in an issue or comment body: every Markdown document
/// rendered here fits in it. Documents are measured in UTF-8 bytes, never fewer than their
/// characters, so they fit whichever GitHub counts.
pub const MAX_BODY: usize = 65_536;

/// Characters kept free for the note that says what was left out.
const NOTE_ROOM: usize = 4_000;

/// Replay commands listed for the outcomes without a section; `explore` lists the rest.
const MAX_COMMANDS: usize = 50;

/// Table rows kept when a table would take more than half of [`MAX_BODY`].
const MIN_ROWS: usize = 20;

/// A document's size as measured against [`MAX_BODY`]: its UTF-8 bytes.
fn chars(text: &str) -> usize {
    text.len()
}

/// One run, ready to paste into a GitHub issue: the diagram, the outcome, the `replay` command.
///
/// It fits one issue body ([`MAX_BODY`]): when it would not, the text trace is left out, then
/// the diagram, and a note says so and how to see them.
pub fn render_markdown(trace: &Trace, about: &About) -> String {
    let head = header(trace, about);
    let mut diagram_text = String::new();
    diagram(&mut diagram_text, trace);
    let table = format!("{}\n", outcome_table(&[("this run".to_string(), trace)], "runs"));
    let mut full = String::new();
    replay(&mut full, trace, about);
    let mut short = String::new();
    replay_command_only(&mut short, trace, about);
    let candidates = [
        (true, true, ""),
        (true, false, "the text trace is left out"),
        (false, false, "the diagram and the text trace are left out"),
    ];
    for (with_diagram, with_trace, left_out) in candidates {
        let mut s = head.clone();
        if with_diagram {
            s.push_str(&diagram_text);
        }
        s.push_str(&table);
        s.push_str(if with_trace { &full } else { &short });
        if !left_out.is_empty() {
            let _ = writeln!(
                s,
                "*To fit one GitHub issue ({MAX_BODY} characters), {left_out}: the replay command above prints the trace (add `--format markdown` for the diagram).*\n"
            );
        }
        if chars(&s) <= MAX_BODY || !with_diagram {
            return cut(s);
        }
    }
    unreachable!("the last candidate returns")
}

/// The distinct outcomes of many runs (`about.runs` says which): the outcome table, then each
/// outcome's witness with its diagram and `replay` command ([`render_markdown_selected`] with
/// every outcome asked for).
pub fn render_markdown_outcomes(groups: &[OutcomeGroup], about: &About) -> String {
    render_markdown_selected(groups, about, None)
}

/// The distinct outcomes of many runs, for a spec issue: the outcome table, then the witness of
/// each outcome `show` asks for (indices into `groups`; `None`: every outcome) with its diagram
/// and `replay` command, and the replay commands of the outcomes without a section.
///
/// It fits one issue body ([`MAX_BODY`]): the table first (cut to its first rows if it alone
/// would take half the body), then as many of the outcomes asked for as fit, whole (or without
/// their text trace); a closing note says which outcomes were left out and how to see them.
pub fn render_markdown_selected(groups: &[OutcomeGroup], about: &About, show: Option<&[usize]>) -> String {
    let Some(first) = groups.first() else {
        let mut s = String::from("### webmcp-sim: no runs\n\n");
        if !about.description.is_empty() {
            let _ = writeln!(s, "{}\n", inline(about.description));
        }
        source(&mut s, about);
        return s;
    };
    let mut s = header(&first.witness, about);
    let total: u64 = groups.iter().map(|g| g.count).sum();
    let rows: Vec<(String, &Trace)> = groups.iter().map(|g| (format!("{} of {total}", g.count), &g.witness)).collect();
    let counted = inline(about.counted());
    let mut table = outcome_table(&rows, &counted);
    let mut shown_rows = rows.len();
    while chars(&table) > MAX_BODY / 2 && shown_rows > MIN_ROWS {
        shown_rows = (shown_rows / 2).max(MIN_ROWS);
        table = outcome_table(&rows[..shown_rows], &counted);
    }
    if chars(&s) + chars(&table) > MAX_BODY / 2 {
        // Rows too long even for a few: no table, only the note.
        shown_rows = 0;
        table.clear();
    }
    let _ = writeln!(s, "{table}");
    if shown_rows < rows.len() {
        let _ = writeln!(
            s,
            "*Rows {} to {} of the table are left out to fit one GitHub issue.*\n",
            shown_rows + 1,
            rows.len()
        );
    }
    let asked: Vec<usize> = match show {
        None => (0..groups.len()).collect(),
        Some(list) => {
            let mut list: Vec<usize> = list.iter().copied().filter(|&i| i < groups.len()).collect();
            list.sort_unstable();
            list.dedup();
            list
        }
    };
    if show.is_some_and(<[usize]>::is_empty) {
        let _ = writeln!(
            s,
            "*No outcome violates an expectation or shows a new finding, so none is drawn: the table above is the answer. Add `--outcome N` for outcome N's diagram and trace.*\n"
        );
    }
    // Each outcome whole, and without its text trace. As many outcomes as fit get their diagram
    // (without the text trace); then, in order, as many of those as fit get the text trace back.
    let sections: Vec<(String, String)> = asked
        .iter()
        .map(|&i| {
            let g = &groups[i];
            let mut title = format!(
                "#### Outcome {} ({} of {total} {}; witness: {})\n\n",
                i + 1,
                g.count,
                counted,
                inline(&g.found_by)
            );
            diagram(&mut title, &g.witness);
            let mut whole = title.clone();
            replay(&mut whole, &g.witness, about);
            replay_command_only(&mut title, &g.witness, about);
            (whole, title)
        })
        .collect();
    let mut room = MAX_BODY.saturating_sub(chars(&s));
    let all_whole: usize = sections.iter().map(|(whole, _)| chars(whole)).sum();
    if all_whole > room || asked.len() < groups.len() {
        room = room.saturating_sub(NOTE_ROOM);
    }
    let mut shown = 0;
    let mut used = 0;
    for (_, short) in &sections {
        if used + chars(short) > room {
            break;
        }
        used += chars(short);
        shown += 1;
    }
    let mut whole = vec![false; shown];
    for (i, (full, short)) in sections.iter().enumerate().take(shown) {
        if used + chars(full) - chars(short) <= room {
            used += chars(full) - chars(short);
            whole[i] = true;
        }
    }
    let shortened = whole.iter().filter(|w| !**w).count();
    for (i, (full, short)) in sections.iter().enumerate().take(shown) {
        s.push_str(if whole[i] { full } else { short });
    }
    if shown < asked.len() || shortened > 0 {
        let _ = writeln!(s, "*{}*\n", left_out_note(&asked, shown, shortened, about));
    }
    // The outcomes without a section: their replay commands.
    let drawn = &asked[..shown];
    let rest: Vec<usize> = (0..groups.len()).filter(|i| !drawn.contains(i)).collect();
    if !rest.is_empty() {
        if show.is_some() && shown == asked.len() {
            let _ = writeln!(
                s,
                "Replay any other outcome (add `--format markdown` for its diagram, or ask for it here with `--outcome N`):\n"
            );
        }
        let commands: Vec<String> = rest
            .iter()
            .map(|&i| {
                format!(
                    "# outcome {}\n{}\n",
                    i + 1,
                    replay_command_with(about.path, about.flags, &groups[i].witness.schedule)
                )
            })
            .collect();
        let fence = fence_for(&commands.concat());
        let _ = writeln!(s, "{fence}sh");
        for (k, command) in commands.iter().enumerate() {
            if k == MAX_COMMANDS || chars(&s) + chars(command) + 300 > MAX_BODY {
                let _ = writeln!(s, "# … and {} more: `webmcp-sim explore` lists every witness", commands.len() - k);
                break;
            }
            s.push_str(command);
        }
        let _ = writeln!(s, "{fence}\n");
    }
    cut(s)
}

/// What the note at the end of a cut Markdown document says.
fn left_out_note(asked: &[usize], shown: usize, shortened: usize, about: &About) -> String {
    let path = code(&crate::escape::shell(about.path));
    let mut note = format!("To fit one GitHub issue ({MAX_BODY} characters)");
    let outcomes = asked.len();
    if shown < outcomes {
        let _ = write!(
            note,
            ", outcomes {} are left out (each one's replay command below prints its trace; add `--format markdown` for its diagram)",
            ranges(&asked[shown..])
        );
    }
    if shortened > 0 {
        let sep = if shown < outcomes { ";" } else { "," };
        let _ =
            write!(note, "{sep} {shortened} of the outcomes shown come without their text trace (replay them for it)");
    }
    let _ = write!(note, ". Every outcome in one page: `webmcp-sim report {path} -o report.html`.");
    note
}

/// Outcome numbers (from indices) as ranges: `3 to 300`, `2, 5, 7 to 9`; after 20 ranges, how
/// many more.
fn ranges(indices: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &i in indices {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == i => *end = i,
            _ => runs.push((i, i)),
        }
    }
    let mut parts: Vec<String> = runs
        .iter()
        .take(20)
        .map(|&(a, b)| if a == b { (a + 1).to_string() } else { format!("{} to {}", a + 1, b + 1) })
        .collect();
    if runs.len() > 20 {
        let more: usize = runs[20..].iter().map(|(a, b)| b - a + 1).sum();
        parts.push(format!("{more} more"));
    }
    parts.join(", ")
}

/// The last resort: a document still over [`MAX_BODY`] (a title or description of the longest
/// kind cannot make it, since [`inline`] cuts them) is cut at a line break.
fn cut(mut s: String) -> String {
    if chars(&s) <= MAX_BODY {
        return s;
    }
    let mut keep = MAX_BODY - 200;
    while !s.is_char_boundary(keep) {
        keep -= 1;
    }
    let keep = s[..keep].rfind('\n').map_or(keep, |i| i + 1);
    s.truncate(keep);
    s.push_str("\n*Cut here to fit one GitHub issue.*\n");
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
    if !about.verdicts.is_empty() {
        let _ = writeln!(s, "**Expectations**\n");
        for v in about.verdicts {
            let _ = writeln!(s, "- {}", inline(v));
        }
        s.push('\n');
    }
    source(&mut s, about);
    s
}

/// The scenario's source, folded away, so a reader can save it and replay every command; a
/// source that would take more than a quarter of the body is left out, and the note says so.
fn source(s: &mut String, about: &About) {
    s.push_str(&source_details(about.path, about.source));
}

/// The scenario's source in a folded `<details>` block (every Markdown output that carries it:
/// `explore`, `check`, `report`, `diff`), its hidden characters written as JSON `\u` escapes
/// ([`crate::escape::source`]); a source over a quarter of [`MAX_BODY`] is left out with a note.
/// Empty for an empty source.
pub fn source_details(path: &str, source: &str) -> String {
    let mut s = String::new();
    if source.is_empty() {
        return s;
    }
    let name = code(path);
    if chars(source) > MAX_BODY / 4 {
        let _ = writeln!(
            s,
            "*The scenario source ({} bytes) is left out to fit one GitHub issue: attach the file `{name}`.*\n",
            chars(source)
        );
        return s;
    }
    let source = crate::escape::source(source);
    let text = if source.ends_with('\n') { source } else { format!("{source}\n") };
    let fence = fence_for(&text);
    let _ = writeln!(
        s,
        "<details><summary>Scenario source (<code>{}</code>)</summary>\n\n{fence}jsonc\n{text}{fence}\n\n</details>\n",
        crate::escape::html(path)
    );
    s
}

/// A run's Mermaid sequence diagram, fenced.
fn diagram(s: &mut String, trace: &Trace) {
    let _ = writeln!(s, "```mermaid\n{}```\n", render_mermaid(trace));
}

/// The command that replays a run, without the text trace.
fn replay_command_only(s: &mut String, trace: &Trace, about: &About) {
    let replay = replay_command_with(about.path, about.flags, &trace.schedule);
    let fence = fence_for(&replay);
    let _ = writeln!(s, "Replay it:\n\n{fence}sh\n{replay}\n{fence}\n");
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

/// Text for a one-backtick code span: backticks and line breaks would end it, so they go.
pub fn code(text: &str) -> String {
    crate::escape::terminal(text).replace('`', "'")
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
