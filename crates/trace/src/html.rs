//! The self-contained HTML report: a scenario's distinct outcomes side by side, each with its
//! witness as an inline SVG sequence diagram and a step-through citing the spec step of every
//! unit. No network resource: the style and script are inline and allowed by their hashes in the
//! page's Content Security Policy, which forbids everything else.

use std::fmt::Write as _;

use crate::escape::html as escape;
use crate::render::{outcome_lines, replay_command_with, About, OutcomeGroup};
use crate::svg::render_svg;
use crate::{render_event, EventKind, Unit};

#[cfg(test)]
mod tests;

/// The page's style sheet.
pub const STYLE: &str = r#"
:root { color-scheme: light; --ink: #1a202c; --muted: #4a5568; --line: #cbd5e0; --task: #ebf4ff; --task-b: #4c6ef5;
  --par: #fff4e6; --par-b: #dd6b20; --agent: #e6fffa; --agent-b: #2c7a7b; --user: #faf5ff; --user-b: #805ad5;
  --time: #f7fafc; --time-b: #a0aec0; --hl: #fefcbf; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0 auto; padding: 1rem 1.5rem 3rem; max-width: 1400px; }
h1 { font-size: 1.5rem; margin: 0.2rem 0; }
h2 { font-size: 1.15rem; margin: 1.6rem 0 0.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.2rem; }
h2 .count { font-weight: normal; color: var(--muted); font-size: 0.95rem; margin-left: 0.5rem; }
.facts { color: var(--muted); }
code, .mono, cite { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.9em; }
cite { font-style: normal; color: var(--muted); }
table.outcomes { border-collapse: collapse; width: 100%; }
table.outcomes th, table.outcomes td { border: 1px solid var(--line); padding: 0.3rem 0.5rem; vertical-align: top; text-align: left; }
table.outcomes th { background: #edf2f7; }
table.outcomes td, dl.outcome dd, ol.units li, code { overflow-wrap: anywhere; }
p.capped { font-style: italic; color: var(--muted); }
ol.lines, ul.lines { margin: 0; padding-left: 1.1rem; }
dl.outcome { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0.5rem 0; }
dl.outcome dt { font-weight: 600; }
dl.outcome dd { margin: 0; }
.finding { color: #c53030; font-weight: 600; }
figure.diagram { margin: 0.8rem 0; overflow-x: auto; border: 1px solid var(--line); border-radius: 4px; padding: 4px; background: #fff; }
svg.seq text { font: 11px ui-monospace, "DejaVu Sans Mono", monospace; fill: var(--ink); }
svg.seq .group rect { fill: #edf2f7; stroke: var(--line); }
svg.seq .group text { font-weight: 600; }
svg.seq text.lane { fill: var(--muted); }
svg.seq .guide { stroke: var(--line); stroke-dasharray: 3 3; }
svg.seq .unit rect { stroke-width: 1.2; }
svg.seq .k-task rect { fill: var(--task); stroke: var(--task-b); }
svg.seq .k-par rect { fill: var(--par); stroke: var(--par-b); }
svg.seq .k-agent rect { fill: var(--agent); stroke: var(--agent-b); }
svg.seq .k-user rect { fill: var(--user); stroke: var(--user-b); }
svg.seq .k-time rect { fill: var(--time); stroke: var(--time-b); }
svg.seq .unit.flagged rect { stroke: #c53030; stroke-width: 2.5; }
svg.seq .unit.current rect { stroke: #b7791f; stroke-width: 3; fill: var(--hl); }
svg.seq .flow { fill: none; stroke: #718096; stroke-width: 1.3; }
svg.seq .flow.never { stroke-dasharray: 4 3; stroke: #c53030; }
svg.seq .arrowhead { fill: #718096; }
svg.seq .b-console { fill: #3182ce; }
svg.seq .b-promise { fill: #38a169; }
svg.seq .b-error { fill: #e53e3e; }
.legend span { display: inline-block; margin-right: 1rem; }
.legend i { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 50%; margin-right: 0.3rem; vertical-align: -0.1rem; }
.legend .b-console { background: #3182ce; } .legend .b-promise { background: #38a169; } .legend .b-error { background: #e53e3e; }
.stepper { margin: 0.4rem 0; }
.stepper button { font: inherit; padding: 0.1rem 0.6rem; }
.stepper .pos { margin-left: 0.6rem; font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
ol.units { list-style: none; padding: 0; margin: 0; }
ol.units > li { border-bottom: 1px solid #edf2f7; padding: 0.1rem 0.3rem; }
ol.units > li.current, ol.units > li:target { background: var(--hl); }
ol.units summary { cursor: pointer; }
ol.units .lane { color: var(--muted); }
ul.events { margin: 0.2rem 0 0.4rem; padding-left: 2.5rem; }
ul.events li.ev-console, ul.events li.ev-settled { color: #2b6cb0; }
ul.events li.ev-finding, ul.events li.ev-uncaught { color: #c53030; font-weight: 600; }
"#;

/// The page's script: a step-through control per outcome (the page reads fine without it), and
/// `data-outcomes-rendered` on `<body>`, which tests read to know the script ran.
pub const SCRIPT: &str = r#"
"use strict";
(function () {
  var sections = document.querySelectorAll("section.outcome");
  sections.forEach(function (section) {
    var units = section.querySelectorAll("ol.units > li");
    var stepper = section.querySelector(".stepper");
    var pos = stepper.querySelector(".pos");
    var current = -1;
    function show(i) {
      current = Math.max(-1, Math.min(units.length - 1, i));
      section.querySelectorAll(".current").forEach(function (e) { e.classList.remove("current"); });
      if (current < 0) {
        pos.textContent = units.length + " units: press next to step through them";
        return;
      }
      var li = units[current];
      var k = li.getAttribute("data-unit");
      section.querySelectorAll('[data-unit="' + k + '"]').forEach(function (e) { e.classList.add("current"); });
      var details = li.querySelector("details");
      if (details) { details.open = true; }
      pos.textContent = "unit " + (current + 1) + " of " + units.length + ": " + li.getAttribute("data-summary");
    }
    stepper.querySelector(".prev").addEventListener("click", function () { show(current - 1); });
    stepper.querySelector(".next").addEventListener("click", function () { show(current + 1); });
    stepper.hidden = false;
    show(-1);
  });
  document.body.setAttribute("data-outcomes-rendered", String(sections.length));
})();
"#;

/// `sha256-…` of [`STYLE`] and [`SCRIPT`], for the Content Security Policy (a unit test checks
/// them against the constants).
pub const STYLE_HASH: &str = "sha256-WR6hio+1HmKjq3dXhADEfxZj+MFHsz9azV5SbAYyNFs=";
pub const SCRIPT_HASH: &str = "sha256-YUB3oYfc4BdWD2teuMaS3GEAEV/oHHPtazH/3SoLoUU=";

/// The most outcome sections (diagram and step-through) a report embeds; the summary table
/// lists more, up to [`MAX_ROWS`].
pub const MAX_SECTIONS: usize = 100;

/// The most rows of the summary table.
pub const MAX_ROWS: usize = 1_000;

/// The most units a section's step-through lists; a witness with more gets no diagram either.
pub const MAX_UNITS: usize = 1_000;

/// A report stops adding outcome sections once it is this large (in bytes).
pub const MAX_BYTES: usize = 8 << 20;

/// The longest line of text (a log line, a promise's value) a table or list shows, in characters.
pub const MAX_LINE: usize = 2_000;

/// Renders the report of a scenario's distinct outcomes, in the order given.
///
/// What it embeds is capped ([`MAX_SECTIONS`], [`MAX_ROWS`], [`MAX_UNITS`], [`MAX_BYTES`],
/// [`MAX_LINE`]); wherever a cap leaves something out, the page says what and how to see it.
pub fn render_report(groups: &[OutcomeGroup], about: &About) -> String {
    let name = groups.first().map_or("", |g| g.witness.scenario.as_str());
    let total: u64 = groups.iter().map(|g| g.count).sum();
    let mut s = String::new();
    s.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(
        s,
        r#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src '{STYLE_HASH}'; script-src '{SCRIPT_HASH}'; img-src data:; base-uri 'none'; form-action 'none'">"#
    );
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    s.push_str("<meta name=\"generator\" content=\"webmcp-sim\">\n");
    let _ = writeln!(s, "<title>webmcp-sim report: {} ({} outcomes)</title>", escape(name), groups.len());
    let _ = writeln!(s, "<style>{STYLE}</style>\n</head>");
    let _ = writeln!(s, r#"<body data-outcomes="{}" data-runs="{total}">"#, groups.len());
    let _ = writeln!(s, "<header>\n<h1>{}</h1>", escape(name));
    if !about.description.is_empty() {
        let _ = writeln!(s, r#"<p class="description">{}</p>"#, escape(about.description));
    }
    let mut facts = Vec::new();
    if !about.path.is_empty() {
        facts.push(format!("<code>{}</code>", escape(about.path)));
    }
    if let Some(g) = groups.first() {
        facts.extend(g.witness.options.iter().map(|o| escape(o)));
    }
    let runs = if about.runs.is_empty() { String::new() } else { format!("{}: ", escape(about.runs)) };
    facts.push(format!("{runs}{total} {}, {} distinct outcomes", escape(about.counted()), groups.len()));
    if let Some(g) = groups.first() {
        facts.push(format!("spec: {}", escape(&g.witness.spec_revision)));
    }
    let _ = writeln!(s, r#"<p class="facts">{}</p>"#, facts.join(" · "));
    s.push_str("</header>\n<main>\n");
    summary_table(&mut s, groups, total, about);
    let mut shown = 0;
    for (i, g) in groups.iter().enumerate().take(MAX_SECTIONS) {
        if s.len() > MAX_BYTES {
            break;
        }
        outcome_section(&mut s, i + 1, g, total, about);
        shown += 1;
    }
    if shown < groups.len() {
        let _ = writeln!(
            s,
            r#"<p class="capped">Outcomes {} to {} are left out of this page to keep it small (at most {MAX_SECTIONS} outcomes and {} MB); each one's witness replays with the command below. <code>webmcp-sim explore</code> lists every outcome.</p>"#,
            shown + 1,
            groups.len(),
            MAX_BYTES >> 20
        );
        s.push_str("<ol class=\"lines\">");
        for (i, g) in groups.iter().enumerate().skip(shown).take(MAX_ROWS) {
            let _ = write!(
                s,
                "<li value=\"{}\"><code>{}</code></li>",
                i + 1,
                escape(&replay_command_with(about.path, about.flags, &g.witness.schedule))
            );
        }
        s.push_str("</ol>\n");
    }
    let _ = writeln!(s, "</main>\n<script>{SCRIPT}</script>\n</body>\n</html>");
    s
}

/// `count (share%)`, the share rounded to a whole percent.
fn share(count: u64, total: u64) -> String {
    let percent = (count * 200 + total) / (2 * total.max(1));
    format!("{count} ({percent}%)")
}

fn summary_table(s: &mut String, groups: &[OutcomeGroup], total: u64, about: &About) {
    s.push_str("<section class=\"summary\">\n<h2>Outcomes</h2>\n");
    if groups.is_empty() {
        s.push_str("<p>No runs.</p>\n</section>\n");
        return;
    }
    let findings = groups.iter().any(|g| !g.witness.outcome.findings.is_empty());
    let _ = write!(
        s,
        "<table class=\"outcomes\">\n<thead><tr><th>outcome</th><th>{}</th><th>console</th><th>promises</th>",
        escape(about.counted())
    );
    if findings {
        s.push_str("<th>findings</th>");
    }
    s.push_str("<th>end</th></tr></thead>\n<tbody>\n");
    for (i, g) in groups.iter().enumerate().take(MAX_ROWS) {
        let l = outcome_lines(&g.witness);
        let _ = write!(
            s,
            r##"<tr data-outcome="{n}"><td><a href="#o{n}">{n}</a></td><td>{}</td><td>{}</td><td>{}</td>"##,
            share(g.count, total),
            list(&l.console),
            list(&l.promises),
            n = i + 1,
        );
        if findings {
            let _ = write!(s, r#"<td class="finding">{}</td>"#, list(&l.findings));
        }
        let _ = writeln!(s, "<td>{}</td></tr>", escape(&l.end));
    }
    s.push_str("</tbody>\n</table>\n");
    if groups.len() > MAX_ROWS {
        let _ = writeln!(
            s,
            r#"<p class="capped">The table shows the first {MAX_ROWS} of {} outcomes; <code>webmcp-sim explore</code> lists them all.</p>"#,
            groups.len()
        );
    }
    s.push_str("</section>\n");
}

/// An ordered list of escaped lines, or `–`.
fn list(lines: &[String]) -> String {
    if lines.is_empty() {
        return "–".to_string();
    }
    let items: String =
        lines.iter().map(|l| format!("<li>{}</li>", escape(&crate::flow::truncate(l, MAX_LINE)))).collect();
    format!(r#"<ol class="lines">{items}</ol>"#)
}

fn outcome_section(s: &mut String, n: usize, g: &OutcomeGroup, total: u64, about: &About) {
    let t = &g.witness;
    let id = format!("o{n}");
    let _ = writeln!(s, r#"<section class="outcome" id="{id}" data-outcome="{n}">"#);
    let _ = writeln!(
        s,
        r#"<h2>Outcome {n} <span class="count">{} of {total} {}</span></h2>"#,
        g.count,
        escape(about.counted())
    );
    let l = outcome_lines(t);
    s.push_str("<dl class=\"outcome\">\n");
    let mut row = |name: &str, lines: &[String], class: &str| {
        if !lines.is_empty() || matches!(name, "console" | "promises") {
            let _ = writeln!(s, r#"<dt>{name}</dt><dd class="{class}">{}</dd>"#, list(lines));
        }
    };
    row("console", &l.console, "");
    row("promises", &l.promises, "");
    row("tool maps", &l.tool_maps, "");
    row("agent", &l.agent, "");
    row("uncaught", &l.uncaught, "finding");
    row("findings", &l.findings, "finding");
    let _ = writeln!(s, "<dt>end</dt><dd>{}</dd>", escape(&l.end));
    let _ = writeln!(s, "<dt>witness</dt><dd>{}</dd>", escape(&g.found_by));
    let _ = writeln!(
        s,
        "<dt>replay</dt><dd><code>{}</code></dd>",
        escape(&replay_command_with(about.path, about.flags, &t.schedule))
    );
    s.push_str("</dl>\n");
    s.push_str(
        "<p class=\"legend\"><span><i class=\"b-console\"></i>console</span><span><i class=\"b-promise\"></i>promise settled</span>\
         <span><i class=\"b-error\"></i>uncaught or finding</span><span>arrow: queued → ran</span></p>\n",
    );
    if t.units.len() <= MAX_UNITS {
        let _ = writeln!(s, "<figure class=\"diagram\">\n{}</figure>", render_svg(t, &id));
    } else {
        let _ = writeln!(
            s,
            r#"<p class="capped">No diagram: the witness runs {} units, more than the {MAX_UNITS} a page draws; the replay command above prints its whole trace.</p>"#,
            t.units.len()
        );
    }
    s.push_str(
        "<div class=\"stepper\" hidden><button type=\"button\" class=\"prev\">◀ prev</button> \
         <button type=\"button\" class=\"next\">next ▶</button><span class=\"pos\"></span></div>\n",
    );
    let _ = writeln!(s, "<details class=\"steps\" open><summary>Step-through: {} units</summary>", t.units.len());
    s.push_str("<ol class=\"units\">\n");
    for (u, unit) in t.units.iter().enumerate().take(MAX_UNITS) {
        step(s, &id, u, unit);
    }
    s.push_str("</ol>\n");
    if t.units.len() > MAX_UNITS {
        let _ = writeln!(
            s,
            r#"<p class="capped">The first {MAX_UNITS} of {} units; the replay command above prints them all.</p>"#,
            t.units.len()
        );
    }
    s.push_str("</details>\n</section>\n");
}

/// One unit of the step-through: its header line with the spec step, its events below.
fn step(s: &mut String, id: &str, u: usize, unit: &Unit) {
    let summary = format!("#{:03} {} [{}]", unit.index, unit.what, unit.cite);
    let _ = write!(
        s,
        r#"<li id="{id}-u{u}" data-unit="{u}" data-summary="{}"><details><summary><span class="mono">#{:03} t={}</span> <span class="lane mono">{}</span>"#,
        escape(&summary),
        unit.index,
        unit.time,
        escape(&unit.lane)
    );
    if let Some(d) = &unit.document {
        let _ = write!(s, " <span class=\"mono\">{}</span>", escape(d));
    }
    let _ = write!(s, " {} <cite>{}</cite>", escape(&unit.what), escape(&unit.cite.to_string()));
    if !unit.choice_among.is_empty() {
        let _ = write!(s, " <span class=\"lane\">(chosen among {})</span>", escape(&unit.choice_among.join(", ")));
    }
    s.push_str("</summary>");
    if !unit.events.is_empty() {
        s.push_str("<ul class=\"events\">");
        for e in &unit.events {
            let class = match e.kind {
                EventKind::Console { .. } => "ev-console",
                EventKind::Settled { .. } => "ev-settled",
                EventKind::AssertFailed { .. } => "ev-finding",
                EventKind::Uncaught { .. } => "ev-uncaught",
                _ => "ev",
            };
            let _ = write!(
                s,
                r#"<li class="{class}">{} <cite>{}</cite></li>"#,
                escape(&render_event(&e.kind, &e.cite)),
                escape(&e.cite.to_string())
            );
        }
        s.push_str("</ul>");
    }
    s.push_str("</details></li>\n");
}
