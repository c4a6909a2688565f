//! What a running search shows of itself: Knuth's estimate of the tree, the fraction done as
//! the search's position suggests, the states and outcomes so far.

use std::sync::Arc;

use explore::{Labels, Model, Options, Progress};

use crate::race::Race;
use crate::{options, Bits, Never};

/// A complete binary tree: `depth` choices of `left` or `right`, each its own variable (so
/// every schedule is a distinct state and an outcome of its own).
struct Binary {
    depth: usize,
    labels: [String; 2],
}

impl Binary {
    fn new(depth: usize) -> Binary {
        Binary { depth, labels: ["left".into(), "right".into()] }
    }
}

impl Model for Binary {
    /// The choices so far, as bits, and how many.
    type State = (u64, usize);
    type Lane = usize;
    type Label = String;
    type Footprint = Bits;
    type Outcome = u64;
    type Error = Never;
    type Numbering = Labels<String>;

    fn initial(&self) -> Result<(u64, usize), Never> {
        Ok((0, 0))
    }
    fn runnable(&self, state: &mut (u64, usize), out: &mut Vec<usize>) {
        out.clear();
        if state.1 < self.depth {
            out.extend([0, 1]);
        }
    }
    fn step(&self, state: &mut (u64, usize), lane: usize) -> Result<Bits, Never> {
        state.0 = state.0 << 1 | lane as u64;
        state.1 += 1;
        // Both lanes write the same variable: nothing commutes, every schedule is explored.
        Ok(Bits { reads: 1, writes: 1 })
    }
    fn label<'a>(&'a self, _: &'a (u64, usize), lane: &usize) -> &'a String {
        &self.labels[*lane]
    }
    fn units(&self, state: &(u64, usize)) -> usize {
        state.1
    }
    fn outcome(&self, state: &(u64, usize)) -> u64 {
        state.0
    }
    fn outcome_key(&self, outcome: &u64) -> u128 {
        u128::from(*outcome)
    }
    fn schedule_text(&self, picks: &[&String]) -> String {
        picks.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
    }
}

impl explore::Stateful for Binary {
    fn fingerprint(&self, state: &(u64, usize)) -> u128 {
        crate::spread((state.0 as u128) << 8 | state.1 as u128)
    }
}

#[test]
fn knuth_estimates_a_complete_binary_tree_exactly() {
    for depth in [1, 5, 12] {
        let estimate = explore::knuth_estimate(&Binary::new(depth), 16, 7, 1_000).unwrap();
        // Choice points: 1 + 2 + … + 2^(depth-1).
        assert_eq!(estimate.choice_points, ((1u64 << depth) - 1) as f64, "depth {depth}");
        assert_eq!(estimate.probes, 16);
    }
}

#[test]
fn knuth_estimate_of_the_race_is_seeded_and_near_its_tree() {
    let race = Race::new(3);
    let estimate = |seed| explore::knuth_estimate(&race, 2_000, seed, 1_000).unwrap().choice_points;
    assert_eq!(estimate(1), estimate(1), "the same seed, the same estimate");
    // The naive search's choice points (every schedule): 32,768 (`reduction_cuts_the_race`).
    // An unbiased estimate; with 2,000 probes it lands within a few per cent.
    let naive = 32_768.0;
    for seed in [1, 2] {
        let e = estimate(seed);
        assert!((e - naive).abs() / naive < 0.1, "seed {seed}: {e} against {naive}");
    }
}

#[test]
fn fraction_done_expects_later_children_to_be_like_earlier_ones() {
    use explore::{fraction_done, Level};
    let level = |index, children, child_start, done| Level { index, children, child_start, done };
    assert_eq!(fraction_done(&[], 0), 0.0);
    // The second of three children, the first took 10: one more of 10 expected.
    assert_eq!(fraction_done(&[level(1, 3, 10, 10)], 15), 0.6);
    // The first of two, 7 states into it: the second expected as large as that so far; below
    // it, the last of two children, nothing more expected there.
    assert_eq!(fraction_done(&[level(0, 2, 1, 0), level(1, 2, 4, 3)], 8), 8.0 / 15.0);
    // The last child everywhere: done but for the current subtree.
    assert_eq!(fraction_done(&[level(2, 3, 5, 4)], 9), 1.0);
}

#[test]
fn progress_counts_states_and_outcomes_and_ends_at_one() {
    for jobs in [1, 2] {
        let progress = Arc::new(Progress::default());
        let searched = explore::search(
            &Binary::new(12),
            &Options { progress: Some(progress.clone()), split_depth: 2, jobs, ..options(true) },
        )
        .unwrap();
        assert_eq!(progress.outcomes(), 4_096, "{jobs} threads");
        assert_eq!(searched.report.outcomes.len(), 4_096);
        // 4,095 choice points less the 3 above the split (which the display does not count).
        assert_eq!((progress.states(), searched.report.states), (4_092, 4_092), "{jobs} threads");
        assert!((progress.fraction() - 1.0).abs() < 1e-9, "{jobs} threads: {}", progress.fraction());
        assert!(progress.over());
    }
}
