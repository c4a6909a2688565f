//! Tests for the snapshot file format; `tests/it/render.rs` runs `snapshot` on a directory.

use std::path::Path;

use super::*;

#[test]
fn a_snapshot_file_has_insta_s_header_and_the_contents() {
    let file = snapshot_file("races/a b.jsonc", "trace\nlines\n\n");
    assert_eq!(
        file,
        "---\nsource: \"races/a b.jsonc\"\nexpression: \"webmcp-sim run races/a b.jsonc --seed 0\"\ninput_file: \"races/a b.jsonc\"\n---\ntrace\nlines\n"
    );
    assert_eq!(snapshot_contents(&file), Some("trace\nlines\n"));
    assert_eq!(snapshot_contents("no header"), None);
}

#[test]
fn paths_become_flat_names_under_snapshots() {
    let dir = Path::new("/x/specs");
    assert_eq!(
        snapshot_path(dir, Path::new("/x/specs/races/one.jsonc")),
        Path::new("/x/specs/snapshots/races__one.jsonc.snap")
    );
    assert_eq!(snapshot_path(dir, Path::new("/x/specs/top.jsonc")), Path::new("/x/specs/snapshots/top.jsonc.snap"));
}

#[test]
fn yaml_scalars_are_plain_only_when_unambiguous() {
    assert_eq!(yaml_string("races/one.jsonc"), "races/one.jsonc");
    assert_eq!(yaml_string("-x"), "\"-x\"");
    assert_eq!(yaml_string("a: b\n"), "\"a: b\\n\"");
    assert_eq!(yaml_string(""), "\"\"");
}

#[test]
fn the_first_difference_names_its_line() {
    let old = snapshot_file("a.jsonc", "one\ntwo\n");
    let new = snapshot_file("a.jsonc", "one\nthree\n");
    assert_eq!(first_difference(&old, &new), "line 2: -\"two\" +\"three\"");
    assert_eq!(first_difference(&old, &snapshot_file("a.jsonc", "one\n")), "line 2: -\"two\" +\"\"");
}
