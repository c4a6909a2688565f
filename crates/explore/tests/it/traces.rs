//! `count_traces`: the Mazurkiewicz traces of a model, counted by (state, sleep set) pairs,
//! against the textbook counts, a brute-force count of every schedule's trace, and the
//! executions the stateless search runs (complete ones: one per trace).

use explore::{count_traces, Model, Options, Traces};

use crate::programs::Programs;
use crate::race::Race;
use crate::stateless::{traces, Writers};
use crate::two_phase::TwoPhase;
use crate::{options, Never};

fn count<M: explore::Stateful<Error = Never>>(model: &M) -> Traces
where
    M::Footprint: std::hash::Hash,
{
    let counted = count_traces(model, &options(true)).expect("the count runs");
    assert!(counted.finished, "bound hit: {:?}", counted.bound);
    counted
}

/// The stateless search's executions that ended complete (not blocked by a sleep set).
fn stateless_complete<M: Model<Error = Never>>(model: &M) -> u64 {
    let report = explore::stateless::search(model, &options(true)).expect("the search runs").report;
    assert!(report.complete(), "bounds hit: {:?}", report.bounds_hit);
    report.executions - report.redundant
}

#[test]
fn independent_threads_have_one_trace() {
    // Sleep sets alone also end branches with every lane asleep (an optimal DPOR runs none of
    // them): their number, pinned, is what the count adds beside the one trace.
    for (threads, steps, blocked) in [(1, 1, 0), (2, 3, 3), (4, 5, 215), (6, 2, 242)] {
        let counted = count(&Writers::new(threads, steps, false));
        assert_eq!((counted.complete, counted.blocked), (1, blocked), "{threads} threads of {steps} steps");
    }
}

#[test]
fn writers_to_one_variable_have_n_factorial_traces() {
    for (threads, factorial) in [(1, 1), (2, 2), (3, 6), (4, 24), (5, 120), (7, 5_040)] {
        let counted = count(&Writers::new(threads, 1, true));
        assert_eq!((counted.complete, counted.blocked), (factorial, 0), "{threads} writers");
    }
    // Two threads of two writes each to one variable: C(4, 2) = 6 interleavings, each a trace.
    assert_eq!(count(&Writers::new(2, 2, true)).complete, 6);
}

#[test]
fn random_programs_have_as_many_traces_as_their_schedules_reduce_to() {
    for seed in 0..200 {
        let program = Programs::random(seed, 3, 3, 3);
        assert_eq!(count(&program).complete, traces(&program) as u128, "seed {seed}");
    }
}

#[test]
fn the_stateless_search_runs_one_complete_execution_per_trace() {
    // The race and two-phase commit declare no fixed footprints, so the stateless search runs
    // some redundant executions (every lane asleep) besides one per trace.
    for calls in 1..=4 {
        let model = Race::new(calls);
        assert_eq!(count(&model).complete, stateless_complete(&model) as u128, "race of {calls}");
    }
    for rms in 1..=3 {
        let model = TwoPhase::new(rms);
        assert_eq!(count(&model).complete, stateless_complete(&model) as u128, "two-phase of {rms}");
    }
}

#[test]
fn a_bound_stops_the_count_and_says_so() {
    let counted = count_traces(&Writers::new(5, 1, true), &Options { max_states: 10, ..options(true) }).unwrap();
    assert!(!counted.finished);
    assert_eq!(counted.bound.as_deref(), Some("max-states (10)"));
    assert!(counted.complete < 120, "a count cut short is a lower bound: {}", counted.complete);
}
