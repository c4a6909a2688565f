//! Fewest-choice witnesses: a breadth-first pass over choice points without reduction.

use std::sync::OnceLock;

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
///
/// [`witness_pass`] with the targets known from the start, then [`WitnessPass::witnesses`].
pub fn shortest_witnesses<M: Stateful>(
    model: &M,
    root: M::State,
    targets: &[u128],
    max_states: u64,
    max_units: usize,
    stop: &dyn Fn() -> Option<String>,
) -> Result<Witnesses, M::Error> {
    let known = OnceLock::from(targets.to_vec());
    let bounds = PassBounds { max_states, max_units, ahead: u64::MAX };
    witness_pass(model, root, &known, bounds, stop).witnesses(targets)
}

/// What a witness pass met, whatever its targets turn out to be: each outcome reached, with the
/// level from which the pass knew it and its first schedule, and how far the pass went. So the
/// pass can run while the search that finds the targets still runs (on another thread), and
/// [`WitnessPass::witnesses`] gives for any targets exactly what [`shortest_witnesses`] gives
/// with them known from the start: when they come, the pass stops at the first level at which
/// every one has been reached, as it would have; when they come later than that level, the pass
/// had gone on, but what it met by then does not change (each outcome keeps its first schedule),
/// and what ended it later (a bound, `stop`, the model's error) is what the pass with the
/// targets known would not have met.
pub struct WitnessPass<E> {
    /// Each outcome reached (by its key): the level whose check first saw it, then its first
    /// schedule's choices and text.
    found: KeyMap<(u32, usize, String)>,
    /// The last level whose check ran (None: the pass ended before the first one).
    checked: Option<u32>,
    /// The distinct choice points the pass reached.
    choice_points: u64,
    /// What ended the pass.
    end: End<E>,
}

/// What ended a witness pass.
enum End<E> {
    /// Every target met, or no choice point left.
    Ran,
    /// A bound or `stop`, saying why.
    GaveUp(String),
    /// The model's error.
    Failed(E),
}

impl<E: From<Failure>> WitnessPass<E> {
    /// A pass that failed before its first step (the model could not make the initial state).
    pub fn failed(error: E) -> WitnessPass<E> {
        WitnessPass { found: KeyMap::default(), checked: None, choice_points: 0, end: End::Failed(error) }
    }

    /// The distinct choice points the pass reached.
    pub fn choice_points(&self) -> u64 {
        self.choice_points
    }

    /// Why a bound or `stop` ended the pass, if one did (not the targets met, nor the end of the
    /// state space, nor the model's error).
    pub fn gave_up(&self) -> Option<&str> {
        match &self.end {
            End::GaveUp(why) => Some(why),
            End::Ran | End::Failed(_) => None,
        }
    }

    /// Whether the pass reached every one of `targets` by a level it checked: then `witnesses`
    /// gives theirs, whatever ended the pass later.
    pub fn met(&self, targets: &[u128]) -> bool {
        // The level at which the last target was first seen: the check that ends the pass.
        let level = targets.iter().try_fold(0, |level, &t| self.found.get(&Key::new(t)).map(|f| level.max(f.0)));
        level.is_some_and(|level| self.checked.is_some_and(|checked| level <= checked))
    }

    /// The witnesses of `targets`, or the error, as [`shortest_witnesses`] gives them. A target
    /// never reached by a pass that ran out of choice points is a
    /// [`Failure::Nondeterministic`].
    pub fn witnesses(self, targets: &[u128]) -> Result<Witnesses, E> {
        if self.met(targets) {
            let witness = |t: u128| {
                let (_, choices, text) = &self.found[&Key::new(t)];
                (*choices, text.clone())
            };
            return Ok(Ok(targets.iter().map(|&t| witness(t)).collect()));
        }
        match self.end {
            End::GaveUp(why) => Ok(Err(why)),
            End::Failed(error) => Err(error),
            // Every state was expanded without reaching some target: the search and this pass
            // disagree about the state space, which is a bug of the model (nondeterminism or a
            // fingerprint clash).
            End::Ran => Err(Failure::Nondeterministic(
                "simulator bug: an outcome the search found is not reachable breadth-first; please report it with the scenario"
                    .into(),
            )
            .into()),
        }
    }
}

/// The bounds of a witness pass.
#[derive(Clone, Copy, Debug)]
pub struct PassBounds {
    /// Choice points the pass may reach before it gives up.
    pub max_states: u64,
    /// Steps along a schedule.
    pub max_units: usize,
    /// Choice points the pass may reach before its targets are known: there it waits for them
    /// (or for `stop`), so that a pass run ahead of a long search does not go on far past the
    /// level the targets will need, holding every state of its frontier.
    pub ahead: u64,
}

/// The breadth-first pass of [`shortest_witnesses`], for targets that `targets` may not hold
/// yet: asked at every level and every 1,024 choice points, and once it holds them the pass
/// stops as soon as every one has been reached by a level already checked. Without them it goes
/// on until a bound, `stop`, the model's error or the end of the state space ends it, or waits
/// for them past `bounds.ahead` choice points.
pub fn witness_pass<M: Stateful>(
    model: &M,
    root: M::State,
    targets: &OnceLock<Vec<u128>>,
    bounds: PassBounds,
    stop: &dyn Fn() -> Option<String>,
) -> WitnessPass<M::Error> {
    let mut pass: Pass<M> = Pass {
        model,
        max_states: bounds.max_states,
        max_units: bounds.max_units,
        ahead: bounds.ahead,
        stop,
        targets,
        level: 0,
        checked: None,
        found: KeyMap::default(),
        visited: KeyMap::default(),
        lanes: Vec::new(),
        schedules: Vec::new(),
        next: Vec::new(),
    };
    let end = match pass.levels(root) {
        Ok(Flow::Go | Flow::Met) => End::Ran,
        Ok(Flow::GaveUp(why)) => End::GaveUp(why),
        Err(error) => End::Failed(error),
    };
    WitnessPass { found: pass.found, checked: pass.checked, choice_points: pass.visited.len() as u64, end }
}

/// Whether a pass goes on.
enum Flow {
    Go,
    /// Every target has been reached by a level already checked.
    Met,
    /// A bound or `stop` ended the pass.
    GaveUp(String),
}

/// The state of the breadth-first pass.
struct Pass<'m, M: Stateful> {
    model: &'m M,
    /// Choice points the pass may reach before it gives up.
    max_states: u64,
    max_units: usize,
    /// Choice points the pass may reach before its targets are known (`PassBounds::ahead`).
    ahead: u64,
    /// Why the pass must stop now, if it must (asked every 1,024 choice points).
    stop: &'m dyn Fn() -> Option<String>,
    /// The outcomes to reach, once known.
    targets: &'m OnceLock<Vec<u128>>,
    /// The level whose choice points are being expanded: what they reach is seen by its check.
    level: u32,
    /// The last level whose check ran.
    checked: Option<u32>,
    /// Each outcome reached so far (by its key): the level that first saw it, its first
    /// schedule's choices and text.
    found: KeyMap<(u32, usize, String)>,
    /// The choice points reached so far.
    visited: KeyMap<()>,
    lanes: Vec<M::Lane>,
    /// The schedules of the choice points kept and the outcomes found, as a tree: each node is
    /// its schedule's last choice and its parent's node (`ROOT` for the first choice), so a
    /// choice point keeps one node instead of a copy of its whole schedule (the copies took
    /// 14 MB of four-calls-unload's 190 MB peak, and an allocation per child).
    schedules: Vec<(u32, M::Label)>,
    /// The next level's choice points, each with its schedule's last node, in the order they
    /// were reached.
    next: Vec<(M::State, u32)>,
}

/// The node of the empty schedule, the parent of a schedule's first choice.
const ROOT: u32 = u32::MAX;

impl<M: Stateful> Pass<'_, M> {
    /// Level by level from `root`: each level's check, then its choice points expanded. Ends
    /// with `Flow::Go` when no choice point is left.
    fn levels(&mut self, root: M::State) -> Result<Flow, M::Error> {
        let model = self.model;
        if let flow @ (Flow::Met | Flow::GaveUp(_)) = self.arrive(root, None, ROOT)? {
            return Ok(flow);
        }
        // `frontier` holds the distinct choice points first reached with as many choices as
        // the level's number, in label order of their schedules.
        loop {
            self.checked = Some(self.level);
            if self.met() {
                return Ok(Flow::Met);
            }
            let frontier = std::mem::take(&mut self.next);
            if frontier.is_empty() {
                return Ok(Flow::Go);
            }
            self.level += 1;
            for (mut state, schedule) in frontier {
                model.runnable(&mut state, &mut self.lanes);
                let lanes = std::mem::take(&mut self.lanes);
                // Children in label order; the last takes the state itself.
                let (&last, others) = lanes.split_last().expect("a choice point has lanes");
                for &lane in others {
                    let mut child = state.clone();
                    let label = model.label(&child, &lane).clone();
                    model.step(&mut child, lane)?;
                    if let flow @ (Flow::Met | Flow::GaveUp(_)) = self.arrive(child, Some(label), schedule)? {
                        return Ok(flow);
                    }
                }
                let label = model.label(&state, &last).clone();
                model.step(&mut state, last)?;
                if let flow @ (Flow::Met | Flow::GaveUp(_)) = self.arrive(state, Some(label), schedule)? {
                    return Ok(flow);
                }
                self.lanes = lanes;
            }
        }
    }

    /// Whether the targets are known and every one was seen by a level already checked.
    fn met(&self) -> bool {
        let Some(checked) = self.checked else { return false };
        self.targets.get().is_some_and(|targets| {
            targets.iter().all(|&t| self.found.get(&Key::new(t)).is_some_and(|f| f.0 <= checked))
        })
    }

    /// Takes a state reached by the choice `last` after the schedule whose last node is `before`
    /// (no choice: the initial state) through its forced steps, then records the outcome of an
    /// end state, or queues a choice point not reached before for the next level.
    fn arrive(&mut self, mut state: M::State, last: Option<M::Label>, before: u32) -> Result<Flow, M::Error> {
        let model = self.model;
        loop {
            model.runnable(&mut state, &mut self.lanes);
            if self.lanes.len() != 1 {
                break;
            }
            if model.units(&state) >= self.max_units {
                return Ok(Flow::GaveUp(format!("the breadth-first pass stopped at max-units ({})", self.max_units)));
            }
            model.step(&mut state, self.lanes[0])?;
        }
        if self.lanes.is_empty() {
            let key = Key::new(model.outcome_key(&model.outcome(&state)));
            let level = self.level;
            let schedules = &self.schedules;
            self.found.entry(key).or_insert_with(|| {
                let mut picks: Vec<&M::Label> = last.iter().collect();
                picks.extend(ancestors(schedules, before));
                picks.reverse();
                (level, picks.len(), model.schedule_text(&picks))
            });
        } else if self.visited.insert(Key::new(model.fingerprint(&state)), ()).is_none() {
            if self.visited.len() as u64 > self.max_states {
                return Ok(Flow::GaveUp(format!("the breadth-first pass stopped at max-states ({})", self.max_states)));
            }
            if self.visited.len().is_multiple_of(1024) {
                if self.visited.len() as u64 >= self.ahead {
                    // Far enough ahead: the targets, or the reason to stop, are awaited here.
                    while self.targets.get().is_none() {
                        if let Some(why) = (self.stop)() {
                            return Ok(Flow::GaveUp(why));
                        }
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                }
                if self.met() {
                    return Ok(Flow::Met);
                }
                if let Some(why) = (self.stop)() {
                    return Ok(Flow::GaveUp(why));
                }
            }
            let schedule = match last {
                None => before,
                Some(label) => {
                    self.schedules.push((before, label));
                    u32::try_from(self.schedules.len() - 1).expect("fewer than 2^32 choice points")
                }
            };
            self.next.push((state, schedule));
        }
        Ok(Flow::Go)
    }
}

/// The choices of the schedule whose last node is `node`, last first.
fn ancestors<L>(schedules: &[(u32, L)], mut node: u32) -> impl Iterator<Item = &L> {
    std::iter::from_fn(move || {
        let (parent, label) = schedules.get(node as usize)?;
        node = *parent;
        Some(label)
    })
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
