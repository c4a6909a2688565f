//! Chrome trace-event JSON (the `traceEvents` format that the Perfetto UI and chrome://tracing
//! open): a track per lane, a slice per unit, an instant per event, flow arrows from "queued" to
//! "ran".
//!
//! Time: unit k's slice starts at k × 1000 µs and lasts 900 µs, so the viewer's milliseconds are
//! unit numbers (virtual time is too coarse: many units run at the same virtual millisecond, and
//! is in each slice's `args.time_ms`). The events of a unit are spread evenly inside its slice.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::flow::LaneKind;
use crate::{render_event, EventKind, Trace};

#[cfg(test)]
mod tests;

/// Microseconds between the starts of two consecutive units.
pub const UNIT_US: u64 = 1000;
/// How long a unit's slice lasts, in microseconds.
pub const SLICE_US: u64 = 900;

/// A track: the process (event loop, browser, agent, user, time) and thread (lane) it is drawn on.
#[derive(Clone, Copy)]
struct Track {
    pid: u64,
    tid: u64,
}

/// Assigns tracks: one process per event loop (its threads are its task sources), one for the
/// browser's parallel lanes, one each for the agent, the user and virtual time; threads are
/// numbered by first appearance.
struct Tracks {
    by_lane: BTreeMap<String, Track>,
    threads: Vec<(Track, String)>,
    processes: Vec<(u64, String)>,
}

impl Tracks {
    fn of(trace: &Trace) -> Tracks {
        let loops = trace.event_loops.len() as u64;
        let mut processes: Vec<(u64, String)> = trace
            .event_loops
            .iter()
            .enumerate()
            .map(|(i, l)| (i as u64 + 1, format!("{} ({})", l.label, l.documents.join(", "))))
            .collect();
        processes.push((loops + 1, "Browser (in parallel)".into()));
        processes.push((loops + 2, "Agent".into()));
        processes.push((loops + 3, "User".into()));
        processes.push((loops + 4, "Virtual time".into()));
        let mut tracks = Tracks { by_lane: BTreeMap::new(), threads: Vec::new(), processes };
        for unit in &trace.units {
            tracks.add(trace, &unit.lane);
            for event in &unit.events {
                if let EventKind::Queued { lane, .. } | EventKind::InParallel { lane } = &event.kind {
                    tracks.add(trace, lane);
                }
            }
        }
        // Only processes with a thread are drawn.
        tracks.processes.retain(|(pid, _)| tracks.threads.iter().any(|(t, _)| t.pid == *pid));
        tracks
    }

    fn add(&mut self, trace: &Trace, lane: &str) {
        if self.by_lane.contains_key(lane) {
            return;
        }
        let loops = trace.event_loops.len() as u64;
        let pid = match trace.lane_kind(lane) {
            LaneKind::Task { event_loop, .. } => event_loop as u64 + 1,
            LaneKind::Parallel => loops + 1,
            LaneKind::Agent => loops + 2,
            LaneKind::User => loops + 3,
            LaneKind::Time => loops + 4,
        };
        let tid = self.threads.iter().filter(|(t, _)| t.pid == pid).count() as u64 + 1;
        let track = Track { pid, tid };
        self.by_lane.insert(lane.to_string(), track);
        self.threads.push((track, lane.to_string()));
    }

    fn get(&self, lane: &str) -> Track {
        self.by_lane.get(lane).copied().unwrap_or(Track { pid: 0, tid: 0 })
    }
}

/// Renders the trace as Chrome trace-event JSON, one event per line.
pub fn render_perfetto(trace: &Trace) -> String {
    let tracks = Tracks::of(trace);
    let mut events: Vec<Value> = Vec::new();
    for (i, (pid, name)) in tracks.processes.iter().enumerate() {
        events.push(json!({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": name}}));
        events.push(json!({"ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0, "args": {"sort_index": i}}));
    }
    for (track, lane) in &tracks.threads {
        let (pid, tid) = (track.pid, track.tid);
        events.push(json!({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": lane}}));
        events
            .push(json!({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid, "args": {"sort_index": tid}}));
    }
    let start = |u: usize| u as u64 * UNIT_US;
    // Event j of n inside a unit's slice: evenly spread, strictly inside it.
    let at = |u: usize, j: usize, n: usize| start(u) + (j as u64 + 1) * SLICE_US / (n as u64 + 1);
    let links = trace.links();
    for (u, unit) in trace.units.iter().enumerate() {
        let Track { pid, tid } = tracks.get(&unit.lane);
        let category = match trace.lane_kind(&unit.lane) {
            LaneKind::Task { .. } => "task",
            LaneKind::Parallel => "in parallel",
            LaneKind::Agent => "agent",
            LaneKind::User => "user",
            LaneKind::Time => "time",
        };
        let mut args = json!({
            "unit": unit.index,
            "time_ms": unit.time,
            "lane": unit.lane,
            "document": unit.document,
            "cite": unit.cite.to_string(),
            "algorithm": unit.cite.algorithm,
            "step": unit.cite.step,
        });
        if !unit.choice_among.is_empty() {
            args["chosen_among"] = json!(unit.choice_among);
        }
        events.push(json!({
            "ph": "X", "name": unit.what, "cat": category, "pid": pid, "tid": tid,
            "ts": start(u), "dur": SLICE_US, "args": args,
        }));
        let n = unit.events.len();
        for (j, event) in unit.events.iter().enumerate() {
            if matches!(event.kind, EventKind::Queued { .. } | EventKind::InParallel { .. }) {
                continue;
            }
            events.push(json!({
                "ph": "i", "s": "t", "name": render_event(&event.kind, &event.cite), "cat": "event", "pid": pid, "tid": tid,
                "ts": at(u, j, n), "args": {"cite": event.cite.to_string()},
            }));
        }
    }
    for (id, link) in links.iter().enumerate() {
        let Some(ran) = link.ran else { continue };
        let (Some(from), Some(to)) = (trace.units.get(link.unit), trace.units.get(ran)) else { continue };
        let Some(event) = from.events.get(link.event) else { continue };
        let (source, target) = (tracks.get(&from.lane), tracks.get(&to.lane));
        let name = render_event(&event.kind, &event.cite);
        let cite = event.cite.to_string();
        events.push(json!({
            "ph": "s", "name": name, "cat": "queued", "id": id + 1, "pid": source.pid, "tid": source.tid,
            "ts": at(link.unit, link.event, from.events.len()), "args": {"cite": cite},
        }));
        events.push(json!({
            "ph": "f", "bp": "e", "name": name, "cat": "queued", "id": id + 1, "pid": target.pid, "tid": target.tid,
            "ts": start(ran) + 1,
        }));
    }
    let other = json!({
        "generator": "webmcp-sim",
        "format_version": crate::VERSION,
        "scenario": trace.scenario,
        "schedule": trace.schedule,
        "spec": trace.spec_revision,
        "time": format!("unit k starts at k*{UNIT_US} us and lasts {SLICE_US} us; virtual time is args.time_ms"),
    });
    let mut s = String::from("{\"traceEvents\": [\n");
    let lines: Vec<String> = events.iter().map(|e| serde_json::to_string(e).unwrap_or_default()).collect();
    s.push_str(&lines.join(",\n"));
    s.push_str("\n],\n\"displayTimeUnit\": \"ms\",\n\"otherData\": ");
    s.push_str(&serde_json::to_string(&other).unwrap_or_default());
    s.push_str("\n}\n");
    crate::escape::json_document(s)
}
