//! The fewest-choice witness pass run before its targets are known (`explore::witness_pass`, run
//! while the search that finds them runs): for any targets, arriving at any moment or after the
//! pass ended, it gives what `explore::shortest_witnesses` gives with them known from the start.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use explore::{Labels, Model, PassBounds, Stateful, Witnesses};

use crate::programs::Programs;
use crate::race::Race;
use crate::Never;

/// `Programs` whose steps set the pass's targets at the `at`-th step (counted from 1), and fail
/// from the `fail_at`-th on.
struct Late<'m> {
    model: &'m Programs,
    targets: &'m OnceLock<Vec<u128>>,
    set: Vec<u128>,
    at: usize,
    fail_at: usize,
    steps: AtomicUsize,
}

impl Model for Late<'_> {
    type State = <Programs as Model>::State;
    type Lane = usize;
    type Label = String;
    type Footprint = crate::Bits;
    type Outcome = Vec<u8>;
    type Error = Never;
    type Numbering = Labels<String>;

    fn initial(&self) -> Result<Self::State, Never> {
        self.model.initial()
    }
    fn runnable(&self, state: &mut Self::State, out: &mut Vec<usize>) {
        self.model.runnable(state, out)
    }
    fn step(&self, state: &mut Self::State, lane: usize) -> Result<crate::Bits, Never> {
        let step = self.steps.fetch_add(1, Ordering::Relaxed) + 1;
        if step == self.at {
            self.targets.set(self.set.clone()).expect("set once");
        }
        if step >= self.fail_at {
            return Err(Never(explore::Failure::Nondeterministic(format!("step {step} fails"))));
        }
        self.model.step(state, lane)
    }
    fn label<'a>(&'a self, state: &'a Self::State, lane: &usize) -> &'a String {
        self.model.label(state, lane)
    }
    fn units(&self, state: &Self::State) -> usize {
        self.model.units(state)
    }
    fn outcome(&self, state: &Self::State) -> Vec<u8> {
        self.model.outcome(state)
    }
    fn outcome_key(&self, outcome: &Vec<u8>) -> u128 {
        self.model.outcome_key(outcome)
    }
    fn schedule_text(&self, picks: &[&String]) -> String {
        self.model.schedule_text(picks)
    }
}

impl Stateful for Late<'_> {
    fn fingerprint(&self, state: &Self::State) -> u128 {
        self.model.fingerprint(state)
    }
}

fn never() -> Option<String> {
    None
}

/// The pass with `targets` arriving at step `at` (never, if past the pass's last step).
fn late(program: &Programs, targets: &[u128], max_states: u64, at: usize) -> (Witnesses, usize) {
    let known = OnceLock::new();
    let model = Late {
        model: program,
        targets: &known,
        set: targets.to_vec(),
        at,
        fail_at: usize::MAX,
        steps: AtomicUsize::new(0),
    };
    let bounds = PassBounds { max_states, max_units: 1_000, ahead: u64::MAX };
    let pass = explore::witness_pass(&model, model.initial().unwrap(), &known, bounds, &never);
    (pass.witnesses(targets).expect("every target is reachable"), model.steps.load(Ordering::Relaxed))
}

#[test]
fn a_pass_whose_targets_come_late_gives_what_it_gives_with_them_known() {
    let mut compared = 0;
    for seed in 0..60 {
        let program = Programs::random(seed, 3, 3, 3);
        let every = explore::reachable(&program, u64::MAX).unwrap().outcomes;
        // Every outcome, the first one alone, the last half: targets met at different levels.
        let sets = [every.clone(), every[..1].to_vec(), every[every.len() / 2..].to_vec()];
        for targets in &sets {
            for max_states in [1, 4, 16, u64::MAX] {
                let root = program.initial().unwrap();
                let known = explore::shortest_witnesses(&program, root, targets, max_states, 1_000, &never).unwrap();
                // Targets never given while the pass runs: it goes on to its bound or the end.
                let (after, steps) = late(&program, targets, max_states, usize::MAX);
                assert_eq!(after, known, "seed {seed}, max-states {max_states}, targets given after the pass");
                // Given at each step of that pass.
                for at in 1..=steps {
                    let (during, _) = late(&program, targets, max_states, at);
                    assert_eq!(during, known, "seed {seed}, max-states {max_states}, targets given at step {at}");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared} comparisons");
}

#[test]
fn a_pass_stopped_by_its_bound_gives_up_only_where_it_would_have() {
    // The bound stops the pass after the level at which every target was met: the targets,
    // given afterwards, still have their witnesses; a bound before that level gives up.
    let program = Programs::independent(3);
    let every = explore::reachable(&program, u64::MAX).unwrap().outcomes;
    assert_eq!(every.len(), 1);
    let (whole, _) = late(&program, &every, u64::MAX, usize::MAX);
    assert_eq!(whole, Ok(vec![(2, "t0 t1".to_string())]));
    let (cut, _) = late(&program, &every, 1, usize::MAX);
    assert_eq!(cut, Err("the breadth-first pass stopped at max-states (1)".to_string()));
    // `t0` first reaches the one outcome at level 1, then `t1` first reaches a second choice
    // point, past a bound of 1: the level that met the target was not checked, so the pass
    // gives up, as it does with the target known from the start.
    let program = Programs::uneven();
    let every = explore::reachable(&program, u64::MAX).unwrap().outcomes;
    let root = program.initial().unwrap();
    let known = explore::shortest_witnesses(&program, root, &every, 1, 1_000, &never).unwrap();
    assert_eq!(known, Err("the breadth-first pass stopped at max-states (1)".to_string()));
    assert_eq!(late(&program, &every, 1, usize::MAX).0, known);
    assert_eq!(late(&program, &every, 2, usize::MAX).0, Ok(vec![(1, "t0".to_string())]));
}

#[test]
fn an_error_past_the_level_that_met_the_targets_is_not_the_answer() {
    // `uneven`: the outcome is met at level 1 (`t0` first); the pass with the target known
    // stops at level 1's check after 4 steps. Run without it, the pass goes on, and a step
    // past those fails: the error is what ended the pass, but not what it gives for the target.
    let program = Programs::uneven();
    let every = explore::reachable(&program, u64::MAX).unwrap().outcomes;
    let known = explore::shortest_witnesses(&program, program.initial().unwrap(), &every, u64::MAX, 1_000, &never);
    assert_eq!(known.unwrap(), Ok(vec![(1, "t0".to_string())]));
    for fail_at in 1..8 {
        let targets = OnceLock::new();
        let model = Late {
            model: &program,
            targets: &targets,
            set: Vec::new(),
            at: usize::MAX,
            fail_at,
            steps: AtomicUsize::new(0),
        };
        let bounds = PassBounds { max_states: u64::MAX, max_units: 1_000, ahead: u64::MAX };
        let pass = explore::witness_pass(&model, model.initial().unwrap(), &targets, bounds, &never);
        let steps = model.steps.load(Ordering::Relaxed);
        match pass.witnesses(&every) {
            Ok(found) => {
                assert!(fail_at > 4, "fail at {fail_at}: the failing step comes before the target is met");
                assert_eq!(found, Ok(vec![(1, "t0".to_string())]));
            }
            Err(error) => {
                assert!(fail_at <= 4, "fail at {fail_at}: {error:?}");
                assert_eq!(steps, fail_at);
            }
        }
    }
}

#[test]
fn a_pass_ahead_of_its_targets_waits_for_them_at_its_bound() {
    // Race of four calls: 8,282 states. Run ahead with a bound of 1,024 choice points, the pass
    // waits there, asking `stop` until the targets come: set at the fifth question, they give
    // what the pass with them known gives.
    let race = Race::new(4);
    let every = explore::reachable(&race, u64::MAX).unwrap().outcomes;
    let known = explore::shortest_witnesses(&race, race.initial().unwrap(), &every, u64::MAX, 1_000, &never).unwrap();
    let bounds = PassBounds { max_states: u64::MAX, max_units: 1_000, ahead: 1_024 };
    let targets = OnceLock::new();
    let asked = AtomicUsize::new(0);
    let set_at_fifth = || {
        if asked.fetch_add(1, Ordering::Relaxed) + 1 == 5 {
            targets.set(every.clone()).expect("set once");
        }
        None
    };
    let pass = explore::witness_pass(&race, race.initial().unwrap(), &targets, bounds, &set_at_fifth);
    assert_eq!(pass.witnesses(&every).unwrap(), known);
    // Never set, and `stop` says stop at its third question: all three asked at the bound.
    let never_set = OnceLock::new();
    let asked = AtomicUsize::new(0);
    let stop_at_third = || (asked.fetch_add(1, Ordering::Relaxed) + 1 == 3).then(|| "stopped".to_string());
    let pass = explore::witness_pass(&race, race.initial().unwrap(), &never_set, bounds, &stop_at_third);
    assert_eq!(pass.gave_up(), Some("stopped"));
    assert_eq!(pass.choice_points(), 1_024);
}
