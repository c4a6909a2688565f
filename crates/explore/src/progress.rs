//! What a running search shows of itself (never read by the search, never in a report): states
//! so far, distinct outcomes so far, the fraction done as the search's position suggests, and
//! Knuth's random-probe estimate of the unreduced tree.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::Stateful;

/// A running search's progress, shared with whoever displays it (`Options::progress`).
#[derive(Debug, Default)]
pub struct Progress {
    /// Choice points visited so far (advanced in steps of 1,024).
    states: AtomicU64,
    /// The fraction of the tree done, in units of 2^-40 (see [`Progress::fraction`]).
    done: AtomicU64,
    /// The distinct outcomes met so far, by key (each explorer adds an outcome the first time
    /// it meets it).
    outcomes: Mutex<BTreeSet<u128>>,
    /// The search has ended (what runs after it, such as a witness pass, is not counted here).
    over: AtomicBool,
}

/// The unit of `Progress::done`.
pub(crate) const WHOLE: f64 = (1u64 << 40) as f64;

impl Progress {
    /// Choice points visited so far.
    pub fn states(&self) -> u64 {
        self.states.load(Ordering::Relaxed)
    }

    /// The fraction of the search done, between 0 and 1, as its explorers guess it from their
    /// paths ([`fraction_done`]; work items share the whole equally, and a donated one takes
    /// its guessed share from its donor's). It only grows, stays below 1 while the search runs,
    /// and is 1 when it is over.
    pub fn fraction(&self) -> f64 {
        let done = (self.done.load(Ordering::Relaxed) as f64 / WHOLE).min(1.0);
        // A guess: never "done" before the search is (a work item's guess can reach its whole
        // share early).
        if self.over() {
            done
        } else {
            done.min(0.999)
        }
    }

    /// Whether the search has ended.
    pub fn over(&self) -> bool {
        self.over.load(Ordering::Relaxed)
    }

    pub(crate) fn end(&self) {
        self.over.store(true, Ordering::Relaxed);
    }

    /// Distinct outcomes met so far.
    pub fn outcomes(&self) -> usize {
        self.outcomes.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    pub(crate) fn add_states(&self, states: u64) {
        self.states.fetch_add(states, Ordering::Relaxed);
    }

    pub(crate) fn add_outcome(&self, key: u128) {
        self.outcomes.lock().unwrap_or_else(PoisonError::into_inner).insert(key);
    }

    /// Raises an explorer's share of the fraction done from `published` to `fraction` (of
    /// `weight`, the share of the whole its work item is), returning what is now published.
    pub(crate) fn advance(&self, published: u64, fraction: f64, weight: f64) -> u64 {
        // Rounded up: the items' shares, each done, add up to the whole however many there are
        // (dynamic splitting makes hundreds).
        let now = (fraction.clamp(0.0, 1.0) * weight * WHOLE).ceil() as u64;
        if now > published {
            self.done.fetch_add(now - published, Ordering::Relaxed);
            return now;
        }
        published
    }
}

/// A choice point on an explorer's current path, as the progress display sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// The child being explored (0 for the first).
    pub index: u32,
    /// The children the choice point explores.
    pub children: u32,
    /// The explorer's choice points when the current child began.
    pub child_start: u64,
    /// The choice points the earlier children took, together.
    pub done: u64,
}

/// The fraction of a search done, from the explorer's current path and the `states` it has
/// visited: `states / (states + remaining)`, where each choice point on the path expects each
/// of its children still to come to take as many choice points as its earlier children took
/// on average (the current one so far, when it is the first). State caching makes later
/// children smaller (what the first reached is not explored again), so this tends to expect
/// too much and lag behind; it is a guess that improves as the search goes, never a bound.
/// On a tree whose subtrees at each depth are the same size (no caching), it is exact
/// whenever every choice point on the path is past its first child.
pub fn fraction_done(path: &[Level], states: u64) -> f64 {
    let mut remaining = 0.0;
    for level in path {
        let later = level.children.saturating_sub(level.index + 1);
        if later == 0 {
            continue;
        }
        let each = if level.index > 0 {
            level.done as f64 / f64::from(level.index)
        } else {
            states.saturating_sub(level.child_start) as f64
        };
        remaining += f64::from(later) * each.max(1.0);
    }
    states as f64 / (states as f64 + remaining).max(1.0)
}

/// Knuth's estimate of a tree's size (*Estimating the efficiency of backtrack programs*, Math.
/// Comp. 29, 1975).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The mean over the probes of 1 + d1 + d1 d2 + …, where d_k is the number of runnable lanes
    /// at the k-th choice point of the probe's schedule: an unbiased estimate of the number of
    /// choice points in the *unreduced* tree (every schedule, no state caching).
    pub choice_points: f64,
    pub probes: u32,
}

/// Knuth's random-probe estimate of the number of choice points of `model`'s unreduced tree:
/// `probes` schedules, each choosing uniformly among the runnable lanes at every choice point
/// (a generator seeded with `seed`, so the estimate is a function of the model and the seed).
/// Exact for a tree whose choice points at each depth all have the same number of children. A
/// schedule stops after `max_units` steps. State caching and sleep sets make the real search far
/// smaller than this tree; it says how large the problem is, not how long the search takes.
pub fn knuth_estimate<M: Stateful>(model: &M, probes: u32, seed: u64, max_units: usize) -> Result<Estimate, M::Error> {
    let mut random = SplitMix(seed);
    let mut total = 0.0;
    let mut lanes = Vec::new();
    for _ in 0..probes {
        let mut state = model.initial()?;
        let mut product = 1.0;
        let mut sum = 0.0;
        loop {
            model.runnable(&mut state, &mut lanes);
            if lanes.is_empty() || model.units(&state) >= max_units {
                break;
            }
            if lanes.len() > 1 {
                // A choice point: counted with the weight of its depth, then its children's.
                sum += product;
                product *= lanes.len() as f64;
            }
            let pick = (random.next() % lanes.len() as u64) as usize;
            model.step(&mut state, lanes[pick])?;
        }
        total += sum;
    }
    Ok(Estimate { choice_points: total / f64::from(probes.max(1)), probes })
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a small seeded generator, enough to pick lanes.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
