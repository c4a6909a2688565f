//! `Counts`: a few counters by document, as one sorted list.

use super::DocId;

/// Counters by document (timers set, tasks queued after destruction), kept sorted by document.
/// A part of the world that a step copies whenever it counts: a sorted list copies as one
/// allocation, where a `BTreeMap` copies node by node. It hashes as the map did (its length,
/// then each document and count in document order).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) struct Counts<N>(Vec<(DocId, N)>);

impl<N> Default for Counts<N> {
    fn default() -> Self {
        Counts(Vec::new())
    }
}

impl<N: Copy + Default> Counts<N> {
    /// The counter of `doc` to change (0 if it had none).
    pub(super) fn entry(&mut self, doc: DocId) -> &mut N {
        let at = match self.0.binary_search_by_key(&doc, |(d, _)| *d) {
            Ok(at) => at,
            Err(at) => {
                self.0.insert(at, (doc, N::default()));
                at
            }
        };
        &mut self.0[at].1
    }

    pub(super) fn contains(&self, doc: DocId) -> bool {
        self.0.binary_search_by_key(&doc, |(d, _)| *d).is_ok()
    }

    pub(super) fn remove(&mut self, doc: DocId) {
        if let Ok(at) = self.0.binary_search_by_key(&doc, |(d, _)| *d) {
            self.0.remove(at);
        }
    }

    /// The counters, in document order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (DocId, N)> + '_ {
        self.0.iter().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_stay_sorted_and_hash_as_the_map_they_replace() {
        let mut counts = Counts::<u64>::default();
        let mut map = std::collections::BTreeMap::new();
        for doc in [3, 1, 2, 1, 3, 3] {
            *counts.entry(DocId(doc)) += 1;
            *map.entry(DocId(doc)).or_insert(0u64) += 1;
        }
        counts.remove(DocId(2));
        map.remove(&DocId(2));
        assert!(counts.contains(DocId(1)) && !counts.contains(DocId(2)));
        assert_eq!(counts.iter().collect::<Vec<_>>(), map.iter().map(|(d, n)| (*d, *n)).collect::<Vec<_>>());
        assert_eq!(crate::digest128(&counts), crate::digest128(&map));
    }
}
