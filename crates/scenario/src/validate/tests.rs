//! Tests of semantic validation: each rule, through `parse_str` so positions are checked too.

use crate::model::{Frame, Scenario};
use crate::{parse_str, validate, MAX_ACTIONS};

/// Every diagnostic for `text`, displayed without the file name; empty when it is valid.
fn problems(text: &str) -> Vec<String> {
    match parse_str("t.jsonc", text) {
        Ok(_) => Vec::new(),
        Err(diagnostics) => {
            diagnostics.iter().map(|d| d.to_string().trim_start_matches("t.jsonc:").to_owned()).collect()
        }
    }
}

/// A scenario with one tab `tab` (an iframe `child` in it) running `script`, and the given
/// `user` and `agent` lists. Line 4 holds the tab's script, line 5 `user`, line 6 `agent`.
fn scenario(script: &str, user: &str, agent: &str) -> String {
    format!(
        "{{\"version\": 1, \"name\": \"x\", \"tabs\": [{{\n\"id\": \"tab\", \"url\": \"https://a.example/\",\n\"frames\": [{{\"id\": \"child\", \"url\": \"https://a.example/c\"}}],\n\"script\": [{script}]}}],\n\"user\": [{user}],\n\"agent\": [{agent}]\n}}"
    )
}

fn script(script: &str) -> String {
    scenario(script, "", "")
}

#[test]
fn the_full_example_is_valid() {
    assert_eq!(problems(crate::tests::EVERYTHING), Vec::<String>::new());
    assert_eq!(problems(&script(r#"{"log": "x"}"#)), Vec::<String>::new());
}

#[test]
fn version_must_be_1() {
    let text = scenario("", "", "").replacen("\"version\": 1", "\"version\": 2", 1);
    assert_eq!(
        problems(&text),
        ["1:13: version: unsupported format version 2\n  hint: this simulator reads format version 1"]
    );
}

#[test]
fn navigable_ids_are_unique_and_well_formed() {
    let text = r#"{"version": 1, "name": "x", "tabs": [
  {"id": "tab", "url": "https://a.example/", "frames": [{"id": "tab", "url": "https://a.example/"}]},
  {"id": "", "url": "https://a.example/"},
  {"id": "a b", "url": "https://a.example/", "script": [
    {"navigate": {"navigable": "a b", "url": "https://a.example/", "frames": [{"id": "tab", "url": "https://b.example/"}]}}
  ]}
]}"#;
    assert_eq!(
        problems(text),
        [
            "2:64: tabs[0].frames[0].id: duplicate navigable id \"tab\"\n  hint: it is already the id at tabs[0].id; ids are unique across the scenario",
            "3:10: tabs[1].id: a navigable id cannot be empty\n  hint: ids use ASCII letters, digits, `-` and `_`, e.g. \"tab\" or \"child-1\"",
            "4:10: tabs[2].id: navigable id \"a b\" has a character other than a letter, digit, `-` or `_`\n  hint: ids use ASCII letters, digits, `-` and `_`, e.g. \"tab\" or \"child-1\"",
            "5:86: tabs[2].script[0].navigate.frames[0].id: duplicate navigable id \"tab\"\n  hint: it is already the id at tabs[0].id; ids are unique across the scenario",
        ]
    );
}

#[test]
fn references_name_declared_navigables() {
    let text = script(
        r#"{"registerTool": {"document": "chld", "tool": {"name": "t", "description": "d", "execute": {}}}},
{"getTools": {"document": "nope"}},
{"executeTool": {"document": "nope", "tool": {"dictionary": {"name": "t", "origin": "o", "window": "nope"}}}},
{"on": {"event": "toolchange", "target": "nope", "do": []}},
{"navigate": {"navigable": "nope", "url": "https://a.example/"}},
{"removeIframe": "nope"}"#,
    );
    assert_eq!(
        problems(&text),
        [
            "4:42: tabs[0].script[0].registerTool.document: unknown navigable \"chld\" (declared: tab, child)\n  hint: did you mean \"child\"?",
            "5:27: tabs[0].script[1].getTools.document: unknown navigable \"nope\" (declared: tab, child)",
            "6:30: tabs[0].script[2].executeTool.document: unknown navigable \"nope\" (declared: tab, child)",
            "6:100: tabs[0].script[2].executeTool.tool.dictionary.window: unknown navigable \"nope\" (declared: tab, child)",
            "7:42: tabs[0].script[3].on.target: unknown navigable \"nope\" (declared: tab, child)",
            "8:28: tabs[0].script[4].navigate.navigable: unknown navigable \"nope\" (declared: tab, child)",
            "9:18: tabs[0].script[5].removeIframe: unknown navigable \"nope\" (declared: tab, child)",
        ]
    );
}

#[test]
fn user_and_agent_references_name_navigables_of_the_right_kind() {
    let text = scenario(
        "",
        r#"{"enterBfcache": "child"}, {"restoreFromBfcache": "nope"}, {"navigate": {"navigable": "child", "url": "https://a.example/"}}"#,
        r#"{"observe": "child"}, {"callTool": {"tab": "child", "navigable": "nope", "name": "t"}}"#,
    );
    assert_eq!(
        problems(&text),
        [
            "5:27: user[0].enterBfcache: \"child\" is an iframe, but `enterBfcache` names a tab (a top-level navigable)\n  hint: tabs: tab",
            "5:60: user[1].restoreFromBfcache: unknown navigable \"nope\" (declared: tab, child)",
            "6:23: agent[0].observe: \"child\" is an iframe, but `observe` names a tab (a top-level navigable)\n  hint: tabs: tab",
            "6:54: agent[1].callTool.tab: \"child\" is an iframe, but `callTool.tab` names a tab (a top-level navigable)\n  hint: tabs: tab",
            "6:76: agent[1].callTool.navigable: unknown navigable \"nope\" (declared: tab, child)",
        ]
    );
    assert_eq!(
        problems(&script(r#"{"removeIframe": "tab"}"#)),
        ["4:29: tabs[0].script[0].removeIframe: \"tab\" is a tab, but `removeIframe` names an iframe\n  hint: iframes: child"]
    );
}

#[test]
fn allow_and_sandbox_are_for_iframes() {
    let text = r#"{"version": 1, "name": "x", "tabs": [
  {"id": "tab", "url": "https://a.example/", "allow": "tools", "sandbox": "",
   "frames": [{"id": "child", "url": "https://a.example/", "allow": "tools", "sandbox": "allow-scripts"}]}
]}"#;
    assert_eq!(
        problems(text),
        [
            "2:46: tabs[0].allow: `allow` is an iframe attribute, but this is a tab\n  hint: move the document into a parent's `frames` to give it `allow`, or remove it",
            "2:64: tabs[0].sandbox: `sandbox` is an iframe attribute, but this is a tab\n  hint: move the document into a parent's `frames` to give it `sandbox`, or remove it",
        ]
    );
}

#[test]
fn urls_must_parse_but_origins_are_free_text() {
    let text = r#"{"version": 1, "name": "x", "tabs": [
  {"id": "tab", "url": "/relative", "script": [
    {"navigate": {"navigable": "tab", "url": "https://"}},
    {"registerTool": {"tool": {"name": "t", "description": "d", "execute": {}}, "options": {"exposedTo": ["::", ""]}}},
    {"getTools": {"options": {"fromOrigins": ["not a url"]}}},
    {"executeTool": {"tool": {"dictionary": {"name": "t", "origin": "%%", "window": "tab"}}}}
  ]}
]}"#;
    assert_eq!(
        problems(text),
        [
            "2:24: tabs[0].url: invalid URL \"/relative\": relative URL without a base\n  hint: write an absolute URL such as https://a.example/",
            "3:46: tabs[0].script[0].navigate.url: invalid URL \"https://\": empty host\n  hint: write an absolute URL such as https://a.example/",
        ]
    );
}

#[test]
fn promise_names_are_declared_once_and_used_by_name() {
    let tool = r#"{"name": "t", "description": "d", "execute": {}}"#;
    let text = script(&format!(
        r#"{{"then": {{"promise": "later"}}}},
{{"registerTool": {{"tool": {tool}, "as": "later"}}}},
{{"getTools": {{"as": "later"}}}},
{{"executeTool": {{"tool": {{"fromGetTools": {{"promise": "latr", "name": "t"}}}}, "as": "p"}}}},
{{"then": {{"promise": "nothing"}}}}"#
    ));
    assert_eq!(
        problems(&text),
        [
            "6:21: tabs[0].script[2].getTools.as: duplicate promise name \"later\"\n  hint: it already names the promise at tabs[0].script[1].registerTool.as",
            "7:55: tabs[0].script[3].executeTool.tool.fromGetTools.promise: unknown promise \"latr\" (declared: later, p)\n  hint: did you mean \"later\"?",
            "8:22: tabs[0].script[4].then.promise: unknown promise \"nothing\" (declared: later, p)\n  hint: name a promise with \"as\" on registerTool, getTools, executeTool or callTool",
        ]
    );
}

#[test]
fn controller_names_are_declared_once_and_used_by_name() {
    let text = script(
        r#"{"newAbortController": "ctl"},
{"newAbortController": "ctl"},
{"registerTool": {"tool": {"name": "t", "description": "d", "execute": {}}, "options": {"signal": "c"}}},
{"executeTool": {"tool": {"dictionary": {"name": "t", "origin": "o", "window": "tab"}}, "options": {"signal": "ctl"}, "as": "ctl"}},
{"abort": {"controller": "ctrl"}},
{"on": {"event": "abort", "target": "x", "do": []}}"#,
    );
    assert_eq!(
        problems(&text),
        [
            "5:24: tabs[0].script[1].newAbortController: duplicate AbortController name \"ctl\"\n  hint: it already names the AbortController at tabs[0].script[0].newAbortController",
            "6:99: tabs[0].script[2].registerTool.options.signal: unknown AbortController \"c\" (declared: ctl)\n  hint: make one with {\"newAbortController\": \"name\"}",
            "8:26: tabs[0].script[4].abort.controller: unknown AbortController \"ctrl\" (declared: ctl)\n  hint: did you mean \"ctl\"?",
            "9:37: tabs[0].script[5].on.target: unknown AbortController \"x\" (declared: ctl)\n  hint: make one with {\"newAbortController\": \"name\"}",
        ]
    );
}

#[test]
fn events_are_toolchange_or_abort_with_a_target() {
    let text = script(
        r#"{"on": {"event": "toolchnage", "do": []}},
{"on": {"event": "abort", "do": []}},
{"on": {"event": "toolchange", "do": []}},
{"on": {"event": "toolactivated", "do": []}},
{"on": {"event": "toolcancel", "do": []}}"#,
    );
    assert_eq!(
        problems(&text),
        [
            "4:29: tabs[0].script[0].on.event: unknown event \"toolchnage\"\n  hint: did you mean \"toolchange\"? events are \"toolchange\", \"toolactivated\" and \"toolcancel\" (on a modelContext) and \"abort\" (on an AbortController's signal)",
            "5:8: tabs[0].script[1].on.target: an `abort` handler needs a `target`\n  hint: name the AbortController whose signal it listens to: \"target\": \"controller\"",
        ]
    );
}

#[test]
fn bfcache_steps_belong_to_the_user_list() {
    let text = scenario(
        r#"{"enterBfcache": "tab"}"#,
        r#"{"navigate": {"navigable": "tab", "url": "https://a.example/", "script": [{"restoreFromBfcache": "tab"}]}}, {"enterBfcache": "tab"}"#,
        "",
    );
    assert_eq!(
        problems(&text),
        [
            "4:13: tabs[0].script[0].enterBfcache: `enterBfcache` is a user step, but this list is a script\n  hint: put it in the top-level `user` list",
            "5:85: user[0].navigate.script[0].restoreFromBfcache: `restoreFromBfcache` is a user step, but this list is a script\n  hint: put it in the top-level `user` list",
        ]
    );
}

#[test]
fn script_statements_do_not_belong_to_the_user_list() {
    let text = scenario(
        "",
        r#"{"navigate": {"navigable": "child", "url": "https://a.example/", "script": [{"getTools": {"as": "p"}}]}}, {"removeIframe": "child"},
{"registerTool": {"tool": {"name": "t", "description": "d", "execute": {}}}},
{"then": {"promise": "q", "onFulfilled": [{"log": "ok"}]}}"#,
        "",
    );
    let hint = "hint: the `user` list holds the user's steps: `navigate`, `removeIframe`, `enterBfcache` and `restoreFromBfcache`";
    assert_eq!(
        problems(&text),
        [
            format!("6:2: user[2].registerTool: `registerTool` is a script statement, but this is the top-level `user` list\n  {hint}; put `registerTool` in a document's `script`"),
            format!("7:2: user[3].then: `then` is a script statement, but this is the top-level `user` list\n  {hint}; put `then` in a document's `script`"),
            // The statements nested in a misplaced one are still checked.
            "7:22: user[3].then.promise: unknown promise \"q\" (declared: p)\n  hint: did you mean \"p\"?".to_owned(),
        ]
    );
}

#[test]
fn every_script_statement_is_rejected_in_the_user_list() {
    let statements = [
        r#"{"log": "x"}"#,
        r#"{"registerTool": {"tool": {"name": "t", "description": "d", "execute": {}}, "as": "p"}}"#,
        r#"{"getTools": {}}"#,
        r#"{"executeTool": {"tool": {"dictionary": {"name": "t", "origin": "o", "window": "tab"}}}}"#,
        r#"{"newAbortController": "ctl"}"#,
        r#"{"abort": {"controller": "ctl"}}"#,
        r#"{"setTimeout": {"do": []}}"#,
        r#"{"then": {"promise": "p"}}"#,
        r#"{"on": {"event": "toolchange", "do": []}}"#,
        r#"{"throw": {"name": "TypeError"}}"#,
    ];
    let found = problems(&scenario("", &statements.join(", "), ""));
    let keys: Vec<&str> = statements.iter().map(|s| s.split('"').nth(1).unwrap_or_default()).collect();
    assert_eq!(found.len(), keys.len(), "{found:#?}");
    for (problem, key) in found.iter().zip(keys) {
        assert!(
            problem.contains(&format!("`{key}` is a script statement, but this is the top-level `user` list")),
            "{problem}"
        );
    }
    // The same statements are fine in a script.
    assert_eq!(problems(&script(&statements.join(", "))), Vec::<String>::new());
}

#[test]
fn every_nested_action_list_is_walked() {
    let bad = r#"{"removeIframe": "nope"}"#;
    let text = script(&format!(
        r#"{{"registerTool": {{"tool": {{"name": "t", "description": "d", "execute": {{"do": [{bad}], "onAbort": [{bad}]}}}}, "as": "p"}}}},
{{"setTimeout": {{"do": [{bad}]}}}},
{{"then": {{"promise": "p", "onFulfilled": [{bad}], "onRejected": [{bad}]}}}},
{{"on": {{"event": "toolchange", "do": [{bad}]}}}},
{{"navigate": {{"navigable": "child", "url": "https://a.example/", "script": [{bad}], "frames": [{{"id": "g", "url": "https://a.example/", "script": [{bad}]}}]}}}}"#
    ));
    let paths: Vec<String> =
        problems(&text).iter().map(|p| p.split(": ").nth(1).unwrap_or_default().to_owned()).collect();
    assert_eq!(
        paths,
        [
            "tabs[0].script[0].registerTool.tool.execute.do[0].removeIframe",
            "tabs[0].script[0].registerTool.tool.execute.onAbort[0].removeIframe",
            "tabs[0].script[1].setTimeout.do[0].removeIframe",
            "tabs[0].script[2].then.onFulfilled[0].removeIframe",
            "tabs[0].script[2].then.onRejected[0].removeIframe",
            "tabs[0].script[3].on.do[0].removeIframe",
            "tabs[0].script[4].navigate.script[0].removeIframe",
            "tabs[0].script[4].navigate.frames[0].script[0].removeIframe",
        ]
    );
}

#[test]
fn variants_are_listed_once() {
    let text = r#"{"version": 1, "name": "x", "tabs": [], "options": {"variants": ["tool-events", "title-undefined", "tool-events", "tool-events"]}}"#;
    assert_eq!(
        problems(text),
        [
            "1:100: options.variants[2]: variant \"tool-events\" is listed twice\n  hint: it is already options.variants[0]",
            "1:115: options.variants[3]: variant \"tool-events\" is listed twice\n  hint: it is already options.variants[0]",
        ]
    );
}

#[test]
fn actions_are_limited() {
    let logs = vec![r#"{"log": ""}"#; MAX_ACTIONS];
    assert_eq!(problems(&script(&logs.join(","))), Vec::<String>::new());
    let agent = r#"{"observe": "tab"}"#;
    let problems = problems(&scenario(&logs.join(","), "", agent));
    assert_eq!(
        problems,
        ["6:11: agent[0]: the scenario has more than 10000 actions\n  hint: a scenario shows one race; split a larger one into several files"]
    );
}

#[test]
fn validate_works_without_source_text() {
    let scenario = Scenario {
        version: 1,
        name: "built".to_owned(),
        description: String::new(),
        options: Default::default(),
        tabs: vec![Frame {
            id: "tab".to_owned(),
            url: "nowhere".to_owned(),
            allow: None,
            sandbox: None,
            opener: None,
            headers: Default::default(),
            sets_document_domain: false,
            js: None,
            js_file: None,
            script: vec![crate::Action::EnterBfcache("tab".to_owned())],
            frames: Vec::new(),
        }],
        user: Vec::new(),
        agent: Vec::new(),
        expect: None,
        extras: None,
        resources: Default::default(),
    };
    let problems: Vec<String> = validate(&scenario).iter().map(ToString::to_string).collect();
    assert_eq!(
        problems,
        [
            "tabs[0].url: invalid URL \"nowhere\": relative URL without a base\n  hint: write an absolute URL such as https://a.example/",
            "tabs[0].script[0].enterBfcache: `enterBfcache` is a user step, but this list is a script\n  hint: put it in the top-level `user` list",
        ]
    );
}

#[test]
fn many_unknown_names_are_all_reported() {
    // 4,000 declared promises and 4,000 unknown ones: every problem is reported, and only the
    // first few get a suggestion (which compares with every declared name).
    let mut actions: Vec<String> = (0..4000).map(|i| format!(r#"{{"getTools": {{"as": "promise{i}"}}}}"#)).collect();
    actions.extend((0..4000).map(|i| format!(r#"{{"then": {{"promise": "promise{i}x"}}}}"#)));
    let problems = problems(&script(&actions.join(",")));
    assert_eq!(problems.len(), 4000);
    assert_eq!(problems.iter().filter(|p| p.contains("did you mean")).count(), 20);
}

#[test]
fn an_opener_is_an_earlier_tab() {
    let text = r#"{"version": 1, "name": "x", "tabs": [
  {"id": "a", "url": "https://a.example/", "opener": "c", "frames": [{"id": "f", "url": "https://a.example/f", "opener": "a"}]},
  {"id": "b", "url": "https://a.example/b", "opener": "b"},
  {"id": "c", "url": "https://a.example/c", "opener": "f"},
  {"id": "d", "url": "https://a.example/d", "opener": "zz"},
  {"id": "e", "url": "https://a.example/e", "opener": "a"}
]}"#;
    assert_eq!(
        problems(text),
        [
            "2:54: tabs[0].opener: `opener` names tab \"c\", which comes after this tab\n  hint: move \"c\" before \"a\" in `tabs`: a page opens a tab once it is open itself",
            "2:112: tabs[0].frames[0].opener: `opener` is a tab attribute, but this is an iframe\n  hint: an iframe is in its parent's browsing context group already; remove `opener`",
            "3:55: tabs[1].opener: tab \"b\" names itself as its opener\n  hint: name the tab whose page opened \"b\", or remove `opener`",
            "4:55: tabs[2].opener: \"f\" is an iframe, but `opener` names a tab (a top-level navigable)\n  hint: tabs: a, b, c, d, e",
            "5:55: tabs[3].opener: unknown navigable \"zz\" (declared: a, f, b, c, d, e)",
        ]
    );
}
