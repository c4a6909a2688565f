//! Reading `.jsonc` scenario text: size and depth limits, syntax, conversion to JSON,
//! deserialization into a `Scenario` and validation, each failure a `Diagnostic` at `file:line:col`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use jsonc_parser::ast;
use jsonc_parser::common::Ranged;
use jsonc_parser::errors::{ParseError, ParseErrorKind};
use jsonc_parser::{parse_to_ast, CollectOptions, ParseOptions};

use crate::de::Strict;
use crate::diag::{quoted, Diagnostic};
use crate::model::Scenario;
use crate::path::{JsonPath, Segment};
use crate::source::{locate, value_at, Anchor, Source};
use crate::suggest::closest;
use crate::validate::validate;

/// Largest scenario file, in bytes (1 MiB).
pub const MAX_INPUT_BYTES: usize = 1 << 20;

/// Deepest nesting of objects and arrays in a scenario file; the root object is level 1.
pub const MAX_DEPTH: usize = 64;

/// Parses, deserializes and validates the scenario `text`, read from `file` (the name used in
/// diagnostics).
///
/// The text is JSON with `//` and `/* */` comments and optional trailing commas. On failure the
/// result lists every problem validation found, in file order; a syntax or type error stops
/// before validation, so it comes alone.
pub fn parse_str(file: &str, text: &str) -> Result<Scenario, Vec<Diagnostic>> {
    let source = Source::new(file, text);
    let text = without_bom(text);
    let root = parse_ast(&source, &text).map_err(|d| vec![d])?;
    let json = to_json(&source, &root, &mut JsonPath::root(), 1).map_err(|d| vec![d])?;
    let scenario = deserialize(&source, &root, &json).map_err(|d| vec![d])?;
    let mut diagnostics: Vec<Diagnostic> = validate(&scenario)
        .into_iter()
        .map(|problem| {
            let offset = locate(&root, &problem.path, problem.anchor);
            source.at(offset, &problem.path, problem.message, problem.hint)
        })
        .collect();
    if diagnostics.is_empty() {
        return Ok(scenario);
    }
    // A stable sort: problems at the same place stay in the order validation found them.
    diagnostics.sort_by_key(|d| (d.line, d.column));
    Err(diagnostics)
}

/// Reads the scenario file at `path` and parses it with [`parse_str`], naming the file as
/// `path` displays. Returns the scenario and the file's text, to render diagnostics that come
/// later (e.g. from the engine).
///
/// A file that cannot be read, is larger than [`MAX_INPUT_BYTES`] or is not UTF-8 gives one
/// diagnostic (at 1:1, or where the first invalid byte is).
pub fn load(path: &Path) -> Result<(Scenario, String), Vec<Diagnostic>> {
    let text = read_file(path).map_err(|d| vec![d])?;
    let scenario = parse_str(&path.display().to_string(), &text)?;
    Ok((scenario, text))
}

/// Reads the file at `path` as [`load`] does, without parsing it: for a caller that wants the
/// text even when parsing fails, to render the diagnostics with [`Diagnostic::render`].
pub fn read_file(path: &Path) -> Result<String, Diagnostic> {
    read_text(path)
}

/// Parses `.jsonc` text (comments, trailing commas) into plain JSON, under the same limits and
/// syntax rules as [`parse_str`]; a repeated key in an object is an error.
pub fn parse_jsonc(file: &str, text: &str) -> Result<serde_json::Value, Diagnostic> {
    let source = Source::new(file, text);
    let text = without_bom(text);
    let root = parse_ast(&source, &text)?;
    to_json(&source, &root, &mut JsonPath::root(), 1)
}

/// `text` with a leading byte order mark replaced by three spaces, which the parser skips; byte
/// offsets stay those of `text`.
fn without_bom(text: &str) -> Cow<'_, str> {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => Cow::Owned(format!("   {rest}")),
        None => Cow::Borrowed(text),
    }
}

/// Reads the file at `path` as [`load`] does, once and at most [`MAX_INPUT_BYTES`] + 1 bytes of
/// it, whatever it is (a FIFO, `/dev/zero`, a sparse file). On failure the diagnostic comes
/// with the text that was read (invalid UTF-8 shown as U+FFFD), so the caller can render its
/// snippet with [`Diagnostic::render`] without reading the file again.
pub fn read_source(path: &Path) -> Result<String, Box<(Diagnostic, String)>> {
    let file = path.display().to_string();
    let at_start = |message: String, hint: Option<&str>| Diagnostic {
        file: file.clone(),
        line: 1,
        column: 1,
        path: String::new(),
        message,
        hint: hint.map(str::to_owned),
    };
    let mut bytes = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(MAX_INPUT_BYTES as u64 + 1).read_to_end(&mut bytes));
    if let Err(error) = read {
        let lossy = String::from_utf8_lossy(&bytes).into_owned();
        return Err(Box::new((at_start(format!("cannot read the file: {error}"), None), lossy)));
    }
    if bytes.len() > MAX_INPUT_BYTES {
        // The first line is enough to show where the file starts.
        let first_line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
        let lossy = String::from_utf8_lossy(&first_line[..first_line.len().min(4096)]).into_owned();
        return Err(Box::new((too_large(at_start), lossy)));
    }
    String::from_utf8(bytes).map_err(|error| {
        let valid = error.utf8_error().valid_up_to();
        let prefix = std::str::from_utf8(&error.as_bytes()[..valid]).unwrap_or_default();
        let (line, column) = Source::new(&file, prefix).line_col(valid);
        let diagnostic = Diagnostic {
            line,
            column,
            ..at_start("the file is not valid UTF-8".to_owned(), Some("save the scenario as UTF-8 text"))
        };
        Box::new((diagnostic, String::from_utf8_lossy(error.as_bytes()).into_owned()))
    })
}

/// [`read_source`] without the text read on failure.
fn read_text(path: &Path) -> Result<String, Diagnostic> {
    read_source(path).map_err(|failed| failed.0)
}

fn too_large(at_start: impl Fn(String, Option<&str>) -> Diagnostic) -> Diagnostic {
    at_start(
        format!("the file is larger than {MAX_INPUT_BYTES} bytes (1 MiB)"),
        Some("a scenario shows one race; split a larger one into several files"),
    )
}

/// Checks the limits, then parses `text` into a syntax tree.
fn parse_ast<'t>(source: &Source<'_>, text: &'t str) -> Result<ast::Value<'t>, Diagnostic> {
    let root = JsonPath::root();
    if text.len() > MAX_INPUT_BYTES {
        return Err(too_large(|message, hint| source.at(0, &root, message, hint.map(str::to_owned))));
    }
    // The parser recurses once per level, so refuse deep input before parsing it.
    if let Some(offset) = too_deep_at(text) {
        return Err(too_deep(source, offset, &root));
    }
    let options = ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let parsed =
        parse_to_ast(text, &CollectOptions::default(), &options).map_err(|error| syntax_error(source, &error))?;
    parsed.value.ok_or_else(|| {
        source.at(
            text.len(),
            &root,
            "the file holds no JSON value",
            Some(r#"a scenario is one object: {"version": 1, "name": …, "tabs": […]}"#.to_owned()),
        )
    })
}

fn too_deep(source: &Source<'_>, offset: usize, path: &JsonPath) -> Diagnostic {
    source.at(
        offset,
        path,
        format!("objects and arrays nest deeper than {MAX_DEPTH} levels"),
        Some(format!(
            "a scenario nests at most {MAX_DEPTH} levels deep; \
             move deeply nested callbacks into timers or separate documents"
        )),
    )
}

/// The byte offset of the first `{` or `[` that opens level `MAX_DEPTH + 1`, skipping strings
/// and comments the way the parser reads them.
///
/// It never counts fewer levels than the parser would reach: it may count more only in text the
/// parser rejects anyway (a bracket inside a single-quoted string).
fn too_deep_at(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        match byte {
            b'"' => {
                i += 1;
                while let Some(&b) = bytes.get(i) {
                    match b {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while bytes.get(i).is_some_and(|&b| b != b'\n' && b != b'\r') {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text.get(i + 2..).and_then(|rest| rest.find("*/")).map_or(bytes.len(), |end| i + 2 + end + 1);
            }
            b'{' | b'[' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(i);
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// A parser error as a diagnostic, with a hint for the common mistakes.
fn syntax_error(source: &Source<'_>, error: &ParseError) -> Diagnostic {
    use ParseErrorKind as K;
    let hint = match error.kind() {
        K::ExpectedComma => Some("separate object members and array elements with commas"),
        K::ExpectedStringObjectProperty => Some(r#"write keys as double-quoted strings: "name": …"#),
        K::SingleQuotedStringsNotAllowed => Some("write strings in double quotes"),
        K::UnexpectedWord | K::UnexpectedToken => {
            word_hint(source.text().get(error.range().start..).unwrap_or_default())
        }
        K::HexadecimalNumbersNotAllowed
        | K::UnaryPlusNumbersNotAllowed
        | K::BareDecimalPointNumbersNotAllowed
        | K::NonFiniteNumbersNotAllowed => Some("write numbers as JSON does, e.g. 0.5 or 255"),
        K::UnexpectedCloseBrace | K::UnexpectedCloseBracket => {
            Some("brackets must pair up: an earlier `[` or `{` is still open, or this one is extra")
        }
        K::UnterminatedObject => Some("this `{` has no matching `}`"),
        K::UnterminatedArray => Some("this `[` has no matching `]`"),
        K::UnterminatedCommentBlock => Some("close the comment with `*/`"),
        K::MultipleRootJsonValues => Some("a scenario file holds one object"),
        K::NestingDepthExceeded => Some("a scenario nests at most 64 levels deep"),
        _ => None,
    };
    let message = error.kind().to_string();
    let message = match message.chars().next() {
        Some(first) => format!("syntax error: {}{}", first.to_lowercase(), &message[first.len_utf8()..]),
        None => "syntax error".to_owned(),
    };
    source.at(error.range().start, &JsonPath::root(), message, hint.map(str::to_owned))
}

/// A hint for a bare word where a value should be.
fn word_hint(rest: &str) -> Option<&'static str> {
    let word: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$').collect();
    match word.as_str() {
        "" => None,
        "undefined" => Some(r#"JSON has no undefined: write {"$js": "undefined"}"#),
        "NaN" | "Infinity" => Some("JSON has no NaN or Infinity"),
        "True" | "False" | "TRUE" | "FALSE" => Some("write true and false in lower case"),
        "None" | "Null" | "NULL" | "nil" => Some("write null"),
        _ => Some(r#"write strings in double quotes: "text""#),
    }
}

/// Converts the syntax tree to JSON; `path` is where `value` sits and `depth` its level.
fn to_json(
    source: &Source<'_>,
    value: &ast::Value<'_>,
    path: &mut JsonPath,
    depth: usize,
) -> Result<serde_json::Value, Diagnostic> {
    use serde_json::Value as J;
    if depth > MAX_DEPTH {
        return Err(too_deep(source, value.start(), path));
    }
    Ok(match value {
        ast::Value::StringLit(string) => J::String(string.value.to_string()),
        ast::Value::NumberLit(number) => J::Number(number.value.parse().map_err(|_| {
            source.at(
                number.start(),
                path,
                format!("cannot read the number {}", number.value),
                Some("write numbers as JSON does, within the range of a 64-bit float".to_owned()),
            )
        })?),
        ast::Value::BooleanLit(boolean) => J::Bool(boolean.value),
        ast::Value::NullKeyword(_) => J::Null,
        ast::Value::Array(array) => {
            let mut elements = Vec::with_capacity(array.elements.len());
            for (index, element) in array.elements.iter().enumerate() {
                path.push_index(index);
                elements.push(to_json(source, element, path, depth + 1)?);
                path.pop();
            }
            J::Array(elements)
        }
        ast::Value::Object(object) => {
            let mut map = serde_json::Map::new();
            let mut first_at = BTreeMap::new();
            for prop in &object.properties {
                let name = prop.name.as_str();
                path.push_key(name);
                if let Some(&first) = first_at.get(name) {
                    let (line, column) = source.line_col(first);
                    return Err(source.at(
                        prop.name.start(),
                        path,
                        format!("duplicate key {}", quoted(name)),
                        Some(format!("it is already set at line {line}, column {column}")),
                    ));
                }
                first_at.insert(name, prop.name.start());
                map.insert(name.to_owned(), to_json(source, &prop.value, path, depth + 1)?);
                path.pop();
            }
            J::Object(map)
        }
    })
}

/// Deserializes the JSON into a `Scenario`; a failure points at the value, the unknown key, or
/// the object that misses a field.
fn deserialize(source: &Source<'_>, root: &ast::Value<'_>, json: &serde_json::Value) -> Result<Scenario, Diagnostic> {
    serde_path_to_error::deserialize(Strict(json)).map_err(|error| {
        let mut path = JsonPath::root();
        for segment in error.path() {
            match segment {
                serde_path_to_error::Segment::Seq { index } => path.push_index(*index),
                serde_path_to_error::Segment::Map { key } | serde_path_to_error::Segment::Enum { variant: key } => {
                    path.push_key(key)
                }
                serde_path_to_error::Segment::Unknown => break,
            }
        }
        let (anchor, message, hint) = describe_serde_error(root, &mut path, error.inner().to_string());
        source.at(locate(root, &path, anchor), &path, message, hint)
    })
}

/// Splits serde's `unknown field `x`, expected one of …` into a message and a hint, and makes
/// `path` end at the offending key.
fn describe_serde_error(
    root: &ast::Value<'_>,
    path: &mut JsonPath,
    message: String,
) -> (Anchor, String, Option<String>) {
    for prefix in ["unknown field `", "unknown variant `"] {
        let Some((name, expected)) = message.strip_prefix(prefix).and_then(|rest| rest.split_once('`')) else {
            continue;
        };
        // serde_path_to_error ends the path at the unknown field's key, but not at an unknown
        // variant's: add it when the value there is an object with that key.
        let names_the_key = |value: &ast::Value<'_>| match value {
            ast::Value::Object(object) => object.properties.iter().any(|p| p.name.as_str() == name),
            _ => false,
        };
        let anchor = if path.last() == Some(&Segment::Key(name.to_owned())) {
            Anchor::Key
        } else if value_at(root, path).is_some_and(names_the_key) {
            path.push_key(name);
            Anchor::Key
        } else {
            // A unit variant written as a string: point at the string.
            Anchor::Value
        };
        let head = format!("{prefix}{name}`");
        let expected = expected.trim_start_matches(", ");
        if expected.is_empty() {
            return (anchor, head, None);
        }
        let known = expected.split('`').skip(1).step_by(2);
        let hint = match closest(name, known) {
            Some(near) => format!("did you mean `{near}`? {expected}"),
            None => expected.to_owned(),
        };
        return (anchor, head, Some(hint));
    }
    if let Some(field) = message.strip_prefix("missing field `").and_then(|rest| rest.strip_suffix('`')) {
        let hint = format!("add \"{field}\": …");
        return (Anchor::Value, message, Some(hint));
    }
    let message = in_json_words(&message);
    match message.split_once(", expected one of ") {
        Some((head, expected)) => (Anchor::Value, head.to_owned(), Some(format!("expected one of {expected}"))),
        None => (Anchor::Value, message, None),
    }
}

/// serde's words for types, in JSON's words: `sequence` is an array, `u64` a non-negative
/// integer, `struct Frame` an object.
fn in_json_words(message: &str) -> String {
    let Some((found, expected)) = message.split_once(", expected ") else {
        return message.to_owned();
    };
    let found = match found {
        // A null reaches a visitor as a unit value.
        "invalid type: unit value" => "invalid type: null",
        "invalid type: sequence" => "invalid type: array",
        "invalid type: map" => "invalid type: object",
        other => other,
    };
    let object = expected.strip_prefix("struct variant ").or_else(|| expected.strip_prefix("struct "));
    let expected = match (object, expected) {
        (Some(name), _) => format!("an object ({name})"),
        (None, "u8" | "u16" | "u32" | "u64") => "a non-negative integer".to_owned(),
        (None, "a sequence") => "an array".to_owned(),
        (None, "a map") => "an object".to_owned(),
        (None, other) => other.to_owned(),
    };
    format!("{found}, expected {expected}")
}

#[cfg(test)]
mod tests;
