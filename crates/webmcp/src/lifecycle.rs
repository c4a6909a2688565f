//! Document lifecycle: navigation, iframe removal, and the back/forward cache, with HTML's
//! "unload a document" running this spec's unloading document cleanup steps.

use browser::{DocId, DocumentState, NavId};
use smallvec::SmallVec;

use crate::footprint::Resource;
use crate::kernel::{RunError, Sim};
use crate::program::{DocSpec, NavigateSpec};
use crate::work::HistoryHandling;

const HTML: &str = "HTML";

impl Sim<'_> {
    /// Navigates a navigable to a new document: the old document and its descendants are unloaded
    /// (and destroyed, unless the user agent keeps it in the back/forward cache: `options.bfcache`),
    /// the new one is created and its script queued.
    ///
    /// Its footprint is every document it unloads or creates (`touch_lifecycle`): what other
    /// units read of a document (its lifecycle, its tool map, its tasks) is noted on its event
    /// loop, and a step that walks the navigable tree reads the active documents it passes, so
    /// it sees the unloaded one. A navigable without an active document is passed unread, so
    /// navigating one touches everything.
    pub fn navigate(&mut self, spec: &NavigateSpec) -> Result<(), RunError> {
        let Some(&nav) = self.seldom.nav_by_name.get(&spec.navigable) else {
            return Err(RunError::Scenario(format!("no navigable {:?}", spec.navigable)));
        };
        self.navigate_to(nav, &spec.document, HistoryHandling::Auto)
    }

    /// `navigate`'s steps for navigable `nav` and the new document `document`, with HTML
    /// "navigate"'s historyHandling (`Auto` is resolved by its step 12).
    pub(crate) fn navigate_to(
        &mut self,
        nav: NavId,
        document: &DocSpec,
        history_handling: HistoryHandling,
    ) -> Result<(), RunError> {
        if self.world.nav(nav).destroyed || self.world.nav(nav).active_document.is_none() {
            self.footprint.touch(Resource::Global, true);
        }
        if self.world.nav(nav).destroyed {
            note!(
                self,
                (HTML, "navigate"),
                "navigable {} was destroyed: nothing to navigate",
                self.world.nav(nav).name
            );
            return Ok(());
        }
        if self.record {
            std::hint::cold_path();
            // With `options.network` "unbounded" the fetch was a block of its own before this task.
            let fetch = if self.program.network == scenario::NetworkModel::Unbounded {
                "one step once its response arrived"
            } else {
                "one step: no fetch"
            };
            let bfcache =
                if self.intend_to_keep_in_bfcache() { "" } else { "; the old document is not kept in bfcache" };
            self.interpretation((HTML, "navigate"), format!("navigation is {fetch}, no beforeunload{bfcache}"));
        }
        let mut step = None;
        let mut handling = history_handling;
        if self.keeps_session_history() {
            // The traversable's step and the entries of its navigables are read by every
            // traversal; two navigations in one traversable give their entries steps in the
            // order they run. A child navigable's navigation may not otherwise conflict with
            // its sibling's, so it touches everything.
            if self.world.nav(nav).parent.is_some() {
                self.footprint.touch(Resource::Global, true);
            }
            if let Ok(response) = &document.response {
                handling = self.resolve_history_handling(nav, &response.url, history_handling);
            }
            step = self.finalize_cross_document_navigation_step(nav, handling);
        }
        let shown_before = self.shown(nav);
        if let Some(old) = self.world.nav(nav).active_document {
            // Only a "push" leaves the old document's entry in the session history.
            let keep = step.is_some() && handling == HistoryHandling::Push && self.intend_to_keep_in_bfcache();
            if self.world.doc(old).state == DocumentState::Bfcached {
                // The user's enterBfcache step cached it while it stayed the active document.
                self.unload_a_document_and_its_descendants(old, false);
            } else {
                self.leave_document(nav, old, keep);
            }
        }
        let doc = self.load_document(nav, document)?;
        if let Some(step) = step {
            self.record_navigation_entry(nav, doc, step, handling);
        }
        if self.shown(nav) != shown_before {
            self.footprint.touch(Resource::Shown(nav), true);
        }
        Ok(())
    }

    /// Creates `document` (and its iframes' documents) in `nav`, its new active document, and
    /// queues their scripts.
    pub(crate) fn load_document(&mut self, nav: NavId, document: &DocSpec) -> Result<DocId, RunError> {
        let first_new = self.world.document_count() as u32;
        let doc = self.create_document_tree(nav, document)?;
        note!(
            self,
            (HTML, "navigate"),
            "{} is now the active document of {}",
            self.label(doc),
            self.world.nav(nav).name
        );
        // The new documents are numbered from `first_new` in the order their scripts come.
        let mut d = first_new;
        document.for_each_script(&mut |script| {
            self.touch_lifecycle(DocId(d));
            self.queue_script(DocId(d), script);
            d += 1;
        });
        debug_assert_eq!(d, self.world.document_count() as u32, "a script for every new document");
        Ok(doc)
    }

    /// What `nav` shows, as `Resource::Shown` describes it: its active document's origin,
    /// whether that document is allowed to use "tools", and whether it has child navigables.
    fn shown(&self, nav: NavId) -> Option<(browser::Origin, bool, bool)> {
        let doc = self.world.nav(nav).active_document?;
        let has_children = self.world.child_navigables(nav).any(|c| !self.world.nav(c).destroyed);
        let origin = self.world.doc_info(doc).origin.clone();
        Some((origin, self.world.is_allowed_to_use(doc, browser::policy::TOOLS), has_children))
    }

    /// HTML "destroy a child navigable" for an iframe's removal.
    ///
    /// Its footprint, as `navigate`'s, is every document it unloads: a step that walks the
    /// navigable tree reads the active document of the navigable it no longer finds.
    pub fn remove_iframe(&mut self, nav: NavId) {
        if self.world.nav(nav).destroyed || self.world.nav(nav).active_document.is_none() {
            self.footprint.touch(Resource::Global, true);
        }
        if self.world.nav(nav).destroyed {
            self.note((HTML, "destroy a child navigable"), "already destroyed");
            return;
        }
        if let Some(doc) = self.world.nav(nav).active_document {
            self.unload_a_document_and_its_descendants(doc, false);
        }
        self.destroy_navigables(nav);
        note!(self, (HTML, "destroy a child navigable"), "navigable {} destroyed", self.world.nav(nav).name);
    }

    pub(crate) fn destroy_navigables(&mut self, nav: NavId) {
        self.world.destroy_navigable(nav);
        // By index: destroying changes no navigable's children, so none are copied.
        for i in 0..self.world.nav(nav).children.len() {
            let c = self.world.nav(nav).children[i];
            self.destroy_navigables(c);
        }
    }

    /// HTML "unload a document and its descendants": children first, then the document; each
    /// runs the unloading document cleanup steps ("unload a document" step 18, while the document
    /// is still its navigable's active document). A document that is not `salvageable` is then
    /// destroyed, its queued tasks removed, and its child navigables with it (step 20); a
    /// salvageable one (kept in the bfcache) is not.
    pub(crate) fn unload_a_document_and_its_descendants(&mut self, doc: DocId, salvageable: bool) {
        // Unloading one child changes neither another child nor what it shows.
        let children: SmallVec<[NavId; 4]> = self.world.document_child_navigables(doc).collect();
        for child in children {
            if let Some(child_doc) = self.world.nav(child).active_document {
                self.unload_a_document_and_its_descendants(child_doc, salvageable);
            }
            if !salvageable {
                self.destroy_navigables(child);
            }
        }
        if self.world.doc(doc).state == DocumentState::Destroyed {
            return;
        }
        if salvageable {
            note!(
                self,
                (HTML, "unload a document"),
                "unload {} (salvageable: kept in the bfcache, not destroyed)",
                self.label(doc)
            );
        } else {
            note!(self, (HTML, "unload a document"), "unload {}", self.label(doc));
        }
        // While exploring a scenario with pages: the document stops being fully active, which
        // the inert tasks the search assumed for it did not allow for (`crate::inert::learned`).
        self.learn_unloaded(doc);
        // HTML "unload a document" step 10. If oldDocument's page showing is true: … 10.2. Fire a page transition event named pagehide at oldDocument's relevant global object with oldDocument's salvageable state.
        self.fire_page_transition_event(doc, "pagehide", salvageable);
        // HTML "unload a document" step 18: run the unloading document cleanup steps.
        self.unloading_document_cleanup_steps(doc);
        if salvageable {
            return;
        }
        self.destroy_a_document(doc);
    }

    /// HTML "destroy a document and its descendants", for a document already unloaded (kept in
    /// the back/forward cache, then evicted): its descendants' documents and navigables, then it.
    pub(crate) fn destroy_a_document_and_its_descendants(&mut self, doc: DocId) {
        let children: SmallVec<[NavId; 4]> = self.world.document_child_navigables(doc).collect();
        for child in children {
            if let Some(child_doc) = self.world.nav(child).active_document {
                self.destroy_a_document_and_its_descendants(child_doc);
            }
            self.destroy_navigables(child);
        }
        if self.world.doc(doc).state != DocumentState::Destroyed {
            self.destroy_a_document(doc);
        }
    }

    /// HTML "destroy a document" (as far as it is modelled): the document is destroyed and
    /// its queued tasks removed; what only its tasks could read is forgotten.
    fn destroy_a_document(&mut self, doc: DocId) {
        // HTML "destroy a document": remove all tasks whose document is document.
        self.touch_lifecycle(doc);
        self.world.set_document_state(doc, DocumentState::Destroyed);
        let removed = self.world.remove_tasks_of(doc);
        if removed > 0 {
            note!(self, (HTML, "destroy a document"), "{removed} queued task(s) of {} removed", self.label(doc));
        }
        // What only the document's own tasks could read is forgotten (`World::forget_destroyed`):
        // its local pending tool executions map too, read only by its tasks (imperative execute
        // steps 9, cancel a pending tool execution 6) and never iterated.
        if !self.model_contexts[doc.index()].local_pending_tool_executions.is_empty() {
            self.model_contexts[doc.index()].local_pending_tool_executions.clear();
        }
        self.world.forget_destroyed(doc);
    }

    /// The tab's document enters the back/forward cache: HTML "unload a document and its
    /// descendants" with every document salvageable, so each runs the unloading document cleanup
    /// steps ("unload a document" step 18) and none is destroyed (step 20); then the tab's
    /// document is no longer its navigable's active document, and it and its descendants are not
    /// fully active. The variant `bfcache-keeps-executions` skips the unloading (the reading
    /// executeTool 15.13's note assumes; docs/findings.md 11).
    pub fn enter_bfcache(&mut self, tab: NavId) {
        self.footprint.touch(Resource::Global, true);
        let Some(doc) = self.world.nav(tab).active_document else { return };
        if self.world.doc(doc).state != DocumentState::Active {
            note!(self, (HTML, "bfcache"), "{} is not active: nothing to cache", self.label(doc));
            return;
        }
        self.unload_into_bfcache(doc);
        interpretation!(
            self,
            (HTML, "bfcache"),
            "{} and its descendants are no longer fully active; the page the tab shows meanwhile is not modelled",
            self.label(doc)
        );
    }

    /// The tab's document is restored from the back/forward cache and is fully active again.
    pub fn restore_from_bfcache(&mut self, tab: NavId) {
        self.footprint.touch(Resource::Global, true);
        let Some(doc) = self.world.nav(tab).active_document else { return };
        if self.world.doc(doc).state != DocumentState::Bfcached {
            note!(self, (HTML, "bfcache"), "{} is not in the bfcache: nothing to restore", self.label(doc));
            return;
        }
        self.world.set_document_state(doc, DocumentState::Active);
        note!(self, (HTML, "bfcache"), "{} is fully active again; its waiting tasks can run", self.label(doc));
    }
}
