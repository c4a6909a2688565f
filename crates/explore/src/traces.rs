//! How many executions a stateless search needs: the complete leaves of a model's sleep-set tree
//! (every schedule, a step not taken where a lane asleep covers it), counted without running
//! them one by one.
//!
//! Sleep sets alone (Godefroid) explore every Mazurkiewicz trace (schedules up to swapping
//! adjacent steps that do not depend on each other) and never two complete executions of one
//! trace (Abdulla et al., *Optimal dynamic partial order reduction*, POPL 2014, section 3). Where
//! a step's footprint does not depend on the order steps ran in, the complete leaves are
//! therefore the traces, one each, and exactly the executions an optimal DPOR runs; the other
//! leaves end with every runnable lane asleep (executions an optimal DPOR never runs). Where
//! footprints depend on the order (the simulator's: an append to a task queue conflicts with
//! taking the task right ahead of it, and with nothing once that task was taken), a lane woken
//! by a conflict seen in one order may lead to a leaf equivalent to one reached in the other,
//! so the leaves can exceed the executions the stateless search ([`crate::stateless`]) runs.
//!
//! The subtree below a node depends only on its state and its sleep set (lanes and the
//! footprints they were explored with), so [`count_traces`] counts each (state, sleep set)
//! pair's leaves once and adds them up: it costs about what the stateful search costs, however
//! many leaves there are. A step the model says commutes with every step from its state on
//! ([`Model::alone`](crate::Model::alone)) depends on nothing after it, as in the stateless
//! search, and is explored by itself, as the stateful search explores it (the stateless search
//! only exempts it from races with later steps, and can run more executions there).

use std::hash::{BuildHasher, Hash, Hasher};
use std::time::Instant;

use crate::dfs::{is_asleep, Asleep};
use crate::stateless::conflict;
use crate::table::{Key, KeyMap};
use crate::{LaneId, LaneNumbering, Options, Stateful};

/// What [`count_traces`] counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Traces {
    /// Complete leaves of the sleep-set tree: the Mazurkiewicz traces where footprints do not
    /// depend on the order steps ran in (then the executions an optimal stateless search runs),
    /// possibly more where they do (see the module doc).
    pub complete: u128,
    /// Leaves where every runnable lane was asleep: executions a stateless search with sleep
    /// sets alone would run and find redundant. (Their number depends on the order lanes are
    /// explored in; the complete leaves' does not.)
    pub blocked: u128,
    /// Distinct (state, sleep set) pairs at choice points counted (each once).
    pub pairs: u64,
    /// Every pair was counted: the numbers are exact. False when a bound stopped the count
    /// (`max_states` pairs, `max_units`, the time limit or Ctrl-C); then they are only what was
    /// counted so far (lower bounds), and `bound` says which bound.
    pub finished: bool,
    pub bound: Option<String>,
}

/// Counts the leaves of `model`'s sleep-set tree (see the module doc) within `options`'
/// `max_states` (pairs), `max_units`, `time_limit` and `interrupt`. Lanes in the order
/// [`crate::Model::runnable`] lists them (label order); one thread.
pub fn count_traces<M>(model: &M, options: &Options) -> Result<Traces, M::Error>
where
    M: Stateful,
    M::Footprint: Hash,
{
    let mut counter = Counter::<M> {
        model,
        options,
        lanes: M::Numbering::default(),
        memo: KeyMap::default(),
        started: Instant::now(),
        bound: None,
        seeds: (foldhash::fast::FixedState::with_seed(0x7261_6365), foldhash::fast::FixedState::with_seed(0x736c_6565)),
    };
    let mut state = model.initial()?;
    let (complete, blocked) = counter.count(&mut state, Vec::new())?;
    Ok(Traces {
        complete,
        blocked,
        pairs: counter.memo.len() as u64,
        finished: counter.bound.is_none(),
        bound: counter.bound,
    })
}

struct Counter<'m, M: Stateful> {
    model: &'m M,
    options: &'m Options,
    lanes: M::Numbering,
    /// By (state, sleep set): its leaves, complete and blocked.
    memo: KeyMap<(u128, u128)>,
    started: Instant,
    /// The bound that stopped the count, if one did.
    bound: Option<String>,
    /// Two hashers of a sleep set, for the two halves of its 128-bit digest.
    seeds: (foldhash::fast::FixedState, foldhash::fast::FixedState),
}

impl<M> Counter<'_, M>
where
    M: Stateful,
    M::Footprint: Hash,
{
    /// The leaves below `state` with sleep set `sleep`: (complete, blocked).
    fn count(&mut self, state: &mut M::State, mut sleep: Vec<Asleep<M::Footprint>>) -> Result<(u128, u128), M::Error> {
        let model = self.model;
        let mut lanes = Vec::new();
        // The forced steps (one runnable lane), as the stateful search takes them: a lane
        // asleep ends the branch.
        loop {
            model.runnable(state, &mut lanes);
            if lanes.len() != 1 {
                break;
            }
            if model.units(state) >= self.options.max_units {
                self.stop(format!("max-units ({})", self.options.max_units));
                return Ok((0, 0));
            }
            let lane = lanes.pop().expect("one lane");
            let id = self.lanes.id_of(model, state, &lane);
            if is_asleep(&sleep, id) {
                return Ok((0, 1));
            }
            let fp = model.step(state, lane)?;
            sleep.retain(|(_, f)| !conflict(model, f, &fp));
        }
        if lanes.is_empty() {
            return Ok((1, 0));
        }
        let ids: Vec<LaneId> = lanes.iter().map(|lane| self.lanes.id_of(model, state, lane)).collect();
        if ids.iter().all(|id| is_asleep(&sleep, *id)) {
            return Ok((0, 1));
        }
        let key = self.key(model.fingerprint(state), &mut sleep);
        if let Some(&leaves) = self.memo.get(&key) {
            return Ok(leaves);
        }
        if self.bound.is_some() || self.out_of_bounds() {
            return Ok((0, 0));
        }
        // Every awake lane's step, then: a step that commutes with every step from its state on
        // (`Model::alone`) alone, as both searches explore it (every trace from here has a
        // representative that runs it first); otherwise each in label order, a sibling explored
        // before asleep in a later one's subtree unless they depend.
        let mut children: Vec<(M::State, LaneId, M::Footprint)> = Vec::with_capacity(lanes.len());
        for (lane, id) in lanes.into_iter().zip(ids) {
            if is_asleep(&sleep, id) {
                continue;
            }
            let mut child = state.clone();
            let fp = model.step(&mut child, lane)?;
            children.push((child, id, fp));
        }
        if let Some(at) = children.iter().position(|(_, _, fp)| model.alone(fp)) {
            children.swap(0, at);
            children.truncate(1);
        }
        let (mut complete, mut blocked) = (0u128, 0u128);
        let mut explored: Vec<Asleep<M::Footprint>> = Vec::new();
        for (mut child, id, fp) in children {
            let child_sleep: Vec<Asleep<M::Footprint>> =
                sleep.iter().chain(&explored).filter(|(_, f)| !conflict(model, f, &fp)).copied().collect();
            let (c, b) = self.count(&mut child, child_sleep)?;
            complete = complete.saturating_add(c);
            blocked = blocked.saturating_add(b);
            explored.push((id, fp));
        }
        // A count a bound cut short is not stored: it would pass for the whole subtree's.
        if self.bound.is_none() {
            self.memo.insert(key, (complete, blocked));
        }
        Ok((complete, blocked))
    }

    /// The key of a (state, sleep set) pair: the state's fingerprint mixed with a 128-bit
    /// digest of the sleep set in lane order (0 for an empty one).
    fn key(&self, fingerprint: u128, sleep: &mut [Asleep<M::Footprint>]) -> Key {
        if sleep.is_empty() {
            return Key::new(fingerprint);
        }
        sleep.sort_unstable_by_key(|(id, _)| *id);
        let digest = |build: &foldhash::fast::FixedState| {
            let mut h = build.build_hasher();
            for (id, fp) in sleep.iter() {
                id.hash(&mut h);
                fp.hash(&mut h);
            }
            h.finish()
        };
        let (lo, hi) = (digest(&self.seeds.0), digest(&self.seeds.1));
        Key::new(fingerprint ^ (u128::from(hi) << 64 | u128::from(lo)))
    }

    /// Whether the pairs, time or Ctrl-C bound is hit (then recorded).
    fn out_of_bounds(&mut self) -> bool {
        if self.memo.len() as u64 >= self.options.max_states {
            self.stop(format!("max-states ({})", self.options.max_states));
        } else if self.options.time_limit.is_some_and(|limit| self.started.elapsed() >= limit) {
            self.stop("time-limit".to_string());
        } else if self.options.interrupt.as_ref().is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed)) {
            self.stop("Ctrl-C".to_string());
        }
        self.bound.is_some()
    }

    fn stop(&mut self, bound: String) {
        self.bound.get_or_insert(bound);
    }
}
