//! Expectations (`always` / `never` / `sometimes` / exact `outcomes`) checked against an
//! exploration. A violation names the outcome and its witness schedule; a partial search never
//! confirms an `always`, a `never` or a missing outcome.

use scenario::{Expect, FindingIs, Predicate, PromiseState};
use trace::{Exploration, Outcome, OutcomeClass};

/// The verdict on one expectation.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Status {
    Holds,
    /// The expectation fails; `witness` replays an outcome that shows it (empty when the failure
    /// is that something never happens).
    Violated {
        reason: String,
        witness: String,
    },
    /// The search was incomplete and found no violation: nothing can be claimed.
    Unknown,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Verdict {
    /// The expectation as written, e.g. `always {"before":["A","B"]}`.
    pub expectation: String,
    pub status: Status,
}

#[cfg(test)]
mod tests;

/// Does `predicate` hold in `outcome`?
pub fn holds(predicate: &Predicate, outcome: &Outcome) -> bool {
    let first = |line: &str| outcome.console.iter().position(|c| c.text == line);
    match predicate {
        Predicate::Logged(line) => first(line).is_some(),
        Predicate::Before(lines) => match (lines.first().and_then(|a| first(a)), lines.get(1).and_then(|b| first(b))) {
            (Some(a), Some(b)) => a < b,
            _ => false,
        },
        Predicate::Promise(p) => outcome.promises.iter().any(|o| {
            o.promise == p.name
                && match p.is {
                    PromiseState::Pending => o.state == "pending",
                    PromiseState::Fulfilled => o
                        .state
                        .strip_prefix("fulfilled(")
                        .and_then(|v| v.strip_suffix(')'))
                        .is_some_and(|v| p.with.as_ref().is_none_or(|w| settled_with(w, v, false))),
                    PromiseState::Rejected => o
                        .state
                        .strip_prefix("rejected(")
                        .and_then(|v| v.strip_suffix(')'))
                        .is_some_and(|v| p.with.as_ref().is_none_or(|w| settled_with(w, v, true))),
                }
        }),
        Predicate::ToolRegistered(t) => {
            outcome.tool_maps.iter().any(|(doc, tools)| *doc == t.document && tools.contains(&t.tool))
        }
        Predicate::Finding(FindingIs::Text(text)) => {
            outcome.findings.iter().any(|f| format!("{}: {}", f.cite, f.message).contains(text.as_str()))
        }
        Predicate::Finding(FindingIs::At(at)) => outcome.findings.iter().any(|f| {
            at.at.as_ref().is_none_or(|a| f.cite.to_string() == *a)
                && at.from.as_ref().is_none_or(|from| f.called_from.as_ref().is_some_and(|c| c.to_string() == *from))
        }),
        Predicate::Agent(text) => outcome.agent.iter().any(|a| a == text),
        Predicate::Count(c) => {
            let by = |document: &str| match &c.document {
                None => true,
                // `tab` counts `tab` and `tab@1`; `tab@1` counts only itself.
                Some(d) => {
                    document == d || (!d.contains('@') && document.split_once('@').is_some_and(|(id, _)| id == d))
                }
            };
            let times = match (&c.logged, &c.event) {
                (Some(line), _) => outcome.console.iter().filter(|l| l.text == *line && by(&l.document)).count(),
                // The outcome counts only the events some `count` names (docs/model.md).
                (None, Some(event)) => {
                    outcome.events.iter().filter(|(d, e, _)| e == event && by(d)).map(|(_, _, n)| *n as usize).sum()
                }
                (None, None) => return false,
            };
            times == c.times as usize
        }
        Predicate::Uncaught(text) => outcome.uncaught.iter().any(|u| u.text.contains(text.as_str())),
        Predicate::Not(inner) => !holds(inner, outcome),
        Predicate::AllOf(list) => list.iter().all(|p| holds(p, outcome)),
        Predicate::AnyOf(list) => list.iter().any(|p| holds(p, outcome)),
    }
}

/// Does a promise's settlement value, as the outcome renders it, match `with`? A rejection with a
/// `DOMException` or `Error` renders as its bare name and matches that name as a string; any other
/// value matches the JavaScript value `with` writes in JSON (so `"with": "\"ok\""` is the string
/// `"ok"` with its quotes, escaped once).
fn settled_with(with: &serde_json::Value, rendered: &str, rejected: bool) -> bool {
    let error_name = rendered.ends_with("Error") && rendered.chars().all(|c| c.is_ascii_alphanumeric());
    if rejected && error_name && with.as_str() == Some(rendered) {
        return true;
    }
    browser::JsValue::from_json_text(with).is_ok_and(|v| v.to_string() == rendered)
}

fn text(predicate: &Predicate) -> String {
    serde_json::to_string(predicate).unwrap_or_default()
}

fn violated(reason: String, class: Option<&OutcomeClass>) -> Status {
    Status::Violated { reason, witness: class.map(|c| c.witness.clone()).unwrap_or_default() }
}

/// Checks every expectation of `expect` against `ex`.
pub fn check(expect: &Expect, ex: &Exploration) -> Vec<Verdict> {
    let mut verdicts = Vec::new();
    let outcomes = &ex.outcomes;
    for p in &expect.always {
        let status = match outcomes.iter().find(|c| !holds(p, &c.outcome)) {
            Some(c) => violated(format!("an outcome where it does not hold: {}", c.summary), Some(c)),
            None if ex.complete => Status::Holds,
            None => Status::Unknown,
        };
        verdicts.push(Verdict { expectation: format!("always {}", text(p)), status });
    }
    for p in &expect.never {
        let status = match outcomes.iter().find(|c| holds(p, &c.outcome)) {
            Some(c) => violated(format!("an outcome where it holds: {}", c.summary), Some(c)),
            None if ex.complete => Status::Holds,
            None => Status::Unknown,
        };
        verdicts.push(Verdict { expectation: format!("never {}", text(p)), status });
    }
    for p in &expect.sometimes {
        let status = match outcomes.iter().find(|c| holds(p, &c.outcome)) {
            Some(_) => Status::Holds,
            None if ex.complete => violated("no schedule reaches an outcome where it holds".into(), None),
            None => Status::Unknown,
        };
        verdicts.push(Verdict { expectation: format!("sometimes {}", text(p)), status });
    }
    if let Some(expected) = &expect.outcomes {
        let extra = outcomes.iter().find(|c| !expected.contains(&c.summary));
        let missing = expected.iter().find(|e| !outcomes.iter().any(|c| &c.summary == *e));
        let status = match (extra, missing) {
            (Some(c), _) => violated(format!("an outcome not in the expected set: {}", c.summary), Some(c)),
            (None, Some(m)) if ex.complete => violated(format!("an expected outcome no schedule reaches: {m}"), None),
            (None, Some(_)) => Status::Unknown,
            (None, None) if ex.complete => Status::Holds,
            (None, None) => Status::Unknown,
        };
        verdicts.push(Verdict { expectation: format!("exactly {} outcome(s)", expected.len()), status });
    }
    verdicts
}
