//! Unit tests of the crate root: a scenario using every action parses, validates and
//! round-trips through serialization; the schema is generated.

use crate::*;

/// A valid scenario that uses every action and field once.
pub(crate) const EVERYTHING: &str = r#"{
  "version": 1,
  "name": "everything",
  "description": "Every action once.",
  "options": { "parallel": "fifo", "variants": ["tool-events", "title-undefined"] },
  "tabs": [
    {
      "id": "tab",
      "url": "https://a.example/",
      "headers": { "Permissions-Policy": "tools=*" },
      "script": [
        { "log": "start" },
        { "newAbortController": "ctl" },
        { "registerTool": {
            "tool": {
              "name": "search",
              "title": "Search",
              "description": "Searches.",
              "inputSchema": { "type": "object" },
              "execute": {
                "do": [{ "log": "executing" }],
                "onAbort": [{ "log": "aborted" }],
                "result": { "after": { "ms": 5, "then": { "resolve": { "$js": "undefined" } } } }
              },
              "annotations": { "readOnlyHint": true, "untrustedContentHint": false, "consequentialHint": true }
            },
            "options": { "exposedTo": ["https://b.example", "not an origin"], "signal": "ctl" },
            "as": "registered"
        } },
        { "then": {
            "promise": "registered",
            "onFulfilled": [{ "log": "ok" }],
            "onRejected": [{ "throw": { "name": "TypeError", "message": "no" } }]
        } },
        { "getTools": { "document": "child", "options": { "fromOrigins": ["https://a.example"] }, "as": "tools" } },
        { "executeTool": {
            "tool": { "fromGetTools": { "promise": "tools", "name": "search" } },
            "inputObject": { "q": 1 },
            "options": { "signal": "ctl" },
            "as": "run"
        } },
        { "executeTool": {
            "document": "tab",
            "tool": { "dictionary": { "name": "search", "origin": "not an origin", "window": "child" } }
        } },
        { "setTimeout": { "ms": 10, "do": [{ "abort": { "controller": "ctl", "reason": "stop" } }] } },
        { "on": { "event": "toolchange", "target": "child", "do": [{ "log": "changed" }] } },
        { "on": { "event": "abort", "target": "ctl", "do": [{ "removeIframe": "child" }] } },
        { "navigate": {
            "navigable": "child",
            "url": "https://a.example/next",
            "headers": { "Origin-Agent-Cluster": "?0" },
            "script": [{ "registerTool": { "tool": { "name": "t", "description": "d", "execute": {} } } }],
            "frames": [{ "id": "grandchild", "url": "https://c.example/", "script": [{ "log": "deep" }] }]
        } }
      ],
      "frames": [
        {
          "id": "child",
          "url": "https://a.example/child",
          "allow": "tools",
          "sandbox": "allow-scripts",
          "setsDocumentDomain": true
        }
      ]
    },
    { "id": "other", "url": "https://d.example/" }
  ],
  "user": [
    { "navigate": { "navigable": "other", "url": "https://d.example/2" } },
    { "enterBfcache": "tab" },
    { "restoreFromBfcache": "tab" }
  ],
  "agent": [
    { "observe": "tab" },
    { "callTool": { "tab": "tab", "navigable": "child", "name": "search", "input": { "q": "x" }, "as": "agentCall" } }
  ],
  "extras": { "anything": [true] }
}
"#;

#[test]
fn a_scenario_with_every_action_round_trips() {
    let scenario = parse_str("everything.jsonc", EVERYTHING).expect("valid");
    assert_eq!(scenario.options.parallel, ParallelModel::Fifo);
    assert_eq!(scenario.tabs[0].script.len(), 11);
    assert_eq!(scenario.tabs[0].frames[0].allow.as_deref(), Some("tools"));

    let json = serde_json::to_string_pretty(&scenario).expect("a scenario serializes");
    let again = parse_str("again.jsonc", &json).expect("serialized scenario is valid");
    assert_eq!(again, scenario);
    assert!(validate(&scenario).is_empty());
}

#[test]
fn the_schema_describes_the_scenario_object() {
    let schema = json_schema();
    assert_eq!(schema["title"], "Scenario");
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(schema["required"], serde_json::json!(["version", "name", "tabs"]));
    assert_eq!(schema["additionalProperties"], false);
}
