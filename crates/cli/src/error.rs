//! `CliError`: why a command stopped, as `webmcp-sim` prints it, with the exit code that says so.

use std::fmt;

/// Why a command stopped. The binary prints it on stderr, in one place, and exits with
/// [`CliError::exit_code`]: 2 for bad input (arguments, files, a scenario that does not load, a
/// replayed schedule that does not fit), 1 for a run or search that failed.
#[derive(Debug)]
pub struct CliError {
    /// The errors, each printed as `error: …` (one may run over several lines: a diagnostic
    /// with its snippet).
    errors: Vec<String>,
    /// Printed after the errors, each as `  hint: …`.
    hints: Vec<String>,
    code: u8,
}

impl CliError {
    /// Bad input: an argument, a file that cannot be read or written (exit 2).
    pub fn input(message: impl Into<String>) -> Self {
        Self::with_code(2, message)
    }

    /// A run, search or check that failed (exit 1).
    pub fn failed(message: impl Into<String>) -> Self {
        Self::with_code(1, message)
    }

    /// A failure whose exit code its caller decides (a run: `report::run_exit_code`).
    pub fn with_code(code: u8, message: impl Into<String>) -> Self {
        Self { errors: vec![message.into()], hints: Vec::new(), code }
    }

    /// A scenario that does not load: every diagnostic, each already rendered against the text
    /// it points into and escaped for the terminal (exit 2).
    pub fn diagnostics(rendered: Vec<String>) -> Self {
        Self { errors: rendered, hints: Vec::new(), code: 2 }
    }

    /// The same error with a hint line after it (`  hint: …`).
    #[must_use]
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hints.push(hint.into());
        self
    }

    /// The process's exit code for this error.
    pub fn exit_code(&self) -> u8 {
        self.code
    }
}

/// Every line the user sees, each ending in a newline: `error: …` and then `  hint: …` lines.
impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for error in &self.errors {
            writeln!(f, "error: {error}")?;
        }
        for hint in &self.hints {
            writeln!(f, "  hint: {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CliError {}

#[cfg(test)]
mod tests;
