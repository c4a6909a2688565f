//! Tests of typo suggestions.

use super::*;

#[test]
fn suggests_a_near_name() {
    assert_eq!(closest("chld", ["tab", "child"]), Some("child"));
    assert_eq!(closest("nmae", ["name", "title"]), Some("name"));
    assert_eq!(closest("RegisterTool", ["log", "registerTool"]), Some("registerTool"));
}

#[test]
fn suggests_nothing_far_or_equal() {
    assert_eq!(closest("zzz", ["tab", "child"]), None);
    assert_eq!(closest("tab", ["tab"]), None);
    assert_eq!(closest("x", []), None);
}

#[test]
fn edit_distance_counts_characters() {
    assert_eq!(edit_distance("", "abc"), 3);
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    assert_eq!(edit_distance("é", "e"), 1);
    assert_eq!(edit_distance("nmae", "name"), 1);
    assert_eq!(edit_distance("ab", "ba"), 1);
    assert_eq!(edit_distance("abc", ""), 3);
}
