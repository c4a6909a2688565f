//! An audit of the independence relation the exploration's sleep sets rely on.
//!
//! The reduced search (`crate::explore`) treats two units as commuting when their footprints do
//! not conflict. That is sound only if every unit records everything it touches. The
//! naive-vs-reduced comparison catches a unit that does not, but only when the lost ordering
//! changes an outcome. This audit checks the relation itself,
//! at every choice point it reaches: for every two lanes whose units' footprints do not conflict,
//! - each lane is still runnable after the other ran (neither disables the other);
//! - running them in either order reaches the same state (the same fingerprint);
//! - each unit, run after the other, touches nothing outside the footprint it had before (a sleep
//!   set keeps the footprint a unit had where it was explored).
//!
//! A unit whose footprint says it commutes with every unit (`Footprint::is_private`: the search
//! explores it alone) is checked against every other lane, whatever their footprints: both stay
//! runnable, it stays private after the other, and the two orders reach the same state.

use std::collections::HashSet;

use sched::{Lane, Schedule};

use crate::footprint::Footprint;
use crate::kernel::{RunError, Sim};
use crate::program::Program;

/// What `audit_independence` found.
#[derive(Clone, Debug, Default)]
pub struct IndependenceAudit {
    /// Distinct choice points checked.
    pub states: u64,
    /// Pairs of lanes whose footprints did not conflict, each run in both orders.
    pub pairs: u64,
    /// False when a bound (`max_states`, or `max_units` along a schedule) stopped the audit.
    pub complete: bool,
    pub violations: Vec<IndependenceViolation>,
}

/// Two lanes taken to commute at a state where they do not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndependenceViolation {
    /// The choices that reach the state (replayable with `webmcp-sim replay --schedule`).
    pub schedule: String,
    pub first: Lane,
    pub second: Lane,
    /// What went wrong, in a sentence.
    pub problem: String,
}

impl std::fmt::Display for IndependenceViolation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} and {} were taken to commute after the schedule '{}', but {}",
            self.first, self.second, self.schedule, self.problem
        )
    }
}

/// Checks the independence relation on every choice point reachable from the initial state, up
/// to `max_states` distinct ones (see the module comment). Every lane of every choice point is
/// followed (no sleep sets); states are merged by fingerprint.
pub fn audit_independence(program: &Program, max_states: u64, max_units: usize) -> Result<IndependenceAudit, RunError> {
    // The audit clones states, which a JavaScript page's heap cannot be.
    if program.has_page_scripts() {
        return Err(RunError::NotModelled(
            "auditing a scenario with JavaScript pages needs the stateless search (issue 28)".into(),
        ));
    }
    let mut audit = IndependenceAudit { complete: true, ..IndependenceAudit::default() };
    let mut seen: HashSet<u128> = HashSet::new();
    let mut root = Sim::new(program)?;
    root.record = false;
    // The relation the search uses, with inert tasks run when queued (`crate::inert`).
    // (None with the variant `in-parallel-reads-mid-task`, as `SimModel::exploring` decides.)
    if !program.has_variant(scenario::Variant::InParallelReadsMidTask) {
        root.eager_inert = Some(std::rc::Rc::new(crate::inert::facts::InertFacts::of(program)));
    }
    // Depth-first, with an explicit stack: each entry is a state and the choices that reached it.
    let mut stack: Vec<(Sim, Vec<Lane>)> = vec![(root, Vec::new())];
    while let Some((mut sim, path)) = stack.pop() {
        // Forced steps up to the next choice point.
        let lanes = loop {
            if sim.units_run >= max_units {
                audit.complete = false;
                break Vec::new();
            }
            let lanes = sim.runnable();
            if lanes.len() != 1 {
                break lanes;
            }
            let (lane, lane_ref) = lanes.into_iter().next().expect("one lane");
            sim.step(&lane, lane_ref, Vec::new())?;
        };
        if lanes.is_empty() || !seen.insert(sim.fingerprint()) {
            continue;
        }
        if audit.states >= max_states {
            audit.complete = false;
            break;
        }
        audit.states += 1;
        let mut children = Vec::with_capacity(lanes.len());
        for (lane, lane_ref) in &lanes {
            let mut child = sim.clone();
            let footprint = child.step(lane, *lane_ref, Vec::new())?;
            children.push((child, footprint));
        }
        for i in 0..lanes.len() {
            for j in i + 1..lanes.len() {
                let (a, b) = (&lanes[i].0, &lanes[j].0);
                let (fa, fb) = (&children[i].1, &children[j].1);
                // Footprints that conflict are checked only where one unit claims to commute
                // with everything.
                let conflict = fa.conflicts(fb);
                if conflict && !fa.is_private() && !fb.is_private() {
                    continue;
                }
                audit.pairs += 1;
                if let Some(problem) = check_pair(&children[i].0, &children[j].0, (a, fa), (b, fb), conflict)? {
                    let schedule = Schedule { picks: path.clone() }.to_string();
                    audit.violations.push(IndependenceViolation {
                        schedule,
                        first: a.clone(),
                        second: b.clone(),
                        problem,
                    });
                }
            }
        }
        // Children pushed in reverse, so lanes are followed in label order.
        for ((lane, _), (child, _)) in lanes.into_iter().zip(children).rev() {
            let mut child_path = path.clone();
            child_path.push(lane);
            stack.push((child, child_path));
        }
    }
    Ok(audit)
}

/// Runs `b` after `a` (from `after_a`) and `a` after `b` (from `after_b`); None when they commute.
/// `conflict`: the footprints conflict, and one unit is private (see the module comment): its
/// privacy is checked instead of the footprints.
fn check_pair(
    after_a: &Sim,
    after_b: &Sim,
    (a, fa): (&Lane, &Footprint),
    (b, fb): (&Lane, &Footprint),
    conflict: bool,
) -> Result<Option<String>, RunError> {
    let mut ab = after_a.clone();
    let Some(fb_after_a) = step_by_label(&mut ab, b)? else {
        return Ok(Some(format!("{b} is not runnable after {a}")));
    };
    let mut ba = after_b.clone();
    let Some(fa_after_b) = step_by_label(&mut ba, a)? else {
        return Ok(Some(format!("{a} is not runnable after {b}")));
    };
    if fa.is_private() && !fa_after_b.is_private() || fb.is_private() && !fb_after_a.is_private() {
        return Ok(Some(format!("a unit taken to commute with every unit is not private after the other ({a}, {b})")));
    }
    if conflict {
        // Sleep sets never hold a pair whose footprints conflict: only the states matter.
    } else if !fb_after_a.within(fb) {
        return Ok(Some(format!("{b} touches more after {a} ({fb_after_a:?}) than before ({fb:?})")));
    }
    if !fa_after_b.within(fa) {
        return Ok(Some(format!("{a} touches more after {b} ({fa_after_b:?}) than before ({fa:?})")));
    }
    if ab.fingerprint() != ba.fingerprint() {
        return Ok(Some("the two orders reach different states".to_string()));
    }
    Ok(None)
}

/// Runs the lane labelled `label` if it is runnable, returning its unit's footprint.
fn step_by_label(sim: &mut Sim, label: &Lane) -> Result<Option<Footprint>, RunError> {
    let lanes = sim.runnable();
    let Some((lane, lane_ref)) = lanes.into_iter().find(|(l, _)| l == label) else { return Ok(None) };
    sim.step(&lane, lane_ref, Vec::new()).map(Some)
}
