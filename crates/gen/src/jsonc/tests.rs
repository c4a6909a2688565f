//! Tests of the `.jsonc` writer.

use super::*;

const TEXT: &str = r#"{
  "version": 1, "name": "n",
  "tabs": [{ "id": "tab", "url": "https://a.example/", "script": [
    { "log": "a fairly long line of text that will not fit on one line with everything else around it" },
    { "registerTool": { "tool": { "name": "t", "description": "d", "execute": { "result": { "resolve": 1 } } } } }
  ] }]
}"#;

#[test]
fn the_file_reads_back_equal_and_stays_narrow() {
    let scenario = scenario::parse_str("t.jsonc", TEXT).expect("valid");
    let text = to_jsonc(&scenario, &["first".into(), "second\nthird".into()]);
    assert!(text.starts_with("// first\n// second\n// third\n{\n"), "{text}");
    assert_eq!(scenario::parse_str("back.jsonc", &text).expect("reads back"), scenario);
    assert!(text.lines().all(|l| l.len() <= WIDTH || l.trim_start().starts_with("\"log\"")), "{text}");
}

#[test]
fn short_files_leave_out_defaults_but_read_back_equal() {
    let text = r#"{"version": 1, "name": "n", "tabs": [{"id": "tab", "url": "https://a.example/", "script": [
        {"setTimeout": {"ms": 0, "do": []}}, {"on": {"event": "toolchange", "do": []}},
        {"registerTool": {"tool": {"name": "t", "description": "", "execute": {}}}}]}]}"#;
    let scenario = scenario::parse_str("t.jsonc", text).expect("valid");
    let short = to_short_jsonc(&scenario, &[]);
    assert_eq!(scenario::parse_str("short.jsonc", &short).expect("reads back"), scenario);
    assert!(!short.contains("frames") && !short.contains("onAbort") && !short.contains("unordered"), "{short}");
    // A required empty list stays.
    assert!(short.contains(r#""do": []"#) && short.contains(r#""description": """#), "{short}");
    assert!(short.lines().count() <= 12, "{short}");
}

#[test]
fn inline_puts_spaces_after_colons_and_commas() {
    assert_eq!(inline(&serde_json::json!({"a": [1, 2], "b": {}})), r#"{"a": [1, 2], "b": {}}"#);
}
