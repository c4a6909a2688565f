//! HTML session history (<https://html.spec.whatwg.org/#session-history>): each navigable's
//! session history entries, its current session history entry, and a traversable's current
//! session history step. The algorithms that change them ("finalize a cross-document
//! navigation", "apply the history step") are the simulator's (`webmcp`); this holds the data
//! and the reads HTML defines on it ("getting all used history steps", "get the target history
//! entry", "clear the forward session history").

use url::Url;

use super::documents::DocumentState;
use super::{DocId, NavId, World};

/// HTML "session history entry", as far as the simulator keeps one: its step, its URL and its
/// document state's document.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SessionHistoryEntry {
    /// The entry's step.
    pub step: u32,
    /// The entry's URL (a traversal to an entry whose document is gone loads it again).
    pub url: Url,
    /// The entry's document state's document: None when it was never kept (replaced, or
    /// unloaded and destroyed rather than kept in the back/forward cache).
    pub document: Option<DocId>,
}

/// A navigable's session history entries and its current session history entry; for a
/// traversable, also its current session history step.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct SessionHistory {
    /// In step order.
    pub entries: Vec<SessionHistoryEntry>,
    /// The index of the navigable's current session history entry in `entries`.
    pub current: usize,
    /// A traversable's current session history step (unused for a child navigable).
    pub current_step: u32,
    /// A traversable only: a document whose entry stays in the session history was destroyed
    /// while a child navigable of it had navigated, so the entry's nested histories (HTML keeps
    /// them in the entry's document state) are not kept: "getting all used history steps"
    /// would count steps the simulator no longer has.
    pub lost_nested_history: bool,
}

impl SessionHistory {
    /// The navigable's current session history entry, if it has one.
    pub fn current_entry(&self) -> Option<&SessionHistoryEntry> {
        self.entries.get(self.current)
    }
}

impl<S: Clone> World<S> {
    /// A navigable's session history.
    pub fn session_history(&self, nav: NavId) -> &SessionHistory {
        &self.seldom.session_histories[nav.index()]
    }

    /// A navigable's session history, to change it.
    pub fn session_history_mut(&mut self, nav: NavId) -> &mut SessionHistory {
        &mut self.seldom.session_histories[nav.index()]
    }

    /// Whether an entry's document is still there to be shown again (kept, not destroyed).
    pub fn entry_document_alive(&self, entry: &SessionHistoryEntry) -> Option<DocId> {
        entry.document.filter(|d| self.doc(*d).state != DocumentState::Destroyed)
    }

    /// HTML "getting all used history steps" for `traversable`: the steps of its session
    /// history entries and, for each entry whose document is kept, of the nested histories of
    /// that document (its child navigables' entries, recursively), sorted, without repeats.
    pub fn get_all_used_history_steps(&self, traversable: NavId) -> Vec<u32> {
        let mut steps = Vec::new();
        self.collect_used_steps(traversable, &mut steps);
        steps.sort_unstable();
        steps.dedup();
        steps
    }

    fn collect_used_steps(&self, nav: NavId, steps: &mut Vec<u32>) {
        for entry in &self.session_history(nav).entries {
            steps.push(entry.step);
            if let Some(doc) = self.entry_document_alive(entry) {
                for &child in &self.nav(nav).children {
                    let child_nav = self.nav(child);
                    if child_nav.container_document == Some(doc) && !child_nav.destroyed {
                        self.collect_used_steps(child, steps);
                    }
                }
            }
        }
    }

    /// HTML "get the target history entry" given `nav` and `step`: the entry with the greatest
    /// step less than or equal to `step` (by index).
    pub fn get_the_target_history_entry(&self, nav: NavId, step: u32) -> Option<usize> {
        self.session_history(nav).entries.iter().rposition(|e| e.step <= step)
    }

    /// Makes `doc`, kept in one of `nav`'s session history entries, `nav`'s active document
    /// again and its state active (HTML "activate history entry" and "reactivate a document").
    pub fn reactivate_document(&mut self, nav: NavId, doc: DocId) {
        let previous = self.lifecycles.navigables[nav.index()].active_document.replace(doc);
        if let Some(previous) = previous {
            self.refresh_fully_active_of(previous);
        }
        // Refreshes `doc` and its descendants, then checks every cached answer.
        self.set_document_state(doc, DocumentState::Active);
    }
}
