//! The unique internal values that identify tool executions, numbered per realm.

use browser::DocId;

/// A unique internal value identifying one tool execution: the `seq`-th one created in document
/// `realm`'s relevant realm (executeTool step 13 runs in the caller's), or by the browser's agent
/// (`realm` None). Numbered per realm, as `browser::PromiseId`, so that two executeTool calls on
/// different event loops get the same values in either order (see docs/model.md).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Uuid {
    /// The realm's document index, or `Uuid::AGENT` (eight bytes in all: uuids travel in many
    /// `Work` values).
    realm: u32,
    pub seq: u32,
}

impl Uuid {
    const AGENT: u32 = u32::MAX;

    pub fn new(realm: Option<DocId>, seq: u32) -> Uuid {
        Uuid { realm: realm.map_or(Uuid::AGENT, |d| d.0), seq }
    }

    /// The document in whose realm the uuid was created (None: the browser's agent).
    pub fn realm(&self) -> Option<DocId> {
        (self.realm != Uuid::AGENT).then_some(DocId(self.realm))
    }

    /// A hash of the uuid, from which `Footprint` takes its bit in the pending-entry sets (uuids
    /// that share a bit count as one entry: sound, only less reduction).
    pub(crate) fn entry_hash(&self) -> u32 {
        self.seq ^ self.realm.wrapping_mul(0x9E37_79B9).rotate_left(7)
    }
}
