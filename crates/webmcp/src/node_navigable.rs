//! HTML's "node navigable" where WebMCP dereferences it: a document that is no navigable's active
//! document (destroyed, or in the back/forward cache) has a null node navigable, and the spec's
//! "document's node navigable's traversable navigable" then dereferences null. Each such read is
//! a finding at the step that makes it; the steps go on with the navigable the document was
//! created in, the reading the spec evidently means (docs/model.md, "Null node navigables").

use browser::{DocId, DocumentState, NavId};

use crate::cite::Step;
use crate::kernel::Sim;

impl Sim<'_> {
    /// `<name>'s node navigable's traversable navigable`, read at `step` for `doc` (`name` is
    /// the spec's variable: `targetDocument`, `callerDocument`, `tool owner`, …).
    ///
    /// The read depends on `doc`'s lifecycle (whether it is still its navigable's active
    /// document), so it is noted in the unit's footprint.
    pub fn node_navigables_traversable(&mut self, doc: DocId, name: &'static str, step: Step) -> NavId {
        self.touch_lifecycle_of(doc);
        let traversable = self.world.traversable_of(doc);
        if self.world.node_navigable(doc).is_none() {
            let why = match self.world.doc(doc).state {
                DocumentState::Destroyed => "was destroyed",
                DocumentState::Bfcached => "is in the back/forward cache",
                DocumentState::Active => unreachable!("an active document has a node navigable"),
            };
            let message = self.findings.message((name, why), || {
                format!("{name}'s node navigable is not null (this step dereferences it); it is null: {name} {why}")
            });
            self.spec_assert_failed(step, message);
            interpretation!(
                self,
                step,
                "{name} ({}) has no node navigable; the steps go on with the navigable it was created in ({}), whose traversable navigable is {}",
                self.label(doc),
                self.world.nav(self.world.doc_info(doc).navigable).name,
                self.world.nav(traversable).name
            );
        }
        traversable
    }
}
