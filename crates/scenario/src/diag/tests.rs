//! Tests of `Diagnostic` display and rendering.

use super::*;

fn diagnostic(line: usize, column: usize, hint: Option<&str>) -> Diagnostic {
    Diagnostic {
        file: "basic.jsonc".into(),
        line,
        column,
        path: "tabs[0].idd".into(),
        message: "unknown field `idd`".into(),
        hint: hint.map(str::to_owned),
    }
}

#[test]
fn displays_file_line_col_path_message_and_hint() {
    let d = diagnostic(3, 5, Some("expected one of `id`, `url`"));
    assert_eq!(d.to_string(), "basic.jsonc:3:5: tabs[0].idd: unknown field `idd`\n  hint: expected one of `id`, `url`");
    let d = Diagnostic { path: String::new(), hint: None, ..d };
    assert_eq!(d.to_string(), "basic.jsonc:3:5: unknown field `idd`");
}

#[test]
fn renders_the_line_with_a_caret() {
    let source = "{\n  \"tabs\": [{\n    \"idd\": \"tab\",\r\n  }]\n}\n";
    let d = diagnostic(3, 5, Some("expected one of `id`, `url`"));
    assert_eq!(
        d.render(source),
        "basic.jsonc:3:5: tabs[0].idd: unknown field `idd`\n  |\n3 |     \"idd\": \"tab\",\n  |     ^\n  hint: expected one of `id`, `url`"
    );
}

#[test]
fn caret_follows_tabs_and_counts_characters() {
    let source = "\t\"é\": x";
    let d = diagnostic(1, 7, None);
    assert_eq!(
        d.render(source),
        "basic.jsonc:1:7: tabs[0].idd: unknown field `idd`\n  |\n1 | \t\"é\": x\n  | \t     ^"
    );
}

#[test]
fn a_missing_line_is_left_out() {
    let d = diagnostic(9, 1, None);
    assert_eq!(d.render("{}"), "basic.jsonc:9:1: tabs[0].idd: unknown field `idd`");
    let d = diagnostic(0, 0, None);
    assert_eq!(d.render("{}"), "basic.jsonc:0:0: tabs[0].idd: unknown field `idd`");
}

#[test]
fn a_long_line_is_cut_around_the_column() {
    let line = format!("{}X{}", "a".repeat(500), "b".repeat(500));
    let rendered = diagnostic(1, 501, None).render(&line);
    let lines: Vec<&str> = rendered.lines().collect();
    assert_eq!(lines.len(), 4);
    let shown = lines[2].trim_start_matches("1 | ");
    let caret = lines[3].trim_start_matches("  | ");
    assert!(shown.starts_with('…') && shown.ends_with('…'));
    assert_eq!(shown.chars().count(), SNIPPET_WIDTH + 2);
    assert_eq!(shown.chars().nth(caret.chars().count() - 1), Some('X'));
}

#[test]
fn is_an_error() {
    let d: Box<dyn std::error::Error> = Box::new(diagnostic(1, 1, None));
    assert!(d.to_string().starts_with("basic.jsonc:1:1:"));
}

#[test]
fn a_snippet_shows_control_and_bidi_characters_one_for_one_so_the_caret_stays_in_place() {
    let source = "{\n  \"a\u{1b}]0;x\u{7}\u{202e}\u{0}\": 1\n}\n";
    let d = diagnostic(2, 11, None);
    assert_eq!(
        d.render(source),
        "basic.jsonc:2:11: tabs[0].idd: unknown field `idd`\n  |\n2 |   \"a␛]0;x␇\u{fffd}␀\": 1\n  |           ^"
    );
}
