//! Known findings: the findings docs/findings.md documents, as a list that a failed spec assert
//! is matched against, so that every output marks one already reported ("known (finding N)"),
//! groups its calls once per outcome, and `check` and `fuzz` count only new ones.

use std::fmt::Write as _;
use std::sync::LazyLock;

use crate::Finding;

#[cfg(test)]
mod tests;

/// The list that ships with the simulator (docs/known-findings.txt).
pub const SHIPPED_TEXT: &str = include_str!("../../../docs/known-findings.txt");

/// A list of known findings: each rule names a finding of docs/findings.md, the step its assert
/// is at, and text its message contains (empty: any).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Known {
    rules: Vec<(u32, String, String)>,
}

impl Known {
    /// Reads a list: one `ID | STEP | TEXT` line per rule; `#` starts a comment line. An error
    /// names the line.
    pub fn parse(text: &str) -> Result<Known, String> {
        let mut rules = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parts: Vec<&str> = line.split('|').map(str::trim).collect();
            let bad = || {
                format!(
                    "line {}: write `ID | STEP | TEXT` (TEXT may be empty), e.g. `1 | executeTool 15.10.1 |`",
                    n + 1
                )
            };
            let [id, step, contains] = parts[..] else { return Err(bad()) };
            let id: u32 = id.parse().map_err(|_| bad())?;
            if step.is_empty() {
                return Err(bad());
            }
            rules.push((id, step.to_string(), contains.to_string()));
        }
        Ok(Known { rules })
    }

    /// The finding `f` is, when the list knows it.
    pub fn id_of(&self, f: &Finding) -> Option<u32> {
        self.id_at(&f.cite.to_string(), &f.message)
    }

    /// The finding a failed assert at `step` with `message` is, when the list knows it.
    pub fn id_at(&self, step: &str, message: &str) -> Option<u32> {
        self.rules.iter().find(|(_, s, c)| s == step && message.contains(c.as_str())).map(|(id, _, _)| *id)
    }

    /// The findings of `findings` no rule matches.
    pub fn new_findings<'a>(&self, findings: &'a [Finding]) -> Vec<&'a Finding> {
        findings.iter().filter(|f| self.id_of(f).is_none()).collect()
    }
}

/// The shipped list, read once.
pub fn shipped() -> &'static Known {
    static SHIPPED: LazyLock<Known> =
        LazyLock::new(|| Known::parse(SHIPPED_TEXT).expect("docs/known-findings.txt is a valid list"));
    &SHIPPED
}

/// A known finding at one step, `(id, step)`, and its call sites in order with their counts.
type Group = ((u32, String), Vec<(String, usize)>);

/// An outcome's findings as lines, known ones grouped once per finding and step with each call
/// site (`known (finding 1): executeTool 15.10.1, from imperative execute steps 9.1.5 (2×)`),
/// then each new one as `#unit step from call site: message`.
pub fn grouped(known: &Known, findings: &[Finding]) -> Vec<String> {
    let mut groups: Vec<Group> = Vec::new();
    let mut new = Vec::new();
    for f in findings {
        match known.id_of(f) {
            Some(id) => {
                let key = (id, f.cite.to_string());
                let site = f.called_from.as_ref().map(|c| format!("from {c}")).unwrap_or_default();
                let at = match groups.iter().position(|(k, _)| *k == key) {
                    Some(i) => i,
                    None => {
                        groups.push((key, Vec::new()));
                        groups.len() - 1
                    }
                };
                let sites = &mut groups[at].1;
                match sites.iter_mut().find(|(s, _)| *s == site) {
                    Some((_, n)) => *n += 1,
                    None => sites.push((site, 1)),
                }
            }
            None => new.push(format!("#{:03} {}: {}", f.unit, f.at(), f.message)),
        }
    }
    let mut lines: Vec<String> = groups
        .into_iter()
        .map(|((id, step), sites)| {
            let mut line = format!("known (finding {id}): {step}");
            let sites: Vec<String> = sites
                .into_iter()
                .map(|(s, n)| match (s.is_empty(), n) {
                    (true, 1) => String::new(),
                    (true, n) => format!("{n}×"),
                    (false, 1) => s,
                    (false, n) => format!("{s} ({n}×)"),
                })
                .filter(|s| !s.is_empty())
                .collect();
            if !sites.is_empty() {
                let _ = write!(line, ", {}", sites.join("; "));
            }
            line
        })
        .collect();
    lines.extend(new);
    lines
}
