//! The published JSON Schema: it is current, it agrees with the parser on shape, and every
//! scenario in the corpus satisfies it and validates.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

/// The workspace root.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The generated schema as it is written to `docs/scenario.schema.json`.
fn schema_text() -> String {
    let schema = serde_json::to_string_pretty(&scenario::json_schema()).expect("the schema serializes");
    format!("{schema}\n")
}

fn validator() -> jsonschema::Validator {
    jsonschema::validator_for(&scenario::json_schema()).expect("the schema is a valid JSON Schema")
}

#[test]
fn the_committed_schema_is_current() {
    let path = workspace().join("docs/scenario.schema.json");
    let generated = schema_text();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).expect("docs/ is writable");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/scenario.schema.json is out of date with the model; regenerate it with \
         `UPDATE_SCHEMA=1 cargo test -p scenario --test it the_committed_schema_is_current`"
    );
}

/// A small valid scenario, as JSON.
fn valid() -> Value {
    json!({
        "version": 1,
        "name": "valid",
        "tabs": [{
            "id": "tab",
            "url": "https://a.example/",
            "frames": [{ "id": "child", "url": "https://a.example/c", "allow": "tools" }],
            "script": [
                { "newAbortController": "ctl" },
                { "registerTool": {
                    "tool": {
                        "name": "t",
                        "description": "d",
                        "inputSchema": { "$js": "cycle" },
                        "execute": { "result": { "after": { "ms": 1, "then": { "reject": null } } } }
                    },
                    "options": { "signal": "ctl" },
                    "as": "p"
                } },
                { "then": { "promise": "p", "onFulfilled": [{ "abort": { "controller": "ctl" } }] } },
                { "executeTool": { "tool": { "dictionary": { "name": "t", "origin": "o", "window": "child" } } } }
            ]
        }],
        "user": [{ "enterBfcache": "tab" }],
        "agent": [{ "observe": "tab" }]
    })
}

#[test]
fn schema_and_parser_agree_on_shape() {
    let validator = validator();
    let accepts = |value: &Value| {
        let text = value.to_string();
        let by_parser = scenario::parse_str("t.json", &text).is_ok();
        let by_schema = validator.is_valid(value);
        (by_parser, by_schema)
    };
    assert_eq!(accepts(&valid()), (true, true));

    let mut wrong: Vec<(&str, Value)> = Vec::new();
    let mut edit = |what: &'static str, f: &dyn Fn(&mut Value)| {
        let mut value = valid();
        f(&mut value);
        wrong.push((what, value));
    };
    edit("unknown field", &|v| v["tabs"][0]["idd"] = json!("x"));
    edit("missing field", &|v| v["tabs"][0].as_object_mut().map(|o| o.remove("url")).map(drop).unwrap_or_default());
    edit("wrong type", &|v| v["version"] = json!("1"));
    edit("negative ms", &|v| {
        v["tabs"][0]["script"][1]["registerTool"]["tool"]["execute"]["result"]["after"]["ms"] = json!(-1)
    });
    edit("struct as array", &|v| v["tabs"][0]["frames"][0] = json!(["child", "https://a.example/c"]));
    edit("two keys in an action", &|v| v["tabs"][0]["script"][0] = json!({ "log": "a", "throw": { "name": "E" } }));
    edit("empty action", &|v| v["tabs"][0]["script"][0] = json!({}));
    edit("unit variant with a value", &|v| {
        v["tabs"][0]["script"][1]["registerTool"]["tool"]["execute"]["result"] = json!({ "never": null })
    });
    edit("newtype variant without a value", &|v| v["tabs"][0]["script"][0] = json!("log"));
    edit("unknown action", &|v| v["tabs"][0]["script"][0] = json!({ "registerTol": {} }));
    edit("unknown parallel model", &|v| v["options"] = json!({ "parallel": "lifo" }));
    edit("a number as a header", &|v| v["tabs"][0]["headers"] = json!({ "Origin-Agent-Cluster": 0 }));
    edit("root as array", &|v| *v = json!([1, "x", []]));
    for (what, value) in &wrong {
        assert_eq!(accepts(value), (false, false), "{what}: parser and schema should both reject {value}");
    }
}

/// Every `*.jsonc` file under `dir`, recursively, sorted.
fn jsonc_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == "jsonc") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_corpus_scenario_satisfies_the_schema_and_validates() {
    let root = workspace().join("scenarios");
    assert!(root.is_dir(), "the scenario corpus {} is missing", root.display());
    let validator = validator();
    let mut failures = Vec::new();
    for path in jsonc_files(&root) {
        let name = path.strip_prefix(workspace()).unwrap_or(&path).display().to_string();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) => {
                failures.push(format!("{name}: {error}"));
                continue;
            }
        };
        match scenario::parse_jsonc(&name, &text) {
            Err(diagnostic) => failures.push(diagnostic.render(&text)),
            Ok(value) => failures.extend(
                validator
                    .iter_errors(&value)
                    .map(|error| format!("{name}: schema: at {}: {error}", error.instance_path())),
            ),
        }
        if let Err(diagnostics) = scenario::parse_str(&name, &text) {
            failures.extend(diagnostics.iter().map(|d| d.render(&text)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_corpus_walk_finds_nested_files() {
    let dir = std::env::temp_dir().join(format!("scenario-corpus-walk-{}", std::process::id()));
    let nested = dir.join("a/b");
    std::fs::create_dir_all(&nested).expect("the temporary directory is writable");
    for file in ["top.jsonc", "a/b/deep.jsonc", "a/notes.md"] {
        std::fs::write(dir.join(file), "{}").expect("the temporary directory is writable");
    }
    let found: Vec<PathBuf> =
        jsonc_files(&dir).iter().filter_map(|p| p.strip_prefix(&dir).ok().map(Path::to_path_buf)).collect();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(found, [PathBuf::from("a/b/deep.jsonc"), PathBuf::from("top.jsonc")]);
}
