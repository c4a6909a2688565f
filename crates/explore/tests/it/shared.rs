//! One visited table for the whole search: work items and threads share it, so splitting the
//! tree never multiplies the states, and every thread count finds the same outcomes.

use std::collections::BTreeSet;
use std::sync::Mutex;

use explore::{Labels, Model, Options, Stateful};

use crate::race::Race;
use crate::two_phase::TwoPhase;
use crate::{options, outcome_keys};

/// A model that records the fingerprint of every state the search steps into (and the initial
/// state), to count the distinct states a search passed through, whatever it stored.
pub struct Counting<'m, M> {
    model: &'m M,
    seen: Mutex<BTreeSet<u128>>,
}

impl<'m, M: Stateful> Counting<'m, M> {
    pub fn new(model: &'m M) -> Counting<'m, M> {
        Counting { model, seen: Mutex::new(BTreeSet::new()) }
    }

    pub fn distinct(&self) -> usize {
        self.seen.lock().unwrap().len()
    }
}

impl<M: Stateful> Model for Counting<'_, M>
where
    M::Label: std::hash::Hash,
{
    type State = M::State;
    type Lane = M::Lane;
    type Label = M::Label;
    type Footprint = M::Footprint;
    type Outcome = M::Outcome;
    type Error = M::Error;
    type Numbering = Labels<M::Label>;

    fn initial(&self) -> Result<M::State, M::Error> {
        let state = self.model.initial()?;
        self.seen.lock().unwrap().insert(self.model.fingerprint(&state));
        Ok(state)
    }
    fn runnable(&self, state: &mut M::State, out: &mut Vec<M::Lane>) {
        self.model.runnable(state, out)
    }
    fn step(&self, state: &mut M::State, lane: M::Lane) -> Result<M::Footprint, M::Error> {
        let footprint = self.model.step(state, lane)?;
        self.seen.lock().unwrap().insert(self.model.fingerprint(state));
        Ok(footprint)
    }
    fn label<'a>(&'a self, state: &'a M::State, lane: &M::Lane) -> &'a M::Label {
        self.model.label(state, lane)
    }
    fn units(&self, state: &M::State) -> usize {
        self.model.units(state)
    }
    fn outcome(&self, state: &M::State) -> M::Outcome {
        self.model.outcome(state)
    }
    fn outcome_key(&self, outcome: &M::Outcome) -> u128 {
        self.model.outcome_key(outcome)
    }
    fn schedule_text(&self, picks: &[&M::Label]) -> String {
        self.model.schedule_text(picks)
    }
}

impl<M: Stateful> explore::Stateful for Counting<'_, M>
where
    M::Label: std::hash::Hash,
{
    fn fingerprint(&self, state: &M::State) -> u128 {
        self.model.fingerprint(state)
    }
}

/// The tree cut at depth 2 into work items, on `jobs` threads.
fn split(jobs: usize) -> Options {
    Options { split_depth: 2, jobs, ..options(true) }
}

/// Distinct states passed through, choice points stored in the visited tables (summed over
/// tables), and the outcome keys, of one search.
fn measure<M: Stateful>(model: &M, options: &Options) -> (usize, u64, Vec<u128>)
where
    M::Label: std::hash::Hash,
    M::Error: std::fmt::Debug,
{
    let counting = Counting::new(model);
    let stored = explore::search(&counting, options).unwrap().memory.states;
    (counting.distinct(), stored, outcome_keys(model, options))
}

#[test]
fn threads_share_one_table_and_reach_exactly_the_races_1160_states() {
    let race = Race::new(3);
    let (whole, whole_stored, whole_outcomes) = measure(&race, &options(true));
    // Every reachable state (stateright and TLC: 1,160) is passed through once the search is
    // over: state caching with sleep sets cuts transitions, not states.
    assert_eq!(whole, 1_160);
    for jobs in [1, 2, 4] {
        let (distinct, stored, outcomes) = measure(&race, &split(jobs));
        assert_eq!(distinct, 1_160, "{jobs} threads");
        assert_eq!(outcomes, whole_outcomes, "{jobs} threads");
        // One table: the split adds no stored state (the choice points above the split are
        // expanded without one, so there are at most as many).
        assert!(stored <= whole_stored, "{jobs} threads: {stored} choice points stored, one work item {whole_stored}");
    }
}

#[test]
fn splitting_does_not_multiply_the_states() {
    splits_without_multiplying("race of 3", &Race::new(3));
    splits_without_multiplying("two-phase commit of 3", &TwoPhase::new(3));
}

/// With a table per work item (what shards on different machines must do) every work item
/// explores again what its siblings explored; one table for the search does not.
fn splits_without_multiplying<M: Stateful>(name: &str, model: &M)
where
    M::Error: std::fmt::Debug,
{
    // Choice points stored in the tables (summed over tables) and expanded.
    let counts = |options: &Options| {
        let searched = explore::search(model, options).unwrap();
        assert!(searched.report.complete());
        (searched.memory.states, searched.report.states, searched.split_states)
    };
    let whole = counts(&options(true));
    for jobs in [1, 2] {
        let (stored, _, _) = counts(&split(jobs));
        assert!(stored <= whole.0, "{name}, {jobs} threads: {stored} stored, one work item {}", whole.0);
    }
    let per_item = counts(&Options { table_per_work_item: true, ..split(1) });
    assert!(per_item.0 > whole.0, "{name}: per-item tables stored {} against {}", per_item.0, whole.0);
    // Expanded: the work items' roots start with empty sleep sets, so a few states are expanded
    // again by the sleep-set rule; far fewer than with a table each.
    let one = counts(&split(1));
    assert!(one.1 < per_item.1, "{name}: {} expansions with one table, {} with one per work item", one.1, per_item.1);
}

#[test]
fn the_budget_bounds_the_whole_run_across_threads() {
    let race = Race::new(4);
    for jobs in [1, 2, 4] {
        let searched = explore::search(&race, &Options { max_states: 100, ..split(jobs) }).unwrap();
        assert!(!searched.report.complete());
        // Each thread stops at its next choice point once the shared count passes the bound;
        // the one that passes it counts it, as one thread does.
        assert_eq!(searched.report.states, 101, "{jobs} threads");
    }
}

#[test]
fn one_thread_with_one_table_is_deterministic_and_several_say_their_counts_vary() {
    let race = Race::new(3);
    let first = explore::search(&race, &split(1)).unwrap();
    let again = explore::search(&race, &split(1)).unwrap();
    assert_eq!(first.report, again.report);
    assert!(!first.counts_vary);
    assert!(explore::search(&race, &split(2)).unwrap().counts_vary);
    // Shards keep a table per work item: their counts do not depend on threads.
    let shard = Options { shard: (1, 2), ..split(2) };
    let a = explore::search(&race, &shard).unwrap();
    assert!(!a.counts_vary);
    assert_eq!(a.report, explore::search(&race, &Options { jobs: 1, ..shard }).unwrap().report);
}

#[test]
fn threads_sharing_a_table_find_every_outcome_however_they_interleave() {
    // Every reachable outcome, on 2 and 4 threads, cut at depths 1 and 3, several times over
    // (thread timing differs from run to run; each run must be complete and sound).
    for calls in 2..=4 {
        let race = Race::new(calls);
        let every = explore::reachable(&race, u64::MAX).unwrap().outcomes;
        for jobs in [2, 4] {
            for split_depth in [1, 3] {
                for _ in 0..3 {
                    let options = Options { split_depth, jobs, ..options(true) };
                    assert_eq!(
                        outcome_keys(&race, &options),
                        every,
                        "{calls} calls, {jobs} threads, depth {split_depth}"
                    );
                }
            }
        }
    }
    let two_phase = TwoPhase::new(3);
    let every = explore::reachable(&two_phase, u64::MAX).unwrap().outcomes;
    for _ in 0..3 {
        assert_eq!(outcome_keys(&two_phase, &Options { split_depth: 3, jobs: 4, ..options(true) }), every);
    }
}
