//! The engine on textbook models with known state counts (as stateright's examples state them).

mod delay;
mod donate;
mod order;
mod programs;
mod progress;
mod race;
mod shared;
mod stateless;
mod traces;
mod two_phase;
mod witnesses;

use explore::{LaneOrder, Options, Stateful};

/// Options for the whole tree in one work item, with or without reduction.
pub fn options(reduce: bool) -> Options {
    Options {
        reduce,
        lane_order: LaneOrder::Label,
        max_states: 50_000_000,
        max_depth: 10_000,
        max_units: 100_000,
        split_depth: 0,
        ..Options::default()
    }
}

/// The outcome keys a search found, sorted.
pub fn outcome_keys<M: Stateful>(model: &M, options: &Options) -> Vec<u128>
where
    M::Error: std::fmt::Debug,
{
    let searched = explore::search(model, options).expect("the search runs");
    assert!(searched.report.complete(), "bounds hit: {:?}", searched.report.bounds_hit);
    let mut keys: Vec<u128> = searched.report.outcomes.iter().map(|c| c.key).collect();
    keys.sort_unstable();
    keys
}

/// A footprint over at most 64 variables: the bits read and the bits written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits {
    pub reads: u64,
    pub writes: u64,
}

impl explore::Footprint for Bits {
    fn conflicts(&self, other: &Bits) -> bool {
        self.writes & (other.reads | other.writes) != 0 || other.writes & (self.reads | self.writes) != 0
    }

    fn breadth(&self) -> u32 {
        self.writes.count_ones()
    }
}

/// The model's failures (the engine's own: none of these models should cause one).
#[derive(Debug)]
pub struct Never(#[allow(dead_code)] explore::Failure);

impl From<explore::Failure> for Never {
    fn from(failure: explore::Failure) -> Never {
        Never(failure)
    }
}

/// A packed state (exact: distinct states, distinct values) spread over all 128 bits by a
/// bijection (a multiplication by an odd constant, then an xor-shift), so the engine's tables,
/// which hash the low half as it is, see a uniformly distributed fingerprint.
pub fn spread(packed: u128) -> u128 {
    let f = packed.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835);
    f ^ (f >> 67)
}
