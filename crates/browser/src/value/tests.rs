//! Tests for JSON serialization and parsing of simulated values.

use super::*;

fn text(v: &str) -> JsValue {
    JsValue::from_json_text(&serde_json::from_str(v).unwrap()).unwrap()
}

#[test]
fn serializes_like_json_stringify() {
    let v = text(r#"{"b": 1, "a": [1.5, null, "x\n"], "u": {"$js": "undefined"}, "f": {"$js": "function"}}"#);
    assert_eq!(serialize_a_javascript_value_to_a_json_string(&v).unwrap(), r#"{"b":1,"a":[1.5,null,"x\n"]}"#);
    let v = text(r#"[{"$js": "undefined"}, {"$js": "NaN"}, 1e21, 100]"#);
    assert_eq!(serialize_a_javascript_value_to_a_json_string(&v).unwrap(), "[null,null,1e+21,100]");
}

#[test]
fn serialization_failures_are_type_errors() {
    for special in ["undefined", "toJSON-undefined", "function", "bigint", "cycle"] {
        let v = text(&format!(r#"{{"$js": "{special}"}}"#));
        let err = serialize_a_javascript_value_to_a_json_string(&v).unwrap_err();
        assert_eq!(err.error_name(), Some("TypeError"), "{special}");
    }
    // Nested BigInt and cycles throw too; nested undefined is dropped.
    let v = text(r#"{"a": {"$js": "bigint"}}"#);
    assert!(serialize_a_javascript_value_to_a_json_string(&v).is_err());
    let v = text(r#"{"a": {"$js": "toJSON-undefined"}}"#);
    assert_eq!(serialize_a_javascript_value_to_a_json_string(&v).unwrap(), "{}");
}

#[test]
fn parse_round_trips_and_reports_syntax_errors() {
    let v = parse_a_json_string_to_a_javascript_value(r#"{"a":[1,true]}"#).unwrap();
    assert_eq!(v.to_string(), "{a: [1, true]}");
    assert!(v.is_object());
    let err = parse_a_json_string_to_a_javascript_value("{").unwrap_err();
    assert_eq!(err.error_name(), Some("SyntaxError"));
    assert!(!parse_a_json_string_to_a_javascript_value("3").unwrap().is_object());
    // JSON.parse knows no scenario escapes: `$js` is an ordinary key there.
    let v = parse_a_json_string_to_a_javascript_value(r#"{"$js":"bigint"}"#).unwrap();
    assert_eq!(serialize_a_javascript_value_to_a_json_string(&v).unwrap(), r#"{"$js":"bigint"}"#);
}

#[test]
fn unknown_special_value_is_an_error() {
    let err = JsValue::from_json_text(&serde_json::json!({"$js": "symbol"})).unwrap_err();
    assert!(err.contains("unknown special value"), "{err}");
}

#[test]
fn strings_are_quoted_as_serde_json_quotes_them() {
    let mut every_escape: String = (0u8..0x80).map(char::from).collect();
    every_escape.push_str("é\u{2028}😀\"\\end");
    for s in ["", "plain", "a\"b\\c", "\u{7f}", every_escape.as_str()] {
        let mut quoted = String::from("x");
        quote_into(&mut quoted, s);
        assert_eq!(quoted, format!("x{}", serde_json::to_string(s).unwrap()), "{s:?}");
    }
}

#[test]
fn renders_values_with_window_labels() {
    let v = JsValue::Array(vec![
        JsValue::Object(vec![("name".into(), JsValue::string("t\n")), ("window".into(), JsValue::WindowProxy(2))]),
        JsValue::Number(Num(1.5)),
        JsValue::BigInt("7".into()),
        JsValue::dom_exception("AbortError"),
        JsValue::DomException { name: "SecurityError".into(), message: "no".into() },
        JsValue::type_error("bad \"x\""),
    ]);
    let rendered = v.render(&|nav, out| out.push_str(&format!("nav{nav}")));
    assert_eq!(
        rendered,
        r#"[{name: "t\n", window: <Window of nav2>}, 1.5, 7n, DOMException(AbortError), DOMException(SecurityError: no), TypeError("bad \"x\"")]"#
    );
    assert_eq!(JsValue::WindowProxy(3).to_string(), "<Window of navigable #3>");
}
