//! Fewest-choice witnesses: the breadth-first passes after a complete search (`explore`'s
//! default). They run on a thread of their own while the search runs (`Ahead`), so that on a
//! machine with a second core their time hides behind the search's. What they give does not
//! depend on when the search ends: a pass records what it meets whatever its targets, and the
//! targets (the search's outcomes) then pick out exactly what a pass started after the search
//! would have given (`::explore::WitnessPass`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use ::explore::{PassBounds, WitnessPass};
use trace::Exploration;

use super::{to_faithful_schedules, ExploreOptions, SimModel};
use crate::kernel::RunError;
use crate::program::Program;

/// The most choice points the witness pass over the faithful model may visit (with inert tasks):
/// inert tasks do not shrink that model, so where the search itself was large the pass cannot
/// finish and only delays the report (five-by-five: 2,000,000 choice points, minutes, for
/// nothing). A number, not a time, so that the witnesses shown do not depend on the machine;
/// not a multiple of the search's count (it was 4 times it, at least 20,000, at most 250,000),
/// which varies with thread timing when threads share the visited table. 50,000: every corpus
/// scenario's pass needs less; the bench fixtures whose pass needed more (five-executions,
/// ten-registrations) fall back to inert tasks first, as they did, sooner.
const FAITHFUL_PASS_MAX_STATES: u64 = 50_000;

/// The most choice points the second witness pass (over the model the search walks, inert
/// tasks first) may visit. A breadth-first pass copies a state per child and has no sleep sets:
/// over four-calls-unload's search (1,223,913 states, 2,660 outcomes) it took 34 s to find every
/// outcome's fewest-choice schedule after a 7 s search (release build). Past this bound the
/// report keeps the schedules the search met, and says so. A number, not a time, as above.
const INERT_FIRST_PASS_MAX_STATES: u64 = 100_000;

/// The most choice points a witness pass visits before the search's outcomes are known; there
/// it waits for them. The passes with inert tasks are bounded below it; the pass without them
/// (bounded by `max_states` only) would otherwise hold up to millions of states while a long
/// search runs, far past the level the outcomes need.
const AHEAD_MAX_STATES: u64 = 100_000;

/// How a witness pass stopped by `--time-limit` or Ctrl-C says so.
const PASS_STOPPED_BY_TIME: &str = "the breadth-first pass stopped at the time limit";
const PASS_STOPPED_BY_CTRL_C: &str = "the breadth-first pass was stopped by Ctrl-C";

/// The outcomes a witness pass looks for: the keys of `exploration`'s outcomes, in its order.
pub(super) fn targets(exploration: &Exploration) -> Vec<u128> {
    exploration.outcomes.iter().map(|class| browser::digest128(&class.outcome)).collect()
}

/// The witness passes run while the search runs (`Ahead::run`), as far as they got; a pass not
/// run is run after the search, by `fewest_choice_witnesses`.
#[derive(Default)]
pub(super) struct Ahead {
    faithful: Option<WitnessPass<RunError>>,
    inert_first: Option<WitnessPass<RunError>>,
}

impl Ahead {
    /// The passes `fewest_choice_witnesses` would run after the search, run now: the pass over
    /// the faithful model, then (with inert tasks) the pass over the model the search walks,
    /// unless the first one's end already says it is not needed. `targets` holds the search's
    /// outcomes once it ended complete; `cancel` is set when it ended otherwise (the passes are
    /// then not needed, and stop). A pass's error is kept in its record: it counts only where
    /// the pass run after the search would have met it.
    pub(super) fn run(
        program: &Program,
        options: &ExploreOptions,
        start: Instant,
        inert: bool,
        targets: &OnceLock<Vec<u128>>,
        cancel: &AtomicBool,
    ) -> Ahead {
        let faithful = pass(program, options, start, faithful_budget(options, inert), false, targets, cancel);
        // The second pass runs after the first gave up for a bound, and only then (as in
        // `fewest_choice_witnesses`); with the targets not known yet, it runs in case.
        let needed = inert
            && !cancel.load(Ordering::Relaxed)
            && faithful.gave_up().is_some_and(|why| !stopped_by_time_or_ctrl_c(why))
            && targets.get().is_none_or(|targets| !faithful.met(targets));
        let inert_first = if needed {
            Some(pass(program, options, start, inert_first_budget(options), true, targets, cancel))
        } else {
            None
        };
        Ahead { faithful: Some(faithful), inert_first }
    }
}

/// The bound on the pass over the faithful model: `max-states`, and with inert tasks at most
/// `FAITHFUL_PASS_MAX_STATES`.
fn faithful_budget(options: &ExploreOptions, inert: bool) -> u64 {
    if inert {
        options.search.max_states.min(FAITHFUL_PASS_MAX_STATES)
    } else {
        options.search.max_states
    }
}

/// The bound on the pass over the model the search walks (inert tasks first).
fn inert_first_budget(options: &ExploreOptions) -> u64 {
    options.search.max_states.min(INERT_FIRST_PASS_MAX_STATES)
}

/// Whether a pass gave up for `--time-limit` or Ctrl-C (then no second pass runs).
fn stopped_by_time_or_ctrl_c(why: &str) -> bool {
    why.contains(PASS_STOPPED_BY_TIME) || why.contains(PASS_STOPPED_BY_CTRL_C)
}

/// The witnesses, and what the report says of them (`Exploration::witnesses`). Without inert
/// tasks: the breadth-first pass over the faithful model, as before. With them: the pass over
/// the faithful model within a budget (`max_states`, at most `FAITHFUL_PASS_MAX_STATES`: inert
/// tasks do not shrink that model, so its pass can be far bigger than the search; a number
/// that does not depend on the search's own counts, which vary with thread timing when
/// several threads share the visited table, so that every `--jobs` shows the same witnesses);
/// when it does not finish, the pass over the model
/// the search walked (inert tasks run when queued), each witness then turned into a faithful
/// schedule, and the report says which it is. `--time-limit` and Ctrl-C stop either pass: the
/// witnesses are then the search's own. The passes `ahead` holds are not run again.
pub(super) fn fewest_choice_witnesses(
    program: &Program,
    options: &ExploreOptions,
    start: Instant,
    inert: bool,
    ahead: Ahead,
    exploration: &mut Exploration,
) -> Result<String, RunError> {
    let Ahead { faithful, inert_first } = ahead;
    let witness_pass =
        |ran: Option<WitnessPass<RunError>>, max_states: u64, inert_first: bool, exploration: &mut Exploration| {
            match ran {
                Some(pass) => witnesses_of(pass, exploration),
                None => shortest_witnesses_in(program, options, start, max_states, inert_first, exploration),
            }
        };
    if !inert {
        return Ok(match witness_pass(faithful, faithful_budget(options, false), false, exploration)? {
            Ok(()) => trace::WITNESSES_FEWEST.into(),
            Err(why) => format!("{} ({why})", trace::WITNESSES_FOUND),
        });
    }
    if !exploration.complete {
        to_faithful_schedules(program, &None, exploration)?;
        return Ok(format!("{} (the search was incomplete)", trace::WITNESSES_FOUND));
    }
    let searched = exploration.clone();
    let faithful_why = match witness_pass(faithful, faithful_budget(options, true), false, exploration)? {
        Ok(()) => return Ok(trace::WITNESSES_FEWEST.into()),
        Err(why) => why,
    };
    *exploration = searched;
    if stopped_by_time_or_ctrl_c(&faithful_why) {
        to_faithful_schedules(program, &None, exploration)?;
        return Ok(format!("{} ({faithful_why})", trace::WITNESSES_FOUND));
    }
    let result = witness_pass(inert_first, inert_first_budget(options), true, exploration)?;
    to_faithful_schedules(program, &None, exploration)?;
    Ok(match result {
        Ok(()) => format!("{} (over every schedule, {faithful_why})", trace::WITNESSES_FEWEST_INERT_FIRST),
        Err(why) => {
            format!("{} (over every schedule, {faithful_why}; inert tasks first, {why})", trace::WITNESSES_FOUND)
        }
    })
}

/// Fewest-choice witnesses for a complete exploration: a breadth-first search over choice
/// points without reduction, each state expanded once (the first time its fingerprint is met),
/// children in label order. It stops after the first level at which every outcome of
/// `exploration` has been reached, and gives each outcome the first schedule, in label order,
/// among its fewest-choice ones. Leaves the witnesses as they were, and says why, when the
/// exploration is incomplete (its outcome set is not known) or a bound (`max_states` choice
/// points, `max_units` per schedule) stops the pass first.
pub fn shortest_witnesses(
    program: &Program,
    options: &ExploreOptions,
    exploration: &mut Exploration,
) -> Result<Result<(), String>, RunError> {
    shortest_witnesses_in(program, options, Instant::now(), options.search.max_states, false, exploration)
}

/// `shortest_witnesses` with its own bound on choice points, over the faithful model or (with
/// `inert_first`) the model the search walks, where inert tasks run when queued: the engine's
/// breadth-first pass (`pass`), run now with the exploration's outcomes as its targets.
fn shortest_witnesses_in(
    program: &Program,
    options: &ExploreOptions,
    start: Instant,
    max_states: u64,
    inert_first: bool,
    exploration: &mut Exploration,
) -> Result<Result<(), String>, RunError> {
    if !exploration.complete {
        return Ok(Err("the search was incomplete".into()));
    }
    let known = OnceLock::from(targets(exploration));
    let ran = pass(program, options, start, max_states, inert_first, &known, &AtomicBool::new(false));
    witnesses_of(ran, exploration)
}

/// One breadth-first witness pass (`::explore::witness_pass`) over the faithful model or (with
/// `inert_first`) the model the search walks, within `max_states` choice points, `--time-limit`
/// (from `start`) and Ctrl-C; `cancel` stops it too (its record is then not used).
fn pass(
    program: &Program,
    options: &ExploreOptions,
    start: Instant,
    max_states: u64,
    inert_first: bool,
    targets: &OnceLock<Vec<u128>>,
    cancel: &AtomicBool,
) -> WitnessPass<RunError> {
    // The faithful model (no inert task runs early): its schedules are what `replay` runs, and
    // the fewest choices are counted there.
    let model = SimModel {
        program,
        inert_tasks: inert_first,
        lifecycles_fixed: false,
        stateless: false,
        learned: None,
        started: AtomicU64::new(0),
    };
    let root = match ::explore::Model::initial(&model) {
        Ok(root) => root,
        Err(error) => return WitnessPass::failed(error),
    };
    let deadline = options.search.time_limit.map(|limit| start + limit);
    let stop = || -> Option<String> {
        if cancel.load(Ordering::Relaxed) {
            return Some("the search did not end complete".into());
        }
        if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            let limit = options.search.time_limit.map_or(0.0, |l| l.as_secs_f64());
            return Some(format!("{PASS_STOPPED_BY_TIME} ({limit} s)"));
        }
        let interrupted =
            options.search.interrupt.as_ref().is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed));
        interrupted.then(|| PASS_STOPPED_BY_CTRL_C.to_string())
    };
    let bounds = PassBounds { max_states, max_units: options.search.max_units, ahead: AHEAD_MAX_STATES };
    ::explore::witness_pass(&model, root, targets, bounds, &stop)
}

/// Gives `exploration`'s outcomes the witnesses `pass` found for them, sorted as the report
/// lists them; or says why it cannot (the search incomplete, the pass stopped first).
fn witnesses_of(pass: WitnessPass<RunError>, exploration: &mut Exploration) -> Result<Result<(), String>, RunError> {
    if !exploration.complete {
        return Ok(Err("the search was incomplete".into()));
    }
    let found = match pass.witnesses(&targets(exploration))? {
        Ok(found) => found,
        Err(why) => return Ok(Err(why)),
    };
    for (class, (choices, witness)) in exploration.outcomes.iter_mut().zip(found) {
        class.witness_choices = choices;
        class.witness = witness;
    }
    exploration.outcomes.sort_by(|a, b| (a.witness_choices, &a.witness).cmp(&(b.witness_choices, &b.witness)));
    Ok(Ok(()))
}
