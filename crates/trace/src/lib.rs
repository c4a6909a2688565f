//! Trace events with spec citations, the outcome of a run, and their text and JSON renderers.
//!
//! Plain data: the engine fills a `Trace`; renderers only read it. Every event names the spec
//! algorithm and step that caused it. Format version 1.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

pub mod escape;
pub mod explore;
pub mod flow;
pub mod html;
pub mod known;
pub mod markdown;
pub mod mermaid;
pub mod perfetto;
pub mod render;
pub mod svg;

pub use explore::{
    Executions, Exploration, OutcomeClass, WITNESSES_FEWEST, WITNESSES_FEWEST_INERT_FIRST, WITNESSES_FOUND,
};

#[cfg(test)]
mod testdata;
#[cfg(test)]
mod tests;

/// The trace format version.
pub const VERSION: u32 = 1;

/// A spec algorithm and step, e.g. `executeTool 15.13` or `notify documents of a tool change 3.3`.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Cite {
    pub algorithm: String,
    pub step: String,
}

impl Cite {
    pub fn new(algorithm: &str, step: &str) -> Cite {
        Cite { algorithm: algorithm.to_string(), step: step.to_string() }
    }
}

impl std::fmt::Display for Cite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.step.is_empty() {
            f.write_str(&self.algorithm)
        } else {
            write!(f, "{} {}", self.algorithm, self.step)
        }
    }
}

/// What happened inside a unit.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum EventKind {
    /// A task was queued on a lane (event loop + task source), for a document.
    Queued { lane: String, document: Option<String> },
    /// An in-parallel block, or steps on a parallel queue, was started.
    InParallel { lane: String },
    /// A microtask (promise reaction) ran.
    Microtask,
    /// `console.log` or a console warning.
    Console { document: String, text: String },
    /// A promise settled.
    Settled { promise: String, state: String },
    /// Resolve or reject of an already settled promise: the spec's no-op.
    SettleNoOp { promise: String, attempted: String },
    /// An event was fired.
    Fired { event: String, target: String, handled: bool },
    /// An uncaught exception in a script.
    Uncaught { document: String, error: String },
    /// A spec `Assert:` failed: a finding about the spec, not a simulator bug.
    AssertFailed { message: String },
    /// Where the spec is silent or contradicts itself and the simulator chose; see docs/model.md.
    Interpretation { message: String },
    /// Anything else worth a line: a branch taken, a value computed.
    Note { message: String },
}

/// One event, with the step that caused it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Event {
    pub cite: Cite,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// One executed unit: a task (with its microtask checkpoint), an in-parallel block, an agent or
/// user step, or a time advance.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Unit {
    pub index: usize,
    /// Virtual time in ms when the unit ran.
    pub time: u64,
    pub lane: String,
    /// The runnable lanes the scheduler chose among (empty when there was no choice).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choice_among: Vec<String>,
    pub document: Option<String>,
    /// What ran, in a few words.
    pub what: String,
    pub cite: Cite,
    pub events: Vec<Event>,
}

/// One line of the legend: what an event loop is.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct LoopLegend {
    pub label: String,
    pub agent_cluster: String,
    pub documents: Vec<String>,
}

/// One document, for the legend.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct DocumentLegend {
    pub label: String,
    pub url: String,
    pub origin: String,
    pub event_loop: String,
    pub secure_context: bool,
    pub tools_allowed: bool,
}

/// A console line, in the order logged.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct ConsoleLine {
    pub document: String,
    pub text: String,
}

/// A promise's final state.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct PromiseOutcome {
    pub promise: String,
    pub document: String,
    /// `pending`, `fulfilled(<value>)` or `rejected(<error>)`.
    pub state: String,
}

/// A spec-level finding (a failed `Assert:`), kept apart from simulator errors.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Finding {
    pub unit: usize,
    pub cite: Cite,
    pub message: String,
    /// The call site: the algorithm step that invoked the algorithm whose assert failed (the
    /// step that queued its task, started its in-parallel block, or called it), when there is
    /// one (a leak found at quiescence has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub called_from: Option<Cite>,
}

impl Finding {
    /// Where the finding is: `executeTool 15.10.1`, or with its call site
    /// `executeTool 15.10.1 from imperative execute steps 9.1.4`.
    pub fn at(&self) -> String {
        match &self.called_from {
            Some(from) => format!("{} from {from}", self.cite),
            None => self.cite.to_string(),
        }
    }
}

/// The observable result of a run.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
pub struct Outcome {
    pub console: Vec<ConsoleLine>,
    pub promises: Vec<PromiseOutcome>,
    /// Each document's tool map at the end: `document: [tool names]`.
    pub tool_maps: Vec<(String, Vec<String>)>,
    pub uncaught: Vec<ConsoleLine>,
    pub findings: Vec<Finding>,
    /// What the browser's agent saw and received, in order: each observation's tool lists
    /// (`observation of tab: tab=[search]; frame=[]`) and each tool call's result.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agent: Vec<String>,
    /// How many times each event a `count` expectation names fired at each document:
    /// `(document, event, times)`; other events are not counted (docs/model.md).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<(String, String, u32)>,
    /// What each traversable's pending tool executions map still holds at the end (traversables
    /// whose map is empty left out): `traversable: [uuid tool of target for caller]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_executions: Vec<(String, Vec<String>)>,
    /// Why the run stopped: `quiescent`, or what is still waiting (e.g. tasks of a bfcached document).
    pub end: String,
}

/// A whole run.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Trace {
    pub version: u32,
    pub scenario: String,
    pub options: Vec<String>,
    pub spec_revision: String,
    pub documents: Vec<DocumentLegend>,
    pub event_loops: Vec<LoopLegend>,
    pub units: Vec<Unit>,
    /// The choices of this run, for `webmcp-sim replay --schedule`.
    pub schedule: String,
    pub outcome: Outcome,
}

impl Trace {
    /// The number of choices the run made (units run with a choice among two or more lanes).
    pub fn schedule_len(&self) -> usize {
        self.units.iter().filter(|u| !u.choice_among.is_empty()).count()
    }

    /// The number of distinct lanes that ran a unit.
    pub fn lanes_seen(&self) -> usize {
        self.units.iter().map(|u| u.lane.as_str()).collect::<std::collections::BTreeSet<_>>().len()
    }

    /// The text trace: header, one line per unit with its events indented below, the outcome,
    /// and the schedule.
    pub fn render_text(&self) -> String {
        // Every string that can come from the scenario goes through the terminal's escaping.
        use crate::escape::terminal as t;
        let mut s = String::new();
        let _ = writeln!(s, "webmcp-sim trace v{}: {}", self.version, t(&self.scenario));
        if !self.options.is_empty() {
            let _ = writeln!(s, "options: {}", t(&self.options.join(", ")));
        }
        let _ = writeln!(s, "spec: {}", t(&self.spec_revision));
        let _ = writeln!(s, "documents:");
        for d in &self.documents {
            let _ = writeln!(
                s,
                "  {:<10} {} origin={} loop={}{}{}",
                t(&d.label),
                t(&d.url),
                t(&d.origin),
                t(&d.event_loop),
                if d.secure_context { "" } else { " not-secure-context" },
                if d.tools_allowed { "" } else { " tools-not-allowed" },
            );
        }
        let _ = writeln!(s, "event loops:");
        for l in &self.event_loops {
            let _ = writeln!(s, "  {:<4} {} [{}]", t(&l.label), t(&l.agent_cluster), t(&l.documents.join(", ")));
        }
        let _ = writeln!(s, "trace:");
        let lane_width = self.units.iter().map(|u| t(&u.lane).len()).max().unwrap_or(4);
        let doc_width = self.units.iter().map(|u| u.document.as_deref().map_or(1, |d| t(d).len())).max().unwrap_or(1);
        for u in &self.units {
            if !u.choice_among.is_empty() {
                let _ = writeln!(s, "  ? {}", t(&u.choice_among.join(" | ")));
            }
            let _ = writeln!(
                s,
                "#{:03} t={:<3} {:<lane_width$} {:<doc_width$}  {}  [{}]",
                u.index,
                u.time,
                t(&u.lane),
                t(u.document.as_deref().unwrap_or("-")),
                t(&u.what),
                t(&u.cite.to_string()),
            );
            for e in &u.events {
                let _ = writeln!(s, "       {}  [{}]", t(&render_event(&e.kind, &e.cite)), t(&e.cite.to_string()));
            }
        }
        let _ = writeln!(s, "outcome:");
        let _ = writeln!(s, "  console:");
        for c in &self.outcome.console {
            let _ = writeln!(s, "    {}: {}", t(&c.document), t(&c.text));
        }
        if !self.outcome.uncaught.is_empty() {
            let _ = writeln!(s, "  uncaught:");
            for c in &self.outcome.uncaught {
                let _ = writeln!(s, "    {}: {}", t(&c.document), t(&c.text));
            }
        }
        let _ = writeln!(s, "  promises:");
        for p in &self.outcome.promises {
            let _ = writeln!(s, "    {} ({}): {}", t(&p.promise), t(&p.document), t(&p.state));
        }
        let _ = writeln!(s, "  tool maps:");
        for (doc, tools) in &self.outcome.tool_maps {
            let _ = writeln!(s, "    {}: [{}]", t(doc), t(&tools.join(", ")));
        }
        if !self.outcome.pending_executions.is_empty() {
            let _ = writeln!(s, "  pending tool executions maps:");
            for (traversable, entries) in &self.outcome.pending_executions {
                let _ = writeln!(s, "    {}: [{}]", traversable, entries.join(", "));
            }
        }
        if !self.outcome.agent.is_empty() {
            let _ = writeln!(s, "  agent:");
            for a in &self.outcome.agent {
                let _ = writeln!(s, "    {}", t(a));
            }
        }
        if !self.outcome.events.is_empty() {
            let _ = writeln!(s, "  events fired (counted):");
            for (doc, event, n) in &self.outcome.events {
                let _ = writeln!(s, "    {} at {}: {n}", t(event), t(doc));
            }
        }
        if !self.outcome.findings.is_empty() {
            let _ = writeln!(s, "  findings (spec asserts that failed):");
            for line in known::grouped(known::shipped(), &self.outcome.findings) {
                let _ = writeln!(s, "    {}", t(&line));
            }
        }
        let _ = writeln!(s, "  end: {}", t(&self.outcome.end));
        let _ = writeln!(s, "schedule: {}", t(&self.schedule));
        s
    }

    /// The JSON trace (pretty, stable key order).
    pub fn render_json(&self) -> String {
        let mut text = escape::json_document(serde_json::to_string_pretty(self).unwrap_or_default());
        text.push('\n');
        text
    }
}

/// Keeps a scenario's string on one line of the text trace: [`escape::terminal`] (`\n` →
/// `\\n`, other control and bidirectional formatting characters as `\u{…}`).
pub fn one_line(s: &str) -> String {
    escape::terminal(s)
}

fn render_event(kind: &EventKind, cite: &Cite) -> String {
    match kind {
        EventKind::Queued { lane, document } => match document {
            Some(d) => format!("queue task on {lane} for {d}"),
            None => format!("queue task on {lane}"),
        },
        EventKind::InParallel { lane } => format!("start in parallel: {lane}"),
        EventKind::Microtask => "microtask".to_string(),
        EventKind::Console { document, text } => format!("console.log({document}): {}", one_line(text)),
        EventKind::Settled { promise, state } => format!("promise {promise} {state}"),
        EventKind::SettleNoOp { promise, attempted } => {
            format!("promise {promise} is already settled, so this attempt to settle it {attempted} is a no-op")
        }
        EventKind::Fired { event, target, handled } => {
            format!("fire {event} at {target}{}", if *handled { "" } else { " (no handler)" })
        }
        EventKind::Uncaught { document, error } => format!("uncaught exception in {document}: {}", one_line(error)),
        // A finding docs/findings.md documents says which one (`known::shipped`).
        EventKind::AssertFailed { message } => match known::shipped().id_at(&cite.to_string(), message) {
            Some(id) => format!("known (finding {id}): assert failed: {message}"),
            None => format!("FINDING: assert failed: {message}"),
        },
        EventKind::Interpretation { message } => format!("interpretation: {message} (docs/model.md)"),
        EventKind::Note { message } => message.clone(),
    }
}
