//! Tests of parsing: limits, syntax, positions, deserialization errors and `load`.

use proptest::prelude::*;

use super::*;

const VALID: &str = r#"{
  // A comment.
  "version": 1,
  "name": "minimal",
  "tabs": [
    /* Another comment. */
    { "id": "tab", "url": "https://a.example/", "script": [{ "log": "hi" }], },
  ],
}
"#;

/// Every diagnostic for `text`, displayed; empty when it parses.
fn errors(text: &str) -> Vec<String> {
    match parse_str("t.jsonc", text) {
        Ok(_) => Vec::new(),
        Err(diagnostics) => diagnostics.iter().map(ToString::to_string).collect(),
    }
}

/// A valid scenario whose free-form `extras` holds `expect` (raw text).
fn with_expect(expect: &str) -> String {
    format!(r#"{{"version": 1, "name": "x", "tabs": [], "extras": {expect}}}"#)
}

#[test]
fn accepts_comments_and_trailing_commas() {
    assert_eq!(errors(VALID), Vec::<String>::new());
    let scenario = parse_str("t.jsonc", VALID).expect("valid");
    assert_eq!(scenario.name, "minimal");
    assert_eq!(scenario.tabs[0].script, vec![crate::Action::Log("hi".to_owned())]);
}

#[test]
fn accepts_a_byte_order_mark() {
    let text = format!("\u{feff}{VALID}");
    assert_eq!(errors(&text), Vec::<String>::new());
    let text = "\u{feff}{\"version\": 1, \"name\": 5, \"tabs\": []}";
    assert_eq!(errors(text), ["t.jsonc:1:25: name: invalid type: integer `5`, expected a string"]);
}

#[test]
fn syntax_errors_have_positions() {
    let text = "{\n  \"version\": 1,\n  \"name\": \"x\"\n  \"tabs\": []\n}";
    assert_eq!(
        errors(text),
        ["t.jsonc:3:14: syntax error: expected comma\n  hint: separate object members and array elements with commas"]
    );
    assert_eq!(
        errors("{\n  \"version\": undefined\n}"),
        ["t.jsonc:2:14: syntax error: unexpected word\n  hint: JSON has no undefined: write {\"$js\": \"undefined\"}"]
    );
    assert_eq!(
        errors("{\"version\": 1, \"tabs\": [\n"),
        ["t.jsonc:1:24: syntax error: unterminated array\n  hint: this `[` has no matching `]`"]
    );
    assert_eq!(
        errors(""),
        ["t.jsonc:1:1: the file holds no JSON value\n  hint: a scenario is one object: {\"version\": 1, \"name\": …, \"tabs\": […]}"]
    );
}

#[test]
fn a_repeated_key_is_an_error_at_the_second() {
    let text = "{\n  \"version\": 1,\n  \"version\": 1\n}";
    assert_eq!(
        errors(text),
        ["t.jsonc:3:3: version: duplicate key \"version\"\n  hint: it is already set at line 2, column 3"]
    );
}

#[test]
fn a_number_out_of_range_is_an_error() {
    assert_eq!(
        errors(&with_expect("[1e999]")),
        ["t.jsonc:1:52: extras[0]: cannot read the number 1e999\n  hint: write numbers as JSON does, within the range of a 64-bit float"]
    );
}

#[test]
fn deserialization_errors_point_at_value_key_or_object() {
    let text = "{\n  \"version\": \"1\",\n  \"name\": \"x\",\n  \"tabs\": []\n}";
    assert_eq!(errors(text), ["t.jsonc:2:14: version: invalid type: string \"1\", expected a non-negative integer"]);
    let text = "{\n  \"version\": 1,\n  \"nmae\": \"x\",\n  \"tabs\": []\n}";
    let [error] = &errors(text)[..] else { panic!("one error expected") };
    assert!(error.starts_with(
        "t.jsonc:3:3: nmae: unknown field `nmae`\n  hint: did you mean `name`? expected one of `version`, `name`,"
    ));
    let text =
        "{\n  \"version\": 1,\n  \"name\": \"x\",\n  \"tabs\": [\n    { \"url\": \"https://a.example/\" }\n  ]\n}";
    assert_eq!(errors(text), ["t.jsonc:5:5: tabs[0]: missing field `id`\n  hint: add \"id\": …"]);
    let text = "{\"version\": 1, \"name\": \"x\", \"tabs\": [{\"id\": \"t\", \"url\": \"https://a.example/\",\n \"script\": [{\"setTimeout\": {\"do\": [], \"mss\": 1}}, {\"logg\": \"\"}]}]}";
    assert_eq!(
        errors(text),
        ["t.jsonc:2:39: tabs[0].script[0].setTimeout.mss: unknown field `mss`\n  hint: did you mean `ms`? expected `ms` or `do`"]
    );
    let text = text.replace("\"mss\": 1", "\"ms\": 1");
    assert!(errors(&text)[0]
        .starts_with("t.jsonc:2:51: tabs[0].script[1].logg: unknown variant `logg`\n  hint: did you mean `log`?"));
    let text = "{\"version\": 1, \"name\": \"x\", \"tabs\": [{\"id\": \"t\", \"url\": \"https://a.example/\",\n \"script\": [{\"registerTool\": {\"tool\": {\"name\": \"t\", \"description\": \"d\", \"execute\": {\"result\": \"nevr\"}}}}]}]}";
    assert!(errors(text)[0].starts_with("t.jsonc:2:95: tabs[0].script[0].registerTool.tool.execute.result: unknown variant `nevr`\n  hint: did you mean `never`? expected one of `resolve`,"));
    let text = "{\"version\": 1, \"name\": null, \"tabs\": []}";
    assert_eq!(errors(text), ["t.jsonc:1:24: name: invalid type: null, expected a string"]);
    assert_eq!(errors("[]"), ["t.jsonc:1:1: invalid type: array, expected an object (Scenario)"]);
}

#[test]
fn serde_messages_use_json_words() {
    let cases = [
        ("invalid type: sequence, expected struct Frame", "invalid type: array, expected an object (Frame)"),
        (
            "invalid type: map, expected struct variant ToolRef::FromGetTools",
            "invalid type: object, expected an object (ToolRef::FromGetTools)",
        ),
        ("invalid type: unit value, expected a string", "invalid type: null, expected a string"),
        ("invalid value: integer `-1`, expected u64", "invalid value: integer `-1`, expected a non-negative integer"),
        ("invalid type: string \"x\", expected a sequence", "invalid type: string \"x\", expected an array"),
        ("invalid type: string \"x\", expected a map", "invalid type: string \"x\", expected an object"),
        ("invalid type: integer `5`, expected enum Action", "invalid type: integer `5`, expected enum Action"),
        ("something else", "something else"),
    ];
    for (serde, ours) in cases {
        assert_eq!(in_json_words(serde), ours);
    }
}

#[test]
fn input_larger_than_the_limit_is_refused() {
    let at_limit = format!("{VALID}{}", " ".repeat(MAX_INPUT_BYTES - VALID.len()));
    assert_eq!(errors(&at_limit), Vec::<String>::new());
    let over = format!("{at_limit} ");
    assert_eq!(
        errors(&over),
        ["t.jsonc:1:1: the file is larger than 1048576 bytes (1 MiB)\n  hint: a scenario shows one race; split a larger one into several files"]
    );
}

#[test]
fn nesting_is_limited_to_64_levels() {
    // The root object is level 1, so `expect` may nest 63 arrays.
    let ok = with_expect(&format!("{}{}", "[".repeat(MAX_DEPTH - 1), "]".repeat(MAX_DEPTH - 1)));
    assert_eq!(errors(&ok), Vec::<String>::new());
    let deep = with_expect(&format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH)));
    let column = with_expect("").len() + MAX_DEPTH - 1;
    assert_eq!(
        errors(&deep),
        [format!("t.jsonc:1:{column}: objects and arrays nest deeper than 64 levels\n  hint: a scenario nests at most 64 levels deep; move deeply nested callbacks into timers or separate documents")]
    );
}

#[test]
fn very_deep_input_is_refused_without_overflowing_the_stack() {
    for open in ["[", "{\"a\":", "[{\"log\":"] {
        let text = open.repeat(200_000 / open.len());
        let errors = errors(&text);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("nest deeper than 64 levels"), "{}", errors[0]);
    }
}

#[test]
fn brackets_in_strings_and_comments_do_not_count() {
    let deep = "[".repeat(100);
    let text = with_expect(&format!("[\"{deep}\", \"\\\"{deep}\", // {deep}\n /* {deep} */ 1]"));
    assert_eq!(errors(&text), Vec::<String>::new());
}

#[test]
fn the_depth_scan_never_counts_fewer_levels_than_the_parser() {
    // A line comment ends at a carriage return, as the parser reads it.
    let deep = format!("// x\r{}", "[".repeat(MAX_DEPTH + 1));
    assert_eq!(too_deep_at(&deep), Some(5 + MAX_DEPTH));
    // An unterminated string or comment hides the rest, which the parser rejects anyway.
    assert_eq!(too_deep_at(&format!("\"{}", "[".repeat(100))), None);
    assert_eq!(too_deep_at(&format!("/*{}", "[".repeat(100))), None);
    assert_eq!(too_deep_at(&format!("/**/{}", "[".repeat(MAX_DEPTH + 1))), Some(4 + MAX_DEPTH));
    assert_eq!(too_deep_at(&format!("\"\\\\\"{}", "[".repeat(MAX_DEPTH + 1))), Some(4 + MAX_DEPTH));
}

#[test]
fn parse_jsonc_strips_comments() {
    let value = parse_jsonc("t.jsonc", "// c\n{\"a\": [1, /* c */ 2,], }");
    assert_eq!(value, Ok(serde_json::json!({"a": [1, 2]})));
    let error = parse_jsonc("t.jsonc", "{\"a\": }").map_err(|d| d.to_string());
    assert_eq!(error, Err("t.jsonc:1:7: syntax error: unexpected close brace\n  hint: brackets must pair up: an earlier `[` or `{` is still open, or this one is extra".to_owned()));
}

/// A fresh path in the temporary directory for this test.
fn temp_file(name: &str, contents: &[u8]) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("scenario-parse-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("the temporary directory is writable");
    path
}

#[test]
fn load_reads_a_file_and_returns_its_text() {
    let path = temp_file("valid.jsonc", VALID.as_bytes());
    let loaded = load(&path);
    std::fs::remove_file(&path).ok();
    let (scenario, text) = loaded.expect("valid");
    assert_eq!(scenario.name, "minimal");
    assert_eq!(text, VALID);
}

#[test]
fn load_reports_unreadable_oversized_and_non_utf8_files() {
    let missing = std::env::temp_dir().join("scenario-parse-does-not-exist.jsonc");
    let errors = load(&missing).map(|_| ()).unwrap_err();
    assert_eq!((errors[0].line, errors[0].column), (1, 1));
    assert!(errors[0].message.starts_with("cannot read the file: "), "{}", errors[0]);

    let path = temp_file("big.jsonc", &vec![b' '; MAX_INPUT_BYTES + 1]);
    let errors = load(&path).map(|_| ()).unwrap_err();
    std::fs::remove_file(&path).ok();
    assert_eq!(errors[0].message, "the file is larger than 1048576 bytes (1 MiB)");

    let path = temp_file("latin1.jsonc", b"{\n  \"name\": \"caf\xe9\"\n}");
    let errors = load(&path).map(|_| ()).unwrap_err();
    std::fs::remove_file(&path).ok();
    let display = path.display();
    assert_eq!(
        errors[0].to_string(),
        format!("{display}:2:15: the file is not valid UTF-8\n  hint: save the scenario as UTF-8 text")
    );
}

proptest! {
    #[test]
    fn never_panics_on_json_like_text(text in "[\\[\\]{}\",:0-9a-zA-Z $./*\\\\\n\r\u{feff}é-]{0,300}") {
        let _ = parse_str("t.jsonc", &text);
        let _ = parse_jsonc("t.jsonc", &text);
    }

    #[test]
    fn never_panics_on_edits_of_a_valid_scenario(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), "[\\[\\]{}\",:a-z0-9/*\\\\\n]{0,3}", 0usize..4), 1..6)
    ) {
        let mut text = VALID.to_owned();
        for (at, insert, remove) in edits {
            let mut start = at.index(text.len() + 1);
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = (start + remove).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            text.replace_range(start..end, &insert);
        }
        if let Err(diagnostics) = parse_str("t.jsonc", &text) {
            prop_assert!(!diagnostics.is_empty());
            for d in diagnostics {
                prop_assert!(d.line >= 1 && d.column >= 1);
                let _ = d.render(&text);
            }
        }
    }
}
