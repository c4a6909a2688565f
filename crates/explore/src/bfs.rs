//! Fewest-choice witnesses: a breadth-first pass over choice points without reduction.

use crate::table::{Key, KeyMap};
use crate::{Failure, Stateful};

/// Each target's fewest choices and schedule text, in the targets' order; or why the pass gave
/// up.
pub type Witnesses = Result<Vec<(usize, String)>, String>;

/// Fewest-choice witnesses of the outcomes `targets` (their [`Model::outcome_key`]s) from
/// `root`: a breadth-first search over choice points without reduction, each state expanded once
/// (the first time its fingerprint is met), children in label order. It stops after the first
/// level at which every target has been reached, and gives each target (in the order given) the
/// first schedule, in label order, among its fewest-choice ones, with its number of choices.
/// Gives up, saying why, when a bound (`max_states` choice points, `max_units` steps along a
/// schedule) stops the pass first, or when `stop`, asked every 1,024 choice points, gives a
/// reason (a wall-clock limit, an interrupt). A target never reached is a [`Failure::Nondeterministic`]:
/// the targets come from a complete search of the same model.
pub fn shortest_witnesses<M: Stateful>(
    model: &M,
    root: M::State,
    targets: &[u128],
    max_states: u64,
    max_units: usize,
    stop: &dyn Fn() -> Option<String>,
) -> Result<Witnesses, M::Error> {
    let mut pass: Pass<M> = Pass {
        model,
        max_states,
        max_units,
        stop,
        found: KeyMap::default(),
        visited: KeyMap::default(),
        lanes: Vec::new(),
        next: Vec::new(),
    };
    if let Err(why) = pass.arrive(root, Vec::new())? {
        return Ok(Err(why));
    }
    // Level by level: `frontier` holds the distinct choice points first reached with as many
    // choices as the level's number, in label order of their schedules.
    loop {
        if targets.iter().all(|&t| pass.found.contains_key(&Key::new(t))) {
            return Ok(Ok(targets.iter().map(|&t| pass.found[&Key::new(t)].clone()).collect()));
        }
        let frontier = std::mem::take(&mut pass.next);
        if frontier.is_empty() {
            break;
        }
        for (mut state, path) in frontier {
            model.runnable(&mut state, &mut pass.lanes);
            let lanes = std::mem::take(&mut pass.lanes);
            // Children in label order; the last takes the state itself.
            let (&last, others) = lanes.split_last().expect("a choice point has lanes");
            for &lane in others {
                let mut child = state.clone();
                let mut child_path = path.clone();
                child_path.push(model.label(&child, &lane).clone());
                model.step(&mut child, lane)?;
                if let Err(why) = pass.arrive(child, child_path)? {
                    return Ok(Err(why));
                }
            }
            let mut path = path;
            path.push(model.label(&state, &last).clone());
            model.step(&mut state, last)?;
            if let Err(why) = pass.arrive(state, path)? {
                return Ok(Err(why));
            }
            pass.lanes = lanes;
        }
    }
    // Every state was expanded without reaching some target: the search and this pass disagree
    // about the state space, which is a bug of the model (nondeterminism or a fingerprint clash).
    Err(Failure::Nondeterministic(
        "simulator bug: an outcome the search found is not reachable breadth-first; please report it with the scenario"
            .into(),
    )
    .into())
}

/// The state of the breadth-first pass.
struct Pass<'m, M: Stateful> {
    model: &'m M,
    /// Choice points the pass may reach before it gives up.
    max_states: u64,
    max_units: usize,
    /// Why the pass must stop now, if it must (asked every 1,024 choice points).
    stop: &'m dyn Fn() -> Option<String>,
    /// Each outcome reached so far (by its key): its first schedule's choices and text.
    found: KeyMap<(usize, String)>,
    /// The choice points reached so far.
    visited: KeyMap<()>,
    lanes: Vec<M::Lane>,
    /// The next level's choice points (each with its schedule), in the order they were reached.
    next: Vec<(M::State, Vec<M::Label>)>,
}

impl<M: Stateful> Pass<'_, M> {
    /// Takes a state reached by `path` through its forced steps, then records the outcome of an
    /// end state, or queues a choice point not reached before for the next level.
    fn arrive(&mut self, mut state: M::State, path: Vec<M::Label>) -> Result<Result<(), String>, M::Error> {
        let model = self.model;
        loop {
            model.runnable(&mut state, &mut self.lanes);
            if self.lanes.len() != 1 {
                break;
            }
            if model.units(&state) >= self.max_units {
                return Ok(Err(format!("the breadth-first pass stopped at max-units ({})", self.max_units)));
            }
            model.step(&mut state, self.lanes[0])?;
        }
        if self.lanes.is_empty() {
            let key = Key::new(model.outcome_key(&model.outcome(&state)));
            self.found.entry(key).or_insert_with(|| {
                let picks: Vec<&M::Label> = path.iter().collect();
                (path.len(), model.schedule_text(&picks))
            });
        } else if self.visited.insert(Key::new(model.fingerprint(&state)), ()).is_none() {
            if self.visited.len() as u64 > self.max_states {
                return Ok(Err(format!("the breadth-first pass stopped at max-states ({})", self.max_states)));
            }
            if self.visited.len().is_multiple_of(1024) {
                if let Some(why) = (self.stop)() {
                    return Ok(Err(why));
                }
            }
            self.next.push((state, path));
        }
        Ok(Ok(()))
    }
}

/// What [`reachable`] counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reachable {
    /// Distinct states (by fingerprint), the initial state, forced steps' states and end states
    /// included: the count TLC and stateright report.
    pub states: u64,
    /// Distinct end states (no lane runnable).
    pub end_states: u64,
    /// The distinct outcomes' keys, sorted.
    pub outcomes: Vec<u128>,
    /// False when `max_states` stopped the count.
    pub complete: bool,
}

/// Every state reachable from the initial state, breadth-first and without reduction, each
/// counted once by fingerprint (a plain reachability count, for checking a model against other
/// model checkers; the search itself counts choice points only).
pub fn reachable<M: Stateful>(model: &M, max_states: u64) -> Result<Reachable, M::Error> {
    let mut seen: KeyMap<()> = KeyMap::default();
    let mut outcomes = std::collections::BTreeSet::new();
    let mut end_states = 0;
    let root = model.initial()?;
    seen.insert(Key::new(model.fingerprint(&root)), ());
    let mut level = vec![root];
    let mut lanes = Vec::new();
    while !level.is_empty() {
        let mut next = Vec::new();
        for mut state in level {
            model.runnable(&mut state, &mut lanes);
            if lanes.is_empty() {
                end_states += 1;
                outcomes.insert(model.outcome_key(&model.outcome(&state)));
                continue;
            }
            for &lane in &lanes {
                let mut child = state.clone();
                model.step(&mut child, lane)?;
                if seen.insert(Key::new(model.fingerprint(&child)), ()).is_none() {
                    if seen.len() as u64 > max_states {
                        return Ok(Reachable {
                            states: seen.len() as u64,
                            end_states,
                            outcomes: outcomes.into_iter().collect(),
                            complete: false,
                        });
                    }
                    next.push(child);
                }
            }
        }
        level = next;
    }
    Ok(Reachable { states: seen.len() as u64, end_states, outcomes: outcomes.into_iter().collect(), complete: true })
}
