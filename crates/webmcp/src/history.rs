//! HTML `History` (<https://html.spec.whatwg.org/#the-history-interface>) as far as the simulator
//! knows a traversable's session history: `go(0)` reloads, and "traverse the history by a delta"
//! runs where the session history is known to hold one step (no navigable of the traversable
//! has been navigated or reloaded, so `back()`, `forward()` and `go(n)` find no step and abort).
//! Anywhere else the simulator keeps no session history entries (a navigation unloads and
//! destroys the old document; the back/forward cache is entered and left by the user's
//! `enterBfcache`/`restoreFromBfcache` steps, and the page a tab shows meanwhile is not
//! modelled), so a traversal fails with a TypeError naming the HTML step.

use browser::{DocId, JsValue, NavId};

use crate::footprint::Resource;
use crate::kernel::Sim;

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
        self.traverse_the_history_by_a_delta(traversable, delta, member)
    }

    /// HTML "traverse the history by a delta" given `traversable` and `delta`, where the
    /// simulator knows the session history: one step.
    fn traverse_the_history_by_a_delta(&mut self, traversable: NavId, delta: i64, member: &str) -> Result<(), JsValue> {
        // Which documents the traversable's navigables have shown depends on every navigation.
        self.footprint.touch(Resource::Global, false);
        if let Some(navigated) = self.navigated_navigable_in(traversable) {
            return Err(JsValue::type_error(format!(
                "History.{member} after navigable {navigated} navigated (HTML \"traverse the history by a delta\" 4.1, \"getting all used history steps\": session history entries are not kept, and the document a traversal would restore or fetch again is gone) is not modelled by webmcp-sim"
            )));
        }
        // Step 4. Append the following session history traversal steps to traversable:
        // 4.1. Let allSteps be the result of getting all used history steps for traversable. (One
        // step: no navigable of the traversable has navigated.)
        // 4.2. Let currentStepIndex be the index of traversable's current session history step within allSteps. (0.)
        // 4.3. Let targetStepIndex be currentStepIndex plus delta.
        // 4.4. If allSteps[targetStepIndex] does not exist, then abort these steps.
        note!(
            self,
            (HTML, "traverse the history by a delta 4.4"),
            "{member}: the session history of {} has one step, and step {delta} does not exist: nothing happens",
            self.world.nav(traversable).name
        );
        Ok(())
    }

    /// A navigable of `traversable`'s tree that has shown more than one document (navigated,
    /// reloaded, or opened by `window.open` and navigated again), if any: the session history
    /// then holds more than the one step the simulator can describe.
    fn navigated_navigable_in(&self, traversable: NavId) -> Option<String> {
        let mut shown: std::collections::BTreeMap<NavId, u32> = std::collections::BTreeMap::new();
        for d in 0..self.world.document_count() as u32 {
            let nav = self.world.doc_info(DocId(d)).navigable;
            if self.world.nav(nav).info.traversable == traversable {
                *shown.entry(nav).or_insert(0) += 1;
            }
        }
        shown.into_iter().find(|(_, n)| *n > 1).map(|(nav, _)| self.world.nav(nav).name.to_string())
    }

    /// HTML History's `length` getter for `doc`'s Window: step 1's check, then the number of
    /// session history entries, where the simulator knows it (one).
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
        // 2. Return this's length (the number of entries of the traversable's session history).
        let traversable = self.world.nav(self.world.doc_info(doc).navigable).info.traversable;
        self.footprint.touch(Resource::Global, false);
        match self.navigated_navigable_in(traversable) {
            None => Ok(1),
            Some(navigated) => Err(JsValue::type_error(format!(
                "History.length after navigable {navigated} navigated (HTML History length 2: session history entries are not kept) is not modelled by webmcp-sim"
            ))),
        }
    }
}
