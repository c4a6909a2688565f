//! Dynamic splitting: threads that share one table donate open work to a thread that waits
//! (`Options::donate_every` 1: a donation at every choice point a waiting thread is seen from).
//! The outcomes must be those of one thread, however the donations fall; the bounds must hold.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use explore::{Labels, Model, Options, Progress, Stateful};

use crate::programs::Programs;
use crate::race::Race;
use crate::shared::Counting;
use crate::two_phase::TwoPhase;
use crate::{options, outcome_keys, Never};

/// `jobs` threads sharing one table, the tree cut at `split_depth`, donating as often as asked.
fn sharing(jobs: usize, split_depth: usize) -> Options {
    Options { jobs, split_depth, donate_every: 1, ..options(true) }
}

/// The outcome keys and work items of a search (which must be complete).
fn keys_and_items<M: Stateful>(model: &M, options: &Options) -> (Vec<u128>, u64)
where
    M::Error: std::fmt::Debug,
{
    let searched = explore::search(model, options).expect("the search runs");
    assert!(searched.report.complete(), "bounds hit: {:?}", searched.report.bounds_hit);
    assert!(searched.counts_vary);
    let mut keys: Vec<u128> = searched.report.outcomes.iter().map(|c| c.key).collect();
    keys.sort_unstable();
    (keys, searched.report.work_items)
}

#[test]
fn donated_work_keeps_every_outcome_of_random_programs() {
    // Items beyond the split's: donations made (thread timing decides how many; over 200
    // programs some must have been).
    let mut donated = 0;
    for seed in 0..200 {
        let program = Programs::random(seed, 4, 3, 3);
        let every = explore::reachable(&program, u64::MAX).unwrap().outcomes;
        assert_eq!(outcome_keys(&program, &options(true)), every, "seed {seed}, one thread");
        for (jobs, split_depth) in [(2, 0), (3, 0), (2, 2)] {
            let split_items = if split_depth == 0 {
                1
            } else {
                explore::search(&program, &Options { jobs: 1, ..sharing(jobs, split_depth) }).unwrap().report.work_items
            };
            let (keys, items) = keys_and_items(&program, &sharing(jobs, split_depth));
            assert_eq!(keys, every, "seed {seed}, {jobs} threads, split depth {split_depth}");
            donated += items.saturating_sub(split_items);
        }
    }
    assert!(donated > 0, "no donation in 600 searches");
}

#[test]
fn donated_work_keeps_every_outcome_of_the_race_and_two_phase_commit() {
    let mut donated = 0;
    for calls in 2..=4 {
        let race = Race::new(calls);
        let every = explore::reachable(&race, u64::MAX).unwrap().outcomes;
        for jobs in [2, 4] {
            for _ in 0..5 {
                let (keys, items) = keys_and_items(&race, &sharing(jobs, 0));
                assert_eq!(keys, every, "{calls} calls, {jobs} threads");
                donated += items - 1;
            }
        }
    }
    let two_phase = TwoPhase::new(4);
    let every = explore::reachable(&two_phase, u64::MAX).unwrap().outcomes;
    for jobs in [2, 3] {
        for _ in 0..5 {
            let (keys, items) = keys_and_items(&two_phase, &sharing(jobs, 0));
            assert_eq!(keys, every, "two-phase commit of 4, {jobs} threads");
            donated += items - 1;
        }
    }
    assert!(donated > 0, "no donation");
}

#[test]
fn donated_work_passes_through_every_state_and_stores_no_more() {
    // The race of three calls: 1,160 reachable states; state caching with sleep sets cuts
    // transitions, not states, whoever explores which sibling.
    let race = Race::new(3);
    let whole_stored = explore::search(&race, &options(true)).unwrap().memory.states;
    for jobs in [2, 4] {
        let counting = Counting::new(&race);
        let searched = explore::search(&counting, &sharing(jobs, 0)).unwrap();
        assert!(searched.report.complete());
        assert_eq!(counting.distinct(), 1_160, "{jobs} threads");
        // A donated choice point is stored once, by its donor.
        assert!(searched.memory.states <= whole_stored, "{jobs} threads: {} stored", searched.memory.states);
    }
}

#[test]
fn donations_carry_their_sleep_sets() {
    // Six independent threads: with sleep sets, 62 transitions from choice points, however the
    // tree is handed out (a donated sibling without the sleep set its choice point gives it
    // would explore again what its elder siblings explored).
    let program = Programs::independent(6);
    for jobs in [2, 3] {
        for _ in 0..10 {
            let searched = explore::search(&program, &sharing(jobs, 0)).unwrap();
            assert!(searched.report.complete());
            assert_eq!(searched.report.transitions, 62, "{jobs} threads");
            assert_eq!(searched.report.outcomes.len(), 1);
        }
    }
}

#[test]
fn the_budget_and_the_bounds_hold_with_donations() {
    let race = Race::new(4);
    for jobs in [2, 4] {
        // The choice point that passes the bound is counted, no other, however the work is
        // handed out.
        for max_states in [100, 1_000, 2_500] {
            let searched = explore::search(&race, &Options { max_states, ..sharing(jobs, 0) }).unwrap();
            assert_eq!(searched.report.bounds_hit, [format!("max-states ({max_states})")]);
            assert_eq!(searched.report.states, max_states + 1, "{jobs} threads");
        }
        let shallow = explore::search(&race, &Options { max_depth: 4, ..sharing(jobs, 0) }).unwrap();
        assert_eq!(shallow.report.bounds_hit, ["max-depth (4)"]);
        let timed =
            explore::search(&race, &Options { time_limit: Some(std::time::Duration::ZERO), ..sharing(jobs, 0) })
                .unwrap();
        assert_eq!(timed.report.bounds_hit, ["time (0 s)"]);
        let interrupt = Arc::new(AtomicBool::new(true));
        let stopped = explore::search(&race, &Options { interrupt: Some(interrupt), ..sharing(jobs, 0) }).unwrap();
        assert_eq!(stopped.report.bounds_hit, ["Ctrl-C"]);
    }
}

#[test]
fn progress_with_donations_ends_at_one() {
    let race = Race::new(4);
    for jobs in [2, 4] {
        let progress = Arc::new(Progress::default());
        let options = Options { progress: Some(progress.clone()), ..sharing(jobs, 0) };
        let searched = explore::search(&race, &options).unwrap();
        assert_eq!(progress.states(), searched.report.states, "{jobs} threads");
        assert!((progress.fraction() - 1.0).abs() < 1e-9, "{jobs} threads: {}", progress.fraction());
    }
}

/// The race, failing (a model error) or panicking at the `at`th step any thread takes.
struct Failing {
    race: Race,
    steps: std::sync::atomic::AtomicU64,
    at: u64,
    panic: bool,
}

impl Model for Failing {
    type State = <Race as Model>::State;
    type Lane = usize;
    type Label = String;
    type Footprint = crate::Bits;
    type Outcome = Vec<u8>;
    type Error = Never;
    type Numbering = Labels<String>;

    fn initial(&self) -> Result<Self::State, Never> {
        self.race.initial()
    }
    fn runnable(&self, state: &mut Self::State, out: &mut Vec<usize>) {
        self.race.runnable(state, out)
    }
    fn step(&self, state: &mut Self::State, lane: usize) -> Result<crate::Bits, Never> {
        if self.steps.fetch_add(1, Ordering::Relaxed) == self.at {
            if self.panic {
                panic!("the model panics");
            }
            return Err(explore::Failure::Nondeterministic("the model fails".into()).into());
        }
        self.race.step(state, lane)
    }
    fn label<'a>(&'a self, state: &'a Self::State, lane: &usize) -> &'a String {
        self.race.label(state, lane)
    }
    fn units(&self, state: &Self::State) -> usize {
        self.race.units(state)
    }
    fn outcome(&self, state: &Self::State) -> Vec<u8> {
        self.race.outcome(state)
    }
    fn outcome_key(&self, outcome: &Vec<u8>) -> u128 {
        self.race.outcome_key(outcome)
    }
    fn schedule_text(&self, picks: &[&String]) -> String {
        self.race.schedule_text(picks)
    }
}

impl Stateful for Failing {
    fn fingerprint(&self, state: &Self::State) -> u128 {
        self.race.fingerprint(state)
    }
}

#[test]
fn a_thread_that_fails_or_panics_ends_the_search_without_a_hang() {
    for panic in [false, true] {
        for at in [0, 50, 5_000] {
            let model = Failing { race: Race::new(4), steps: Default::default(), at, panic };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                explore::search(&model, &sharing(2, 0)).map(|_| ())
            }));
            match (panic, result) {
                (false, Ok(Err(_))) | (true, Err(_)) => {}
                (_, other) => panic!("step {at}, panic {panic}: {:?}", other.map(|r| r.is_ok())),
            }
        }
    }
}
