//! Hostile input for the scenario parser: arbitrary bytes, JSON-like noise, mutated valid
//! scenarios, deep nesting, huge numbers and structurally wrong JSON, plus a fixed list of edge
//! cases at the documented limits. `fuzz_parser` feeds them to `scenario::parse_str`, renders
//! every diagnostic, and compiles and runs (with a unit limit) whatever parses, each under
//! `catch_unwind`, timing every input.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::{json, Value};

use crate::plan::GenConfig;

/// Tokens that mutations insert: JSON punctuation, comment markers, escapes, extreme numbers,
/// special values and the format's own keys.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    ",",
    ":",
    "//",
    "/*",
    "*/",
    "\\",
    "\\u",
    "\\ud800",
    "\n",
    "\u{feff}",
    "é",
    "1e999",
    "-0",
    "123456789012345678901234567890",
    "0.000000000000000000000000000001",
    "-1",
    "null",
    "true",
    "NaN",
    "undefined",
    "'x'",
    "0x10",
    "+1",
    ".5",
    "\"$js\"",
    "{\"$js\": \"cycle\"}",
    "\"registerTool\"",
    "\"executeTool\"",
    "\"tabs\"",
    "\"frames\"",
    "\"script\"",
    "\"setTimeout\"",
    "\"then\"",
    "\"as\": \"p\"",
    "\"version\": 2",
    "\"id\": \"tab\"",
    "\"navigate\"",
    "\"removeIframe\": \"tab\"",
    "\"enterBfcache\"",
    "\u{0}",
    "\u{7f}",
    "\u{10ffff}",
];

/// Keys of the scenario format, for structurally wrong JSON that gets past the syntax check.
const KEYS: &[&str] = &[
    "version",
    "name",
    "tabs",
    "id",
    "url",
    "script",
    "frames",
    "allow",
    "sandbox",
    "headers",
    "user",
    "agent",
    "log",
    "registerTool",
    "getTools",
    "executeTool",
    "tool",
    "description",
    "execute",
    "result",
    "resolve",
    "after",
    "ms",
    "then",
    "promise",
    "onFulfilled",
    "as",
    "fromGetTools",
    "dictionary",
    "window",
    "origin",
    "options",
    "signal",
    "newAbortController",
    "abort",
    "controller",
    "setTimeout",
    "do",
    "on",
    "event",
    "target",
    "navigate",
    "navigable",
    "removeIframe",
    "enterBfcache",
    "observe",
    "callTool",
    "$js",
    "inputSchema",
    "expect",
    "extras",
];

/// One family of hostile text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    Bytes,
    JsonLike,
    Mutated,
    Deep,
    Numbers,
    Structured,
    /// Structure-aware mutations of shipped scenarios (`crate::tree`).
    Shipped,
}

/// A strategy for hostile text, mixing the families; `corpus` holds valid scenario texts to mutate.
pub fn hostile_text(corpus: Vec<String>) -> BoxedStrategy<(Family, String)> {
    let corpus = std::sync::Arc::new(corpus);
    let bytes = prop::collection::vec(any::<u8>(), 0..400)
        .prop_map(|b| (Family::Bytes, String::from_utf8_lossy(&b).into_owned()));
    let json_like =
        "[\\[\\]{}\",:0-9a-zA-Z $./*\\\\\n\r\u{feff}é+eE-]{0,400}".prop_map(|s: String| (Family::JsonLike, s));
    let c = corpus.clone();
    let mutated = (any::<prop::sample::Index>(), prop::collection::vec(mutation(), 1..8))
        .prop_map(move |(i, edits)| (Family::Mutated, mutate(&c[i.index(c.len())], &edits)));
    let deep = (1usize..400, 0usize..4, any::<bool>())
        .prop_map(|(depth, kind, close)| (Family::Deep, deep(depth, kind, close)));
    let c = corpus.clone();
    let numbers = (any::<prop::sample::Index>(), number(), any::<prop::sample::Index>())
        .prop_map(move |(i, n, at)| (Family::Numbers, replace_a_number(&c[i.index(c.len())], &n, at)));
    let structured = structured().prop_map(|v| (Family::Structured, serde_json::to_string(&v).unwrap_or_default()));
    prop_oneof![2 => bytes, 2 => json_like, 5 => mutated, 1 => deep, 2 => numbers, 3 => structured].boxed()
}

/// An edit: at a position, remove up to `remove` bytes, insert a token or copy a slice.
#[derive(Clone, Debug)]
pub struct Mutation {
    at: usize,
    remove: usize,
    insert: Insert,
}

#[derive(Clone, Debug)]
enum Insert {
    Token(usize),
    /// A copy of the text's own bytes from another position (duplication, swaps).
    Slice(usize, usize),
    Nothing,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    (
        any::<usize>(),
        prop_oneof![Just(0usize), 1usize..4, 4usize..64],
        prop_oneof![
            3 => (0..TOKENS.len()).prop_map(Insert::Token),
            1 => (any::<usize>(), 1usize..200).prop_map(|(i, n)| Insert::Slice(i, n)),
            1 => Just(Insert::Nothing),
        ],
    )
        .prop_map(|(at, remove, insert)| Mutation { at, remove, insert })
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Applies the edits in order.
pub fn mutate(text: &str, edits: &[Mutation]) -> String {
    let mut text = text.to_string();
    for edit in edits {
        let start = floor_boundary(&text, edit.at % (text.len() + 1));
        let end = ceil_boundary(&text, (start + edit.remove).min(text.len()));
        let insert = match &edit.insert {
            Insert::Token(t) => TOKENS[*t].to_string(),
            Insert::Slice(from, n) => {
                let a = floor_boundary(&text, from % (text.len() + 1));
                let b = ceil_boundary(&text, (a + n).min(text.len()));
                text[a..b].to_string()
            }
            Insert::Nothing => String::new(),
        };
        text.replace_range(start..end, &insert);
    }
    text
}

/// `depth` nested arrays or objects (or their openers inside a string or a comment, which do not
/// nest), closed or not.
pub fn deep(depth: usize, kind: usize, close: bool) -> String {
    let (open, shut) = match kind {
        0 => ("[", "]"),
        1 => ("{\"a\":", "}"),
        2 => {
            ("{\"tabs\":[{\"id\":\"t\",\"url\":\"https://a.example/\",\"script\":[{\"setTimeout\":{\"do\":[", "]}}]}]}")
        }
        _ => ("[{\"x\":", "}]"),
    };
    let mut s = open.repeat(depth);
    if kind == 3 {
        s = format!("\"{s}\"");
    } else if close {
        s.push_str("null");
        s.push_str(&shut.repeat(depth));
    }
    s
}

/// Number text: extreme magnitudes, long mantissas, negative zero, exponents.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("1e309".to_string()),
        Just("-1e309".to_string()),
        Just("1.7976931348623157e308".to_string()),
        Just("4.9e-324".to_string()),
        Just("-0".to_string()),
        Just("18446744073709551616".to_string()),
        Just("-9223372036854775809".to_string()),
        Just("4294967296".to_string()),
        "[1-9][0-9]{0,400}".prop_map(|s: String| s),
        ("[0-9]{1,40}", "[0-9]{1,40}", -400i32..400).prop_map(|(a, b, e)| format!("{a}.{b}e{e}")),
    ]
}

/// Replaces the `at`-th number of `text` (or appends a member holding it) with `n`.
fn replace_a_number(text: &str, n: &str, at: prop::sample::Index) -> String {
    let bytes = text.as_bytes();
    let starts: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()))
        .collect();
    if starts.is_empty() {
        return text.replacen('{', &format!("{{\"n\": {n},"), 1);
    }
    let start = starts[at.index(starts.len())];
    let end = start + bytes[start..].iter().take_while(|b| b.is_ascii_digit() || b"+-.eE".contains(b)).count();
    format!("{}{n}{}", &text[..start], &text[end..])
}

/// JSON built from the format's own keys with values of every type: it parses, then fails to
/// deserialize or validate in many different ways.
fn structured() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..5).prop_map(|n| json!(n)),
        Just(json!(1e300)),
        (0..KEYS.len()).prop_map(|k| json!(KEYS[k])),
        Just(json!("https://a.example/")),
        Just(json!("tab")),
    ];
    leaf.prop_recursive(6, 64, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((0..KEYS.len(), inner), 0..4).prop_map(|members| {
                Value::Object(members.into_iter().map(|(k, v)| (KEYS[k].to_string(), v)).collect())
            }),
        ]
    })
    .prop_map(|v| match v {
        // Often a scenario-shaped top level, so the deserializer goes deep.
        Value::Object(mut m) => {
            m.entry("version").or_insert(json!(1));
            m.entry("name").or_insert(json!("x"));
            m.entry("tabs").or_insert(json!([{"id": "tab", "url": "https://a.example/"}]));
            Value::Object(m)
        }
        other => other,
    })
}

/// Inputs at and past the documented limits, checked once per fuzz run: the size limit, the
/// depth limit, the action limit, thousands of unknown references and duplicate keys.
pub fn edge_cases() -> Vec<(&'static str, String)> {
    let tab = |script: String| {
        format!(
            r#"{{"version": 1, "name": "x", "tabs": [{{"id": "tab", "url": "https://a.example/", "script": [{script}]}}]}}"#
        )
    };
    let logs = |n: usize| vec![r#"{"log": "x"}"#; n].join(",");
    vec![
        ("over 1 MiB", format!("{{\"name\": \"{}\"}}", "x".repeat(scenario::MAX_INPUT_BYTES))),
        ("exactly at the size limit", {
            let mut s = tab(String::new());
            s.push_str(&" ".repeat(scenario::MAX_INPUT_BYTES - s.len()));
            s
        }),
        ("depth 64", deep(63, 0, true)),
        ("depth 65", deep(65, 0, true)),
        ("depth 100000 unclosed", deep(100_000, 0, false)),
        ("depth 100000 in a string", format!("\"{}\"", "[".repeat(100_000))),
        ("depth 100000 in a comment", format!("// {}\n{{}}", "{".repeat(100_000))),
        ("10000 actions", tab(logs(10_000))),
        ("10001 actions", tab(logs(10_001))),
        ("5000 unknown references", tab(vec![r#"{"then": {"promise": "nope"}}"#; 5_000].join(","))),
        ("1 MiB of unknown references, one action per line", {
            let item = concat!(
                r#"{"executeTool": {"document": "nx", "tool": {"fromGetTools": {"promise": "np", "name": "t"}}, "#,
                r#""options": {"signal": "nc"}}},"#,
                "\n"
            );
            let n = ((scenario::MAX_INPUT_BYTES - 200) / item.len()).min(9_999);
            tab(format!(r#"{}{{"log": "x"}}"#, item.repeat(n)))
        }),
        ("10000 duplicate keys", format!("{{{}}}", vec![r#""name": "x""#; 10_000].join(","))),
        (
            "a number with 100000 digits",
            tab(format!(r#"{{"setTimeout": {{"ms": {}, "do": []}}}}"#, "9".repeat(100_000))),
        ),
        ("empty", String::new()),
        ("only a byte order mark", "\u{feff}".into()),
        ("lone surrogate escape", r#"{"name": "\ud800"}"#.into()),
        ("NUL bytes", "{\"name\": \"\u{0}\"}\u{0}".into()),
    ]
}

/// What a run of the parser fuzzer saw.
#[derive(Clone, Debug, Default)]
pub struct ParserFuzz {
    pub inputs: u64,
    pub bytes: u64,
    /// Inputs that parsed and validated.
    pub accepted: u64,
    /// Of those, the ones that compiled and ran (with a unit limit).
    pub ran: u64,
    /// Inputs per family.
    pub families: std::collections::BTreeMap<String, u64>,
    /// Each panic: the family, the input (cut to 2,000 bytes) and the message.
    pub panics: Vec<(String, String, String)>,
    /// The slowest input: its time, length and family.
    pub slowest: (Duration, usize, String),
    pub elapsed: Duration,
}

/// A corpus of valid scenario texts to mutate: generated scenarios, as `.jsonc` and as pretty JSON.
pub fn corpus(seed: u64, n: u64) -> Vec<String> {
    let mut out = Vec::new();
    for i in 0..n {
        let plan = crate::shrink::generate(seed.wrapping_add(i), GenConfig::default());
        let s = crate::build::build(&plan, "corpus");
        out.push(crate::jsonc::to_jsonc(&s, &["corpus".into()]));
        out.push(serde_json::to_string_pretty(&s).unwrap_or_default());
    }
    out
}

/// Diagnostics per input that `check_input` renders.
pub const RENDERED: usize = 100;

/// Checks one input: parse (and render every diagnostic); if it parses, compile and run it with a
/// unit limit. Returns whether it parsed, whether it ran, and a panic message.
pub fn check_input(text: &str) -> (bool, bool, Option<String>) {
    let mut parsed = false;
    let mut ran = false;
    let result = catch_unwind(AssertUnwindSafe(|| {
        let _ = scenario::parse_jsonc("fuzz.jsonc", text);
        match scenario::parse_str("fuzz.jsonc", text) {
            Err(diagnostics) => {
                // Render as the command line would, the first RENDERED of them (rendering is
                // linear in the file, so all of them would make the time quadratic).
                for d in diagnostics.iter().take(RENDERED) {
                    let _ = d.render(text);
                }
            }
            Ok(s) => {
                parsed = true;
                if let Ok(program) = webmcp::compile(&s) {
                    let limits = webmcp::Limits { max_units: 2_000 };
                    let _ = webmcp::run(&program, &mut sched::RandomChooser::new(0), limits);
                    ran = true;
                }
            }
        }
    }));
    let panic = result.err().map(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic".into())
    });
    (parsed, ran, panic)
}

/// Feeds `inputs` hostile inputs (the edge cases first, then generated ones from `seed`) to the
/// parser; `progress` is called every 10,000 inputs.
pub fn fuzz_parser(inputs: u64, seed: u64, progress: impl FnMut(&ParserFuzz)) -> ParserFuzz {
    fuzz_parser_with(inputs, seed, &[], progress)
}

/// [`fuzz_parser`], also mutating `shipped` (the texts of real scenario files): byte-level, as
/// the generated corpus, and structure-aware ([`crate::tree`]), a third of the inputs.
pub fn fuzz_parser_with(
    inputs: u64,
    seed: u64,
    shipped: &[String],
    mut progress: impl FnMut(&ParserFuzz),
) -> ParserFuzz {
    let start = Instant::now();
    let mut report = ParserFuzz::default();
    let trees: Vec<Value> =
        shipped.iter().filter_map(|text| scenario::parse_jsonc("shipped.jsonc", text).ok()).collect();
    let mut texts = corpus(seed, 32);
    texts.extend(shipped.iter().cloned());
    let strategy = if trees.is_empty() {
        hostile_text(texts)
    } else {
        let tree_mutated = crate::tree::mutated(trees).prop_map(|text| (Family::Shipped, text));
        prop_oneof![2 => hostile_text(texts), 1 => tree_mutated].boxed()
    };
    let mut runner = crate::shrink::runner(seed, 0);
    let edge = edge_cases().into_iter().map(|(name, text)| (name.to_string(), text));
    let mut generated = std::iter::from_fn(|| {
        strategy.new_tree(&mut runner).ok().map(|t| {
            let (family, text) = t.current();
            (format!("{family:?}"), text)
        })
    });
    let mut edge = edge.peekable();
    let mut next_progress = 10_000;
    while report.inputs < inputs {
        let (family, text) = match edge.next() {
            Some((name, text)) => (format!("edge: {name}"), text),
            None => match generated.next() {
                Some(x) => x,
                None => break,
            },
        };
        let t0 = Instant::now();
        let (parsed, ran, panic) = check_input(&text);
        let took = t0.elapsed();
        report.inputs += 1;
        report.bytes += text.len() as u64;
        report.accepted += u64::from(parsed);
        report.ran += u64::from(ran);
        let key = if family.starts_with("edge") { "Edge".to_string() } else { family.clone() };
        *report.families.entry(key).or_default() += 1;
        if took > report.slowest.0 {
            report.slowest = (took, text.len(), family.clone());
        }
        if let Some(message) = panic {
            let cut = floor_boundary(&text, text.len().min(2_000));
            report.panics.push((family, text[..cut].to_string(), message));
        }
        if report.inputs >= next_progress {
            next_progress += 10_000;
            report.elapsed = start.elapsed();
            progress(&report);
        }
    }
    report.elapsed = start.elapsed();
    report
}

#[cfg(test)]
mod tests;
