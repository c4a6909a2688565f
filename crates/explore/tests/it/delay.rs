//! The delay bound (CHESS): exactly the schedules that deviate at most K times from the first
//! runnable lane in label order.

use std::collections::BTreeSet;

use explore::{Options, Stateful};

use crate::race::Race;
use crate::two_phase::TwoPhase;
use crate::{options, Never};

/// The outcome keys of every schedule with at most `bound` delays, by brute force: every
/// schedule enumerated, its delays counted (independent of the engine).
fn outcomes_within<M: Stateful<Error = Never>>(model: &M, bound: u32) -> BTreeSet<u128> {
    fn walk<M: Stateful<Error = Never>>(
        model: &M,
        mut state: M::State,
        delays: u32,
        bound: u32,
        out: &mut BTreeSet<u128>,
    ) {
        let mut lanes = Vec::new();
        model.runnable(&mut state, &mut lanes);
        if lanes.is_empty() {
            out.insert(model.outcome_key(&model.outcome(&state)));
            return;
        }
        for (i, &lane) in lanes.iter().enumerate() {
            let delay = (lanes.len() > 1 && i > 0) as u32;
            if delays + delay > bound {
                continue;
            }
            let mut child = state.clone();
            model.step(&mut child, lane).unwrap();
            walk(model, child, delays + delay, bound, out);
        }
    }
    let mut out = BTreeSet::new();
    walk(model, model.initial().unwrap(), 0, bound, &mut out);
    out
}

fn bounded(reduce: bool, bound: u32) -> Options {
    Options { delay_bound: Some(bound), ..options(reduce) }
}

fn keys<M: Stateful<Error = Never>>(model: &M, options: &Options) -> (BTreeSet<u128>, explore::Report<M::Outcome>) {
    let report = explore::search(model, options).unwrap().report;
    (report.outcomes.iter().map(|c| c.key).collect(), report)
}

#[test]
fn a_delay_bound_covers_exactly_the_schedules_within_it() {
    let race = Race::new(3);
    let every = explore::reachable(&race, u64::MAX).unwrap().outcomes.into_iter().collect::<BTreeSet<_>>();
    for bound in 0..=4 {
        let expected = outcomes_within(&race, bound);
        for reduce in [false, true] {
            let (found, report) = keys(&race, &bounded(reduce, bound));
            assert_eq!(found, expected, "race, bound {bound}, reduce {reduce}");
            // Schedules of three calls deviate up to more than four times: each bound cuts some,
            // and the report says which bound did.
            assert!(expected.len() < every.len() || bound > 0);
            assert_eq!(report.bounds_hit, [format!("delay-bound ({bound})")], "race, bound {bound}");
        }
    }
    // Cut into work items (the split counts delays too), on two threads, and in shards.
    for bound in 0..=2 {
        let expected = outcomes_within(&race, bound);
        let split = Options { split_depth: 2, jobs: 2, ..bounded(true, bound) };
        let (found, report) = keys(&race, &split);
        assert_eq!(found, expected, "race, split, bound {bound}");
        assert_eq!(report.bounds_hit, [format!("delay-bound ({bound})")]);
        let shards = (1..=3)
            .map(|k| explore::search(&race, &Options { shard: (k, 3), ..split.clone() }).unwrap().report)
            .collect();
        let merged: BTreeSet<u128> = explore::Report::merge(shards).outcomes.iter().map(|c| c.key).collect();
        assert_eq!(merged, expected, "race, shards, bound {bound}");
    }
    let two_phase = TwoPhase::new(3);
    for bound in 0..=3 {
        let (found, _) = keys(&two_phase, &bounded(true, bound));
        assert_eq!(found, outcomes_within(&two_phase, bound), "two-phase, bound {bound}");
    }
}

#[test]
fn delay_bound_zero_is_the_default_schedule_and_a_large_one_is_complete() {
    let race = Race::new(3);
    let (found, report) = keys(&race, &bounded(true, 0));
    assert_eq!(found.len(), 1);
    assert_eq!(report.outcomes[0].witness, "call0 call0 call1 call1 call2 call2 canceller canceller canceller");
    assert!(!report.complete());
    // No schedule of three calls has more choices than steps (ten), so a bound of ten cuts none.
    let (found, report) = keys(&race, &bounded(true, 10));
    assert!(report.complete(), "{:?}", report.bounds_hit);
    assert_eq!(found, explore::reachable(&race, u64::MAX).unwrap().outcomes.into_iter().collect());
}
