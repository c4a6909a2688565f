//! Sampling for scenarios too big to explore: PCT (`sched::PctChooser`) runs, each a real
//! schedule of the faithful model, grouped by outcome like `explore`'s. The result is always
//! incomplete: it says how many schedules it ran and PCT's probability bound, never "complete"
//! or "never".

use std::collections::BTreeMap;

use sched::{Chooser, FirstChooser, PctChooser};
use trace::{Exploration, OutcomeClass};

use crate::kernel::RunError;
use crate::program::Program;
use crate::run::{run, Limits};

/// `runs` PCT schedules of bug depth `depth` (seeds `seed`, `seed + 1`, …). The number of
/// choice points and lanes PCT's bound needs are measured on one run that always picks the first
/// lane, and the larger ones seen in the samples themselves are reported.
pub fn sample_pct(
    program: &Program,
    runs: u64,
    seed: u64,
    depth: usize,
    max_units: usize,
) -> Result<Exploration, RunError> {
    sample_pct_until(program, runs, seed, depth, max_units, &SampleStop::default())
}

/// What may end a sampling before its runs are done: a wall-clock limit (`--time-limit`) and a
/// flag a Ctrl-C handler sets. Either one leaves the runs done so far, and the report says how
/// many of the runs asked for those are.
#[derive(Clone, Debug, Default)]
pub struct SampleStop {
    pub time_limit: Option<std::time::Duration>,
    pub interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl SampleStop {
    /// Why the sampling must stop now, if it must.
    fn reason(&self, started: std::time::Instant) -> Option<&'static str> {
        if self.interrupt.as_ref().is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed)) {
            return Some("Ctrl-C");
        }
        self.time_limit.filter(|&limit| started.elapsed() >= limit).map(|_| "time-limit")
    }
}

/// [`sample_pct`], stopped early by `stop` (the report then says which bound cut it).
pub fn sample_pct_until(
    program: &Program,
    runs: u64,
    seed: u64,
    depth: usize,
    max_units: usize,
    stop: &SampleStop,
) -> Result<Exploration, RunError> {
    let started = std::time::Instant::now();
    let mut cut = None;
    let asked = runs;
    let mut done = 0;
    let limits = Limits { max_units };
    let probe = run(program, &mut FirstChooser, limits)?;
    let mut steps = probe.schedule_len();
    let mut lanes = probe.lanes_seen();
    let mut outcomes: BTreeMap<u128, OutcomeClass> = BTreeMap::new();
    let mut transitions = 0;
    for i in 0..runs {
        if let Some(reason) = stop.reason(started) {
            cut = Some(reason);
            break;
        }
        done += 1;
        let mut chooser = PctChooser::new(seed.wrapping_add(i), depth, steps.max(1));
        let trace = run(program, &mut chooser as &mut dyn Chooser, limits)?;
        steps = steps.max(trace.schedule_len());
        lanes = lanes.max(trace.lanes_seen());
        transitions += trace.units.len() as u64;
        let outcome = trace.outcome.canonical();
        let key = browser::digest128(&outcome);
        let choices = trace.schedule_len();
        let class = outcomes.entry(key).or_insert_with(|| OutcomeClass {
            summary: outcome.summary(),
            outcome,
            end_states: 0,
            witness: trace.schedule.clone(),
            witness_choices: choices,
        });
        class.end_states += 1;
        if (choices, &trace.schedule) < (class.witness_choices, &class.witness) {
            class.witness = trace.schedule.clone();
            class.witness_choices = choices;
        }
    }
    let mut outcomes: Vec<OutcomeClass> = outcomes.into_values().collect();
    outcomes.sort_by(|a, b| (a.witness_choices, &a.witness).cmp(&(b.witness_choices, &b.witness)));
    let bound = sched::pct_bound(lanes, steps, depth);
    Ok(Exploration {
        version: trace::VERSION,
        scenario: program.name.clone(),
        options: vec![format!("sample=pct, runs={runs}, seed={seed}, depth={depth}, max-units={max_units}")],
        shard: "1/1".into(),
        work_items: done,
        states: done,
        transitions,
        complete: false,
        bounds_hit: std::iter::once(format!(
            "sampling: {done} PCT schedules of depth {depth} (up to {lanes} lanes and {steps} choice points: each run finds a given bug of depth {depth} with probability at least {bound:.3e})"
        ))
        .chain(cut.map(|reason| format!("{reason}: {done} of the {asked} runs asked for")))
        .collect(),
        witnesses: format!("{} (the shortest schedule sampled)", trace::WITNESSES_FOUND),
        outcomes,
        file: String::new(),
        stateless: None,
    })
}
