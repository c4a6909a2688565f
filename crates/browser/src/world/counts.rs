//! `Counts`: a few counters by document, as one sorted list.

use super::DocId;

/// Counters by document (timers set, tasks queued after destruction), kept sorted by document
/// (`litemap::LiteMap`, a map over one sorted `Vec`). A part of the world that a step copies
/// whenever it counts: a sorted list copies as one allocation, where a `BTreeMap` copies node
/// by node. It hashes as the `BTreeMap` did (its length, then each document and count in
/// document order), which the test below pins.
pub(super) type Counts<N> = litemap::LiteMap<DocId, N>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_stay_sorted_and_hash_as_the_map_they_replace() {
        let mut counts = Counts::<u64>::new();
        let mut map = std::collections::BTreeMap::new();
        for doc in [3, 1, 2, 1, 3, 3] {
            *counts.entry(DocId(doc)).or_default() += 1;
            *map.entry(DocId(doc)).or_insert(0u64) += 1;
        }
        counts.remove(&DocId(2));
        map.remove(&DocId(2));
        assert!(counts.contains_key(&DocId(1)) && !counts.contains_key(&DocId(2)));
        assert_eq!(
            counts.iter().map(|(d, n)| (*d, *n)).collect::<Vec<_>>(),
            map.iter().map(|(d, n)| (*d, *n)).collect::<Vec<_>>()
        );
        assert_eq!(crate::digest128(&counts), crate::digest128(&map));
    }
}
