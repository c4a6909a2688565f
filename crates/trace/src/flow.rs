//! What a trace's lanes are, and which unit ran each queued task or in-parallel block: the
//! analysis that the diagram renderers (Mermaid, SVG, Perfetto) share.

use std::collections::{BTreeMap, VecDeque};

use crate::{EventKind, Trace};

#[cfg(test)]
mod tests;

/// What kind of lane a unit ran on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LaneKind<'a> {
    /// A task source of an event loop: `el0.webmcp` is event loop 0 (the index into
    /// `Trace::event_loops`), task source `webmcp`.
    Task { event_loop: usize, source: &'a str },
    /// An "in parallel" block (`par#3`) or the browser's FIFO parallel queue (`par`).
    Parallel,
    /// The AI agent queue.
    Agent,
    /// The user's steps in the browser UI.
    User,
    /// A jump of virtual time to the next timer.
    Time,
}

impl Trace {
    /// Classifies a lane label: `agent`, `user` and `time` are themselves, `<loop>.<source>` where
    /// `<loop>` is an event loop of this trace is a task lane, anything else is a parallel lane.
    pub fn lane_kind<'a>(&self, lane: &'a str) -> LaneKind<'a> {
        match lane {
            "agent" => return LaneKind::Agent,
            "user" => return LaneKind::User,
            "time" => return LaneKind::Time,
            _ => {}
        }
        if let Some((event_loop, source)) = lane.rsplit_once('.') {
            if let Some(i) = self.event_loops.iter().position(|l| l.label == event_loop) {
                return LaneKind::Task { event_loop: i, source };
            }
        }
        LaneKind::Parallel
    }

    /// Every `Queued` and `InParallel` event, in trace order, with the unit that ran what it
    /// started (see [`Link`]).
    pub fn links(&self) -> Vec<Link> {
        // A task lane runs the first runnable task of its queue, and a task is runnable when its
        // document is fully active, so tasks for one document on one lane run in the order they
        // were queued: match them FIFO per (lane, document). An in-parallel lane has no document.
        let mut pending: BTreeMap<(&str, Option<&str>), VecDeque<usize>> = BTreeMap::new();
        let mut links: Vec<Link> = Vec::new();
        for (u, unit) in self.units.iter().enumerate() {
            if let Some(queue) = pending.get_mut(&(unit.lane.as_str(), unit.document.as_deref())) {
                if let Some(link) = queue.pop_front() {
                    links[link].ran = Some(u);
                }
            }
            for (e, event) in unit.events.iter().enumerate() {
                let key = match &event.kind {
                    EventKind::Queued { lane, document } => (lane.as_str(), document.as_deref()),
                    EventKind::InParallel { lane } => (lane.as_str(), None),
                    _ => continue,
                };
                pending.entry(key).or_default().push_back(links.len());
                links.push(Link { unit: u, event: e, ran: None });
            }
        }
        links
    }
}

/// A task queued, or an in-parallel block started, by event `event` of unit `unit` (positions in
/// `Trace::units` and `Unit::events`), and the position of the unit that ran it, if one did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Link {
    pub unit: usize,
    pub event: usize,
    pub ran: Option<usize>,
}

/// Truncates `text` to at most `max` characters, ending a cut text with `…`.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}
