//! Tests for lane kinds and queued → ran links.

use crate::flow::{LaneKind, Link};
use crate::testdata::{hostile, notify};

#[test]
fn lanes_are_classified_by_the_traces_event_loops() {
    let t = notify();
    assert_eq!(t.lane_kind("el0.webmcp"), LaneKind::Task { event_loop: 0, source: "webmcp" });
    assert_eq!(t.lane_kind("par#0"), LaneKind::Parallel);
    assert_eq!(t.lane_kind("par"), LaneKind::Parallel);
    assert_eq!(t.lane_kind("el9.timer"), LaneKind::Parallel, "an unknown event loop is not a task lane");
    assert_eq!(t.lane_kind("agent"), LaneKind::Agent);
    assert_eq!(t.lane_kind("user"), LaneKind::User);
    assert_eq!(t.lane_kind("time"), LaneKind::Time);
}

#[test]
fn queued_tasks_match_fifo_per_lane_and_document() {
    let links = notify().links();
    assert_eq!(
        links,
        vec![
            Link { unit: 0, event: 1, ran: Some(1) },
            Link { unit: 1, event: 0, ran: Some(3) },
            Link { unit: 1, event: 1, ran: Some(4) },
            Link { unit: 1, event: 2, ran: Some(5) },
        ]
    );
}

#[test]
fn a_task_for_another_document_does_not_take_the_match() {
    // The child's task runs before the parent's first one: per-document FIFO still matches.
    let mut t = notify();
    t.units.swap(3, 4);
    let links = t.links();
    assert_eq!(links[1], Link { unit: 1, event: 0, ran: Some(4) });
    assert_eq!(links[2], Link { unit: 1, event: 1, ran: Some(3) });
}

#[test]
fn work_that_never_ran_has_no_match() {
    let mut t = notify();
    t.units.truncate(4);
    let links = t.links();
    assert_eq!(links[2].ran, None);
    assert_eq!(links[3].ran, None);
}

#[test]
fn every_hostile_queue_matches_a_later_unit() {
    let t = hostile();
    for link in t.links() {
        let ran = link.ran.expect("every queued task of the hostile trace runs");
        assert!(ran > link.unit);
    }
}
