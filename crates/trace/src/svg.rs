//! An inline SVG sequence diagram of one trace for the HTML report: lanes as columns grouped by
//! event loop, one row per unit with its box in its lane's column, arrows from the unit that
//! queued a task (or started an in-parallel block) to the unit that ran it.

use std::fmt::Write as _;

use crate::escape::html as escape;
use crate::flow::{truncate, LaneKind};
use crate::{render_event, EventKind, Trace};

#[cfg(test)]
mod tests;

const MARGIN: u64 = 8;
const COLUMN: u64 = 176;
const GAP: u64 = 10;
const HEADER: u64 = 52;
const ROW: u64 = 30;
const BOX: u64 = 24;
/// Characters of a unit's label that fit its box at the diagram's font size.
const LABEL_CHARS: usize = 22;

/// A column: a lane, and the group (event loop or kind of lane) it is drawn under.
struct Column {
    lane: String,
    group: String,
}

/// The columns in drawing order: the user, the agent, each event loop's lanes, the browser's
/// parallel lanes, virtual time; within a group, lanes in order of first appearance.
fn columns(trace: &Trace) -> Vec<Column> {
    let mut lanes: Vec<&str> = Vec::new();
    for unit in &trace.units {
        lanes.push(&unit.lane);
        for event in &unit.events {
            if let EventKind::Queued { lane, .. } | EventKind::InParallel { lane } = &event.kind {
                lanes.push(lane);
            }
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    lanes.retain(|l| seen.insert(*l));
    let rank = |lane: &str| match trace.lane_kind(lane) {
        LaneKind::User => (0, 0),
        LaneKind::Agent => (1, 0),
        LaneKind::Task { event_loop, .. } => (2, event_loop),
        LaneKind::Parallel => (3, 0),
        LaneKind::Time => (4, 0),
    };
    // A stable sort keeps first-appearance order within a group.
    lanes.sort_by_key(|l| rank(l));
    lanes
        .into_iter()
        .map(|lane| {
            let group = match trace.lane_kind(lane) {
                LaneKind::User => "User".to_string(),
                LaneKind::Agent => "Agent".to_string(),
                LaneKind::Task { event_loop, .. } => trace
                    .event_loops
                    .get(event_loop)
                    .map_or_else(String::new, |l| format!("{} · {}", l.label, l.documents.join(", "))),
                LaneKind::Parallel => "Browser (in parallel)".to_string(),
                LaneKind::Time => "Virtual time".to_string(),
            };
            Column { lane: lane.to_string(), group }
        })
        .collect()
}

fn kind_class(kind: LaneKind) -> &'static str {
    match kind {
        LaneKind::Task { .. } => "k-task",
        LaneKind::Parallel => "k-par",
        LaneKind::Agent => "k-agent",
        LaneKind::User => "k-user",
        LaneKind::Time => "k-time",
    }
}

/// Renders the trace as an SVG element. `id` prefixes the element ids (unique per page) and
/// each unit box links to `#<id>-u<k>`, the unit's row in the report's step-through.
pub fn render_svg(trace: &Trace, id: &str) -> String {
    let cols = columns(trace);
    let col_of = |lane: &str| cols.iter().position(|c| c.lane == lane).unwrap_or(0);
    let x = |c: usize| MARGIN + c as u64 * (COLUMN + GAP);
    let y = |u: usize| HEADER + u as u64 * ROW;
    let width = x(cols.len().max(1)) - GAP + MARGIN;
    let height = y(trace.units.len()) + MARGIN;
    let id = escape(id);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="seq" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-labelledby="{id}-title">"#
    );
    let _ = writeln!(s, r#"<title id="{id}-title">{}: {} units</title>"#, escape(&trace.scenario), trace.units.len());
    let _ = writeln!(
        s,
        r#"<defs><marker id="{id}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker></defs>"#
    );
    // Group headers over runs of columns with the same group, lane headers, lane guides.
    let mut c = 0;
    while c < cols.len() {
        let end = (c..cols.len()).find(|&e| cols[e].group != cols[c].group).unwrap_or(cols.len());
        let w = x(end) - x(c) - GAP;
        let chars = (w / 7) as usize;
        let _ = writeln!(
            s,
            r#"<g class="group"><rect x="{}" y="4" width="{w}" height="20" rx="3"/><text x="{}" y="18">{}</text><title>{}</title></g>"#,
            x(c),
            x(c) + 6,
            escape(&truncate(&cols[c].group, chars)),
            escape(&cols[c].group)
        );
        c = end;
    }
    for (c, col) in cols.iter().enumerate() {
        let mid = x(c) + COLUMN / 2;
        let _ = writeln!(
            s,
            r#"<text class="lane" x="{mid}" y="40" text-anchor="middle">{}</text><line class="guide" x1="{mid}" y1="46" x2="{mid}" y2="{}"/>"#,
            escape(&truncate(&col.lane, LABEL_CHARS)),
            height - MARGIN
        );
    }
    // Arrows first, so boxes are drawn over their ends.
    for link in trace.links() {
        let Some(from) = trace.units.get(link.unit) else { continue };
        let Some(event) = from.events.get(link.event) else { continue };
        let (EventKind::Queued { lane, .. } | EventKind::InParallel { lane }) = &event.kind else { continue };
        let (fc, tc) = (col_of(&from.lane), col_of(lane));
        let (x1, y1) = (x(fc) + COLUMN / 2, y(link.unit) + BOX);
        let title = escape(&format!("#{:03} {} [{}]", from.index, render_event(&event.kind, &event.cite), event.cite));
        match link.ran {
            Some(ran) => {
                let (x2, y2) = (x(tc) + COLUMN / 2, y(ran));
                let path = if fc == tc {
                    // Same lane: bow out to the right of the column.
                    let bow = x1 + COLUMN / 2 - 4;
                    format!("M{x1},{y1} C{bow},{y1} {bow},{y2} {x2},{y2}")
                } else {
                    let mid = (y1 + y2) / 2;
                    format!("M{x1},{y1} C{x1},{mid} {x2},{mid} {x2},{y2}")
                };
                let _ = writeln!(
                    s,
                    r#"<path class="flow" d="{path}" marker-end="url(#{id}-arrow)" data-from="{}" data-to="{ran}"><title>{title} → #{:03}</title></path>"#,
                    link.unit, trace.units[ran].index
                );
            }
            None => {
                let (x2, y2) = (x(tc) + COLUMN / 2, y1 + ROW / 2);
                let _ = writeln!(
                    s,
                    r#"<path class="flow never" d="M{x1},{y1} L{x2},{y2}" marker-end="url(#{id}-arrow)" data-from="{}"><title>{title} (never ran in this trace)</title></path>"#,
                    link.unit
                );
            }
        }
    }
    for (u, unit) in trace.units.iter().enumerate() {
        let c = col_of(&unit.lane);
        let kind = kind_class(trace.lane_kind(&unit.lane));
        let flagged =
            unit.events.iter().any(|e| matches!(e.kind, EventKind::AssertFailed { .. } | EventKind::Uncaught { .. }));
        let mut title = format!("#{:03} t={} {}", unit.index, unit.time, unit.lane);
        if let Some(d) = &unit.document {
            let _ = write!(title, " {d}");
        }
        let _ = write!(title, "\n{} [{}]", unit.what, unit.cite);
        for e in &unit.events {
            let _ = write!(title, "\n  {} [{}]", render_event(&e.kind, &e.cite), e.cite);
        }
        let label = truncate(&format!("#{:03} {}", unit.index, unit.what), LABEL_CHARS);
        let _ = write!(
            s,
            r##"<a href="#{id}-u{u}"><g class="unit {kind}{}" data-unit="{u}"><rect x="{}" y="{}" width="{COLUMN}" height="{BOX}" rx="4"/><text x="{}" y="{}">{}</text>"##,
            if flagged { " flagged" } else { "" },
            x(c),
            y(u),
            x(c) + 6,
            y(u) + 16,
            escape(&label),
        );
        // Badges for what a page could observe: console lines, settlements, errors and findings.
        let badges = [
            ("b-console", unit.events.iter().any(|e| matches!(e.kind, EventKind::Console { .. }))),
            ("b-promise", unit.events.iter().any(|e| matches!(e.kind, EventKind::Settled { .. }))),
            ("b-error", flagged),
        ];
        let mut bx = x(c) + COLUMN - 8;
        for (class, on) in badges.iter().rev() {
            if *on {
                let _ = write!(s, r#"<circle class="{class}" cx="{bx}" cy="{}" r="4"/>"#, y(u) + BOX / 2);
                bx -= 11;
            }
        }
        let _ = writeln!(s, "<title>{}</title></g></a>", escape(&title));
    }
    s.push_str("</svg>\n");
    s
}
