//! The Mermaid `sequenceDiagram` of one trace, for Markdown that GitHub renders: the event loops,
//! the browser's in-parallel lane, the agent and the user as participants, tasks queued as
//! messages, each unit as a note naming its spec step, and what a page or agent could observe.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::escape::mermaid as escape;
use crate::flow::{truncate, LaneKind};
use crate::{EventKind, Trace, Unit};

#[cfg(test)]
mod tests;

/// The longest line of a note or message, in characters: a longer text is wrapped onto more
/// lines (`<br/>`), at a space where it can be, never cut.
const LINE: usize = 60;

/// The longest untrusted string (a log line, a URL, a tool name) kept in a note or message, in
/// characters (wrapped to [`LINE`]); longer is cut with `…`, so a diagram stays bounded.
const MAX_TEXT: usize = 600;

/// The longest participant label (one line), in characters.
const MAX_LABEL: usize = 120;

/// `text` escaped for Mermaid and wrapped onto lines of at most [`LINE`] characters, joined with
/// `<br/>` (which Mermaid draws as a line break): each line is escaped on its own, so the break
/// is the only markup.
fn wrap(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut lines = Vec::new();
    let mut start = 0;
    while chars.len() - start > LINE {
        let window = &chars[start..start + LINE];
        // Break after the last space of the window, unless it is too early to help.
        let cut = match window.iter().rposition(|&c| c == ' ') {
            Some(i) if i >= LINE / 2 => start + i + 1,
            _ => start + LINE,
        };
        lines.push(escape(chars[start..cut].iter().collect::<String>().trim_end()));
        start = cut;
    }
    lines.push(escape(&chars[start..].iter().collect::<String>()));
    lines.join("<br/>")
}

/// A participant of the diagram: its Mermaid id (ours: never a keyword such as `par`, `end` or
/// `note`, which Mermaid reads case-insensitively) and its label.
struct Participant {
    id: String,
    label: String,
}

/// The diagram's participants, and which one each lane belongs to.
struct Participants {
    list: Vec<Participant>,
    user: Option<usize>,
    agent: Option<usize>,
    /// One per event loop, in the order of `Trace::event_loops`.
    loops: Vec<usize>,
    parallel: Option<usize>,
}

impl Participants {
    /// The user and the agent (when they take a step), each event loop labelled with its
    /// documents, and the browser's parallel lane (when something runs in parallel).
    fn of(trace: &Trace) -> Participants {
        let lanes = trace.units.iter().map(|u| trace.lane_kind(&u.lane));
        let any = |kind: LaneKind| lanes.clone().any(|k| k == kind);
        let starts_parallel =
            trace.units.iter().flat_map(|u| &u.events).any(|e| matches!(e.kind, EventKind::InParallel { .. }));
        let mut list = Vec::new();
        let mut add = |id: String, label: String| {
            list.push(Participant { id, label });
            list.len() - 1
        };
        let user = any(LaneKind::User).then(|| add("U".into(), "User".into()));
        let agent = any(LaneKind::Agent).then(|| add("AG".into(), "Agent".into()));
        let loops = trace
            .event_loops
            .iter()
            .enumerate()
            .map(|(i, l)| {
                add(format!("EL{i}"), truncate(&format!("{} ({})", l.label, l.documents.join(", ")), MAX_LABEL))
            })
            .collect();
        let parallel =
            (any(LaneKind::Parallel) || starts_parallel).then(|| add("BR".into(), "Browser (in parallel)".into()));
        Participants { list, user, agent, loops, parallel }
    }

    /// The participant a lane belongs to; a lane this trace does not know goes to the first one.
    fn of_lane(&self, trace: &Trace, lane: &str) -> usize {
        let found = match trace.lane_kind(lane) {
            LaneKind::Task { event_loop, .. } => self.loops.get(event_loop).copied(),
            LaneKind::Parallel => self.parallel,
            LaneKind::Agent => self.agent,
            LaneKind::User => self.user,
            LaneKind::Time => None,
        };
        found.unwrap_or(0)
    }

    fn id(&self, i: usize) -> &str {
        self.list.get(i).map_or("EL0", |p| p.id.as_str())
    }
}

/// Renders the trace as a Mermaid `sequenceDiagram` (without a Markdown fence).
///
/// Every string that comes from the scenario goes through [`escape`], so no log text, URL, tool
/// name or label can end a statement, open a comment or directive, or add markup.
pub fn render_mermaid(trace: &Trace) -> String {
    let p = Participants::of(trace);
    let mut s = String::from("sequenceDiagram\n");
    if p.list.is_empty() {
        // A trace without event loops has nothing to draw; a participant keeps the diagram valid.
        let _ = writeln!(s, "    participant EL0 as {}", escape("no event loop"));
    }
    for part in &p.list {
        let _ = writeln!(s, "    participant {} as {}", part.id, escape(&part.label));
    }
    let ran_by: BTreeMap<(usize, usize), usize> =
        trace.links().into_iter().filter_map(|l| Some(((l.unit, l.event), l.ran?))).collect();
    for (u, unit) in trace.units.iter().enumerate() {
        let me = p.id(p.of_lane(trace, &unit.lane));
        let _ = writeln!(s, "    Note over {}: {}", note_span(&p, trace, unit), unit_note(unit));
        for (e, event) in unit.events.iter().enumerate() {
            let ran = ran_by
                .get(&(u, e))
                .and_then(|&r| trace.units.get(r))
                .map_or_else(|| " (not run in this trace)".to_string(), |r| format!(" → #{:03}", r.index));
            let line = match &event.kind {
                EventKind::Queued { lane, document } => {
                    let to = p.id(p.of_lane(trace, lane));
                    let source = lane.rsplit_once('.').map_or(lane.as_str(), |(_, s)| s);
                    let text = match document {
                        Some(d) => {
                            format!("queue {} task for {}{ran}", truncate(source, MAX_TEXT), truncate(d, MAX_TEXT))
                        }
                        None => format!("queue {} task{ran}", truncate(source, MAX_TEXT)),
                    };
                    format!("{me}->>{to}: {}", with_cite(&text, &event.cite.to_string()))
                }
                EventKind::InParallel { lane } => {
                    let to = p.parallel.map_or(me, |i| p.id(i));
                    let text = format!("in parallel: {}{ran}", truncate(lane, MAX_TEXT));
                    format!("{me}-){to}: {}", with_cite(&text, &event.cite.to_string()))
                }
                EventKind::Console { document, text } => {
                    let text = format!("console.log({}): {}", truncate(document, MAX_TEXT), truncate(text, MAX_TEXT));
                    format!("Note right of {me}: {}", wrap(&text))
                }
                EventKind::Settled { promise, state } => {
                    let text = format!("promise {} {}", truncate(promise, MAX_TEXT), truncate(state, MAX_TEXT));
                    format!("Note right of {me}: {}", wrap(&text))
                }
                EventKind::SettleNoOp { promise, attempted } => {
                    let text = format!(
                        "promise {} already settled: {} is a no-op",
                        truncate(promise, MAX_TEXT),
                        truncate(attempted, MAX_TEXT)
                    );
                    format!("Note right of {me}: {}", wrap(&text))
                }
                EventKind::Uncaught { document, error } => {
                    let text = format!("uncaught in {}: {}", truncate(document, MAX_TEXT), truncate(error, MAX_TEXT));
                    format!("Note right of {me}: {}", wrap(&text))
                }
                EventKind::AssertFailed { message } => {
                    let text = match crate::known::shipped().id_at(&event.cite.to_string(), message) {
                        Some(id) => format!("known (finding {id}): assert failed: {}", truncate(message, MAX_TEXT)),
                        None => format!("FINDING: assert failed: {}", truncate(message, MAX_TEXT)),
                    };
                    format!("Note right of {me}: {}", with_cite(&text, &event.cite.to_string()))
                }
                EventKind::Interpretation { message } => {
                    let text = format!("interpretation: {}", truncate(message, MAX_TEXT));
                    format!("Note right of {me}: {}", with_cite(&text, &event.cite.to_string()))
                }
                // Microtasks, events fired and notes are in the text trace; the diagram keeps to
                // what crosses lanes and what a page can observe.
                EventKind::Microtask | EventKind::Fired { .. } | EventKind::Note { .. } => continue,
            };
            let _ = writeln!(s, "    {line}");
        }
    }
    let span = if p.list.len() > 1 { format!("{},{}", p.id(0), p.id(p.list.len() - 1)) } else { p.id(0).to_string() };
    let _ = writeln!(s, "    Note over {span}: {}", end_note(trace));
    s
}

/// The diagram's last note: the end state, which a picture of what ran does not show by itself
/// (a promise still pending, what the pending tool executions maps still hold, uncaught errors).
fn end_note(trace: &Trace) -> String {
    let o = &trace.outcome;
    let mut lines = vec![format!("end state: {}", truncate(&o.end, MAX_TEXT))];
    let pending: Vec<String> = o
        .promises
        .iter()
        .filter(|p| p.state == "pending")
        .map(|p| format!("{} ({})", truncate(&p.promise, MAX_TEXT), truncate(&p.document, MAX_TEXT)))
        .collect();
    lines.push(if pending.is_empty() {
        "no promise pending".to_string()
    } else {
        format!("pending forever: {}", pending.join(", "))
    });
    for (traversable, entries) in &o.pending_executions {
        let entries: Vec<String> = entries.iter().map(|e| truncate(e, MAX_TEXT)).collect();
        lines.push(format!(
            "leak: pending tool executions of {}: {}",
            truncate(traversable, MAX_TEXT),
            entries.join(", ")
        ));
    }
    for u in &o.uncaught {
        lines.push(format!("uncaught in {}: {}", truncate(&u.document, MAX_TEXT), truncate(&u.text, MAX_TEXT)));
    }
    lines.iter().map(|l| wrap(l)).collect::<Vec<_>>().join("<br/>")
}

/// Who a unit's note goes over: its own participant, or every participant for a time advance.
fn note_span(p: &Participants, trace: &Trace, unit: &Unit) -> String {
    match trace.lane_kind(&unit.lane) {
        LaneKind::Time if p.list.len() > 1 => format!("{},{}", p.id(0), p.id(p.list.len() - 1)),
        _ => p.id(p.of_lane(trace, &unit.lane)).to_string(),
    }
}

/// A unit's note: `#003 t=0 el0.webmcp child`, what ran, its spec step, and the lanes the
/// scheduler chose among when there was a choice.
fn unit_note(unit: &Unit) -> String {
    let mut head = format!("#{:03} t={} {}", unit.index, unit.time, truncate(&unit.lane, MAX_TEXT));
    if let Some(d) = &unit.document {
        head.push(' ');
        head.push_str(&truncate(d, MAX_TEXT));
    }
    let mut note =
        format!("{}<br/>{}", wrap(&head), with_cite(&truncate(&unit.what, MAX_TEXT), &unit.cite.to_string()));
    if !unit.choice_among.is_empty() {
        let among: Vec<String> = unit.choice_among.iter().map(|l| truncate(l, MAX_TEXT)).collect();
        note.push_str("<br/>");
        note.push_str(&wrap(&format!("chosen among {}", among.join(", "))));
    }
    note
}

/// `text<br/>[cite]`, both escaped.
fn with_cite(text: &str, cite: &str) -> String {
    format!("{}<br/>{}", wrap(text), wrap(&format!("[{}]", truncate(cite, MAX_TEXT))))
}
