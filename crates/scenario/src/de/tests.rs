//! Tests of the strict deserializer.

use serde::Deserialize;
use serde_json::json;

use super::Strict;
use crate::model::{Action, ExecuteResult, Frame, ToolRef};

fn from<'de, T: Deserialize<'de>>(value: &'de serde_json::Value) -> Result<T, String> {
    T::deserialize(Strict(value)).map_err(|e| e.to_string())
}

#[test]
fn a_struct_is_an_object_never_an_array() {
    let frame = json!({"id": "tab", "url": "https://a.example/"});
    assert_eq!(from::<Frame>(&frame).map(|f| f.id), Ok("tab".to_owned()));
    let array = json!(["tab", "https://a.example/"]);
    assert_eq!(from::<Frame>(&array), Err("invalid type: sequence, expected struct Frame".to_owned()));
}

#[test]
fn an_enum_is_a_string_or_an_object_with_one_key() {
    assert_eq!(from::<ExecuteResult>(&json!("never")), Ok(ExecuteResult::Never));
    assert_eq!(from::<ExecuteResult>(&json!({"resolve": null})), Ok(ExecuteResult::Resolve(json!(null))));
    assert_eq!(from::<Action>(&json!({"log": "hi"})), Ok(Action::Log("hi".to_owned())));
    assert_eq!(
        from::<ToolRef>(&json!({"fromGetTools": {"promise": "p", "name": "n"}})),
        Ok(ToolRef::FromGetTools { promise: "p".to_owned(), name: "n".to_owned() })
    );
    assert_eq!(from::<ExecuteResult>(&json!({"never": 1})), Err("`never` takes no value: write \"never\"".to_owned()));
    assert_eq!(from::<Action>(&json!("log")), Err("`log` needs a value: write {\"log\": …}".to_owned()));
    assert_eq!(
        from::<ToolRef>(&json!("fromGetTools")),
        Err("`fromGetTools` needs an object: write {\"fromGetTools\": {…}}".to_owned())
    );
    assert_eq!(
        from::<ToolRef>(&json!({"fromGetTools": []})),
        Err("invalid type: sequence, expected struct variant ToolRef::FromGetTools".to_owned())
    );
    assert_eq!(
        from::<Action>(&json!({"log": "a", "throw": {}})),
        Err("this object needs exactly one key, but it has 2: `log`, `throw`; put each in an object of its own"
            .to_owned())
    );
    let many = json!({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6});
    assert!(from::<Action>(&many).is_err_and(|e| e.contains("it has 6: `a`, `b`, `c`, `d`, `e`, …;")));
    assert!(
        from::<Action>(&json!({})).is_err_and(|e| e.starts_with("this object needs exactly one key, but it is empty"))
    );
    assert_eq!(from::<Action>(&json!(5)), Err("invalid type: integer `5`, expected enum Action".to_owned()));
}

#[test]
fn numbers_and_null_keep_their_json_meaning() {
    assert_eq!(from::<u64>(&json!(7)), Ok(7));
    assert_eq!(from::<i64>(&json!(-7)), Ok(-7));
    assert_eq!(from::<f64>(&json!(0.5)), Ok(0.5));
    assert_eq!(from::<u64>(&json!(-1)), Err("invalid value: integer `-1`, expected u64".to_owned()));
    assert_eq!(from::<u64>(&json!(1.5)), Err("invalid type: floating point `1.5`, expected u64".to_owned()));
    assert_eq!(from::<Option<String>>(&json!(null)), Ok(None));
    let value = json!({"a": [1, -2, 0.5, "s", true, null, {"$js": "undefined"}]});
    assert_eq!(from::<serde_json::Value>(&value), Ok(value.clone()));
}
