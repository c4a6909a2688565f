//! Tests for the Chrome trace-event JSON: structure, tracks and flows.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::perfetto::{render_perfetto, SLICE_US, UNIT_US};
use crate::testdata::{hostile, notify};
use crate::Trace;

fn events(trace: &Trace) -> Vec<Value> {
    let v: Value = serde_json::from_str(&render_perfetto(trace)).expect("valid JSON");
    assert_eq!(v["displayTimeUnit"], "ms");
    v["traceEvents"].as_array().expect("traceEvents").clone()
}

/// The structure Perfetto and chrome://tracing need: complete slices, named tracks, every flow
/// start ended, and both ends inside a slice of their track.
fn check_structure(trace: &Trace) -> Vec<Value> {
    let events = events(trace);
    let mut named = BTreeMap::new();
    for e in events.iter().filter(|e| e["ph"] == "M" && e["name"] == "thread_name") {
        named.insert((e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap()), e["args"]["name"].clone());
    }
    let slices: Vec<&Value> = events.iter().filter(|e| e["ph"] == "X").collect();
    assert_eq!(slices.len(), trace.units.len());
    for s in &slices {
        for key in ["name", "ph", "ts", "dur", "pid", "tid"] {
            assert!(!s[key].is_null(), "slice without {key}: {s}");
        }
        assert!(named.contains_key(&(s["pid"].as_u64().unwrap(), s["tid"].as_u64().unwrap())), "unnamed track: {s}");
        assert!(s["args"]["cite"].is_string(), "slice without its spec step: {s}");
    }
    let inside = |e: &Value| {
        let (pid, tid, ts) = (&e["pid"], &e["tid"], e["ts"].as_u64().unwrap());
        slices.iter().any(|s| {
            let start = s["ts"].as_u64().unwrap();
            &s["pid"] == pid && &s["tid"] == tid && start <= ts && ts < start + s["dur"].as_u64().unwrap()
        })
    };
    let mut starts = BTreeMap::new();
    let mut ends = BTreeMap::new();
    for e in &events {
        match e["ph"].as_str() {
            Some("s") => assert!(starts.insert(e["id"].as_u64().unwrap(), e.clone()).is_none(), "duplicate flow id"),
            Some("f") => assert!(ends.insert(e["id"].as_u64().unwrap(), e.clone()).is_none(), "duplicate flow id"),
            _ => continue,
        }
        assert!(inside(e), "flow event outside any slice of its track: {e}");
    }
    assert_eq!(starts.keys().collect::<Vec<_>>(), ends.keys().collect::<Vec<_>>(), "a flow start without an end");
    for (id, s) in &starts {
        assert!(s["ts"].as_u64() < ends[id]["ts"].as_u64(), "flow {id} goes back in time");
        assert_eq!(s["cat"], ends[id]["cat"]);
        assert_eq!(s["name"], ends[id]["name"]);
    }
    events
}

#[test]
fn the_spec_example_has_a_track_per_lane_and_a_flow_per_queued_task() {
    let t = notify();
    let events = check_structure(&t);
    let threads: Vec<String> = events
        .iter()
        .filter(|e| e["name"] == "thread_name")
        .map(|e| format!("{}/{} {}", e["pid"], e["tid"], e["args"]["name"].as_str().unwrap()))
        .collect();
    assert_eq!(threads, ["1/1 el0.net", "2/1 par#0", "1/2 el0.webmcp", "1/3 el0.timer"]);
    let processes: Vec<&str> =
        events.iter().filter(|e| e["name"] == "process_name").map(|e| e["args"]["name"].as_str().unwrap()).collect();
    assert_eq!(processes, ["el0 (parent, child)", "Browser (in parallel)"]);
    assert_eq!(events.iter().filter(|e| e["ph"] == "s").count(), 4);
    let fifth = events.iter().find(|e| e["ph"] == "X" && e["args"]["unit"] == 5).unwrap();
    assert_eq!(fifth["ts"].as_u64(), Some(5 * UNIT_US));
    assert_eq!(fifth["dur"].as_u64(), Some(SLICE_US));
    assert_eq!(fifth["args"]["cite"], "registerTool 21.2");
    assert_eq!(fifth["name"], "resolve p");
}

#[test]
fn hostile_strings_stay_json_strings() {
    let t = hostile();
    check_structure(&t);
}

#[test]
fn work_that_never_ran_gets_no_dangling_flow() {
    let mut t = notify();
    t.units.truncate(4);
    let events = check_structure(&t);
    assert_eq!(events.iter().filter(|e| e["ph"] == "s").count(), 2);
}
