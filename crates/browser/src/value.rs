//! Simulated JavaScript values, DOMException names, and Infra's JSON conversions.
//!
//! The simulator never runs JavaScript; a value is whatever a scenario or an algorithm made.
//! Values JSON cannot write (undefined, BigInt, cycles, …) are explicit variants, so the
//! spec's serialization failures can be reached from a scenario.

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
    String(String),
    /// A BigInt, kept as its decimal digits.
    BigInt(String),
    Array(Vec<JsValue>),
    /// A plain object; members in insertion order.
    Object(Vec<(String, JsValue)>),
    /// An object that contains itself (JSON serialization throws a TypeError).
    Cycle,
    /// An object whose `toJSON()` returns undefined.
    ToJsonUndefined,
    /// A function object.
    Function,
    /// The `Window` of a document, by the simulator's document index.
    Window(u32),
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

    pub fn string(s: impl Into<String>) -> JsValue {
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
                | JsValue::Window(_)
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
            serde_json::Value::String(s) => JsValue::String(s.clone()),
            serde_json::Value::Array(items) => JsValue::Array(items.iter().map(JsValue::from_plain_json).collect()),
            serde_json::Value::Object(map) => {
                JsValue::Object(map.iter().map(|(k, v)| (k.clone(), JsValue::from_plain_json(v))).collect())
            }
        }
    }

    /// Reads a scenario's JSON text as a JavaScript value, with the `{"$js": …}` escapes.
    pub fn from_json_text(value: &serde_json::Value) -> Result<JsValue, String> {
        Ok(match value {
            serde_json::Value::Null => JsValue::Null,
            serde_json::Value::Bool(b) => JsValue::Bool(*b),
            serde_json::Value::Number(n) => JsValue::Number(Num(n.as_f64().unwrap_or(f64::NAN))),
            serde_json::Value::String(s) => JsValue::String(s.clone()),
            serde_json::Value::Array(items) => {
                JsValue::Array(items.iter().map(JsValue::from_json_text).collect::<Result<_, _>>()?)
            }
            serde_json::Value::Object(map) => {
                if let (1, Some(special)) = (map.len(), map.get("$js")) {
                    return special_value(special);
                }
                JsValue::Object(
                    map.iter()
                        .map(|(k, v)| Ok((k.clone(), JsValue::from_json_text(v)?)))
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

/// JavaScript's Number::toString for finite and non-finite numbers.
pub fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".to_string();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    let mut buf = ryu_js::Buffer::new();
    buf.format(n).to_string()
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
        JsValue::Number(Num(n)) if n.is_finite() => out.push_str(&number_to_string(*n)),
        JsValue::Number(_) => out.push_str("null"),
        JsValue::String(s) => out.push_str(&quote(s)),
        JsValue::BigInt(_) => return Err(JsValue::type_error("Do not know how to serialize a BigInt")),
        JsValue::Cycle | JsValue::Window(_) => {
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
                out.push_str(&quote(key));
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

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

/// Infra "parse a JSON string to a JavaScript value"; an `Err` is the thrown SyntaxError.
pub fn parse_a_json_string_to_a_javascript_value(text: &str) -> Result<JsValue, JsValue> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => Ok(JsValue::from_plain_json(&v)),
        Err(e) => Err(JsValue::Error { name: "SyntaxError".to_string(), message: e.to_string() }),
    }
}

impl JsValue {
    /// A compact, JavaScript-like rendering for traces and outcomes; `window_label` names the
    /// document of a `Window`.
    pub fn render(&self, window_label: &dyn Fn(u32) -> String) -> String {
        let mut out = String::new();
        self.render_into(&mut out, window_label);
        out
    }

    fn render_into(&self, out: &mut String, window_label: &dyn Fn(u32) -> String) {
        use std::fmt::Write as _;
        match self {
            JsValue::Undefined => out.push_str("undefined"),
            JsValue::Null => out.push_str("null"),
            JsValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            JsValue::Number(Num(n)) => out.push_str(&number_to_string(*n)),
            JsValue::String(s) => out.push_str(&quote(s)),
            JsValue::BigInt(d) => {
                let _ = write!(out, "{d}n");
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
            JsValue::Window(doc) => {
                let _ = write!(out, "<Window of {}>", window_label(*doc));
            }
            JsValue::DomException { name, message } if message.is_empty() => {
                let _ = write!(out, "DOMException({name})");
            }
            JsValue::DomException { name, message } => {
                let _ = write!(out, "DOMException({name}: {message})");
            }
            JsValue::Error { name, message } => {
                let _ = write!(out, "{name}({})", quote(message));
            }
        }
    }
}

impl fmt::Display for JsValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&|doc| format!("document #{doc}")))
    }
}
