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

/// The lane of the FIFO parallel queue, made once (a lane label is a shared string).
pub(super) static LANE_PAR: std::sync::LazyLock<Lane> = std::sync::LazyLock::new(|| Lane::new("par"));
