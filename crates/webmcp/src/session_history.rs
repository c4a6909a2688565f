//! HTML session history as the simulator keeps it (`browser::SessionHistory`): the entries a
//! navigation appends or replaces ("finalize a cross-document navigation", "apply the push/replace
//! history step"), the forward history a push clears, and the user agent's back/forward cache
//! choice when a document is left ("unload a document" 5, intendToKeepInBfcache;
//! `options.bfcache`). The traversals that read them are in `history.rs`.

use browser::{DocId, DocumentState, NavId, SessionHistoryEntry};
use scenario::{BfcachePolicy, Variant};
use smallvec::SmallVec;

use crate::kernel::Sim;
use crate::work::HistoryHandling;

const HTML: &str = "HTML";

impl Sim<'_> {
    /// Whether the run keeps session history entries: when a page can read them (a scenario
    /// with JavaScript pages: `history`) or documents are kept in them (`options.bfcache`). In
    /// any other scenario nothing reads them, and not keeping them keeps the states (and the
    /// footprints of navigations) of every existing action-language scenario as they were.
    pub(crate) fn keeps_session_history(&self) -> bool {
        !self.program.page_scripts.is_empty() || self.program.bfcache == BfcachePolicy::KeepSalvageable
    }

    /// The first document of navigable `nav` gets its entry: HTML makes a navigable with an
    /// initial about:blank entry (step 0 of a new traversable, the traversable's current step
    /// for a child navigable), which the first navigation replaces ("navigate": a navigable
    /// whose active document is initial about:blank navigates with historyHandling "replace").
    /// The simulator makes no initial about:blank document, so the first document takes the
    /// entry's place.
    pub(crate) fn append_initial_entry(&mut self, nav: NavId, doc: DocId) {
        if !self.keeps_session_history() || !self.world.session_history(nav).entries.is_empty() {
            return;
        }
        let traversable = self.world.nav(nav).traversable;
        let step = self.world.session_history(traversable).current_step;
        let url = self.world.doc_info(doc).url.clone();
        let history = self.world.session_history_mut(nav);
        history.entries.push(SessionHistoryEntry { step, url, document: Some(doc) });
        history.current = 0;
    }

    /// HTML "navigate" 12 for a navigation whose historyHandling is "auto": "replace" when the
    /// URL equals the active document's URL, else "push". (A page's navigation resolved it
    /// already, `Sim::navigate_from_script`; the user's and the action language's come here.)
    pub(crate) fn resolve_history_handling(
        &self,
        nav: NavId,
        url: &url::Url,
        handling: HistoryHandling,
    ) -> HistoryHandling {
        if handling != HistoryHandling::Auto {
            return handling;
        }
        match self.world.nav(nav).active_document {
            Some(active) if self.world.doc_info(active).url == *url => HistoryHandling::Replace,
            _ => HistoryHandling::Push,
        }
    }

    /// HTML "finalize a cross-document navigation", the session history part, before the old
    /// document is unloaded: for "push", clear the forward session history and take the step
    /// after the traversable's current one (which "apply the push/replace history step" makes
    /// current); for "replace" and "reload", the current entry's step. None when the
    /// navigable has no entry yet (its first document takes the initial entry).
    pub(crate) fn finalize_cross_document_navigation_step(
        &mut self,
        nav: NavId,
        handling: HistoryHandling,
    ) -> Option<u32> {
        if !self.keeps_session_history() || self.world.session_history(nav).entries.is_empty() {
            return None;
        }
        let traversable = self.world.nav(nav).traversable;
        if handling == HistoryHandling::Push {
            // "If entryToReplace is null, then: Clear the forward session history of traversable.
            // Set targetStep to traversable's current session history step + 1."
            self.clear_the_forward_session_history(traversable);
            let target_step = self.world.session_history(traversable).current_step + 1;
            // "Apply the push/replace history step targetStep to traversable" (its step that
            // makes targetStep the traversable's current session history step).
            self.world.session_history_mut(traversable).current_step = target_step;
            Some(target_step)
        } else {
            // "Otherwise: Replace entryToReplace with historyEntry …; set historyEntry's step to
            // entryToReplace's step." ("reload": the same entry gets the new document.)
            let history = self.world.session_history(nav);
            history.current_entry().map(|e| e.step)
        }
    }

    /// The rest of "finalize a cross-document navigation" once the new document exists: the
    /// new entry is appended at `step` ("push") or replaces the current entry ("replace",
    /// "reload"), and is the navigable's current session history entry.
    pub(crate) fn record_navigation_entry(&mut self, nav: NavId, doc: DocId, step: u32, handling: HistoryHandling) {
        let url = self.world.doc_info(doc).url.clone();
        let entry = SessionHistoryEntry { step, url, document: Some(doc) };
        let history = self.world.session_history_mut(nav);
        if handling == HistoryHandling::Push {
            history.entries.push(entry);
            history.current = history.entries.len() - 1;
        } else if let Some(current) = history.entries.get_mut(history.current) {
            *current = entry;
        }
        note!(
            self,
            (HTML, "finalize a cross-document navigation"),
            "session history of {}: {} entry at step {step} ({})",
            self.world.nav(nav).name,
            if handling == HistoryHandling::Push { "a new" } else { "the replaced" },
            self.label(doc)
        );
    }

    /// HTML "clear the forward session history" of `traversable`: every entry (nested histories
    /// included) whose step is after the current session history step is removed; a document
    /// kept in a removed entry can never be shown again and is destroyed (the user agent's
    /// eviction; HTML leaves the document to be collected).
    pub(crate) fn clear_the_forward_session_history(&mut self, traversable: NavId) {
        let step = self.world.session_history(traversable).current_step;
        self.clear_forward_entries(traversable, step);
    }

    fn clear_forward_entries(&mut self, nav: NavId, step: u32) {
        let history = self.world.session_history(nav);
        if history.entries.iter().any(|e| e.step > step) {
            let removed: Vec<SessionHistoryEntry> = history.entries.iter().filter(|e| e.step > step).cloned().collect();
            self.world.session_history_mut(nav).entries.retain(|e| e.step <= step);
            for entry in removed {
                if let Some(doc) = self.world.entry_document_alive(&entry) {
                    if self.world.nav(nav).active_document != Some(doc) {
                        note!(
                            self,
                            (HTML, "clear the forward session history"),
                            "{}'s entry is removed: the document kept in it is destroyed",
                            self.label(doc)
                        );
                        self.destroy_a_document_and_its_descendants(doc);
                    }
                }
            }
        }
        // "For each entry of entryList: extend entryLists with entry's document state's nested histories."
        let kept: Vec<DocId> =
            self.world.session_history(nav).entries.iter().filter_map(|e| self.world.entry_document_alive(e)).collect();
        for doc in kept {
            let children: SmallVec<[NavId; 4]> = self.world.document_child_navigables(doc).collect();
            for child in children {
                self.clear_forward_entries(child, step);
            }
        }
    }

    /// HTML "unload a document" 5: intendToKeepInBfcache, the user agent's choice, for a
    /// document a navigation or a traversal leaves while its entry stays. "This must be false
    /// if oldDocument is not salvageable": nothing the simulator models makes a document
    /// unsalvageable, so it is `options.bfcache`.
    pub(crate) fn intend_to_keep_in_bfcache(&self) -> bool {
        self.program.bfcache == BfcachePolicy::KeepSalvageable
    }

    /// A document left by a navigation ("push") or a traversal while its session history entry
    /// stays: HTML "unload a document and its descendants" with intendToKeepInBfcache `keep`.
    /// Kept: unloaded as salvageable (its unloading document cleanup steps run, unless the
    /// variant `bfcache-keeps-executions`) and left in its entry, not fully active. Not kept:
    /// unloaded and destroyed, and its entry's document is null (a traversal back loads the
    /// entry's URL again).
    pub(crate) fn leave_document(&mut self, nav: NavId, doc: DocId, keep: bool) {
        if keep {
            interpretation!(
                self,
                (HTML, "unload a document 5"),
                "intendToKeepInBfcache is true (options.bfcache \"keep-salvageable\"): {} is kept in its session history entry",
                self.label(doc)
            );
            self.unload_into_bfcache(doc);
            return;
        }
        // The entry's nested histories live in the document's child navigables: a child that
        // navigated holds steps HTML would keep in the entry's document state.
        let lost = self.keeps_session_history() && self.has_navigated_descendant(doc);
        self.unload_a_document_and_its_descendants(doc, false);
        if self.keeps_session_history() {
            let traversable = self.world.nav(nav).traversable;
            let history = self.world.session_history_mut(nav);
            for entry in history.entries.iter_mut().filter(|e| e.document == Some(doc)) {
                entry.document = None;
            }
            if lost {
                self.world.session_history_mut(traversable).lost_nested_history = true;
            }
        }
    }

    /// Whether a navigable below `doc` has more than one session history entry.
    fn has_navigated_descendant(&self, doc: DocId) -> bool {
        self.world.document_child_navigables(doc).any(|child| {
            self.world.session_history(child).entries.len() > 1
                || self.world.nav(child).active_document.is_some_and(|d| self.has_navigated_descendant(d))
        })
    }

    /// HTML "unload a document and its descendants" of `doc` with every document salvageable
    /// and kept: each runs the unloading document cleanup steps ("unload a document" 18) and
    /// none is destroyed (20); `doc` is then in the back/forward cache (not fully active). The
    /// variant `bfcache-keeps-executions` runs no cleanup steps (docs/findings.md 11).
    pub(crate) fn unload_into_bfcache(&mut self, doc: DocId) {
        if self.program.has_variant(Variant::BfcacheKeepsExecutions) {
            note!(
                self,
                (HTML, "unload a document"),
                "variant bfcache-keeps-executions (finding 11): {} and its descendants are not unloaded: no cleanup steps run",
                self.label(doc)
            );
        } else {
            self.unload_a_document_and_its_descendants(doc, true);
        }
        self.touch_lifecycle(doc);
        self.world.set_document_state(doc, DocumentState::Bfcached);
    }
}
