//! The explorer's tables: the visited table's key and hasher, the interned sleep sets, and
//! what they cost.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::LaneId;

/// A state's 128-bit fingerprint as a visited-table key: two `u64`s (8-byte aligned, so a table
/// entry is 24 bytes, not the 32 a `u128` key's alignment would make it).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Key {
    lo: u64,
    pub(crate) hi: u64,
}

impl Key {
    pub(crate) fn new(fingerprint: u128) -> Key {
        Key { lo: fingerprint as u64, hi: (fingerprint >> 64) as u64 }
    }
}

impl std::hash::Hash for Key {
    /// The low half of an XXH3 digest is already uniformly distributed.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.lo);
    }
}

/// Passes a `Key`'s low half through as the table's hash (instead of running SipHash over it).
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Only `Key`s are hashed here (through `write_u64`); this is the fallback for any other.
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0 ^ u64::from_le_bytes(word)).rotate_left(29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = word;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type KeyMap<V> = HashMap<Key, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// The hasher of the explorer's small tables (sleep sets): foldhash with a fixed seed (the
/// tables are never iterated, so the seed cannot change a result).
type FastBuild = foldhash::fast::FixedState;

/// The distinct non-empty sleep sets of visited choice points, each a sorted list of lane
/// numbers, and their indices (few distinct sets recur across many states).
#[derive(Default)]
pub(crate) struct SleepSets {
    pub(crate) sets: Vec<Box<[LaneId]>>,
    pub(crate) index: HashMap<Box<[LaneId]>, u32, FastBuild>,
}

impl SleepSets {
    /// The set a `Visit::sleep` value names.
    pub(crate) fn get(&self, visit_sleep: u32) -> &[LaneId] {
        match visit_sleep {
            0 => &[],
            i => &self.sets[i as usize - 1],
        }
    }

    /// A sorted set's `Visit::sleep` value: 0 for the empty set, else 1 + its index.
    pub(crate) fn intern(&mut self, sorted: &[LaneId]) -> u32 {
        if sorted.is_empty() {
            return 0;
        }
        if let Some(&index) = self.index.get(sorted) {
            return index;
        }
        self.sets.push(sorted.into());
        let index = u32::try_from(self.sets.len()).expect("fewer than 2^32 sleep sets");
        self.index.insert(sorted.into(), index);
        index
    }

    /// The memory the sets hold: the list, the index (each set kept twice: in the list and as
    /// the index's key).
    pub(crate) fn bytes(&self) -> usize {
        self.sets.capacity() * std::mem::size_of::<Box<[LaneId]>>()
            + table_bytes(self.index.capacity(), std::mem::size_of::<(Box<[LaneId]>, u32)>())
            + self.sets.iter().map(|s| 2 * std::mem::size_of_val::<[LaneId]>(s)).sum::<usize>()
    }
}

/// A visited choice point: the smallest depth it was explored at, and its sleep set (0: empty,
/// otherwise 1 + an index into `SleepSets`; most sleep sets are empty).
#[derive(Clone, Copy)]
pub(crate) struct Visit {
    pub(crate) depth: u32,
    pub(crate) sleep: u32,
}

/// What the visited table costs, measured: the hash table's buckets (key, `Visit`, control
/// byte) at its real capacity, plus the stored non-empty sleep sets and the lane numbering
/// their numbers refer to.
#[derive(Clone, Copy, Debug, Default)]
pub struct Memory {
    pub states: u64,
    pub bytes: u64,
}

impl Memory {
    pub fn bytes_per_state(&self) -> f64 {
        self.bytes as f64 / self.states.max(1) as f64
    }
}

/// The bytes of a hashbrown table that can hold `capacity` entries of `entry` bytes: at most
/// 7/8 of a power-of-two number of buckets are full (all but one below 8 buckets), with one
/// control byte per bucket plus one group of 16.
pub fn table_bytes(capacity: usize, entry: usize) -> usize {
    let buckets = if capacity == 0 {
        0
    } else if capacity < 8 {
        (capacity + 1).next_power_of_two()
    } else {
        (capacity * 8 / 7).next_power_of_two()
    };
    buckets * (entry + 1) + if buckets > 0 { 16 } else { 0 }
}

/// The visited table that the threads of one search share (`Options::jobs` > 1): shards, each a
/// mutex over a table of visits and the sleep sets they store, chosen by the fingerprint's high
/// half (the shard's own table hashes the low half). Stored sleep sets hold lanes by their
/// number in `lanes`, which every thread shares (each thread numbers the lanes it meets in its
/// own order and translates).
pub(crate) struct SharedTable<L> {
    shards: Box<[Mutex<Shard>]>,
    /// The depth bound has cut a branch somewhere in the search (see `Explorer::depth_cut`).
    pub(crate) depth_cut: AtomicBool,
    /// The labels of the lanes any thread has met, by their shared number.
    lanes: Mutex<Vec<L>>,
}

/// One shard of a [`SharedTable`].
#[derive(Default)]
pub(crate) struct Shard {
    pub(crate) visited: KeyMap<Visit>,
    pub(crate) sleep_sets: SleepSets,
}

impl<L: Clone + Eq> SharedTable<L> {
    /// Shards: a power of two, enough that two threads seldom wait for one lock.
    const SHARDS: usize = 64;

    pub(crate) fn new() -> SharedTable<L> {
        SharedTable {
            shards: (0..Self::SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
            depth_cut: AtomicBool::new(false),
            lanes: Mutex::new(Vec::new()),
        }
    }

    /// The shard that holds `key`, locked (a thread that panicked holding it has ended the
    /// search with its panic, so a poisoned lock is taken as it is).
    pub(crate) fn shard(&self, key: Key) -> MutexGuard<'_, Shard> {
        self.shards[key.hi as usize & (Self::SHARDS - 1)].lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The shared number of a lane label (numbered on first sight; a thread asks once per lane).
    pub(crate) fn lane(&self, label: &L) -> LaneId {
        let mut lanes = self.lanes.lock().unwrap_or_else(PoisonError::into_inner);
        let at = match lanes.iter().position(|l| l == label) {
            Some(at) => at,
            None => {
                lanes.push(label.clone());
                lanes.len() - 1
            }
        };
        LaneId::try_from(at).expect("fewer than 2^32 lanes")
    }

    /// What the table holds: distinct states and bytes (as [`Memory`] counts them).
    pub(crate) fn memory(&self) -> Memory {
        let mut memory = Memory::default();
        for shard in self.shards.iter() {
            let shard = shard.lock().unwrap_or_else(PoisonError::into_inner);
            memory.states += shard.visited.len() as u64;
            memory.bytes += (table_bytes(shard.visited.capacity(), std::mem::size_of::<(Key, Visit)>())
                + shard.sleep_sets.bytes()) as u64;
        }
        let lanes = self.lanes.lock().unwrap_or_else(PoisonError::into_inner);
        memory.bytes += (lanes.capacity() * std::mem::size_of::<L>()) as u64;
        memory
    }
}
