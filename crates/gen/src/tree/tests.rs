//! Tests of the structure-aware mutations.

use proptest::strategy::{Strategy, ValueTree};
use serde_json::json;

use super::*;

#[test]
fn edits_change_the_tree_and_keep_it_json() {
    let tree = json!({"version": 1, "name": "x", "tabs": [{"id": "tab", "url": "https://a.example/", "script": [{"log": "a"}]}]});
    let mut runner = crate::shrink::runner(7, 0);
    let strategy = mutated(vec![tree.clone()]);
    let mut changed = 0;
    for _ in 0..500 {
        let text = strategy.new_tree(&mut runner).unwrap().current();
        let back: serde_json::Value = serde_json::from_str(&text).expect("still JSON");
        changed += usize::from(back != tree);
    }
    assert!(changed > 400, "{changed} of 500 changed");
}

#[test]
fn a_node_is_never_copied_into_itself() {
    let tree = json!({"a": {"b": [1, 2]}});
    // Replace the root's child "a" (node 1) with the root (node 0): skipped.
    let edits = [Edit::Replace(index(1, 5), index(0, 5))];
    assert_eq!(apply(&tree, &edits), tree);
}

/// An index that picks node `n` of a tree of `len` nodes.
fn index(n: usize, len: usize) -> prop::sample::Index {
    // Draw indices until one picks node n.
    let mut runner = crate::shrink::runner(0, 0);
    loop {
        let i = any::<prop::sample::Index>().new_tree(&mut runner).unwrap().current();
        if i.index(len) == n {
            return i;
        }
    }
}
