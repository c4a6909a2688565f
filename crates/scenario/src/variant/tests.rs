//! Tests of the variants' names: serde, `FromStr` and `Display` agree, and an unknown name is an
//! error that lists the known ones.

use super::Variant;

#[test]
fn serde_from_str_and_display_use_the_same_name() {
    for v in Variant::ALL {
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, format!("\"{}\"", v.name()), "{v:?}");
        assert_eq!(serde_json::from_str::<Variant>(&json).unwrap(), v);
        assert_eq!(v.name().parse::<Variant>(), Ok(v));
        assert_eq!(v.to_string(), v.name());
    }
}

#[test]
fn every_variant_is_listed_once() {
    let mut names: Vec<&str> = Variant::names().collect();
    assert_eq!(names.len(), Variant::ALL.len());
    names.sort();
    names.dedup();
    assert_eq!(names.len(), Variant::ALL.len(), "a name is listed twice");
}

#[test]
fn an_unknown_name_is_an_error_that_lists_the_known_names_and_the_closest() {
    let e = "title-undefind".parse::<Variant>().unwrap_err().to_string();
    assert!(
        e.starts_with("unknown variant \"title-undefind\" (known: completion-steps-in-parallel, title-undefined,"),
        "{e}"
    );
    assert!(e.ends_with("; did you mean \"title-undefined\"?"), "{e}");
    assert!(serde_json::from_str::<Variant>("\"nope\"").unwrap_err().to_string().contains("unknown variant `nope`"));
}
