//! HTML `History` (<https://html.spec.whatwg.org/#the-history-interface>) and the session
//! history traversal it starts: "traverse the history by a delta" (in parallel, as the
//! traversable's session history traversal queue runs it) and "apply the history step", whose
//! per-navigable part is a task on the navigation and traversal task source of the navigable's
//! active window: the displayed document is unloaded (kept in the back/forward cache or
//! destroyed, `options.bfcache`) and the target entry's document reactivated, or its URL loaded
//! again when the entry's document is gone.

use browser::{DocId, JsValue, NavId, TaskSource};
use smallvec::SmallVec;

use crate::footprint::Resource;
use crate::kernel::{RunError, Sim};
use crate::work::Work;

const HTML: &str = "HTML";

impl Sim<'_> {
    /// HTML History's `go(delta)` (`back()`: −1, `forward()`: 1) for the History object of
    /// `doc`'s Window: Err with the exception to throw.
    pub fn script_history_go(&mut self, doc: DocId, delta: i64, member: &str) -> Result<(), JsValue> {
        // Step 1. Let document be this's relevant global object's associated Document.
        // Step 2. If document is not fully active, then throw a "SecurityError" DOMException.
        self.touch_lifecycle_of(doc);
        if !self.world.is_fully_active(doc) {
            return Err(JsValue::DomException {
                name: "SecurityError".into(),
                message: format!("Failed to execute '{member}' on 'History': The document is not fully active."),
            });
        }
        if delta == 0 {
            // go() step 3. If delta is 0, then reload document's node navigable, and return.
            note!(self, (HTML, "History go() 3"), "go(0): reload");
            self.script_location_reload(doc);
            return Ok(());
        }
        // go() step 4 (back() and forward() step 3). Traverse the history by a delta given document's node navigable's traversable navigable, delta, and with sourceDocument set to document.
        let nav = self.world.doc_info(doc).navigable;
        let traversable = self.world.nav(nav).info.traversable;
        self.traverse_the_history_by_a_delta(traversable, delta, doc, member)
    }

    /// HTML "traverse the history by a delta" given `traversable`, `delta` and `source`: its
    /// steps are appended to the traversable's session history traversal queue, which runs
    /// them in parallel (an in-parallel block here).
    fn traverse_the_history_by_a_delta(
        &mut self,
        traversable: NavId,
        delta: i64,
        source: DocId,
        member: &str,
    ) -> Result<(), JsValue> {
        // Which entries the traversable's navigables have depends on every navigation.
        self.footprint.touch(Resource::Global, false);
        self.session_history_is_modelled(
            traversable,
            &format!("History.{member}"),
            "traverse the history by a delta 4.1",
        )?;
        // 1. Let sourceSnapshotParams and initiatorToCheck be null. 2. If sourceDocument is given: 2.1. set sourceSnapshotParams to the result of snapshotting source snapshot params given sourceDocument; 2.2. set initiatorToCheck to sourceDocument's node navigable. (Read when the steps run: `source`.)
        // 4. Append the following session history traversal steps to traversable: …
        note!(
            self,
            (HTML, "traverse the history by a delta 4"),
            "{member}: traverse the session history of {} by {delta}",
            self.world.nav(traversable).name
        );
        self.in_parallel(
            Work::TraverseHistoryByDelta { traversable, delta, source },
            (HTML, "traverse the history by a delta 4"),
        );
        Ok(())
    }

    /// Err with a TypeError naming the HTML step when the traversable's session history holds
    /// steps the simulator did not keep (nested histories of a destroyed document's entry).
    fn session_history_is_modelled(&self, traversable: NavId, what: &str, step: &str) -> Result<(), JsValue> {
        if !self.keeps_session_history() {
            return Err(JsValue::type_error(format!(
                "{what} (HTML \"{step}\"): session history entries are kept only in scenarios with JavaScript pages or options.bfcache; not modelled by webmcp-sim"
            )));
        }
        if self.world.session_history(traversable).lost_nested_history {
            return Err(JsValue::type_error(format!(
                "{what} after a document of {} was destroyed while an iframe of it had navigated (HTML \"{step}\", \"getting all used history steps\": the entry's nested histories are not kept) is not modelled by webmcp-sim",
                self.world.nav(traversable).name
            )));
        }
        Ok(())
    }

    /// `Work::TraverseHistoryByDelta`: "traverse the history by a delta" step 4's session
    /// history traversal steps, in parallel.
    pub(crate) fn traverse_history_in_parallel(&mut self, traversable: NavId, delta: i64, source: DocId) {
        self.footprint.touch(Resource::Global, true);
        // 4.1. Let allSteps be the result of getting all used history steps for traversable.
        let all_steps = self.world.get_all_used_history_steps(traversable);
        // 4.2. Let currentStepIndex be the index of traversable's current session history step within allSteps.
        let current_step = self.world.session_history(traversable).current_step;
        let Some(current_index) = all_steps.iter().position(|s| *s == current_step) else {
            self.spec_assert(
                false,
                (HTML, "traverse the history by a delta 4.2"),
                "traversable's current session history step is one of allSteps",
            );
            return;
        };
        // 4.3. Let targetStepIndex be currentStepIndex plus delta.
        let target_index = current_index as i64 + delta;
        // 4.4. If allSteps[targetStepIndex] does not exist, then abort these steps.
        let Some(&target_step) = usize::try_from(target_index).ok().and_then(|i| all_steps.get(i)) else {
            note!(
                self,
                (HTML, "traverse the history by a delta 4.4"),
                "the session history of {} has {} step(s), and step index {target_index} does not exist: nothing happens",
                self.world.nav(traversable).name,
                all_steps.len()
            );
            return;
        };
        // 4.5. Apply the traverse history step allSteps[targetStepIndex] to traversable, given sourceSnapshotParams, the navigable of sourceDocument (initiatorToCheck), and userInvolvement.
        note!(
            self,
            (HTML, "traverse the history by a delta 4.5"),
            "apply the traverse history step {target_step} (from step {current_step}) to {}",
            self.world.nav(traversable).name
        );
        self.apply_the_history_step(traversable, target_step, source);
    }

    /// HTML "apply the history step" `step` to `traversable` (from "apply the traverse history
    /// step": checkForCancelation true, initiatorToCheck `source`'s navigable, navigationType
    /// "traverse"), up to step 12's tasks.
    fn apply_the_history_step(&mut self, traversable: NavId, step: u32, source: DocId) {
        // 2. Let targetStep be the result of getting the used step given traversable and step (step is a used step).
        let target_step = step;
        // 6. Let changingNavigables be the result of get all navigables whose current session history entry will change or reload given traversable and targetStep.
        let changing = self.navigables_whose_entry_will_change(traversable, target_step);
        // 3. If initiatorToCheck is not null, then: 3.2. For each navigable of changingNavigables: if initiatorToCheck is not allowed by sandboxing to navigate navigable given sourceSnapshotParams, then return "initiator-disallowed".
        if let Some(initiator) = self.world.node_navigable(source) {
            for &(nav, _) in &changing {
                if !self.allowed_by_sandboxing_to_navigate(initiator, nav) {
                    note!(
                        self,
                        (HTML, "apply the history step 3.2"),
                        "{} is not allowed by sandboxing to navigate {}: initiator-disallowed",
                        self.world.nav(initiator).name,
                        self.world.nav(nav).name
                    );
                    return;
                }
            }
        }
        // 5. If checkForCancelation is true, and the result of checking if unloading is canceled … is not "continue", then return that result.
        self.interpretation(
            (HTML, "apply the history step 5"),
            "checking if unloading is canceled: no beforeunload handler or navigate event is modelled, so \"continue\"",
        );
        // 8. For each navigable of changingNavigables: 8.1. Let targetEntry be the result of getting the target history entry given navigable and targetStep. 8.2. Set navigable's current session history entry to targetEntry.
        for &(nav, target) in &changing {
            self.world.session_history_mut(nav).current = target;
        }
        // (Step 20, "Set traversable's current session history step to targetStep", comes after
        // the tasks below in HTML; here it is set now, so a second traversal that runs before
        // those tasks starts from targetStep.)
        self.world.session_history_mut(traversable).current_step = target_step;
        // 12. For each navigable of changingNavigables, queue a global task on the navigation and traversal task source of navigable's active window to run the steps: …
        for (nav, target) in changing {
            let Some(displayed) = self.world.nav(nav).active_document else { continue };
            let entry_step = self.world.session_history(nav).entries[target].step;
            self.queue_global_task(
                TaskSource::NavigationAndTraversal,
                displayed,
                Work::ApplyHistoryStep { navigable: nav, entry_step },
                (HTML, "apply the history step 12"),
            );
        }
    }

    /// HTML "get all navigables whose current session history entry will change or reload"
    /// given `traversable` and `target_step`: each with the index of its target entry.
    fn navigables_whose_entry_will_change(&self, traversable: NavId, target_step: u32) -> Vec<(NavId, usize)> {
        // 1. Let results be an empty list. 2. Let navigablesToCheck be « traversable ».
        let mut results = Vec::new();
        let mut to_check = vec![traversable];
        let mut i = 0;
        // 3. For each navigable of navigablesToCheck:
        while i < to_check.len() {
            let nav = to_check[i];
            i += 1;
            // 3.1. Let targetEntry be the result of getting the target history entry given navigable and targetStep.
            let Some(target) = self.world.get_the_target_history_entry(nav, target_step) else { continue };
            let entry = &self.world.session_history(nav).entries[target];
            // 3.2. If targetEntry's document is not navigable's document …, then append navigable to results.
            if self.world.entry_document_alive(entry) != self.world.nav(nav).active_document {
                results.push((nav, target));
            } else {
                // 3.3. Otherwise, extend navigablesToCheck with navigable's child navigables.
                to_check.extend(self.world.child_navigables(nav).filter(|c| !self.world.nav(*c).destroyed));
            }
        }
        results
    }

    /// `Work::ApplyHistoryStep`: "apply the history step" 12's task for `nav` (on its active
    /// window), with 14's continuation in the same task: the displayed document is deactivated
    /// ("deactivate a document for a cross-document navigation": unloaded and kept or
    /// destroyed), then the target entry is activated: its document reactivated, or, when it
    /// is gone, its URL loaded again (12.8, "attempt to populate the history entry's
    /// document", in one step here).
    pub(crate) fn apply_history_step_task(&mut self, nav: NavId, entry_step: u32) -> Result<(), RunError> {
        self.footprint.touch(Resource::Global, true);
        // 12.1. Let displayedEntry be navigable's active session history entry.
        let Some(displayed) = self.world.nav(nav).active_document.filter(|_| !self.world.nav(nav).destroyed) else {
            note!(self, (HTML, "apply the history step 12"), "{} has no active document", self.world.nav(nav).name);
            return Ok(());
        };
        // 12.2. Let targetEntry be navigable's current session history entry.
        let history = self.world.session_history(nav);
        let Some(target) = history.entries.iter().position(|e| e.step == entry_step) else {
            note!(
                self,
                (HTML, "apply the history step 12.2"),
                "{}'s entry at step {entry_step} is gone (a navigation cleared the forward session history meanwhile): nothing to apply",
                self.world.nav(nav).name
            );
            return Ok(());
        };
        let entry = history.entries[target].clone();
        let kept = self.world.entry_document_alive(&entry);
        // 12.4. If displayedEntry is targetEntry …: update only.
        if kept == Some(displayed) {
            note!(
                self,
                (HTML, "apply the history step 12.4"),
                "{} already shows its target entry",
                self.world.nav(nav).name
            );
            return Ok(());
        }
        // 14.11.2. Deactivate displayedDocument: "deactivate a document for a cross-document navigation" 5.3: unload a document and its descendants given displayedDocument (HTML "unload a document" 5: intendToKeepInBfcache).
        let keep = self.intend_to_keep_in_bfcache();
        self.leave_document(nav, displayed, keep);
        // 14.12. afterPotentialUnloads: 14.12.2. activate history entry targetEntry for navigable; 14.12.3. update document for history step application.
        match kept {
            Some(doc) => self.reactivate_a_document(nav, doc),
            None => {
                // 12.8. If targetEntry's document is null, then: … attempt to populate the history entry's document for targetEntry (a fetch of its URL: the scenario's server's document there).
                let (document, served) = self.program.served_document(&entry.url).map_err(RunError::Scenario)?;
                note!(
                    self,
                    (HTML, "apply the history step 12.8"),
                    "the entry's document is gone: load {} again ({})",
                    entry.url,
                    if served {
                        "the scenario's resource at its path"
                    } else {
                        "no resource there: a document with no script"
                    }
                );
                let doc = self.load_document(nav, &document)?;
                if let Some(e) = self.world.session_history_mut(nav).entries.get_mut(target) {
                    e.document = Some(doc);
                }
            }
        }
        Ok(())
    }

    /// HTML "activate history entry" for a document kept in the back/forward cache: it is
    /// `nav`'s active document again and fully active, its waiting tasks can run; "update
    /// document for history step application" ("reactivate a document", `pageshow` with
    /// `persisted` true) is a task of its own (14.12.5).
    fn reactivate_a_document(&mut self, nav: NavId, doc: DocId) {
        self.touch_lifecycle(doc);
        self.world.reactivate_document(nav, doc);
        // The scenario names its iframes by id: the restored document's iframes again.
        self.rename_navigables_below(doc);
        note!(
            self,
            (HTML, "activate history entry"),
            "{} is restored from the back/forward cache: the active document of {} again, fully active; its waiting tasks can run",
            self.label(doc),
            self.world.nav(nav).name
        );
        // 14.12.5. Otherwise (targetEntry's document is not displayedDocument), queue a global task on the navigation and traversal task source given targetEntry's document's relevant global object to perform updateDocument.
        self.queue_global_task(
            TaskSource::NavigationAndTraversal,
            doc,
            Work::UpdateDocumentForHistoryStep { doc },
            (HTML, "apply the history step 14.12.5"),
        );
    }

    /// `Work::UpdateDocumentForHistoryStep`: HTML "update document for history step
    /// application" for a document restored from the back/forward cache (documentIsNew false):
    /// as far as it is modelled, "reactivate a document" and `pageshow` with `persisted` true
    /// at its Window.
    pub(crate) fn update_document_for_history_step_application(&mut self, doc: DocId) {
        self.footprint.touch(Resource::Global, true);
        note!(
            self,
            (HTML, "update document for history step application"),
            "{} is reactivated: pageshow with persisted true",
            self.label(doc)
        );
        self.fire_page_transition_event(doc, "pageshow", true);
    }

    /// The scenario names iframes by id: after a restore, each id names the restored
    /// document's iframe again (a later document's iframe of that id had taken the name).
    fn rename_navigables_below(&mut self, doc: DocId) {
        let children: SmallVec<[NavId; 4]> = self.world.document_child_navigables(doc).collect();
        for id in children {
            let child_nav = self.world.nav(id);
            let (name, active) = (child_nav.info.name.to_string(), child_nav.active_document);
            self.seldom.nav_by_name.insert(name, id);
            if let Some(d) = active {
                self.rename_navigables_below(d);
            }
        }
    }

    /// HTML History's `length` getter for `doc`'s Window: step 1's check, then the number of
    /// the traversable's used history steps ("getting the history object length and index").
    pub fn script_history_length(&mut self, doc: DocId) -> Result<u32, JsValue> {
        // 1. If this's relevant global object's associated Document is not fully active, then throw a "SecurityError" DOMException.
        self.touch_lifecycle_of(doc);
        if !self.world.is_fully_active(doc) {
            return Err(JsValue::DomException {
                name: "SecurityError".into(),
                message: "Failed to read the 'length' property from 'History': The document is not fully active."
                    .into(),
            });
        }
        // 2. Return this's length: set by "update document for history step application" to
        // scriptHistoryLength, the size of allSteps ("getting the history object length and
        // index"); read here from the session history as it is now.
        let traversable = self.world.nav(self.world.doc_info(doc).navigable).info.traversable;
        self.footprint.touch(Resource::Global, false);
        self.session_history_is_modelled(traversable, "History.length", "getting the history object length and index")?;
        Ok(self.world.get_all_used_history_steps(traversable).len() as u32)
    }
}
