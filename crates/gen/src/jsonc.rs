//! Writes a scenario as a short, readable `.jsonc` file: comment lines first, then the JSON, with
//! every object or array that fits in 110 columns on one line.

use scenario::Scenario;
use serde_json::Value;

/// Widest line the writer keeps on one line.
const WIDTH: usize = 110;

/// The scenario as `.jsonc` text, headed by `comments` (one `//` line each). `scenario::parse_str`
/// reads it back equal.
pub fn to_jsonc(scenario: &Scenario, comments: &[String]) -> String {
    render(&serde_json::to_value(scenario).unwrap_or(Value::Null), comments)
}

/// `value` on one line, with a space after `:` and `,`.
pub fn inline(value: &Value) -> String {
    match value {
        Value::Array(items) if !items.is_empty() => {
            format!("[{}]", items.iter().map(inline).collect::<Vec<_>>().join(", "))
        }
        Value::Object(members) if !members.is_empty() => {
            let members: Vec<String> = members.iter().map(|(k, v)| format!("{}: {}", key(k), inline(v))).collect();
            format!("{{{}}}", members.join(", "))
        }
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

fn key(k: &str) -> String {
    serde_json::to_string(k).unwrap_or_default()
}

/// Writes `value` whose first line starts at column `col`; nested lines are indented from `indent`.
///
/// What fits in `WIDTH` stays on one line; an object that does not packs its short members onto
/// shared lines; an array holding one value, and an object with one member (an action), hug it
/// (`[{` … `}]`, `{"registerTool": {` … `}}`).
fn write(value: &Value, indent: usize, col: usize, out: &mut String) {
    let one_line = inline(value);
    if col + one_line.len() <= WIDTH {
        out.push_str(&one_line);
        return;
    }
    let pad = " ".repeat(indent + 2);
    match value {
        Value::Array(items) if items.len() == 1 => {
            out.push('[');
            write(&items[0], indent, col + 1, out);
            out.push(']');
        }
        Value::Array(items) => {
            let chunks: Vec<String> = items
                .iter()
                .map(|item| {
                    let mut s = String::new();
                    write(item, indent + 2, indent + 2, &mut s);
                    s
                })
                .collect();
            out.push_str("[\n");
            out.push_str(&pad);
            out.push_str(&chunks.join(&format!(",\n{pad}")));
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            out.push(']');
        }
        Value::Object(members) if members.len() == 1 => {
            let (k, v) = members.iter().next().expect("one member");
            let k = key(k);
            out.push('{');
            out.push_str(&k);
            out.push_str(": ");
            write(v, indent, col + k.len() + 3, out);
            out.push('}');
        }
        Value::Object(members) => {
            // Each chunk is one or more members; `true` marks a one-line chunk that can take more.
            let mut chunks: Vec<(String, bool)> = Vec::new();
            for (k, v) in members {
                let k = key(k);
                let member = format!("{k}: {}", inline(v));
                if indent + 2 + member.len() < WIDTH {
                    if let Some((last, true)) = chunks.last_mut() {
                        if indent + 2 + last.len() + 2 + member.len() < WIDTH {
                            last.push_str(", ");
                            last.push_str(&member);
                            continue;
                        }
                    }
                    chunks.push((member, true));
                } else {
                    let mut s = format!("{k}: ");
                    write(v, indent + 2, indent + 2 + k.len() + 2, &mut s);
                    chunks.push((s, false));
                }
            }
            let chunks: Vec<String> = chunks.into_iter().map(|(c, _)| c).collect();
            out.push_str("{\n");
            out.push_str(&pad);
            out.push_str(&chunks.join(&format!(",\n{pad}")));
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            out.push('}');
        }
        _ => out.push_str(&one_line),
    }
}

/// `scenario` as JSON without the members that only restate a default (`"frames": []`,
/// `"options": {}` …): each is left out only when the scenario reads back equal without it.
pub fn without_defaults(scenario: &Scenario) -> Value {
    let mut value = serde_json::to_value(scenario).unwrap_or(Value::Null);
    let reads_back = |v: &Value| serde_json::from_value::<Scenario>(v.clone()).is_ok_and(|s| s == *scenario);
    // Removing members can make their parent look like a default, so repeat until nothing goes.
    loop {
        let mut paths = Vec::new();
        collect_default_looking(&value, &mut Vec::new(), &mut paths);
        let mut removed = false;
        for path in paths.iter().rev() {
            let mut trial = value.clone();
            if remove_at(&mut trial, path) && reads_back(&trial) {
                value = trial;
                removed = true;
            }
        }
        if !removed {
            return value;
        }
    }
}

/// Paths (keys and indices) of object members whose value looks like a default.
fn collect_default_looking(value: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match value {
        Value::Object(members) => {
            for (k, v) in members {
                at.push(k.clone());
                let looks_default = match v {
                    Value::Array(a) => a.is_empty(),
                    Value::Object(o) => o.is_empty(),
                    Value::Bool(b) => !b,
                    Value::String(s) => s.is_empty() || s == "unordered" || s == "never",
                    Value::Null => true,
                    Value::Number(_) => false,
                };
                if looks_default {
                    out.push(at.clone());
                }
                collect_default_looking(v, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                at.push(format!("#{i}"));
                collect_default_looking(v, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn remove_at(value: &mut Value, path: &[String]) -> bool {
    let Some((last, parents)) = path.split_last() else { return false };
    let mut v = value;
    for p in parents {
        v = match (v, p.strip_prefix('#')) {
            (Value::Array(items), Some(i)) => match i.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                Some(x) => x,
                None => return false,
            },
            (Value::Object(m), None) => match m.get_mut(p) {
                Some(x) => x,
                None => return false,
            },
            _ => return false,
        };
    }
    match v {
        Value::Object(m) => m.shift_remove(last).is_some(),
        _ => false,
    }
}

/// Like `to_jsonc`, leaving out members that restate a default, for files people read.
pub fn to_short_jsonc(scenario: &Scenario, comments: &[String]) -> String {
    let short = without_defaults(scenario);
    let text = render(&short, comments);
    match scenario::parse_str("short.jsonc", &text) {
        Ok(back) if back == *scenario => text,
        _ => to_jsonc(scenario, comments),
    }
}

fn render(value: &Value, comments: &[String]) -> String {
    let mut out = String::new();
    for c in comments {
        for line in c.lines() {
            out.push_str("// ");
            out.push_str(line);
            out.push('\n');
        }
    }
    write(value, 0, 0, &mut out);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests;
