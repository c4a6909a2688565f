//! What the Markdown and HTML renderers take besides traces: the scenario's path and description,
//! and the distinct outcomes of many runs, each with a witness trace.

use crate::Trace;

/// What a rendering says about the scenario that is not in its trace.
#[derive(Clone, Copy, Debug, Default)]
pub struct About<'a> {
    /// The scenario file as the user named it, for the `replay` command.
    pub path: &'a str,
    /// The scenario's one-paragraph description (may be empty).
    pub description: &'a str,
    /// How the runs were made, e.g. `seeds 0..200` or `exploration (complete)`.
    pub runs: &'a str,
    /// What an outcome's count counts: `runs` (when empty) or, for an exploration, `end states`.
    pub counted: &'a str,
    /// Command-line flags the `replay` command carries after the path (e.g. ` --parallel fifo`):
    /// the options that differ from the scenario file's. Empty when the file's options ran.
    pub flags: &'a str,
    /// The scenario file's text, shown folded away so a reader can replay it (may be empty).
    pub source: &'a str,
    /// The verdict on each of the scenario's expectations, one plain-text line each (e.g.
    /// `holds: always {…}`); empty when it has none or they were not checked.
    pub verdicts: &'a [String],
}

impl About<'_> {
    /// What an outcome's count counts.
    pub fn counted(&self) -> &str {
        if self.counted.is_empty() {
            "runs"
        } else {
            self.counted
        }
    }
}

/// One distinct outcome of a scenario: how many runs reached it and the first trace that did.
#[derive(Clone, Debug)]
pub struct OutcomeGroup {
    pub count: u64,
    /// How the witness was found, e.g. `seed 3`.
    pub found_by: String,
    /// A run that ends in this outcome; its `outcome` is the group's outcome.
    pub witness: Trace,
}

/// The command that replays a trace's schedule, each word quoted for a POSIX shell
/// ([`crate::escape::shell`]); a path that starts with `-` gets `./` so it is not read as an option.
pub fn replay_command(path: &str, schedule: &str) -> String {
    replay_command_with(path, "", schedule)
}

/// [`replay_command`] with `flags` (see [`About::flags`]; written by the command line, never
/// from user text) after the path.
pub fn replay_command_with(path: &str, flags: &str, schedule: &str) -> String {
    let path = if path.starts_with('-') { format!("./{path}") } else { path.to_string() };
    format!("webmcp-sim replay {}{flags} --schedule {}", crate::escape::shell(&path), quoted(schedule))
}

/// A word always single-quoted (as schedules have always been printed), the shell's way.
fn quoted(word: &str) -> String {
    let shell = crate::escape::shell(word);
    if shell == word {
        format!("'{word}'")
    } else {
        shell
    }
}

/// The outcome's console and promise lines, in order, as plain text.
pub(crate) fn outcome_lines(trace: &Trace) -> OutcomeLines {
    let o = &trace.outcome;
    OutcomeLines {
        // The text as logged, as an outcome's summary and the `logged` expectation quote it (the
        // diagram and the trace say which document logged it).
        console: o.console.iter().map(|c| c.text.clone()).collect(),
        promises: o.promises.iter().map(|p| format!("{} ({}): {}", p.promise, p.document, p.state)).collect(),
        tool_maps: o.tool_maps.iter().map(|(d, t)| format!("{d}: [{}]", t.join(", "))).collect(),
        agent: o.agent.clone(),
        uncaught: o.uncaught.iter().map(|c| format!("{}: {}", c.document, c.text)).collect(),
        findings: crate::known::grouped(crate::known::shipped(), &o.findings),
        end: o.end.clone(),
    }
}

/// An outcome as lines of plain (unescaped) text, one list per column of an outcome table.
pub(crate) struct OutcomeLines {
    pub console: Vec<String>,
    pub promises: Vec<String>,
    pub tool_maps: Vec<String>,
    pub agent: Vec<String>,
    pub uncaught: Vec<String>,
    pub findings: Vec<String>,
    pub end: String,
}
