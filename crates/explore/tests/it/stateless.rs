//! The stateless search (optimal DPOR) on textbook models: exact execution counts where the
//! number of Mazurkiewicz traces is known, the outcome set of every reachable end state, and
//! no execution blocked by a sleep set.

use std::collections::BTreeSet;

use explore::{Labels, Model, Options, SearchKind, Stateful};

use crate::programs::Programs;
use crate::race::Race;
use crate::two_phase::TwoPhase;
use crate::{options, Bits, Never};

/// `threads` threads of `steps` steps each; every step writes one variable: the thread's own
/// (`shared` false) or variable 0 (`shared` true). The outcome is the order of the last writes
/// to each variable (for one shared variable: which thread wrote last, and the value it left).
pub struct Writers {
    threads: usize,
    steps: usize,
    shared: bool,
    labels: Vec<String>,
}

impl Writers {
    pub fn new(threads: usize, steps: usize, shared: bool) -> Writers {
        Writers { threads, steps, shared, labels: (0..threads).map(|t| format!("t{t}")).collect() }
    }
}

/// Each thread's next step, then each variable's last writer and a running log of the writes
/// to variable 0 (so that every order of writes to it is a distinct outcome).
#[derive(Clone, Debug, Hash)]
pub struct WritersState {
    pcs: Vec<usize>,
    log: Vec<usize>,
}

impl Model for Writers {
    type State = WritersState;
    type Lane = usize;
    type Label = String;
    type Footprint = Bits;
    type Outcome = Vec<usize>;
    type Error = Never;
    type Numbering = Labels<String>;

    fn initial(&self) -> Result<WritersState, Never> {
        Ok(WritersState { pcs: vec![0; self.threads], log: Vec::new() })
    }
    fn runnable(&self, s: &mut WritersState, out: &mut Vec<usize>) {
        out.clear();
        out.extend((0..self.threads).filter(|&t| s.pcs[t] < self.steps));
    }
    fn step(&self, s: &mut WritersState, t: usize) -> Result<Bits, Never> {
        s.pcs[t] += 1;
        let var = if self.shared { 0 } else { t };
        if var == 0 {
            s.log.push(t);
        }
        Ok(Bits { reads: 0, writes: 1 << var })
    }
    fn label<'a>(&'a self, _: &'a WritersState, lane: &usize) -> &'a String {
        &self.labels[*lane]
    }
    fn units(&self, s: &WritersState) -> usize {
        s.pcs.iter().sum()
    }
    fn outcome(&self, s: &WritersState) -> Vec<usize> {
        s.log.clone()
    }
    fn outcome_key(&self, outcome: &Vec<usize>) -> u128 {
        outcome.iter().fold(1, |k, &t| k * 16 + t as u128)
    }
    fn schedule_text(&self, picks: &[&String]) -> String {
        picks.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
    }
    /// Each step touches the variables its operation names, whatever the other threads did.
    fn footprints_fixed(&self) -> bool {
        true
    }
}

fn stateless<M: Model<Error = Never>>(model: &M, options: &Options) -> explore::Report<M::Outcome> {
    let searched = explore::stateless::search(model, options).expect("the search runs");
    assert_eq!(searched.report.search, SearchKind::Stateless);
    searched.report
}

impl Stateful for Writers {
    /// A hash of the state (the models here are small: collisions are not a concern).
    fn fingerprint(&self, s: &WritersState) -> u128 {
        use std::hash::BuildHasher;
        let digest = |seed: u64| foldhash::fast::FixedState::with_seed(seed).hash_one(s);
        u128::from(digest(1)) << 64 | u128::from(digest(2))
    }
}

/// The outcome keys of a stateless search, sorted, checking it completed, and its executions
/// and redundant executions.
fn stateless_keys<M: Model<Error = Never>>(model: &M, name: &str, counts: (u64, u64)) -> Vec<u128> {
    let searched = explore::stateless::search(model, &options(true)).expect("the search runs");
    let report = searched.report;
    assert!(report.complete(), "{name}: bounds hit: {:?}", report.bounds_hit);
    assert_eq!((report.executions, report.redundant), counts, "{name}: executions, redundant");
    let mut keys: Vec<u128> = report.outcomes.iter().map(|c| c.key).collect();
    keys.sort_unstable();
    keys
}

#[test]
fn independent_threads_take_one_execution() {
    for (threads, steps) in [(1, 1), (2, 3), (4, 5), (6, 2)] {
        let report = stateless(&Writers::new(threads, steps, false), &options(true));
        assert!(report.complete());
        assert_eq!((report.executions, report.redundant), (1, 0), "{threads} threads of {steps} steps");
        assert_eq!(report.outcomes.len(), 1);
    }
}

#[test]
fn writers_to_one_variable_take_n_factorial_executions() {
    for (threads, factorial) in [(1, 1), (2, 2), (3, 6), (4, 24), (5, 120)] {
        let report = stateless(&Writers::new(threads, 1, true), &options(true));
        assert!(report.complete());
        assert_eq!((report.executions, report.redundant), (factorial, 0), "{threads} writers");
        // Each order of the writes is an outcome of its own.
        assert_eq!(report.outcomes.len() as u64, factorial);
    }
}

#[test]
fn two_writes_each_to_one_variable_take_one_execution_per_interleaving() {
    // Every interleaving of two threads of two writes to one variable is a trace of its own:
    // C(4, 2) = 6.
    let report = stateless(&Writers::new(2, 2, true), &options(true));
    assert_eq!((report.executions, report.redundant), (6, 0));
}

#[test]
fn the_execution_budget_stops_the_search() {
    let report = stateless(&Writers::new(4, 1, true), &Options { max_executions: 5, ..options(true) });
    assert_eq!(report.executions, 5);
    assert_eq!(report.bounds_hit, vec!["max-executions (5)".to_string()]);
}

/// A step of a schedule: its lane and its index among that lane's steps.
type Step = (usize, usize);

/// The number of Mazurkiewicz traces of a model whose lanes are always runnable until they end
/// and whose footprints depend on the step alone: every schedule, each reduced to the set of
/// ordered pairs of conflicting steps of different lanes.
pub(crate) fn traces<M: Stateful<Lane = usize, Footprint = Bits, Error = Never>>(model: &M) -> usize {
    fn walk<M: Stateful<Lane = usize, Footprint = Bits, Error = Never>>(
        model: &M,
        state: M::State,
        done: &mut Vec<(usize, usize, Bits)>,
        seen: &mut BTreeSet<Vec<(Step, Step)>>,
    ) {
        let mut state = state;
        let mut lanes = Vec::new();
        model.runnable(&mut state, &mut lanes);
        if lanes.is_empty() {
            let mut pairs = Vec::new();
            for (i, a) in done.iter().enumerate() {
                for b in &done[i + 1..] {
                    if a.0 != b.0 && explore::Footprint::conflicts(&a.2, &b.2) {
                        pairs.push(((a.0, a.1), (b.0, b.1)));
                    }
                }
            }
            pairs.sort_unstable();
            seen.insert(pairs);
            return;
        }
        for lane in lanes {
            let mut child = state.clone();
            let fp = model.step(&mut child, lane).unwrap();
            let index = done.iter().filter(|d| d.0 == lane).count();
            done.push((lane, index, fp));
            walk(model, child, done, seen);
            done.pop();
        }
    }
    let mut seen = BTreeSet::new();
    walk(model, model.initial().unwrap(), &mut Vec::new(), &mut seen);
    seen.len()
}

#[test]
fn random_programs_take_one_execution_per_trace_and_keep_every_outcome() {
    for seed in 0..200 {
        let program = Programs::random(seed, 3, 3, 3);
        let every = explore::reachable(&program, u64::MAX).unwrap().outcomes;
        let report = stateless(&program, &options(true));
        assert!(report.complete());
        let mut keys: Vec<u128> = report.outcomes.iter().map(|c| c.key).collect();
        keys.sort_unstable();
        assert_eq!(keys, every, "seed {seed}: outcomes");
        assert_eq!(report.redundant, 0, "seed {seed}: executions blocked by sleep sets");
        assert_eq!(report.executions, traces(&program) as u64, "seed {seed}: executions against traces");
    }
}

#[test]
fn the_race_keeps_every_outcome() {
    // The footprints here are not declared fixed, so a reversed step's is taken as unknown:
    // some executions end blocked by sleep sets (the engine's own counts, pinned).
    for (calls, counts) in [(1, (11, 0)), (2, (91, 0)), (3, (671, 0)), (4, (4_651, 0))] {
        let model = Race::new(calls);
        let every = explore::reachable(&model, u64::MAX).unwrap().outcomes;
        assert_eq!(stateless_keys(&model, &format!("race of {calls}"), counts), every, "{calls} calls");
    }
}

#[test]
fn two_phase_commit_keeps_every_outcome() {
    for (rms, counts) in [(1, (6, 0)), (2, (53, 3)), (3, (978, 127))] {
        let model = TwoPhase::new(rms);
        let every = explore::reachable(&model, u64::MAX).unwrap().outcomes;
        assert_eq!(stateless_keys(&model, &format!("two-phase of {rms}"), counts), every, "{rms} managers");
    }
}

#[test]
fn a_footprint_that_hides_a_conflict_loses_outcomes_here_too() {
    // As for the stateful search: the reduction trusts footprints.
    let honest = stateless(&Race::new(2), &options(true)).outcomes.len();
    let mut unsound = Race::new(2);
    unsound.unsound = true;
    let report = stateless(&unsound, &options(true));
    assert!(report.outcomes.len() < honest, "{} against {honest}", report.outcomes.len());
}

/// A random program as a model that promises less: footprints not declared fixed (a reversed
/// step's is unknown), optionally with each thread's steps bounded by the union of its
/// operations' footprints ([`Model::lane_bound`]), and optionally with a step that touches only
/// variables no other thread touches declared to commute with every step from its state on
/// ([`Model::alone`]).
struct Loose {
    program: Programs,
    bounded: bool,
    alone: bool,
}

impl Model for Loose {
    type State = <Programs as Model>::State;
    type Lane = usize;
    type Label = String;
    type Footprint = Bits;
    type Outcome = Vec<u8>;
    type Error = Never;
    type Numbering = Labels<String>;

    fn initial(&self) -> Result<Self::State, Never> {
        self.program.initial()
    }
    fn runnable(&self, s: &mut Self::State, out: &mut Vec<usize>) {
        self.program.runnable(s, out)
    }
    fn step(&self, s: &mut Self::State, t: usize) -> Result<Bits, Never> {
        self.program.step(s, t)
    }
    fn label<'a>(&'a self, s: &'a Self::State, lane: &usize) -> &'a String {
        self.program.label(s, lane)
    }
    fn units(&self, s: &Self::State) -> usize {
        self.program.units(s)
    }
    fn outcome(&self, s: &Self::State) -> Vec<u8> {
        self.program.outcome(s)
    }
    fn outcome_key(&self, outcome: &Vec<u8>) -> u128 {
        self.program.outcome_key(outcome)
    }
    fn schedule_text(&self, picks: &[&String]) -> String {
        self.program.schedule_text(picks)
    }
    fn alone(&self, fp: &Bits) -> bool {
        self.alone && (fp.reads | fp.writes) & self.program.shared_variables() == 0
    }
    fn lane_bound(&self, label: &String) -> Option<Bits> {
        let thread = self.program.thread_of(label);
        self.bounded.then(|| self.program.thread_footprint(thread))
    }
    fn detached(&self) -> Option<Self> {
        Some(Loose { program: self.program.clone(), ..*self })
    }
}

impl Stateful for Loose {
    fn fingerprint(&self, s: &Self::State) -> u128 {
        self.program.fingerprint(s)
    }
}

/// Over 200 random programs of three threads of three operations on five variables: the
/// executions and the redundant ones, checking that every outcome is found.
fn loose_counts(bounded: bool, alone: bool) -> (u64, u64) {
    let (mut executions, mut redundant) = (0, 0);
    for seed in 0..200 {
        let model = Loose { program: Programs::random(seed, 3, 3, 5), bounded, alone };
        let every = explore::reachable(&model, u64::MAX).unwrap().outcomes;
        let report = stateless(&model, &options(true));
        assert!(report.complete());
        let mut keys: Vec<u128> = report.outcomes.iter().map(|c| c.key).collect();
        keys.sort_unstable();
        assert_eq!(keys, every, "seed {seed}, bounded {bounded}, alone {alone}: outcomes");
        executions += report.executions;
        redundant += report.redundant;
    }
    (executions, redundant)
}

#[test]
fn lane_bounds_and_steps_alone_keep_every_outcome_and_block_fewer_executions() {
    // The engine's own counts (pinned): unknown footprints leave executions that sleep sets
    // block; a lane's bound stands for its unknown footprint; a sleeping step alone covers any
    // sequence, and no branch is left where one ran.
    let unknown = loose_counts(false, false);
    let bounded = loose_counts(true, false);
    let alone = loose_counts(false, true);
    let both = loose_counts(true, true);
    assert_eq!([unknown, bounded, alone, both], [(18_734, 26), (18_644, 14), (18_725, 17), (18_644, 14)]);
}

/// A search with worker threads running executions ahead, handing out every branch it can
/// (however cheap the executions), and how many executions the threads ran for it.
fn run_ahead<M: Model<Error = Never>>(model: &M, jobs: usize) -> (explore::Report<M::Outcome>, u64) {
    let options = Options { jobs, always_run_ahead: true, ..options(true) };
    let searched = explore::stateless::search(model, &options).expect("the search runs");
    (searched.report, searched.run_ahead)
}

#[test]
fn threads_running_executions_ahead_give_the_one_thread_report() {
    // The whole report, counts, witnesses and their order included, equals the one-thread
    // search's, with one worker thread and with three; and the workers did run executions the
    // search took (else this would compare one thread with itself).
    let mut taken = 0;
    let mut check = |name: String, one: String, model_jobs: &dyn Fn(usize) -> (String, u64)| {
        for jobs in [2, 4] {
            let (report, ran) = model_jobs(jobs);
            assert_eq!(report, one, "{name}, jobs {jobs}");
            taken += ran;
        }
    };
    for seed in 0..60 {
        for (bounded, alone) in [(false, false), (true, true)] {
            let model = Loose { program: Programs::random(seed, 3, 3, 5), bounded, alone };
            let one = format!("{:?}", stateless(&model, &options(true)));
            check(format!("seed {seed}, bounded {bounded}, alone {alone}"), one, &|jobs| {
                let (report, ran) = run_ahead(&model, jobs);
                (format!("{report:?}"), ran)
            });
        }
    }
    let race = Race::new(3);
    check("race of 3".into(), format!("{:?}", stateless(&race, &options(true))), &|jobs| {
        let (report, ran) = run_ahead(&race, jobs);
        (format!("{report:?}"), ran)
    });
    let two_phase = TwoPhase::new(3);
    check("two-phase of 3".into(), format!("{:?}", stateless(&two_phase, &options(true))), &|jobs| {
        let (report, ran) = run_ahead(&two_phase, jobs);
        (format!("{report:?}"), ran)
    });
    // The search waits for every branch it handed out (`always_run_ahead`), so this count
    // does not depend on timing.
    assert_eq!(taken, 10_378, "executions run ahead and taken");
}

#[test]
fn a_model_that_cannot_run_on_other_threads_is_searched_on_one() {
    // `Writers` keeps the default `Model::detached` (None): `jobs` changes nothing.
    let model = Writers::new(3, 2, true);
    let (report, ran) = run_ahead(&model, 2);
    assert_eq!(format!("{report:?}"), format!("{:?}", stateless(&model, &options(true))));
    assert_eq!(ran, 0);
}
