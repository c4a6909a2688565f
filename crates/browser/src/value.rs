//! Simulated JavaScript values, DOMException names, and Infra's JSON conversions.
//!
//! The simulator never runs JavaScript; a value is whatever a scenario or an algorithm made.
//! Values JSON cannot write (undefined, BigInt, cycles, …) are explicit variants, so the
//! spec's serialization failures can be reached from a scenario.

use std::borrow::Cow;
use std::fmt;

#[cfg(test)]
mod tests;

/// A JavaScript number, compared and hashed by its bits (so values can be fingerprinted).
#[derive(Clone, Copy, Debug)]
pub struct Num(pub f64);

impl PartialEq for Num {
    fn eq(&self, other: &Num) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}
impl Eq for Num {}
impl std::hash::Hash for Num {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

/// The DOMException names this simulator produces or accepts (WebIDL #idl-DOMException-error-names).
pub const DOM_EXCEPTION_NAMES: &[&str] = &[
    "AbortError",
    "DataError",
    "InvalidStateError",
    "NotAllowedError",
    "NotFoundError",
    "NotSupportedError",
    "SecurityError",
    "TimeoutError",
    "UnknownError",
];

/// The ECMAScript error constructors a scenario may throw.
pub const ERROR_NAMES: &[&str] = &["Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError"];

/// A simulated JavaScript value.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum JsValue {
    Undefined,
    Null,
    Bool(bool),
    Number(Num),
    String(std::sync::Arc<str>),
    /// A BigInt, kept as its decimal digits.
    BigInt(String),
    Array(Vec<JsValue>),
    /// A plain object; members in insertion order. Keys the simulator writes (a `RegisteredTool`'s
    /// members) are static strings, not copies.
    Object(Vec<(Cow<'static, str>, JsValue)>),
    /// An object that contains itself (JSON serialization throws a TypeError).
    Cycle,
    /// An object whose `toJSON()` returns undefined.
    ToJsonUndefined,
    /// A function object.
    Function,
    /// A `WindowProxy`, by the simulator's index of its navigable (HTML: a browsing context's
    /// WindowProxy). It stands for the Window of whatever document the navigable shows when it is
    /// used (its [[Window]] changes when the navigable navigates to a new document), and after its
    /// navigable is destroyed for the Window of the last document it showed.
    WindowProxy(u32),
    /// A `DOMException` with a name from `DOM_EXCEPTION_NAMES`.
    DomException {
        name: String,
        message: String,
    },
    /// An ECMAScript error object (`TypeError`, …).
    Error {
        name: String,
        message: String,
    },
}

impl JsValue {
    pub fn dom_exception(name: &str) -> JsValue {
        JsValue::DomException { name: name.to_string(), message: String::new() }
    }

    pub fn type_error(message: impl Into<String>) -> JsValue {
        JsValue::Error { name: "TypeError".to_string(), message: message.into() }
    }

    pub fn string(s: impl Into<std::sync::Arc<str>>) -> JsValue {
        JsValue::String(s.into())
    }

    /// WebIDL "is an Object" (the `object` type accepts any non-primitive).
    pub fn is_object(&self) -> bool {
        matches!(
            self,
            JsValue::Array(_)
                | JsValue::Object(_)
                | JsValue::Cycle
                | JsValue::ToJsonUndefined
                | JsValue::Function
                | JsValue::WindowProxy(_)
                | JsValue::DomException { .. }
                | JsValue::Error { .. }
        )
    }

    /// The error name of an exception value (`"TypeError"`, a DOMException name), if it is one.
    pub fn error_name(&self) -> Option<&str> {
        match self {
            JsValue::DomException { name, .. } | JsValue::Error { name, .. } => Some(name),
            _ => None,
        }
    }

    /// Reads a JSON value as the plain JavaScript value JSON.parse gives (no escapes).
    pub fn from_plain_json(value: &serde_json::Value) -> JsValue {
        match value {
            serde_json::Value::Null => JsValue::Null,
            serde_json::Value::Bool(b) => JsValue::Bool(*b),
            serde_json::Value::Number(n) => JsValue::Number(Num(n.as_f64().unwrap_or(f64::NAN))),
            serde_json::Value::String(s) => JsValue::String(s.as_str().into()),
            serde_json::Value::Array(items) => JsValue::Array(items.iter().map(JsValue::from_plain_json).collect()),
            serde_json::Value::Object(map) => {
                JsValue::Object(map.iter().map(|(k, v)| (k.clone().into(), JsValue::from_plain_json(v))).collect())
            }
        }
    }

    /// Reads a scenario's JSON text as a JavaScript value, with the `{"$js": …}` escapes.
    pub fn from_json_text(value: &serde_json::Value) -> Result<JsValue, String> {
        Ok(match value {
            serde_json::Value::Null => JsValue::Null,
            serde_json::Value::Bool(b) => JsValue::Bool(*b),
            serde_json::Value::Number(n) => JsValue::Number(Num(n.as_f64().unwrap_or(f64::NAN))),
            serde_json::Value::String(s) => JsValue::String(s.as_str().into()),
            serde_json::Value::Array(items) => {
                JsValue::Array(items.iter().map(JsValue::from_json_text).collect::<Result<_, _>>()?)
            }
            serde_json::Value::Object(map) => {
                if let (1, Some(special)) = (map.len(), map.get("$js")) {
                    return special_value(special);
                }
                JsValue::Object(
                    map.iter()
                        .map(|(k, v)| Ok((k.clone().into(), JsValue::from_json_text(v)?)))
                        .collect::<Result<_, String>>()?,
                )
            }
        })
    }
}

fn special_value(special: &serde_json::Value) -> Result<JsValue, String> {
    let name = special.as_str().unwrap_or("");
    Ok(match name {
        "undefined" => JsValue::Undefined,
        "bigint" => JsValue::BigInt("1".to_string()),
        "cycle" => JsValue::Cycle,
        "toJSON-undefined" => JsValue::ToJsonUndefined,
        "function" => JsValue::Function,
        "NaN" => JsValue::Number(Num(f64::NAN)),
        _ => {
            return Err(format!(
                "unknown special value {special}; write one of \"undefined\", \"bigint\", \
                 \"cycle\", \"toJSON-undefined\", \"function\", \"NaN\""
            ))
        }
    })
}

/// Appends JavaScript's Number::toString of `n`.
fn push_number(out: &mut String, n: f64) {
    if n.is_nan() {
        out.push_str("NaN");
    } else if n.is_infinite() {
        out.push_str(if n > 0.0 { "Infinity" } else { "-Infinity" });
    } else {
        out.push_str(ryu_js::Buffer::new().format(n));
    }
}

/// Infra "serialize a JavaScript value to a JSON string" (JSON.stringify, then a TypeError when
/// the result is undefined). Returns the thrown exception on failure.
pub fn serialize_a_javascript_value_to_a_json_string(value: &JsValue) -> Result<String, JsValue> {
    let mut out = String::new();
    match stringify(value, &mut out)? {
        true => Ok(out),
        false => Err(JsValue::type_error("JSON.stringify returned undefined")),
    }
}

/// Appends the JSON text of `value`; returns false when JSON.stringify gives undefined for it.
fn stringify(value: &JsValue, out: &mut String) -> Result<bool, JsValue> {
    match value {
        JsValue::Undefined | JsValue::Function | JsValue::ToJsonUndefined => return Ok(false),
        JsValue::Null => out.push_str("null"),
        JsValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        JsValue::Number(Num(n)) if n.is_finite() => push_number(out, *n),
        JsValue::Number(_) => out.push_str("null"),
        JsValue::String(s) => quote_into(out, s),
        JsValue::BigInt(_) => return Err(JsValue::type_error("Do not know how to serialize a BigInt")),
        JsValue::Cycle | JsValue::WindowProxy(_) => {
            return Err(JsValue::type_error("Converting circular structure to JSON"))
        }
        // DOMException and Error objects have no own enumerable properties.
        JsValue::DomException { .. } | JsValue::Error { .. } => out.push_str("{}"),
        JsValue::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !stringify(item, out)? {
                    out.push_str("null");
                }
            }
            out.push(']');
        }
        JsValue::Object(members) => {
            out.push('{');
            let mut first = true;
            for (key, member) in members {
                let mark = out.len();
                if !first {
                    out.push(',');
                }
                quote_into(out, key);
                out.push(':');
                if stringify(member, out)? {
                    first = false;
                } else {
                    out.truncate(mark);
                }
            }
            out.push('}');
        }
    }
    Ok(true)
}

/// Appends `s` as a JSON string literal, escaped as serde_json (and JSON.stringify) escape it:
/// `"` and `\`, the short escapes `\b \f \n \r \t`, and other control characters as `\u00xx`.
fn quote_into(out: &mut String, s: &str) {
    /// The bytes JSON escapes: control characters, `"` and `\`.
    const ESCAPED: [bool; 256] = {
        let mut table = [false; 256];
        let mut byte = 0;
        while byte < 0x20 {
            table[byte] = true;
            byte += 1;
        }
        table[b'"' as usize] = true;
        table[b'\\' as usize] = true;
        table
    };
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    // Escaped characters are ASCII, so every cut below falls on a character boundary.
    let mut start = 0;
    while let Some(offset) = s.as_bytes()[start..].iter().position(|&b| ESCAPED[usize::from(b)]) {
        let i = start + offset;
        out.push_str(&s[start..i]);
        start = i + 1;
        match s.as_bytes()[i] {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\x08' => out.push_str("\\b"),
            b'\x0c' => out.push_str("\\f"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            byte => {
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(byte >> 4)]));
                out.push(char::from(HEX[usize::from(byte & 0xf)]));
            }
        }
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Infra "parse a JSON string to a JavaScript value"; an `Err` is the thrown SyntaxError.
pub fn parse_a_json_string_to_a_javascript_value(text: &str) -> Result<JsValue, JsValue> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => Ok(JsValue::from_plain_json(&v)),
        Err(e) => Err(JsValue::Error { name: "SyntaxError".to_string(), message: e.to_string() }),
    }
}

impl JsValue {
    /// A compact, JavaScript-like rendering for traces and outcomes; `window_label` appends the
    /// name of a `WindowProxy`'s navigable.
    pub fn render(&self, window_label: &dyn Fn(u32, &mut String)) -> String {
        let mut out = String::new();
        self.render_into(&mut out, window_label);
        out
    }

    /// Appends the rendering of `render` to `out`.
    pub fn render_into(&self, out: &mut String, window_label: &dyn Fn(u32, &mut String)) {
        match self {
            JsValue::Undefined => out.push_str("undefined"),
            JsValue::Null => out.push_str("null"),
            JsValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            JsValue::Number(Num(n)) => push_number(out, *n),
            JsValue::String(s) => quote_into(out, s),
            JsValue::BigInt(d) => {
                out.push_str(d);
                out.push('n');
            }
            JsValue::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.render_into(out, window_label);
                }
                out.push(']');
            }
            JsValue::Object(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(k);
                    out.push_str(": ");
                    v.render_into(out, window_label);
                }
                out.push('}');
            }
            JsValue::Cycle => out.push_str("<object with a cycle>"),
            JsValue::ToJsonUndefined => out.push_str("<object whose toJSON returns undefined>"),
            JsValue::Function => out.push_str("<function>"),
            JsValue::WindowProxy(nav) => {
                out.push_str("<Window of ");
                window_label(*nav, out);
                out.push('>');
            }
            JsValue::DomException { name, message } => {
                out.push_str("DOMException(");
                out.push_str(name);
                if !message.is_empty() {
                    out.push_str(": ");
                    out.push_str(message);
                }
                out.push(')');
            }
            JsValue::Error { name, message } => {
                out.push_str(name);
                out.push('(');
                quote_into(out, message);
                out.push(')');
            }
        }
    }
}

impl fmt::Display for JsValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&|nav, out| {
            out.push_str("navigable #");
            out.push_str(&nav.to_string());
        }))
    }
}
