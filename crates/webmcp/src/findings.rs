//! Findings: the failed spec asserts a run records, kept as a list that copies of the state
//! share, with the set digest that fingerprints compare.

use std::hash::{Hash, Hasher};
use std::rc::Rc;

use trace::Finding;

use crate::cite::{cite, Step};

/// The findings recorded so far, newest first, as a list whose nodes copies of the state share:
/// recording one adds a node and copies nothing (a copy of the state keeps the findings it had
/// when copied). Made into the outcome's findings, oldest first, only when a run ends.
///
/// `Sim::fingerprint` hashes them as a set of citations, messages and call sites (not the units
/// they came from, their order, nor how many times each was recorded), as outcomes compare them
/// (`trace::Outcome::canonical` sorts and deduplicates them): the number of distinct ones, and
/// their digests' sum and rotated xor, kept as each is recorded so that a fingerprint never
/// rehashes their text. Two units that commute may each record a finding (a null node navigable
/// read in parallel, a failed assert), and the two orders then reach states that differ only in
/// the order of the log; its order is not observable in an outcome and decides nothing later, so
/// the states are one. Likewise two states whose logs differ only in how often a finding was
/// recorded (issue 30: four calls whose completion steps each fail executeTool 15.10.1, some
/// cancelled before they started): no step reads the log, findings are only ever added, and the
/// outcome keeps each once, so every run from either state ends in the same outcome as the same
/// run from the other.
#[derive(Clone, Default, Debug)]
pub(crate) struct Findings {
    pub(crate) len: usize,
    /// The digests of the distinct findings recorded so far.
    distinct: Rc<std::collections::BTreeSet<u64>>,
    digest: (u64, u64),
    newest: Option<Rc<FindingNode>>,
    /// The messages made by `message` so far (see there).
    messages: Messages,
    /// Keep only the first of equal findings (`Findings::drop_repeats`): while exploring, where
    /// an outcome keeps each finding once anyway.
    only_first: bool,
}

/// Messages of failed asserts by key, made once per run and shared by every copy of the state
/// (`Findings::message`), each with the digests `Findings::push` made of findings that carry it
/// (by step and call site).
type Messages = Rc<std::cell::RefCell<Vec<Message>>>;

/// A message `Findings::message` made, and the digests of the findings recorded with it.
#[derive(Debug)]
struct Message {
    key: (&'static str, &'static str),
    text: Rc<str>,
    digests: Vec<(Step, Option<Step>, u64)>,
}

#[derive(Debug)]
struct FindingNode {
    finding: Recorded,
    older: Option<Rc<FindingNode>>,
}

/// A failed spec assert as recorded: its step, message and call site (`trace::Finding` once
/// the outcome is made).
#[derive(Debug)]
pub(crate) struct Recorded {
    pub(crate) unit: usize,
    pub(crate) step: Step,
    /// Shared: the same assert failing again (in another unit or another state) can record the
    /// same text, made once (`Findings::message`, which `Sim::node_navigables_traversable` uses).
    pub(crate) message: Rc<str>,
    pub(crate) called_from: Option<Step>,
}

impl Findings {
    /// The message whose text `make` makes from `key` alone, made once per run: not state (it
    /// follows from its key), so every copy of the state shares one list. After an iframe
    /// removal, every step that reads the removed document's node navigable fails the same
    /// assert again, and formatting its text each time cost 2 % of exploring
    /// four-calls-unload.
    pub(crate) fn message(&self, key: (&'static str, &'static str), make: impl FnOnce() -> String) -> Rc<str> {
        let mut messages = self.messages.borrow_mut();
        if let Some(message) = messages.iter().find(|m| m.key == key) {
            return message.text.clone();
        }
        let text: Rc<str> = make().into();
        messages.push(Message { key, text: text.clone(), digests: Vec::new() });
        text
    }

    /// One finding's digest (XXH3, as the state's parts: the same on every run and platform).
    /// A finding whose message `message` made has its digest made once per step and call site:
    /// the same assert failing again in state after state (601,863 times on four-calls-unload)
    /// digested its text each time, 1 % of the search's instructions.
    fn digest(&self, finding: &Recorded) -> u64 {
        let made = || browser::digest128(&(finding.step, &finding.message, finding.called_from)) as u64;
        let mut messages = self.messages.borrow_mut();
        let Some(message) = messages.iter_mut().find(|m| Rc::ptr_eq(&m.text, &finding.message)) else {
            return made();
        };
        let site = (finding.step, finding.called_from);
        if let Some(&(_, _, h)) = message.digests.iter().find(|(step, from, _)| (*step, *from) == site) {
            return h;
        }
        let h = made();
        message.digests.push((site.0, site.1, h));
        h
    }

    /// From now on, a finding equal to one recorded before is not kept (nor counted in `len`):
    /// for runs whose findings become an outcome only through `trace::Outcome::canonical`, which
    /// keeps each finding once without its unit (the search's runs, which record no trace).
    /// After an iframe removal the same assert fails in state after state (601,863 times on
    /// four-calls-unload), and each repeat cost a node to make and to drop.
    pub(crate) fn drop_repeats(&mut self) {
        self.only_first = true;
    }

    pub(crate) fn push(&mut self, finding: Recorded) {
        // Digests combined by addition and xor, which do not depend on the order.
        let h = self.digest(&finding);
        if !self.distinct.contains(&h) {
            self.digest = (self.digest.0.wrapping_add(h), self.digest.1 ^ h.rotate_left(17));
            // Copied only when a copy of the state shares it (a run records few distinct ones).
            Rc::make_mut(&mut self.distinct).insert(h);
        } else if self.only_first {
            return;
        }
        self.len += 1;
        self.newest = Some(Rc::new(FindingNode { finding, older: self.newest.take() }));
    }

    /// The findings in the order they were recorded.
    pub(crate) fn to_vec(&self) -> Vec<Finding> {
        let mut out = Vec::with_capacity(self.len);
        let mut node = self.newest.as_deref();
        while let Some(n) = node {
            let r = &n.finding;
            out.push(Finding {
                unit: r.unit,
                cite: cite(r.step),
                message: r.message.to_string(),
                called_from: r.called_from.map(cite),
            });
            node = n.older.as_deref();
        }
        out.reverse();
        out
    }
}

impl Drop for FindingNode {
    /// Unlinks the older nodes this one alone holds one by one, so dropping a long list never
    /// recurses once per node.
    fn drop(&mut self) {
        let mut older = self.older.take();
        while let Some(node) = older {
            older = match Rc::try_unwrap(node) {
                Ok(mut n) => n.older.take(),
                Err(_) => None,
            };
        }
    }
}

impl Hash for Findings {
    /// The set digest (see `Findings`).
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.distinct.len());
        if self.distinct.is_empty() {
            return;
        }
        state.write_u64(self.digest.0);
        state.write_u64(self.digest.1);
    }
}

#[cfg(test)]
mod tests;
