//! Deterministic scheduling primitives: lane labels, the `Chooser` trait, and recorded schedules.
//!
//! A simulated world offers, at each step, the set of lanes that have a runnable unit.
//! A `Chooser` picks one of them.
//! Every pick made among two or more lanes is a *choice*; the sequence of choices is the
//! run's `Schedule`, printed as a compact string of lane labels and accepted back by
//! `ReplayChooser`, which reproduces the run exactly.
//! This crate knows nothing about browsers: a lane is an opaque, stable, human-readable label.

use std::fmt;

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod name;
#[cfg(test)]
mod tests;

pub use name::Name;

/// A stable label for a source of runnable units (an event loop's task queue, a parallel queue …).
///
/// Labels are plain ASCII without commas, spaces or `*`, so a schedule string stays parseable.
/// The label is an interned [`Name`]: copying a lane copies a pointer.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Lane(Name);

impl Lane {
    pub fn new(label: impl AsRef<str>) -> Lane {
        let label = label.as_ref();
        debug_assert!(Lane::is_valid_label(label), "invalid lane label {label:?}");
        Lane(Name::new(label))
    }

    /// The label's interned text.
    pub fn name(&self) -> Name {
        self.0
    }

    pub fn as_str(&self) -> &'static str {
        self.0.as_str()
    }

    /// A label may hold ASCII letters, digits and `.`, `_`, `-`, `:`, `/`, `#`, `@`.
    pub fn is_valid_label(label: &str) -> bool {
        !label.is_empty() && label.bytes().all(|b| b.is_ascii_alphanumeric() || b".:_-/#@".contains(&b))
    }
}

impl fmt::Display for Lane {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a chooser could not pick.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ChooseError {
    /// A replayed schedule names a lane that is not runnable at this choice.
    NotRunnable { choice: usize, wanted: Lane, runnable: Vec<Lane> },
    /// A replayed schedule ended while the run still had choices to make.
    Exhausted { choice: usize, runnable: Vec<Lane> },
    /// The run's wall-clock limit (`--time-limit`) passed before this choice.
    TimeLimit { choice: usize, micros: u64 },
}

impl fmt::Display for ChooseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChooseError::NotRunnable { choice, wanted, runnable } => write!(
                f,
                "schedule choice {choice} picks `{wanted}`, which is not runnable here (runnable: {})",
                join(runnable)
            ),
            ChooseError::Exhausted { choice, runnable } => write!(
                f,
                "schedule ended at choice {choice}, but the run still has to choose among: {}",
                join(runnable)
            ),
            ChooseError::TimeLimit { choice, micros } => {
                write!(f, "the run reached its time limit ({} s) at choice {choice}, unfinished", *micros as f64 / 1e6)
            }
        }
    }
}

impl std::error::Error for ChooseError {}

fn join(lanes: &[Lane]) -> String {
    lanes.iter().map(Lane::as_str).collect::<Vec<_>>().join(", ")
}

/// Picks which runnable lane goes next.
///
/// `runnable` always holds at least two lanes, sorted and without duplicates: a world
/// with one runnable lane does not ask.
pub trait Chooser {
    fn choose(&mut self, runnable: &[Lane]) -> Result<usize, ChooseError>;
}

impl<C: Chooser + ?Sized> Chooser for &mut C {
    fn choose(&mut self, runnable: &[Lane]) -> Result<usize, ChooseError> {
        (**self).choose(runnable)
    }
}

/// Seeded uniform choice (ChaCha8, so the same seed picks the same lanes on every machine).
pub struct RandomChooser {
    rng: ChaCha8Rng,
}

impl RandomChooser {
    pub fn new(seed: u64) -> RandomChooser {
        RandomChooser { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Chooser for RandomChooser {
    fn choose(&mut self, runnable: &[Lane]) -> Result<usize, ChooseError> {
        // Lemire's multiply-shift on a u64 draw; the bias for n < 2^32 is below 2^-32 and,
        // more importantly, the mapping is fixed, so results are identical everywhere.
        let n = runnable.len() as u128;
        Ok(((self.rng.next_u64() as u128 * n) >> 64) as usize)
    }
}

/// PCT, probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi, Nagarakatte,
/// ASPLOS 2010), over lanes: every lane gets a random priority the first time it is runnable
/// (above `depth`), the runnable lane of highest priority runs, and at `depth - 1` choice points
/// drawn uniformly from `1..=steps` the lane that runs there drops to priority `depth - 1 - i`.
/// A run finds a given ordering bug of depth `depth` with probability at least
/// `1 / (lanes * steps^(depth - 1))` (`pct_bound`), where `steps` bounds the choice points of a
/// run and `lanes` the lanes that are ever runnable. Seeded ChaCha8: the same seed picks the same
/// schedule on every machine.
pub struct PctChooser {
    rng: ChaCha8Rng,
    /// Change points (choice numbers, from 1) in the order they come.
    change_points: Vec<usize>,
    priorities: std::collections::BTreeMap<Lane, u64>,
    choice: usize,
    depth: usize,
}

impl PctChooser {
    pub fn new(seed: u64, depth: usize, steps: usize) -> PctChooser {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let steps = steps.max(1) as u128;
        let mut change_points: Vec<usize> =
            (1..depth.max(1)).map(|_| 1 + ((rng.next_u64() as u128 * steps) >> 64) as usize).collect();
        change_points.sort_unstable();
        PctChooser { rng, change_points, priorities: Default::default(), choice: 0, depth: depth.max(1) }
    }
}

/// PCT's lower bound on the chance that one run finds a given bug of depth `depth`.
pub fn pct_bound(lanes: usize, steps: usize, depth: usize) -> f64 {
    1.0 / (lanes.max(1) as f64 * (steps.max(1) as f64).powi(depth.max(1) as i32 - 1))
}

impl Chooser for PctChooser {
    fn choose(&mut self, runnable: &[Lane]) -> Result<usize, ChooseError> {
        self.choice += 1;
        for lane in runnable {
            if !self.priorities.contains_key(lane) {
                // Above every priority a change point gives (0..depth-1); random among the rest.
                let p = self.depth as u64 + (self.rng.next_u64() >> 1);
                self.priorities.insert(lane.clone(), p);
            }
        }
        let best = (0..runnable.len()).max_by_key(|&i| self.priorities[&runnable[i]]).unwrap_or(0);
        // At the i-th change point the lane that would run drops below every other (and
        // below the lanes dropped before it), so another lane runs here.
        let hits: Vec<usize> =
            (0..self.change_points.len()).filter(|&i| self.change_points[i] == self.choice).collect();
        if let Some(&i) = hits.first() {
            let dropped = (self.depth - 2).saturating_sub(i) as u64;
            self.priorities.insert(runnable[best].clone(), dropped);
            let best = (0..runnable.len()).max_by_key(|&i| self.priorities[&runnable[i]]).unwrap_or(0);
            return Ok(best);
        }
        Ok(best)
    }
}

/// Always the first runnable lane in label order: a deterministic default with no seed.
pub struct FirstChooser;

impl Chooser for FirstChooser {
    fn choose(&mut self, _runnable: &[Lane]) -> Result<usize, ChooseError> {
        Ok(0)
    }
}

/// Replays a recorded schedule, failing loudly when the run diverges from it.
pub struct ReplayChooser {
    picks: Vec<Lane>,
    next: usize,
}

impl ReplayChooser {
    pub fn new(schedule: &Schedule) -> ReplayChooser {
        ReplayChooser { picks: schedule.picks.clone(), next: 0 }
    }

    /// Choices of the schedule that the run did not consume.
    pub fn remaining(&self) -> usize {
        self.picks.len() - self.next
    }
}

impl Chooser for ReplayChooser {
    fn choose(&mut self, runnable: &[Lane]) -> Result<usize, ChooseError> {
        let choice = self.next;
        let Some(wanted) = self.picks.get(choice) else {
            return Err(ChooseError::Exhausted { choice, runnable: runnable.to_vec() });
        };
        let Some(index) = runnable.iter().position(|lane| lane == wanted) else {
            return Err(ChooseError::NotRunnable { choice, wanted: wanted.clone(), runnable: runnable.to_vec() });
        };
        self.next += 1;
        Ok(index)
    }
}

/// Wraps a chooser and records every pick it makes.
pub struct Recorder<C> {
    pub inner: C,
    pub schedule: Schedule,
}

impl<C: Chooser> Recorder<C> {
    pub fn new(inner: C) -> Recorder<C> {
        Recorder { inner, schedule: Schedule::default() }
    }
}

impl<C: Chooser> Chooser for Recorder<C> {
    fn choose(&mut self, runnable: &[Lane]) -> Result<usize, ChooseError> {
        let index = self.inner.choose(runnable)?;
        self.schedule.picks.push(runnable[index].clone());
        Ok(index)
    }
}

/// The choices of one run, in order.
///
/// Text form: lane labels separated by commas; a run of the same label may be written
/// `label*N`. Example: `el0.webmcp*2,par#1,el1.timer`. The empty schedule is `-`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Schedule {
    pub picks: Vec<Lane>,
}

/// Why a schedule string could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ScheduleParseError {
    /// 0-based byte offset of the offending item in the input.
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for ScheduleParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "schedule column {}: {}", self.offset + 1, self.message)
    }
}

impl std::error::Error for ScheduleParseError {}

impl Schedule {
    pub fn len(&self) -> usize {
        self.picks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.picks.is_empty()
    }

    pub fn parse(text: &str) -> Result<Schedule, ScheduleParseError> {
        let text = text.trim();
        if text == "-" || text.is_empty() {
            return Ok(Schedule::default());
        }
        let mut picks = Vec::new();
        let mut offset = 0;
        for item in text.split(',') {
            let item_offset = offset + (item.len() - item.trim_start().len());
            offset += item.len() + 1;
            let item = item.trim();
            let (label, count) = match item.split_once('*') {
                Some((label, count)) => {
                    let count: usize = count.parse().map_err(|_| ScheduleParseError {
                        offset: item_offset,
                        message: format!("`{item}`: the repeat count after `*` must be a whole number ≥ 1"),
                    })?;
                    if count == 0 || count > 1_000_000 {
                        return Err(ScheduleParseError {
                            offset: item_offset,
                            message: format!("`{item}`: repeat count must be 1 to 1000000"),
                        });
                    }
                    (label, count)
                }
                None => (item, 1),
            };
            if !Lane::is_valid_label(label) {
                return Err(ScheduleParseError {
                    offset: item_offset,
                    message: format!(
                        "`{label}` is not a lane label (letters, digits and . : _ - / # @; \
                         copy the schedule from a trace's `schedule:` line)"
                    ),
                });
            }
            picks.extend(std::iter::repeat_n(Lane(Name::new(label)), count));
        }
        Ok(Schedule { picks })
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_picks(f, &self.picks)
    }
}

/// Writes picks as a schedule's text (see `Schedule`'s `Display`): `-` for none, otherwise the
/// labels separated by commas, a run of one label written once as `label*count`.
pub fn write_picks<L: AsRef<Lane>>(out: &mut impl fmt::Write, picks: &[L]) -> fmt::Result {
    if picks.is_empty() {
        return out.write_str("-");
    }
    let mut i = 0;
    while i < picks.len() {
        let lane = picks[i].as_ref();
        let mut j = i + 1;
        while j < picks.len() && picks[j].as_ref() == lane {
            j += 1;
        }
        if i > 0 {
            out.write_str(",")?;
        }
        out.write_str(lane.as_str())?;
        if j - i > 1 {
            write!(out, "*{}", j - i)?;
        }
        i = j;
    }
    Ok(())
}

/// `write_picks` into a new string: a schedule's text without building the `Schedule`.
pub fn picks_text<L: AsRef<Lane>>(picks: &[L]) -> String {
    let mut text = String::new();
    write_picks(&mut text, picks).expect("writing to a String cannot fail");
    text
}

impl AsRef<Lane> for Lane {
    fn as_ref(&self) -> &Lane {
        self
    }
}
