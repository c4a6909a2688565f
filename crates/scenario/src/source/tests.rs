//! Tests of offset → `line:col` conversion and path lookup.

use super::*;
use jsonc_parser::{parse_to_ast, CollectOptions, ParseOptions};

#[test]
fn line_col_is_one_based_and_counts_characters() {
    let source = Source::new("f", "ab\né\nx\r\ny");
    assert_eq!(source.line_col(0), (1, 1));
    assert_eq!(source.line_col(1), (1, 2));
    assert_eq!(source.line_col(2), (1, 3));
    assert_eq!(source.line_col(3), (2, 1));
    assert_eq!(source.line_col(5), (2, 2));
    // Inside `é` (not a char boundary): the character's own column.
    assert_eq!(source.line_col(4), (2, 1));
    assert_eq!(source.line_col(9), (4, 1));
    assert_eq!(source.line_col(999), (4, 2));
    assert_eq!(Source::new("f", "").line_col(0), (1, 1));
    // Asking again, backwards and forwards on one line, gives the same answers.
    let source = Source::new("f", "aé b\ncd");
    for (offset, expected) in
        [(4, (1, 4)), (1, (1, 2)), (5, (1, 5)), (5, (1, 5)), (7, (2, 2)), (0, (1, 1)), (6, (2, 1))]
    {
        assert_eq!(source.line_col(offset), expected, "offset {offset}");
    }
}

#[test]
fn locate_finds_values_keys_and_the_enclosing_object() {
    let text = "{\n  \"a\": [1, {\"b\": true}],\n  \"c\": {}\n}";
    let parsed = parse_to_ast(text, &CollectOptions::default(), &ParseOptions::default());
    let root = parsed.ok().and_then(|p| p.value).expect("test input parses");
    let source = Source::new("f", text);
    let at = |path: JsonPath, anchor| source.line_col(locate(&root, &path, anchor));
    let a1b = JsonPath::root().key("a").index(1).key("b");
    assert_eq!(at(a1b.clone(), Anchor::Value), (2, 18));
    assert_eq!(at(a1b, Anchor::Key), (2, 13));
    assert_eq!(at(JsonPath::root().key("a").index(1), Anchor::Key), (2, 12));
    assert_eq!(at(JsonPath::root().key("c").key("missing"), Anchor::Value), (3, 8));
    assert_eq!(at(JsonPath::root().key("a").index(7), Anchor::Value), (2, 8));
    assert_eq!(at(JsonPath::root(), Anchor::Key), (1, 1));
}
