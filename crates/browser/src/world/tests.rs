//! Tests for the world: secure contexts, agent clusters and "allowed to use" through frame chains
//! (vectors in fixtures/world/frame-trees.json), task queues, lanes, promises, signals and timers.

use url::Url;

use super::*;
use crate::value::JsValue;

fn fixture() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/world/frame-trees.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Builds a chain top → child → grandchild … from the vector's `frames`.
fn chain(frames: &[serde_json::Value]) -> (World<u32>, Vec<DocId>) {
    let mut world = World::new(ParallelMode::Unordered);
    let mut docs = Vec::new();
    for (i, f) in frames.iter().enumerate() {
        let container = ContainerAttributes {
            allow: f["allow"].as_str().map(Into::into),
            sandbox: f["sandbox"].as_str().map(Into::into),
        };
        let nav = world.create_navigable(&format!("f{i}"), docs.last().copied(), container);
        let url = Url::parse(f["url"].as_str().unwrap()).unwrap();
        let init = DocumentInit {
            url: &url,
            permissions_policy: f["policy"].as_str(),
            requests_origin_keyed: f["oac"].as_bool().unwrap_or(true),
        };
        docs.push(world.create_document(nav, init).unwrap());
    }
    (world, docs)
}

#[test]
fn frame_tree_vectors() {
    let cases = fixture();
    let mut failures = Vec::new();
    for case in cases.as_array().unwrap() {
        let (world, docs) = chain(case["frames"].as_array().unwrap());
        for (doc, want) in docs.iter().zip(case["expect"].as_array().unwrap()) {
            let d = world.doc(*doc);
            let got = serde_json::json!({
                "secure": d.secure_context,
                "loop": world.event_loops[d.event_loop.index()].label.to_string(),
                "origin_keyed": d.origin_keyed,
                "tools": world.is_allowed_to_use(*doc, crate::policy::TOOLS),
            });
            if &got != want {
                failures.push(format!("{} / {}: want {want}, got {got}", case["name"], d.label));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn tasks_of_a_not_fully_active_document_wait() {
    let (mut world, docs) = chain(&[serde_json::json!({"url": "https://a.example/"})]);
    world.queue_global_task(TaskSource::WebMcp, docs[0], 1);
    world.queue_global_task(TaskSource::WebMcp, docs[0], 2);
    assert_eq!(world.runnable_lanes().len(), 1);
    world.set_document_state(docs[0], DocumentState::Bfcached);
    assert!(world.runnable_lanes().is_empty());
    assert!(!world.is_allowed_to_use(docs[0], crate::policy::TOOLS));
    world.set_document_state(docs[0], DocumentState::Active);
    let lane = world.runnable_lanes()[0].1;
    // FIFO within one task source.
    assert!(matches!(world.take(lane), Some(Unit::Task { task: Task { steps: 1, .. }, .. })));
    assert!(matches!(world.take(lane), Some(Unit::Task { task: Task { steps: 2, .. }, .. })));
}

#[test]
fn lanes_are_sorted_labels_and_parallel_blocks_are_their_own_lanes() {
    let (mut world, docs) = chain(&[serde_json::json!({"url": "https://a.example/"})]);
    world.queue_global_task(TaskSource::Timer, docs[0], 0);
    world.start_in_parallel(Lane::new("par:a"), 10);
    world.start_in_parallel(Lane::new("par:b"), 11);
    world.queue_global_task(TaskSource::WebMcp, docs[0], 0);
    let labels: Vec<String> = world.runnable_lanes().iter().map(|(l, _)| l.to_string()).collect();
    assert_eq!(labels, ["el0.timer", "el0.webmcp", "par:a", "par:b"]);
}

#[test]
fn promises_settle_once_and_queue_reactions() {
    let (mut world, docs) = chain(&[serde_json::json!({"url": "https://a.example/"})]);
    let p = world.new_promise(docs[0], None);
    world.react(p, 7);
    assert!(world.settle_promise(p, Ok(JsValue::Null)));
    assert!(!world.settle_promise(p, Err(JsValue::Null)), "a second settlement is a no-op");
    assert_eq!(world.promises[p].state, PromiseState::Fulfilled(JsValue::Null));
    assert_eq!(world.take_microtask(LoopId(0)), Some(7));
    // Reacting to a settled promise queues the reaction at once.
    world.react(p, 8);
    assert_eq!(world.take_microtask(LoopId(0)), Some(8));
}

#[test]
fn signal_abort_runs_once_with_default_reason() {
    let (mut world, docs) = chain(&[serde_json::json!({"url": "https://a.example/"})]);
    let s = world.new_abort_controller(docs[0], None);
    world.add_abort_algorithm(s, 1);
    world.add_abort_algorithm(s, 2);
    let (algorithms, _) = world.signal_abort(s, None).unwrap();
    assert_eq!(algorithms, [1, 2]);
    assert_eq!(world.signals[s].reason, JsValue::dom_exception("AbortError"));
    assert!(world.signal_abort(s, None).is_none());
    world.add_abort_algorithm(s, 3);
    assert!(world.signals[s].abort_algorithms.is_empty(), "no algorithm is added to an aborted signal");
}

#[test]
fn timers_fire_in_deadline_order_as_time_advances() {
    let (mut world, docs) = chain(&[serde_json::json!({"url": "https://a.example/"})]);
    world.run_steps_after_a_timeout(docs[0], 10, 1);
    world.run_steps_after_a_timeout(docs[0], 5, 2);
    world.run_steps_after_a_timeout(docs[0], 0, 3);
    world.run_steps_after_a_timeout(docs[0], 5, 4);
    let take_all = |world: &mut World<u32>| {
        let mut out = Vec::new();
        while let Some((_, lane)) = world.runnable_lanes().first().cloned() {
            if let Some(Unit::Task { task, .. }) = world.take(lane) {
                out.push(task.steps);
            }
        }
        out
    };
    assert_eq!(take_all(&mut world), [3]);
    assert_eq!(world.advance_time(), Some(5));
    assert_eq!(take_all(&mut world), [2, 4]);
    assert_eq!(world.advance_time(), Some(10));
    assert_eq!(take_all(&mut world), [1]);
    assert_eq!(world.advance_time(), None);
}

#[test]
fn an_agent_step_with_a_window_waits_for_it_and_holds_up_the_queue_behind_it() {
    let (mut world, docs) = chain(&[serde_json::json!({"url": "https://a.example/"})]);
    world.enqueue_agent_step_within(1, Some((10, 30)));
    world.enqueue_agent_step_within(2, None);
    world.enqueue_on_agent_queue(3);
    world.run_steps_after_a_timeout(docs[0], 20, 9);
    let labels = |world: &World<u32>| -> Vec<String> {
        world.runnable_lanes().into_iter().map(|(l, _)| l.as_str().to_string()).collect()
    };
    // Before its window nothing can run: virtual time advances to the window's start.
    assert!(labels(&world).is_empty());
    assert_eq!(world.advance_time(), Some(10));
    assert_eq!(labels(&world), ["agent", "agent.wait"]);
    // Put off: until the next timer's deadline, then (put off again) the window's end.
    assert_eq!(world.take(LaneRef::AgentWait), Some(Unit::AgentWait));
    assert!(labels(&world).is_empty());
    assert_eq!(world.advance_time(), Some(20));
    assert_eq!(labels(&world), ["agent", "agent.wait", "el0.timer"]);
    assert!(world.take(LaneRef::AgentWait).is_some());
    assert_eq!(labels(&world), ["el0.timer"]);
    assert!(world.take(lane(&world, "el0.timer")).is_some());
    assert_eq!(world.advance_time(), Some(30));
    // At the window's end the step can no longer wait; virtual time does not pass it.
    assert_eq!(labels(&world), ["agent"]);
    assert_eq!(world.agent_queue.next_wake_up(world.now()), None, "nothing to wake up: the step can run now");
    let mut taken = Vec::new();
    while let Some(Unit::Agent(steps)) = world.take(LaneRef::Agent) {
        taken.push(steps);
    }
    assert_eq!(taken, [1, 2, 3]);
    assert_eq!(world.advance_time(), None);
}

fn lane(world: &World<u32>, label: &str) -> LaneRef {
    world.runnable_lanes().into_iter().find(|(l, _)| l.as_str() == label).map(|(_, r)| r).unwrap()
}

#[test]
fn task_sources_by_label_are_all_of_them_in_label_order() {
    let labels: Vec<&str> = TaskSource::BY_LABEL.iter().map(|s| s.label()).collect();
    let mut sorted = labels.clone();
    sorted.sort();
    assert_eq!(labels, sorted);
    let mut all = TaskSource::ALL.to_vec();
    all.sort();
    let mut by_label = TaskSource::BY_LABEL.to_vec();
    by_label.sort();
    assert_eq!(all, by_label);
}

#[test]
fn lanes_of_more_than_ten_event_loops_sort_as_strings() {
    let docs: Vec<serde_json::Value> =
        (0..12).map(|i| serde_json::json!({"url": format!("https://s{i}.example/")})).collect();
    let (mut world, docs) = chain(&docs);
    assert_eq!(world.event_loops.len(), 12);
    for doc in &docs {
        world.queue_global_task(TaskSource::Timer, *doc, 0);
    }
    let labels: Vec<String> = world.runnable_lanes().iter().map(|(l, _)| l.to_string()).collect();
    let mut sorted = labels.clone();
    sorted.sort();
    assert_eq!(labels, sorted);
    assert_eq!(&labels[..4], ["el0.timer", "el1.timer", "el10.timer", "el11.timer"]);
}

#[test]
fn promises_and_signals_are_numbered_per_realm_whatever_the_order_of_realms() {
    let ids = |first: DocId, second: DocId| {
        let mut world: World<u32> = World::new(ParallelMode::Unordered);
        let p1 = world.new_promise(first, None);
        let p2 = world.new_promise(second, None);
        let p3 = world.new_promise(first, None);
        let s1 = world.new_abort_controller(second, None);
        let listed: Vec<(DocId, u32)> = world.promises.iter().map(|(d, seq, _)| (d, seq)).collect();
        (p1, p2, p3, s1, listed, world.promises.digest())
    };
    let (a, b) = (DocId(0), DocId(3));
    let (p1, p2, p3, s1, listed, digest) = ids(a, b);
    assert_eq!((p1, p3), (PromiseId { realm: a, seq: 0 }, PromiseId { realm: a, seq: 1 }));
    assert_eq!(p2, PromiseId { realm: b, seq: 0 });
    assert_eq!(s1, SignalId { realm: b, seq: 0 });
    assert_eq!(listed, [(a, 0), (a, 1), (b, 0)], "by realm, then in creation order");
    // Creating b's promise first gives the same ids and an equal list.
    let mut world: World<u32> = World::new(ParallelMode::Unordered);
    assert_eq!(world.new_promise(b, None), p2);
    assert_eq!(world.new_promise(a, None), p1);
    assert_eq!(world.new_promise(a, None), p3);
    assert_eq!(world.promises.digest(), digest);
}

/// HTML "getting all used history steps" counts the steps of the nested histories of kept
/// documents only; "get the target history entry" is the entry with the greatest step not after
/// the target; a kept document reactivated is its navigable's active document and fully active.
#[test]
fn session_history_steps_target_entries_and_reactivation() {
    let mut world: World<u32> = World::new(ParallelMode::Unordered);
    let tab = world.create_navigable("tab", None, ContainerAttributes::default());
    let page = |path: &str| Url::parse(&format!("https://example.com{path}")).unwrap();
    let init = |url| DocumentInit { url, permissions_policy: None, requests_origin_keyed: true };
    let (a_url, b_url, f_url) = (page("/a"), page("/b"), page("/f"));
    let a = world.create_document(tab, init(&a_url)).unwrap();
    let frame = world.create_navigable("frame", Some(a), ContainerAttributes::default());
    let f = world.create_document(frame, init(&f_url)).unwrap();
    let entry = |step, url: &Url, document| SessionHistoryEntry { step, url: url.clone(), document: Some(document) };
    world.session_history_mut(tab).entries.push(entry(0, &a_url, a));
    world.session_history_mut(frame).entries.push(entry(0, &f_url, f));
    world.session_history_mut(frame).entries.push(entry(1, &f_url, f));
    world.set_document_state(a, DocumentState::Bfcached);
    let b = world.create_document(tab, init(&b_url)).unwrap();
    world.session_history_mut(tab).entries.push(entry(2, &b_url, b));
    world.session_history_mut(tab).current = 1;
    world.session_history_mut(tab).current_step = 2;
    // a is kept: its frame's steps count.
    assert_eq!(world.get_all_used_history_steps(tab), [0, 1, 2]);
    assert_eq!(world.get_the_target_history_entry(tab, 1), Some(0));
    assert_eq!(world.get_the_target_history_entry(frame, 1), Some(1));
    assert!(!world.is_fully_active(a) && !world.is_fully_active(f));
    world.set_document_state(b, DocumentState::Bfcached);
    world.reactivate_document(tab, a);
    assert_eq!(world.nav(tab).active_document, Some(a));
    assert!(world.is_fully_active(a) && world.is_fully_active(f) && !world.is_fully_active(b));
    // A destroyed document's nested histories are not counted.
    world.set_document_state(b, DocumentState::Active);
    world.reactivate_document(tab, b);
    world.set_document_state(a, DocumentState::Destroyed);
    assert_eq!(world.get_all_used_history_steps(tab), [0, 2]);
}

/// `options.network` "unbounded": a fetch is an unordered block that `net.wait` puts off until
/// virtual time next advances (with every other fetch then in flight); `net.wait` is offered
/// while a fetch is in flight, whether or not a wake-up is pending, and fetches put off with
/// nowhere left to go arrive at once, after which `net.wait` is not offered until a fetch starts.
#[test]
fn net_wait_puts_every_fetch_in_flight_off_until_virtual_time_advances() {
    let (mut world, docs) = chain(&[serde_json::json!({"url": "https://a.example/"})]);
    let labels = |world: &World<u32>| -> Vec<String> {
        world.runnable_lanes().into_iter().map(|(l, _)| l.as_str().to_string()).collect()
    };
    world.start_fetch(Lane::new("par:el0.timer/0"), 1);
    // No timer: the fetch may still wait (a timer may be set meanwhile) …
    assert_eq!(labels(&world), ["net.wait", "par:el0.timer/0"]);
    let idle = world.clone();
    assert_eq!(world.take(LaneRef::NetWait), Some(Unit::NetWait));
    assert!(labels(&world).is_empty());
    // … and with nowhere to go it arrives at once; it does not wait again …
    assert_eq!(world.advance_time(), Some(0));
    assert_eq!(labels(&world), ["par:el0.timer/0"]);
    // … until a fetch starts.
    world.start_fetch(Lane::new("par:el0.timer/2"), 4);
    assert_eq!(labels(&world), ["net.wait", "par:el0.timer/0", "par:el0.timer/2"]);
    world = idle;
    world.run_steps_after_a_timeout(docs[0], 10, 7);
    world.start_fetch(Lane::new("par:el0.timer/1"), 2);
    world.start_in_parallel(Lane::new("par:el0.net/0"), 3);
    assert_eq!(labels(&world), ["net.wait", "par:el0.net/0", "par:el0.timer/0", "par:el0.timer/1"]);
    assert_eq!(world.take(LaneRef::NetWait), Some(Unit::NetWait));
    // Both fetches wait; the ordinary block does not.
    assert_eq!(labels(&world), ["par:el0.net/0"]);
    assert!(world.take(lane(&world, "par:el0.net/0")).is_some());
    assert!(labels(&world).is_empty());
    // Time advanced: they may arrive, or wait again (the timer's task may set another).
    assert_eq!(world.advance_time(), Some(10));
    assert_eq!(labels(&world), ["el0.timer", "net.wait", "par:el0.timer/0", "par:el0.timer/1"]);
    // Taken, a fetch is no longer in flight.
    assert!(matches!(world.take(lane(&world, "par:el0.timer/0")), Some(Unit::Parallel { steps: 1, .. })));
    assert!(world.take(lane(&world, "el0.timer")).is_some());
    assert_eq!(labels(&world), ["net.wait", "par:el0.timer/1"]);
    // Put off with a timer pending that is then cleared: the fetch arrives at once, time stays.
    world.run_steps_after_a_timeout(docs[0], 5, 8);
    assert_eq!(world.take(LaneRef::NetWait), Some(Unit::NetWait));
    assert!(world.clear_timeout(&8));
    assert!(labels(&world).is_empty());
    assert_eq!(world.advance_time(), Some(10));
    assert_eq!(labels(&world), ["par:el0.timer/1"]);
    assert!(world.take(lane(&world, "par:el0.timer/1")).is_some());
    assert_eq!(world.advance_time(), None);
}
