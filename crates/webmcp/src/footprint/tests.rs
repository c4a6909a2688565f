//! Tests of footprints: which units conflict, bit by bit.

use browser::{LoopId, NavId, TaskSource};

use super::{Footprint, Resource};
use crate::uuid::Uuid;

fn footprint(reads: &[Resource], writes: &[Resource]) -> Footprint {
    let mut f = Footprint::default();
    reads.iter().for_each(|r| f.touch(*r, false));
    writes.iter().for_each(|w| f.touch(*w, true));
    f
}

#[test]
fn units_conflict_when_one_writes_what_the_other_touches() {
    let (l0, l1) = (Resource::Loop(LoopId(0)), Resource::Loop(LoopId(1)));
    let pending = Resource::Pending(NavId(0));
    assert!(!footprint(&[], &[l0]).conflicts(&footprint(&[], &[l1])));
    assert!(!footprint(&[pending], &[l0]).conflicts(&footprint(&[pending], &[l1])), "two reads commute");
    assert!(footprint(&[pending], &[l0]).conflicts(&footprint(&[], &[l1, pending])));
    assert!(footprint(&[], &[l1, pending]).conflicts(&footprint(&[pending], &[l0])));
    assert!(footprint(&[], &[Resource::Console]).conflicts(&footprint(&[], &[Resource::Console])));
}

#[test]
fn pending_map_entries_conflict_only_on_one_entry_or_with_the_whole_map() {
    let entry = |seq| Resource::PendingEntry(NavId(0), Uuid::new(Some(browser::DocId(0)), seq));
    let (first, second) = (footprint(&[], &[entry(1)]), footprint(&[], &[entry(2)]));
    assert!(!first.conflicts(&second), "setting two different entries commutes");
    assert!(first.conflicts(&footprint(&[entry(1)], &[])), "setting an entry conflicts with reading it");
    assert!(first.conflicts(&footprint(&[], &[Resource::Pending(NavId(0))])), "an iteration of the map conflicts");
    assert!(!first.conflicts(&footprint(&[], &[Resource::Pending(NavId(1))])), "another traversable's map does not");
    assert!(!first.reads_only_lifecycles());
    assert!(first.within(&footprint(&[], &[entry(1)])) && !first.within(&second));
}

#[test]
fn global_and_resources_without_a_bit_conflict_with_everything() {
    let nothing = Footprint::default();
    assert!(footprint(&[], &[Resource::Global]).conflicts(&nothing));
    assert!(nothing.conflicts(&footprint(&[Resource::Global], &[])));
    let far_loop = footprint(&[Resource::Loop(LoopId(Footprint::LOOPS))], &[]);
    assert!(far_loop.conflicts(&nothing), "a loop past the bits counts as global");
    let far_map = footprint(&[], &[Resource::Pending(NavId(40))]);
    assert!(nothing.conflicts(&far_map));
    let far_queue = footprint(&[], &[Resource::Queue(LoopId(Footprint::QUEUE_LOOPS), TaskSource::WebMcp)]);
    assert!(far_queue.conflicts(&nothing));
    let last = LoopId(Footprint::LOOPS - 1);
    let last_bits = footprint(
        &[],
        &[
            Resource::Loop(last),
            Resource::Lifecycle(last),
            Resource::ToolMaps(last),
            Resource::Pending(NavId(Footprint::LOOPS - 1)),
            Resource::Queue(LoopId(Footprint::QUEUE_LOOPS - 1), TaskSource::PostedMessage),
        ],
    );
    assert!(!last_bits.global(), "the last bits fit");
    let before_last = LoopId(Footprint::LOOPS - 2);
    assert!(!last_bits.conflicts(&footprint(
        &[],
        &[
            Resource::Loop(before_last),
            Resource::Lifecycle(before_last),
            Resource::ToolMaps(before_last),
            Resource::Queue(LoopId(Footprint::QUEUE_LOOPS - 1), TaskSource::NavigationAndTraversal),
        ]
    )));
}

#[test]
fn what_a_navigable_shows_is_read_and_written_apart_from_other_navigables() {
    let shown = |n| Resource::Shown(NavId(n));
    assert!(!footprint(&[shown(3)], &[]).conflicts(&footprint(&[shown(3)], &[])), "two reads commute");
    assert!(footprint(&[shown(3)], &[]).conflicts(&footprint(&[], &[shown(3)])));
    assert!(footprint(&[], &[shown(3)]).conflicts(&footprint(&[shown(3)], &[])));
    assert!(!footprint(&[], &[shown(3)]).conflicts(&footprint(&[shown(4)], &[shown(15)])));
    assert!(!footprint(&[], &[shown(15)]).global(), "the last navigable has bits");
    assert!(footprint(&[shown(Footprint::LOOPS)], &[]).global(), "a navigable past the bits counts as global");
    let (read, written) = (footprint(&[shown(15)], &[]), footprint(&[], &[shown(15)]));
    assert!(read.within(&written) && !written.within(&read), "a read is within a write, not the reverse");
    assert_eq!(written.breadth(), 1);
}

#[test]
fn every_resource_with_a_bit_has_its_own() {
    let mut resources = vec![Resource::Console, Resource::ParallelQueue, Resource::UserQueue];
    for i in 0..Footprint::LOOPS {
        let l = LoopId(i);
        resources.extend([
            Resource::Loop(l),
            Resource::Lifecycle(l),
            Resource::ToolMaps(l),
            Resource::Pending(NavId(i)),
            Resource::Shown(NavId(i)),
        ]);
    }
    for i in 0..Footprint::QUEUE_LOOPS {
        resources.extend(TaskSource::ALL.map(|s| Resource::Queue(LoopId(i), s)));
    }
    for (i, a) in resources.iter().enumerate() {
        let fa = footprint(&[], &[*a]);
        assert!(!fa.global(), "{a:?} has a bit");
        for b in &resources[i + 1..] {
            assert!(!fa.conflicts(&footprint(&[], &[*b])), "{a:?} and {b:?} share a bit");
        }
    }
}

#[test]
fn queueing_tasks_commutes_with_running_the_loop_but_not_with_another_append() {
    let (l0, webmcp) = (LoopId(0), TaskSource::WebMcp);
    let task_on_l0 = footprint(&[], &[Resource::Loop(l0)]);
    let append = footprint(&[Resource::Lifecycle(l0), Resource::ToolMaps(l0)], &[Resource::Queue(l0, webmcp)]);
    assert!(!task_on_l0.conflicts(&append), "a task that changes no tool map commutes with a queued task");
    let register = footprint(&[], &[Resource::Loop(l0), Resource::ToolMaps(l0)]);
    assert!(register.conflicts(&append), "getTools reads the tool map registerTool writes");
    assert!(append.conflicts(&footprint(&[], &[Resource::Queue(l0, webmcp)])));
    assert!(!append.conflicts(&footprint(&[], &[Resource::Queue(l0, TaskSource::Timer)])));
}

/// What "queue a global task" notes for appending a task to (`el`, `source`) behind the task
/// `ahead` of `doc` (the last in that queue).
fn append_behind(el: LoopId, source: TaskSource, doc: u32, ahead: &str) -> Footprint {
    let hash = Footprint::task_hash(el, source, Some(browser::DocId(doc)), &ahead);
    footprint(&[], &[Resource::Queue(el, source), Resource::QueuedTask(hash)])
}

/// What the stateless search notes for taking the task `work` of `doc` from the head of its queue
/// (`SimModel::step`), besides the task's own footprint.
fn take(el: LoopId, source: TaskSource, doc: u32, work: &str) -> Footprint {
    let mut f = Footprint::default();
    f.take_task(el, source, Footprint::task_hash(el, source, Some(browser::DocId(doc)), &work));
    f
}

#[test]
fn taking_a_task_conflicts_with_the_append_right_behind_it_and_no_other() {
    let (l0, webmcp, timer) = (LoopId(0), TaskSource::WebMcp, TaskSource::Timer);
    // Tasks whose hashes fall on different bits (the test says so).
    let (a, b) = ("settle call0", "settle call1");
    let bit = |w: &str| Footprint::task_hash(l0, webmcp, Some(browser::DocId(0)), &w) % 32;
    assert_ne!(bit(a), bit(b), "the test's two tasks share a bit: pick others");
    assert!(take(l0, webmcp, 0, a).conflicts(&append_behind(l0, webmcp, 0, a)), "queue [a], append c: take a, c");
    assert!(append_behind(l0, webmcp, 0, a).conflicts(&take(l0, webmcp, 0, a)), "either way round");
    assert!(
        !take(l0, webmcp, 0, a).conflicts(&append_behind(l0, webmcp, 0, b)),
        "queue [a, b], append c: a is taken first in either order"
    );
    assert!(
        append_behind(l0, webmcp, 0, a).conflicts(&append_behind(l0, webmcp, 0, b)),
        "two appends to one queue do not commute"
    );
    // The same steps and document on another queue, or another document's: another task.
    assert!(!take(l0, timer, 0, a).conflicts(&append_behind(l0, webmcp, 0, a)));
    assert!(!take(l0, webmcp, 1, a).conflicts(&append_behind(l0, webmcp, 0, b)) || bit(a) == bit(b));
    let hash = Footprint::task_hash(l0, webmcp, Some(browser::DocId(0)), &a);
    let mut other_queue_same_bit = footprint(&[], &[Resource::Queue(l0, timer), Resource::QueuedTask(hash)]);
    assert!(!take(l0, webmcp, 0, a).conflicts(&other_queue_same_bit), "a bit counts on the take's own queue only");
    other_queue_same_bit.touch(Resource::Queue(l0, webmcp), true);
    assert!(take(l0, webmcp, 0, a).conflicts(&other_queue_same_bit), "a shared bit on the same queue conflicts");
    // Two takes commute (they are of different lanes, or ordered by their lane).
    assert!(!take(l0, webmcp, 0, a).conflicts(&take(l0, webmcp, 0, a)));
    assert!(!take(l0, webmcp, 0, a).reads_only_lifecycles(), "a take reads a queued task");
    // A queue past the bits is read whole, which counts as global.
    assert!(take(LoopId(Footprint::QUEUE_LOOPS), webmcp, 0, a).global());
}

#[test]
fn a_task_hash_depends_on_its_queue_document_and_steps_only() {
    let (l0, l1) = (LoopId(0), LoopId(1));
    let doc = Some(browser::DocId(2));
    let h = Footprint::task_hash(l0, TaskSource::WebMcp, doc, &"steps");
    assert_eq!(h, Footprint::task_hash(l0, TaskSource::WebMcp, doc, &"steps"), "the append and the take agree");
    assert_ne!(h, Footprint::task_hash(l1, TaskSource::WebMcp, doc, &"steps"));
    assert_ne!(h, Footprint::task_hash(l0, TaskSource::Timer, doc, &"steps"));
    assert_ne!(h, Footprint::task_hash(l0, TaskSource::WebMcp, Some(browser::DocId(3)), &"steps"));
    assert_ne!(h, Footprint::task_hash(l0, TaskSource::WebMcp, doc, &"other steps"));
}
