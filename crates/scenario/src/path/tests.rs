//! Tests of `JsonPath` display.

use super::*;

#[test]
fn displays_like_javascript() {
    let path = JsonPath::root()
        .key("tabs")
        .index(0)
        .key("frames")
        .index(1)
        .key("script")
        .index(3)
        .key("registerTool")
        .key("tool")
        .key("name");
    assert_eq!(path.to_string(), "tabs[0].frames[1].script[3].registerTool.tool.name");
}

#[test]
fn quotes_keys_that_are_not_words() {
    let path = JsonPath::root().key("headers").key("Permissions Policy");
    assert_eq!(path.to_string(), r#"headers["Permissions Policy"]"#);
    let path = JsonPath::root().key("headers").key("Origin-Agent-Cluster");
    assert_eq!(path.to_string(), "headers.Origin-Agent-Cluster");
    assert_eq!(JsonPath::root().key("").to_string(), r#"[""]"#);
    assert_eq!(JsonPath::root().to_string(), "");
}
