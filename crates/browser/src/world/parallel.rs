//! HTML "in parallel": the unordered in-parallel blocks (`ParallelBlocks`) and the FIFO parallel
//! queue.

use sched::Lane;

use super::event_loops::copy_with_room;
use super::{ParallelMode, World};
use crate::shared::Shared;

/// The unordered in-parallel blocks, as a list sorted by label (copying it is one allocation,
/// where a map copies nodes). Each block (its label and steps) is shared with its cached digest:
/// a list that gains or loses one block rehashes 16 bytes per other block, not their steps.
#[derive(PartialEq, Eq, Hash, Debug)]
pub struct ParallelBlocks<S>(pub(super) Vec<Shared<(Lane, S)>>);

impl<S> Clone for ParallelBlocks<S> {
    /// A copy (made to write the list) leaves room for two more blocks: starting one is the most
    /// common write, and a unit that starts one often starts another.
    fn clone(&self) -> Self {
        ParallelBlocks(copy_with_room(&self.0, None))
    }
}

impl<S> Default for ParallelBlocks<S> {
    fn default() -> Self {
        ParallelBlocks(Vec::new())
    }
}

impl<S: Clone> ParallelBlocks<S> {
    /// Where the block labelled `label` is (`Ok`), or where it would go (`Err`).
    fn find(&self, label: &Lane) -> Result<usize, usize> {
        self.0.binary_search_by(|block| block.0.cmp(label))
    }

    /// Adds the block `label`, or replaces its steps.
    fn insert(&mut self, label: Lane, steps: S) {
        match self.find(&label) {
            Ok(at) => self.0[at] = Shared::new((label, steps)),
            Err(at) => self.0.insert(at, Shared::new((label, steps))),
        }
    }

    /// Removes and returns the block at `at` (from `find`).
    pub(super) fn remove(&mut self, at: usize) -> (Lane, S) {
        self.0.remove(at).into_inner()
    }

    /// A copy (as `Clone`) without the block at `at`.
    pub(super) fn copy_without(&self, at: usize) -> Self {
        ParallelBlocks(copy_with_room(&self.0, Some(at)))
    }
}

impl<S: Clone> World<S> {
    /// HTML "in parallel": starts a block with a label unique among all blocks ever started
    /// (the caller derives it from the lane that started it). Returns the lane it runs on.
    pub fn start_in_parallel(&mut self, label: Lane, steps: S) -> Lane {
        match self.parallel_mode {
            ParallelMode::Unordered => {
                self.parallel_blocks.insert(label.clone(), steps);
                label
            }
            ParallelMode::Fifo => {
                self.parallel_queue.push_back((label, steps));
                LANE_PAR.clone()
            }
        }
    }
}

/// The in-parallel blocks that are navigations' fetches (`options.network` "unbounded", HTML
/// "navigate" 23): their labels (sorted; the blocks themselves are among the unordered blocks,
/// in either parallel mode), and whether they were put off until virtual time next advances
/// (`net.wait`). Empty and not put off in every other scenario.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Fetches {
    labels: Vec<Lane>,
    put_off: bool,
    /// The fetches in flight were put off, and arrived without virtual time advancing because
    /// it had nowhere to go; `net.wait` is not offered again until a fetch starts (which puts an
    /// end to it). Without it, `net.wait` and the arrival with nowhere to go would repeat forever.
    waited_in_vain: bool,
}

impl Fetches {
    /// No fetch in flight, none put off: the state of every scenario without `network` "unbounded".
    pub(super) fn is_idle(&self) -> bool {
        self.labels.is_empty() && !self.put_off && !self.waited_in_vain
    }
}

impl<S: Clone> World<S> {
    /// A navigation's fetch (HTML "navigate" 23, "in parallel") as an unordered in-parallel block
    /// whose response may arrive at any later moment: before virtual time advances (its lane, as
    /// any block's), or after (`net.wait` puts every fetch in flight off until then). Returns the
    /// lane it runs on.
    pub fn start_fetch(&mut self, label: Lane, steps: S) -> Lane {
        self.parallel_blocks.insert(label.clone(), steps);
        let fetches = &mut *self.fetches;
        if let Err(at) = fetches.labels.binary_search(&label) {
            fetches.labels.insert(at, label.clone());
        }
        fetches.waited_in_vain = false;
        label
    }

    /// Whether the block labelled `label` is a fetch in flight.
    pub(super) fn is_fetch(&self, label: &Lane) -> bool {
        !self.fetches.labels.is_empty() && self.fetches.labels.binary_search(label).is_ok()
    }

    /// Whether fetches are in flight and were put off (`net.wait`) until virtual time advances.
    pub fn fetches_put_off(&self) -> bool {
        self.fetches.put_off
    }

    /// Whether `net.wait` can run: fetches are in flight, not put off, and they did not already
    /// wait in vain (put off, then arrived at once because virtual time had nowhere to advance
    /// to) since the last fetch started. It reads the fetches alone (`Resource::Fetches` in the
    /// explorer's footprints), so only a step that starts a fetch makes it runnable, and only one
    /// that writes the fetches stops it: not whether a timer or a timed step is pending, which a
    /// wait may still meet (a timer set while the fetches wait), or not (they arrive at once).
    pub(super) fn fetches_can_wait(&self) -> bool {
        !self.fetches.labels.is_empty() && !self.fetches.put_off && !self.fetches.waited_in_vain
    }

    /// `net.wait`: puts every fetch in flight off until virtual time next advances.
    pub(super) fn put_fetches_off(&mut self) {
        self.fetches.put_off = true;
    }

    /// A block was taken to run: if it is a fetch, it is no longer in flight (the list is read,
    /// and copied only when it holds the block).
    pub(super) fn fetch_taken(&mut self, label: &Lane) {
        if self.fetches.labels.is_empty() {
            return;
        }
        if let Ok(at) = self.fetches.labels.binary_search(label) {
            let fetches = &mut *self.fetches;
            fetches.labels.remove(at);
            if fetches.labels.is_empty() {
                fetches.waited_in_vain = false;
            }
        }
    }

    /// Virtual time advanced (`advanced`), or had nowhere to go: the fetches put off may arrive.
    pub(super) fn fetches_wake_up(&mut self, advanced: bool) {
        if self.fetches.put_off {
            let fetches = &mut *self.fetches;
            fetches.put_off = false;
            fetches.waited_in_vain = !advanced;
        }
    }
}

/// The lane of the FIFO parallel queue, made once (a lane label is a shared string).
pub(super) static LANE_PAR: std::sync::LazyLock<Lane> = std::sync::LazyLock::new(|| Lane::new("par"));
