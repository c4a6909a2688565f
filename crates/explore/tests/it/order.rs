//! The lane order's one rule that is not a tie-break: a lane with a footprint bound
//! ([`Model::lane_bound`]) is explored after every other lane of a choice point.

use explore::{Labels, LaneOrder, Model, Options};

use crate::programs::Programs;
use crate::{options, Bits, Never};

/// A random program and one more lane, `a.wait`, whose one step writes a variable of its own
/// (bit 63), so it commutes with every other step (as the simulator's `user.wait` commutes with
/// every task and block). Its label sorts first, so label order and ties explore it first.
struct Waiter {
    program: Programs,
    /// Whether the model gives `a.wait` its bound.
    bounded: bool,
    labels: Vec<String>,
}

const WAITED: u64 = 1 << 63;

impl Waiter {
    fn new(seed: u64, bounded: bool) -> Waiter {
        let program = Programs::random(seed, 3, 3, 3);
        let labels = (0..3).map(|t| format!("t{t}")).chain(["a.wait".to_string()]).collect();
        Waiter { program, bounded, labels }
    }
}

impl Model for Waiter {
    /// The program's state, and whether `a.wait` ran.
    type State = (<Programs as Model>::State, bool);
    type Lane = usize;
    type Label = String;
    type Footprint = Bits;
    type Outcome = Vec<u8>;
    type Error = Never;
    type Numbering = Labels<String>;

    fn initial(&self) -> Result<Self::State, Never> {
        Ok((self.program.initial()?, false))
    }
    fn runnable(&self, (s, waited): &mut Self::State, out: &mut Vec<usize>) {
        // In label order, as the engine expects: `a.wait` first.
        self.program.runnable(s, out);
        if !*waited {
            out.insert(0, 3);
        }
    }
    fn step(&self, (s, waited): &mut Self::State, lane: usize) -> Result<Bits, Never> {
        if lane == 3 {
            *waited = true;
            return Ok(Bits { reads: 0, writes: WAITED });
        }
        self.program.step(s, lane)
    }
    fn label<'a>(&'a self, _: &'a Self::State, lane: &usize) -> &'a String {
        &self.labels[*lane]
    }
    fn units(&self, (s, waited): &Self::State) -> usize {
        self.program.units(s) + usize::from(*waited)
    }
    fn outcome(&self, (s, _): &Self::State) -> Vec<u8> {
        self.program.outcome(s)
    }
    fn outcome_key(&self, outcome: &Vec<u8>) -> u128 {
        self.program.outcome_key(outcome)
    }
    fn schedule_text(&self, picks: &[&String]) -> String {
        self.program.schedule_text(picks)
    }
    fn footprints_fixed(&self) -> bool {
        true
    }
    fn lane_bound(&self, label: &String) -> Option<Bits> {
        (self.bounded && label == "a.wait").then_some(Bits { reads: 0, writes: WAITED })
    }
}

impl explore::Stateful for Waiter {
    fn fingerprint(&self, (s, waited): &Self::State) -> u128 {
        self.program.fingerprint(s) ^ u128::from(*waited)
    }
}

/// Over 100 random programs (`model` of each seed, 0 to 99): the choice points and transitions
/// of the search in `order`, checking that every outcome is found.
fn totals<M: explore::Stateful<Error = Never>>(order: LaneOrder, model: impl Fn(u64) -> M) -> (u64, u64) {
    let options = Options { lane_order: order, ..options(true) };
    let (mut states, mut transitions) = (0, 0);
    for seed in 0..100 {
        let model = model(seed);
        let every = explore::reachable(&model, u64::MAX).unwrap().outcomes;
        let searched = explore::search(&model, &options).unwrap();
        assert!(searched.report.complete());
        let mut keys: Vec<u128> = searched.report.outcomes.iter().map(|c| c.key).collect();
        keys.sort_unstable();
        assert_eq!(keys, every, "seed {seed}, {order:?}");
        states += searched.report.states;
        transitions += searched.report.transitions;
    }
    (states, transitions)
}

/// `totals` of broadest-first over the random programs with `a.wait`.
fn counts(bounded: bool) -> (u64, u64) {
    totals(LaneOrder::BroadestFirst, |seed| Waiter::new(seed, bounded))
}

#[test]
fn a_lane_with_a_bound_goes_last_and_its_subtree_is_asleep() {
    // Explored first (its label comes first), `a.wait`'s subtree is every interleaving of the
    // program with it done, and then the program's again with it asleep; explored last, its
    // child's sleep set holds every sibling, so a state with it done ends there, every lane
    // asleep, uncounted (the engine's own counts, pinned: 38 % fewer choice points).
    let first = counts(false);
    let last = counts(true);
    assert_eq!([first, last], [(28_498, 49_784), (17_635, 42_402)]);
}

/// `totals` over random programs of four threads of four operations over three variables.
fn program_counts(order: LaneOrder) -> (u64, u64) {
    totals(order, |seed| Programs::random(seed, 4, 4, 3))
}

#[test]
fn revisited_first_finds_every_outcome_and_orders_by_what_revisits_explored() {
    // Every outcome in each order (above). The counts, pinned: the learned order differs from
    // broadest-first only once a revisit has explored some lane, so equal counts would mean
    // the revisits' counts never reached the order.
    let broadest = program_counts(LaneOrder::BroadestFirst);
    let revisited = program_counts(LaneOrder::RevisitedFirst);
    assert_ne!(broadest, revisited);
    assert_eq!([broadest, revisited], [(688_832, 1_448_401), (684_829, 1_448_083)]);
}

#[test]
fn every_lane_order_has_one_name_and_the_default_is_named_first() {
    for (name, order) in LaneOrder::NAMED {
        assert_eq!(order.name(), name);
        assert_eq!(LaneOrder::named(name), Some(order));
    }
    assert_eq!(LaneOrder::named("broadest"), None);
    assert_eq!(LaneOrder::NAMED[0].1, Options::default().lane_order);
}
