//! Random small programs: threads of assignments over a few shared variables, with exact
//! footprints. The reduced search, on one thread and on several sharing a table, must find
//! every reachable end state's outcome.

use explore::{Labels, Model, Options};

use crate::{options, outcome_keys, Bits, Never};

/// `Set(v, c)`: v := c. `Add(src, dst)`: dst := dst + src (mod 4).
#[derive(Clone, Copy, Debug)]
enum Op {
    Set(usize, u8),
    Add(usize, usize),
}

#[derive(Clone)]
pub struct Programs {
    threads: Vec<Vec<Op>>,
    vars: usize,
    labels: Vec<String>,
}

impl Programs {
    /// A program from a seed: `threads` threads of `ops` operations over `vars` variables.
    pub fn random(seed: u64, threads: usize, ops: usize, vars: usize) -> Programs {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let threads = (0..threads)
            .map(|_| {
                (0..ops)
                    .map(|_| {
                        if next(2) == 0 {
                            Op::Set(next(vars), next(4) as u8)
                        } else {
                            Op::Add(next(vars), next(vars))
                        }
                    })
                    .collect()
            })
            .collect::<Vec<Vec<Op>>>();
        let labels = (0..threads.len()).map(|t| format!("t{t}")).collect();
        Programs { threads, vars, labels }
    }
}

impl Programs {
    /// The variables that operations of two or more threads touch, as bits.
    pub fn shared_variables(&self) -> u64 {
        let touched: Vec<u64> = (0..self.threads.len())
            .map(|t| {
                let fp = self.thread_footprint(t);
                fp.reads | fp.writes
            })
            .collect();
        let mut shared = 0;
        for (i, a) in touched.iter().enumerate() {
            for b in &touched[i + 1..] {
                shared |= a & b;
            }
        }
        shared
    }

    /// The union of the footprints of thread `t`'s operations.
    pub fn thread_footprint(&self, t: usize) -> Bits {
        self.threads[t].iter().fold(Bits { reads: 0, writes: 0 }, |fp, op| match *op {
            Op::Set(v, _) => Bits { reads: fp.reads, writes: fp.writes | 1 << v },
            Op::Add(src, dst) => Bits { reads: fp.reads | 1 << src | 1 << dst, writes: fp.writes | 1 << dst },
        })
    }

    /// The thread labelled `label`.
    pub fn thread_of(&self, label: &str) -> usize {
        self.labels.iter().position(|l| l == label).expect("a thread's label")
    }
}

impl Model for Programs {
    /// Each thread's next operation, then the variables.
    type State = (Vec<u8>, Vec<u8>);
    type Lane = usize;
    type Label = String;
    type Footprint = Bits;
    type Outcome = Vec<u8>;
    type Error = Never;
    type Numbering = Labels<String>;

    fn initial(&self) -> Result<Self::State, Never> {
        Ok((vec![0; self.threads.len()], vec![0; self.vars]))
    }
    fn runnable(&self, (pcs, _): &mut Self::State, out: &mut Vec<usize>) {
        out.clear();
        out.extend((0..self.threads.len()).filter(|&t| (pcs[t] as usize) < self.threads[t].len()));
    }
    fn step(&self, (pcs, vars): &mut Self::State, t: usize) -> Result<Bits, Never> {
        let op = self.threads[t][pcs[t] as usize];
        pcs[t] += 1;
        Ok(match op {
            Op::Set(v, c) => {
                vars[v] = c;
                Bits { reads: 0, writes: 1 << v }
            }
            Op::Add(src, dst) => {
                vars[dst] = (vars[dst] + vars[src]) % 4;
                Bits { reads: 1 << src | 1 << dst, writes: 1 << dst }
            }
        })
    }
    fn label<'a>(&'a self, _: &'a Self::State, lane: &usize) -> &'a String {
        &self.labels[*lane]
    }
    fn units(&self, (pcs, _): &Self::State) -> usize {
        pcs.iter().map(|&pc| pc as usize).sum()
    }
    fn outcome(&self, (_, vars): &Self::State) -> Vec<u8> {
        vars.clone()
    }
    fn outcome_key(&self, outcome: &Vec<u8>) -> u128 {
        outcome.iter().fold(0, |k, &v| k << 2 | u128::from(v))
    }
    fn schedule_text(&self, picks: &[&String]) -> String {
        picks.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
    }
    /// Each step touches the variables its operation names, whatever the other threads did.
    fn footprints_fixed(&self) -> bool {
        true
    }
}

impl explore::Stateful for Programs {
    fn fingerprint(&self, (pcs, vars): &Self::State) -> u128 {
        let packed = pcs.iter().chain(vars).fold(0u128, |f, &x| f << 4 | u128::from(x));
        crate::spread(packed)
    }
}

#[test]
fn random_programs_keep_every_outcome_on_one_thread_and_on_several() {
    for seed in 0..300 {
        let program = Programs::random(seed, 3, 3, 3);
        let every = explore::reachable(&program, u64::MAX).unwrap().outcomes;
        assert_eq!(outcome_keys(&program, &options(true)), every, "seed {seed}, one work item");
        for jobs in [1, 3] {
            let split = Options { split_depth: 2, jobs, ..options(true) };
            assert_eq!(outcome_keys(&program, &split), every, "seed {seed}, {jobs} threads");
        }
    }
}

impl Programs {
    /// Two threads: `t0` one assignment, `t1` two, each to a variable of its own. The choice of
    /// `t0` first leads to the end state by forced steps alone; `t1` first, to a second choice
    /// point.
    pub fn uneven() -> Programs {
        Programs {
            threads: vec![vec![Op::Set(0, 1)], vec![Op::Set(1, 1), Op::Set(1, 2)]],
            vars: 2,
            labels: vec!["t0".into(), "t1".into()],
        }
    }

    /// `threads` threads of one assignment each, every one to a variable of its own: every
    /// schedule reaches one end state.
    pub fn independent(threads: usize) -> Programs {
        Programs {
            threads: (0..threads).map(|t| vec![Op::Set(t, 1)]).collect(),
            vars: threads,
            labels: (0..threads).map(|t| format!("t{t}")).collect(),
        }
    }
}

#[test]
fn a_split_carries_its_sleep_sets_and_multiplies_no_transitions() {
    // Six independent threads: sleep sets reach each of the 64 states by one step (62
    // transitions from choice points, and the one forced step into the end state), with the
    // tree cut into work items or not (issue 30: the split expanded its choice points without
    // sleep sets and each work item began with an empty one).
    let program = Programs::independent(6);
    let whole = explore::search(&program, &options(true)).unwrap();
    assert_eq!(whole.report.transitions, 62);
    for split_depth in [1, 2, 4] {
        for jobs in [1, 2] {
            let split = explore::search(&program, &Options { split_depth, jobs, ..options(true) }).unwrap();
            assert!(split.report.complete());
            assert_eq!(
                split.report.transitions + split.split_transitions,
                62,
                "split depth {split_depth}, {jobs} threads"
            );
            assert_eq!(split.report.outcomes.len(), 1);
        }
    }
}
