//! Structure-aware mutations of real scenarios (the shipped corpus, `webmcp-sim fuzz-parser
//! --corpus scenarios`): each file is parsed to its JSON tree once, then every input applies a few
//! edits that keep it JSON but delete, duplicate, move, retype or rename its parts, or put a
//! hostile string in, and is written as compact or pretty JSON. Unlike byte-level mutations,
//! most of these get past the syntax check, so they reach deserialization, validation, compiling
//! and running with a scenario's real shape.

use proptest::prelude::*;
use serde_json::{json, Value};

#[cfg(test)]
mod tests;

/// One step into a JSON tree.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

/// One edit, each node chosen by index into the tree's nodes in pre-order (modulo their number,
/// so any index names a node of any tree).
#[derive(Clone, Debug)]
pub enum Edit {
    /// Removes a member or element.
    Delete(prop::sample::Index),
    /// Repeats an element or member (under a copied key, as a duplicate would read).
    Duplicate(prop::sample::Index),
    /// Puts a copy of another node's value in place of a node's.
    Replace(prop::sample::Index, prop::sample::Index),
    /// Swaps two nodes' values.
    Swap(prop::sample::Index, prop::sample::Index),
    /// Replaces a node with a value of another type.
    Retype(prop::sample::Index, usize),
    /// Renames a member to another key of the format.
    Rename(prop::sample::Index, usize),
    /// Puts a hostile string in place of a node.
    Hostile(prop::sample::Index, usize),
    /// Wraps a node in an array or an object.
    Wrap(prop::sample::Index, bool),
}

/// Values of every type, for [`Edit::Retype`].
fn other_values() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(0),
        json!(-1),
        json!(1e300),
        json!(4294967296u64),
        json!(""),
        json!([]),
        json!({}),
        json!({"$js": "undefined"}),
        json!({"$js": "cycle"}),
        json!([null, 1, "x"]),
    ]
}

/// Strings hostile to the parser, the validator and every output medium.
const HOSTILE: &[&str] = &[
    "",
    "\u{1b}]0;PWNED\u{7}\u{1b}[2J",
    "</script><script>alert(1)</script>",
    "costs $$5 or $$6",
    "%%{init: {'theme':'dark'}}%%",
    "\u{202e}txt.exe\u{2066}",
    "a\nb\r\n\u{0}\u{7f}\u{9b}",
    "```\n| a | b |\n# h",
    "$(touch PWNED) `touch PWNED` 'q' \"dq\"",
    "https://a.example:99999/",
    "data:text/html,x",
    "\u{feff}\u{10ffff}\u{fffd}",
];

/// Keys of the scenario format, for [`Edit::Rename`].
const KEYS: &[&str] = &[
    "version",
    "name",
    "description",
    "options",
    "tabs",
    "user",
    "agent",
    "expect",
    "extras",
    "id",
    "url",
    "frames",
    "script",
    "allow",
    "sandbox",
    "headers",
    "registerTool",
    "executeTool",
    "getTools",
    "then",
    "log",
    "as",
    "promise",
    "tool",
    "execute",
    "result",
    "resolve",
    "reject",
    "setTimeout",
    "ms",
    "do",
    "abort",
    "controller",
    "signal",
    "navigate",
    "removeIframe",
    "enterBfcache",
    "always",
    "never",
    "sometimes",
    "outcomes",
    "parallel",
    "variants",
    "inputObject",
    "exposedTo",
    "fromOrigins",
];

/// A strategy for one edit.
pub fn edit() -> impl Strategy<Value = Edit> {
    use prop::sample::Index;
    prop_oneof![
        3 => any::<Index>().prop_map(Edit::Delete),
        2 => any::<Index>().prop_map(Edit::Duplicate),
        3 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Replace(a, b)),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        3 => (any::<Index>(), 0..other_values().len()).prop_map(|(a, k)| Edit::Retype(a, k)),
        2 => (any::<Index>(), 0..KEYS.len()).prop_map(|(a, k)| Edit::Rename(a, k)),
        2 => (any::<Index>(), 0..HOSTILE.len()).prop_map(|(a, k)| Edit::Hostile(a, k)),
        1 => (any::<Index>(), any::<bool>()).prop_map(|(a, b)| Edit::Wrap(a, b)),
    ]
}

/// The path of every node of `tree`, in pre-order (the root's is empty).
fn paths(tree: &Value) -> Vec<Vec<Step>> {
    fn walk(v: &Value, at: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        out.push(at.clone());
        match v {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    at.push(Step::Index(i));
                    walk(item, at, out);
                    at.pop();
                }
            }
            Value::Object(members) => {
                for (k, item) in members {
                    at.push(Step::Key(k.clone()));
                    walk(item, at, out);
                    at.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(tree, &mut Vec::new(), &mut out);
    out
}

fn get<'a>(tree: &'a Value, path: &[Step]) -> Option<&'a Value> {
    path.iter().try_fold(tree, |v, step| match step {
        Step::Key(k) => v.get(k),
        Step::Index(i) => v.get(i),
    })
}

fn get_mut<'a>(tree: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    path.iter().try_fold(tree, |v, step| match step {
        Step::Key(k) => v.get_mut(k),
        Step::Index(i) => v.get_mut(i),
    })
}

/// Applies `edits` to a copy of `tree`, in order (each on the tree the earlier ones left).
pub fn apply(tree: &Value, edits: &[Edit]) -> Value {
    let mut tree = tree.clone();
    for edit in edits {
        let nodes = paths(&tree);
        let node = |i: &prop::sample::Index| nodes[i.index(nodes.len())].clone();
        match edit {
            Edit::Delete(i) => {
                let path = node(i);
                if let Some((last, parent)) = path.split_last() {
                    match (get_mut(&mut tree, parent), last) {
                        (Some(Value::Object(m)), Step::Key(k)) => {
                            m.shift_remove(k);
                        }
                        (Some(Value::Array(a)), Step::Index(i)) if *i < a.len() => {
                            a.remove(*i);
                        }
                        _ => {}
                    }
                }
            }
            Edit::Duplicate(i) => {
                let path = node(i);
                let Some(value) = get(&tree, &path).cloned() else { continue };
                if let Some((last, parent)) = path.split_last() {
                    match (get_mut(&mut tree, parent), last) {
                        (Some(Value::Object(m)), Step::Key(k)) => {
                            m.insert(format!("{k}2"), value);
                        }
                        (Some(Value::Array(a)), Step::Index(i)) => a.insert((*i).min(a.len()), value),
                        _ => {}
                    }
                }
            }
            Edit::Replace(a, b) => {
                let (to, from) = (node(a), node(b));
                // A node copied into its own descendant would grow without bound: skip.
                if from.starts_with(&to) && from.len() > to.len() || to.starts_with(&from) {
                    continue;
                }
                if let (Some(value), true) = (get(&tree, &from).cloned(), get(&tree, &to).is_some()) {
                    if let Some(slot) = get_mut(&mut tree, &to) {
                        *slot = value;
                    }
                }
            }
            Edit::Swap(a, b) => {
                let (x, y) = (node(a), node(b));
                if x.starts_with(&y) || y.starts_with(&x) {
                    continue;
                }
                let (Some(vx), Some(vy)) = (get(&tree, &x).cloned(), get(&tree, &y).cloned()) else { continue };
                if let Some(slot) = get_mut(&mut tree, &x) {
                    *slot = vy;
                }
                if let Some(slot) = get_mut(&mut tree, &y) {
                    *slot = vx;
                }
            }
            Edit::Retype(i, k) => {
                if let Some(slot) = get_mut(&mut tree, &node(i)) {
                    *slot = other_values()[*k].clone();
                }
            }
            Edit::Rename(i, k) => {
                let path = node(i);
                if let Some((Step::Key(old), parent)) = path.split_last() {
                    if let Some(Value::Object(m)) = get_mut(&mut tree, parent) {
                        if let Some(value) = m.shift_remove(old) {
                            m.insert(KEYS[*k].to_string(), value);
                        }
                    }
                }
            }
            Edit::Hostile(i, k) => {
                if let Some(slot) = get_mut(&mut tree, &node(i)) {
                    *slot = json!(HOSTILE[*k]);
                }
            }
            Edit::Wrap(i, array) => {
                if let Some(slot) = get_mut(&mut tree, &node(i)) {
                    let inner = slot.take();
                    *slot = if *array { json!([inner]) } else { json!({ "do": inner }) };
                }
            }
        }
    }
    tree
}

/// A strategy for mutated shipped scenarios: one of `trees`, 1 to 6 edits, compact or pretty.
pub fn mutated(trees: Vec<Value>) -> BoxedStrategy<String> {
    let trees = std::sync::Arc::new(trees);
    (any::<prop::sample::Index>(), prop::collection::vec(edit(), 1..6), any::<bool>())
        .prop_map(move |(i, edits, pretty)| {
            let tree = apply(&trees[i.index(trees.len())], &edits);
            let text = if pretty { serde_json::to_string_pretty(&tree) } else { serde_json::to_string(&tree) };
            text.unwrap_or_default()
        })
        .boxed()
}
