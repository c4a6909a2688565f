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

/// Set once stdout's reader went away (`webmcp-sim … | head -1`): later output is dropped.
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Writes `text` to stdout, the one way a command prints its report. A closed pipe
/// (`… | head -1`) drops the rest of the output and is not an error, so the command still ends
/// with its own exit code (`set -o pipefail` sees a violation as 1, not 0 or a panic); any other
/// failed write (`> /dev/full`) is an error (exit 1), never a success that printed nothing.
pub fn write_stdout(text: &str) -> Result<(), CliError> {
    use std::io::Write;
    use std::sync::atomic::Ordering;
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return Ok(());
    }
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            STDOUT_CLOSED.store(true, Ordering::Relaxed);
            Ok(())
        }
        Err(e) => Err(CliError::failed(format!("writing the output to stdout: {e}"))
            .hint("the report was not written in full; free the disk or name another output")),
    }
}

#[cfg(test)]
mod tests;
