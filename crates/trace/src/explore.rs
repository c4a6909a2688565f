//! The result of exploring a scenario's schedules: every distinct outcome, how often it was
//! reached, and its shortest witness schedule. Plain data; `merge` combines shard results.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::Outcome;

/// One distinct outcome.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct OutcomeClass {
    /// The outcome, canonical: findings without unit numbers, sorted.
    pub outcome: Outcome,
    /// One line summarizing it (console, promises, tool maps, findings), as expectations quote it.
    pub summary: String,
    /// End states (after the last choice) that had this outcome.
    pub end_states: u64,
    /// A shortest schedule (fewest choices, then least in text order among those found) that
    /// reaches it; replay it with `webmcp-sim replay`.
    pub witness: String,
    pub witness_choices: usize,
}

/// An exploration, or one shard of it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Exploration {
    pub version: u32,
    pub scenario: String,
    /// The options that decide the result (reduction, split depth, bounds).
    pub options: Vec<String>,
    /// `K/N` when this is shard K of N; `1/1` for a whole exploration.
    pub shard: String,
    /// Work items (subtrees below the split depth) explored.
    pub work_items: u64,
    /// Choice points visited and explored (what `--max-states` bounds). With reduction on, a
    /// state seen before is not explored again unless it is reached with a sleep set that leaves
    /// awake a lane asleep at every earlier visit; that visit counts again, so this can exceed the
    /// number of distinct states (`bench-explore` prints both).
    pub states: u64,
    /// Units executed from choice points.
    pub transitions: u64,
    /// True when no bound stopped any part of the search: only then can "never" be claimed.
    pub complete: bool,
    /// Which bounds stopped the search, if any.
    pub bounds_hit: Vec<String>,
    /// How the witnesses were chosen: [`WITNESSES_FEWEST`] when a breadth-first pass proved each
    /// has the fewest choices, otherwise a text saying they are only the shortest the search met
    /// (and why).
    #[serde(default = "witnesses_found")]
    pub witnesses: String,
    /// The scenario file as `explore` was given it, so that `merge` can print replay commands
    /// that run; empty when unknown (results written before it existed, or by the library).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file: String,
    /// Set when the stateless search ran (`--search stateless`): its executions; absent for the
    /// stateful search, whose reports are unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stateless: Option<Executions>,
    pub outcomes: Vec<OutcomeClass>,
}

/// What the stateless search ran: every schedule from the initial state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Executions {
    /// Schedules run from the initial state (to their end, a bound, or a sleep-set block).
    pub executions: u64,
    /// Executions that ended with every runnable lane asleep: each is equivalent to one run
    /// before, work for nothing.
    pub redundant: u64,
}

/// `Exploration::witnesses` after the breadth-first pass: every witness has the fewest choices
/// any schedule reaching its outcome has, and is the first of those in label order.
pub const WITNESSES_FEWEST: &str = "fewest choices (the first such schedule in label order)";

/// `Exploration::witnesses` when the breadth-first pass over the faithful model was too big and
/// the one over the model with inert tasks run when queued finished (docs/model.md, "Inert tasks").
pub const WITNESSES_FEWEST_INERT_FIRST: &str =
    "fewest choices among the schedules that run each inert task as soon as it heads its queue (the first such in label order)";

/// `Exploration::witnesses` without the breadth-first pass.
pub const WITNESSES_FOUND: &str = "the shortest the search met (a schedule with fewer choices may exist)";

fn witnesses_found() -> String {
    WITNESSES_FOUND.into()
}

impl Exploration {
    /// Combines shard results (or work items) into one: outcomes united, counts added, the
    /// shortest witness kept. Merging every shard of an exploration gives the whole exploration.
    pub fn merge(parts: &[Exploration]) -> Result<Exploration, String> {
        let Some(first) = parts.first() else { return Err("nothing to merge".into()) };
        let mut by_key: BTreeMap<String, OutcomeClass> = BTreeMap::new();
        let mut merged = Exploration {
            version: first.version,
            scenario: first.scenario.clone(),
            options: first.options.clone(),
            shard: "1/1".into(),
            work_items: 0,
            states: 0,
            transitions: 0,
            complete: true,
            bounds_hit: Vec::new(),
            // The parts' own when they agree (shards that each ran the breadth-first pass).
            witnesses: first.witnesses.clone(),
            // The first part's: shards explored on other machines may name the file otherwise.
            file: parts.iter().map(|p| p.file.as_str()).find(|f| !f.is_empty()).unwrap_or_default().to_string(),
            stateless: first.stateless.map(|_| Executions::default()),
            outcomes: Vec::new(),
        };
        for p in parts {
            if p.scenario != first.scenario || p.options != first.options {
                return Err(format!(
                    "cannot merge {} ({}) with {} ({}): different scenario or options",
                    p.scenario,
                    p.options.join(" "),
                    first.scenario,
                    first.options.join(" ")
                ));
            }
            merged.work_items += p.work_items;
            merged.states += p.states;
            merged.transitions += p.transitions;
            if let (Some(m), Some(e)) = (&mut merged.stateless, p.stateless) {
                m.executions += e.executions;
                m.redundant += e.redundant;
            }
            merged.complete &= p.complete;
            if p.witnesses != merged.witnesses {
                merged.witnesses = WITNESSES_FOUND.into();
            }
            for b in &p.bounds_hit {
                if !merged.bounds_hit.contains(b) {
                    merged.bounds_hit.push(b.clone());
                }
            }
            for o in &p.outcomes {
                let key = serde_json::to_string(&o.outcome).unwrap_or_default();
                match by_key.get_mut(&key) {
                    Some(existing) => {
                        existing.end_states += o.end_states;
                        if (o.witness_choices, &o.witness) < (existing.witness_choices, &existing.witness) {
                            existing.witness = o.witness.clone();
                            existing.witness_choices = o.witness_choices;
                        }
                    }
                    None => {
                        by_key.insert(key, o.clone());
                    }
                }
            }
        }
        merged.bounds_hit.sort();
        merged.outcomes = by_key.into_values().collect();
        merged.outcomes.sort_by(|a, b| (a.witness_choices, &a.witness).cmp(&(b.witness_choices, &b.witness)));
        Ok(merged)
    }

    /// `merge`, taking the parts: one part is already merged (its outcomes distinct and in
    /// witness order, as an explorer finishes them) except for the order of its bounds, so it
    /// is returned without copying its outcomes (for an exploration run as one work item).
    pub fn merge_owned(mut parts: Vec<Exploration>) -> Result<Exploration, String> {
        if parts.len() != 1 {
            return Exploration::merge(&parts);
        }
        let mut only = parts.pop().expect("one part");
        only.shard = "1/1".into();
        only.bounds_hit.sort();
        debug_assert!(
            only.outcomes
                .windows(2)
                .all(|w| (w[0].witness_choices, &w[0].witness) <= (w[1].witness_choices, &w[1].witness)),
            "a part's outcomes are in witness order"
        );
        Ok(only)
    }

    /// The text report: one block per outcome with its witness.
    pub fn render_text(&self, scenario_path: &str) -> String {
        self.render_text_with(scenario_path, "")
    }

    /// [`Exploration::render_text`] whose replay commands carry `flags` after the path
    /// (options changed on the command line, see `render::About::flags`).
    pub fn render_text_with(&self, scenario_path: &str, flags: &str) -> String {
        // Every string that can come from the scenario goes through the terminal's escaping, and
        // the replay command through the shell's.
        use crate::escape::terminal as t;
        let mut s = String::new();
        let _ = writeln!(s, "webmcp-sim exploration v{}: {}", self.version, t(&self.scenario));
        let _ = writeln!(s, "options: {}", t(&self.options.join(", ")));
        if self.shard != "1/1" {
            let _ = writeln!(s, "shard: {}", t(&self.shard));
        }
        match self.stateless {
            None => {
                let _ = writeln!(
                    s,
                    "searched: {} choice points, {} transitions, {} work items",
                    self.states, self.transitions, self.work_items
                );
            }
            Some(e) => {
                let _ = writeln!(
                    s,
                    "searched (stateless): {} executions, {} redundant (blocked by sleep sets, {:.1} %), {} choice points, {} units run",
                    e.executions,
                    e.redundant,
                    100.0 * e.redundant as f64 / e.executions.max(1) as f64,
                    self.states,
                    self.transitions
                );
            }
        }
        if self.complete && self.shard != "1/1" {
            // A shard covers its own work items only: it never speaks for the whole search.
            let (k, n) = self.shard.split_once('/').unwrap_or((&self.shard, "?"));
            let _ = writeln!(s, "complete for this shard only ({} of {}): merge the parts to decide", t(k), t(n));
        } else if self.complete {
            let _ = writeln!(s, "complete: every schedule was covered");
        } else {
            let _ = writeln!(
                s,
                "INCOMPLETE: stopped by {}; outcomes below were seen, others may exist",
                t(&self.bounds_hit.join(", "))
            );
        }
        let _ = writeln!(s, "witnesses: {}", t(&self.witnesses));
        let _ = writeln!(s, "distinct outcomes: {}", self.outcomes.len());
        for (i, o) in self.outcomes.iter().enumerate() {
            let _ = writeln!(s, "\noutcome {} ({} end states)", i + 1, o.end_states);
            let _ = writeln!(s, "  summary: {}", t(&o.summary));
            for c in &o.outcome.console {
                let _ = writeln!(s, "  console {}: {}", t(&c.document), t(&c.text));
            }
            for p in &o.outcome.promises {
                let _ = writeln!(s, "  promise {} ({}): {}", t(&p.promise), t(&p.document), t(&p.state));
            }
            for u in &o.outcome.uncaught {
                let _ = writeln!(s, "  uncaught {}: {}", t(&u.document), t(&u.text));
            }
            for line in crate::known::grouped(crate::known::shipped(), &o.outcome.findings) {
                match line.strip_prefix('#').and_then(|l| l.split_once(' ')) {
                    // A new finding: `FINDING step: message`, as before known findings were set apart.
                    Some((_, rest)) => {
                        let _ = writeln!(s, "  FINDING {}", t(rest));
                    }
                    None => {
                        let _ = writeln!(s, "  {}", t(&line));
                    }
                }
            }
            if o.outcome.end != "quiescent" {
                let _ = writeln!(s, "  end: {}", t(&o.outcome.end));
            }
            let _ = writeln!(
                s,
                "  witness ({} choices): {}",
                o.witness_choices,
                t(&crate::render::replay_command_with(scenario_path, flags, &o.witness))
            );
        }
        s
    }

    pub fn render_json(&self) -> String {
        let mut text = crate::escape::json_document(serde_json::to_string_pretty(self).unwrap_or_default());
        text.push('\n');
        text
    }
}

impl Outcome {
    /// The canonical form used to compare outcomes: findings without unit numbers, sorted.
    pub fn canonical(&self) -> Outcome {
        let mut o = self.clone();
        for f in &mut o.findings {
            f.unit = 0;
        }
        o.findings.sort_by(|a, b| {
            let from = |f: &crate::Finding| f.called_from.as_ref().map(|c| (c.algorithm.clone(), c.step.clone()));
            (&a.cite.algorithm, &a.cite.step, &a.message, from(a)).cmp(&(
                &b.cite.algorithm,
                &b.cite.step,
                &b.message,
                from(b),
            ))
        });
        o.findings.dedup();
        o
    }

    /// One line: `console=[…] promises=[…] tools=[…] uncaught=[…] pending=[…] findings=[…] end=…`.
    pub fn summary(&self) -> String {
        let console: Vec<String> = self.console.iter().map(|c| crate::one_line(&c.text)).collect();
        let promises: Vec<String> = self.promises.iter().map(|p| format!("{}:{}", p.promise, p.state)).collect();
        let tools: Vec<String> =
            self.tool_maps.iter().filter(|(_, t)| !t.is_empty()).map(|(d, t)| format!("{d}:{}", t.join("+"))).collect();
        let uncaught: Vec<String> = self.uncaught.iter().map(|u| crate::one_line(&u.text)).collect();
        let findings: Vec<String> = self.findings.iter().map(crate::Finding::at).collect();
        let mut s = format!(
            "console=[{}] promises=[{}] tools=[{}]",
            console.join(" | "),
            promises.join(", "),
            tools.join(", ")
        );
        if !uncaught.is_empty() {
            let _ = write!(s, " uncaught=[{}]", uncaught.join(" | "));
        }
        if !self.pending_executions.is_empty() {
            let pending: Vec<String> =
                self.pending_executions.iter().map(|(t, e)| format!("{t}:{}", e.join("+"))).collect();
            let _ = write!(s, " pending=[{}]", pending.join(", "));
        }
        if !findings.is_empty() {
            let _ = write!(s, " findings=[{}]", findings.join(", "));
        }
        if !self.agent.is_empty() {
            let _ = write!(s, " agent=[{}]", self.agent.join(" | "));
        }
        if !self.events.is_empty() {
            let events: Vec<String> = self.events.iter().map(|(d, e, n)| format!("{e}@{d}={n}")).collect();
            let _ = write!(s, " events=[{}]", events.join(", "));
        }
        if self.end != "quiescent" {
            let _ = write!(s, " end={}", self.end);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::{Exploration, OutcomeClass};
    use crate::{ConsoleLine, Outcome};

    fn class(witness: &str, choices: usize) -> OutcomeClass {
        let line = ConsoleLine { document: "main".into(), text: witness.into() };
        let outcome = Outcome { console: vec![line], ..Outcome::default() };
        OutcomeClass {
            outcome,
            summary: witness.into(),
            end_states: 2,
            witness: witness.into(),
            witness_choices: choices,
        }
    }

    #[test]
    fn merging_one_owned_part_is_merging_it() {
        let part = Exploration {
            version: 1,
            scenario: "s".into(),
            options: vec!["split-depth=0".into()],
            shard: "2/3".into(),
            work_items: 1,
            states: 7,
            transitions: 9,
            complete: false,
            bounds_hit: vec!["max-units (5)".into(), "max-depth (3)".into()],
            witnesses: super::WITNESSES_FOUND.into(),
            file: String::new(),
            stateless: None,
            outcomes: vec![class("el0.webmcp", 1), class("el0.timer el1.webmcp", 2)],
        };
        let merged = Exploration::merge(std::slice::from_ref(&part)).unwrap();
        assert_eq!(merged.bounds_hit, ["max-depth (3)", "max-units (5)"]);
        assert_eq!(Exploration::merge_owned(vec![part]).unwrap(), merged);
    }

    #[test]
    fn a_complete_shard_speaks_for_itself_only() {
        let mut part = Exploration {
            version: 1,
            scenario: "s".into(),
            options: Vec::new(),
            shard: "1/2".into(),
            work_items: 1,
            states: 1,
            transitions: 0,
            complete: true,
            bounds_hit: Vec::new(),
            witnesses: super::WITNESSES_FOUND.into(),
            file: String::new(),
            stateless: None,
            outcomes: vec![class("el0.webmcp", 1)],
        };
        let text = part.render_text("s.jsonc");
        assert!(text.contains("\ncomplete for this shard only (1 of 2): merge the parts to decide\n"), "{text}");
        assert!(!text.contains("every schedule was covered"), "{text}");
        part.shard = "1/1".into();
        assert!(part.render_text("s.jsonc").contains("\ncomplete: every schedule was covered\n"));
    }
}
