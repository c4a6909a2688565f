//! `replay --complete first`: replay a schedule prefix, then complete the run with a stated
//! default (the first runnable lane, in the order the run lists them), and say so.

use sched::{ChooseError, Chooser, Lane, ReplayChooser, Schedule};

/// The default that completes a prefix, as the output states it.
pub const DEFAULT: &str = "the first runnable lane, in the order the run lists them";

/// Replays `prefix`, then picks the first runnable lane; counts the choices it made itself.
pub struct PrefixChooser {
    prefix: ReplayChooser,
    pub given: usize,
    pub completed: usize,
}

impl PrefixChooser {
    pub fn new(prefix: &Schedule) -> PrefixChooser {
        PrefixChooser { prefix: ReplayChooser::new(prefix), given: prefix.picks.len(), completed: 0 }
    }
}

impl PrefixChooser {
    /// Choices of the prefix not used (the run ended first).
    pub fn remaining(&self) -> usize {
        self.prefix.remaining()
    }
}

impl Chooser for PrefixChooser {
    fn choose(&mut self, runnable: &[Lane]) -> Result<usize, ChooseError> {
        if self.prefix.remaining() > 0 {
            return self.prefix.choose(runnable);
        }
        self.completed += 1;
        Ok(0)
    }
}

/// The line that says how the schedule was completed.
pub fn statement(given: usize, completed: usize) -> String {
    format!("completed: the {given} given choice(s), then {completed} choice(s) by the default: {DEFAULT}\n")
}
