//! Tests of the hostile-input generator and the parser fuzzer, on a bounded number of inputs.

use super::*;

#[test]
fn edge_cases_stop_at_the_documented_limits() {
    for (name, text) in edge_cases() {
        let result = scenario::parse_str("edge.jsonc", &text);
        let first = result.as_ref().err().map(|d| d[0].message.clone()).unwrap_or_default();
        match name {
            "over 1 MiB" => assert_eq!(first, "the file is larger than 1048576 bytes (1 MiB)"),
            "depth 65" | "depth 100000 unclosed" => {
                assert_eq!(first, "objects and arrays nest deeper than 64 levels", "{name}")
            }
            "10000 actions" | "exactly at the size limit" => assert!(result.is_ok(), "{name}: {first}"),
            "10001 actions" => assert_eq!(first, "the scenario has more than 10000 actions"),
            "5000 unknown references" => assert_eq!(result.unwrap_err().len(), 5_000),
            "1 MiB of unknown references, one action per line" => {
                let n = result.unwrap_err().len();
                assert!(n > 20_000, "{n} diagnostics");
            }
            _ => {}
        }
        let (_, _, panic) = check_input(&text);
        assert_eq!(panic, None, "{name}");
    }
}

#[test]
fn mutations_keep_text_valid_utf8_and_deep_text_nests() {
    assert_eq!(deep(3, 0, true), "[[[null]]]");
    assert_eq!(deep(2, 1, false), "{\"a\":{\"a\":");
    let edits = [Mutation { at: 0, remove: 3, insert: Insert::Token(0) }];
    assert_eq!(mutate("éa", &edits), "{");
}

#[test]
fn ten_thousand_hostile_inputs_neither_panic_nor_hang() {
    let report = fuzz_parser(10_000, 1, |_| {});
    assert_eq!(report.inputs, 10_000);
    assert!(report.panics.is_empty(), "{:?}", report.panics.first());
    assert!(report.accepted > 0 && report.ran > 0, "some mutated scenarios stay valid: {report:?}");
    assert!(report.families.len() >= 6, "{:?}", report.families);
    assert!(report.slowest.0 < Duration::from_secs(10), "{:?}", report.slowest);
}

#[test]
fn mutated_shipped_scenarios_neither_panic_nor_hang_and_many_get_past_the_syntax_check() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/races");
    let mut shipped = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        shipped.push(std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    shipped.sort();
    let report = fuzz_parser_with(3_000, 2, &shipped, |_| {});
    assert!(report.panics.is_empty(), "{:?}", report.panics.first());
    let n = report.families.get("Shipped").copied().unwrap_or_default();
    assert!(n > 500, "{:?}", report.families);
    assert!(report.accepted > 0, "{report:?}");
}
