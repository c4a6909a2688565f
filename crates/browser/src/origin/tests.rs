//! Unit tests for origins, sites and potential trustworthiness, driven by `fixtures/origin/vectors.json`.

use std::path::{Path, PathBuf};

use super::*;

/// Finds `fixtures/<relative>` in the nearest ancestor of the crate directory (or, failing that, of this source file) that has it.
fn fixture_path(relative: &str) -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let this_file = Path::new(file!());
    manifest_dir
        .ancestors()
        .chain(this_file.ancestors())
        .map(|dir| dir.join("fixtures").join(relative))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| panic!("fixtures/{relative} not found above {}", manifest_dir.display()))
}

fn read_fixture(relative: &str) -> serde_json::Value {
    let path = fixture_path(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn url(s: &str) -> url::Url {
    url::Url::parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

/// The origin of `s`, allocating opaque ids from 0.
fn origin(s: &str) -> Origin {
    Origin::of_url(&url(s), &mut 0)
}

#[test]
fn vectors() {
    let vectors = read_fixture("origin/vectors.json");
    let cases = vectors.as_array().expect("an array of cases");
    assert_eq!(cases.len(), 45);
    let mut failures = Vec::new();
    for case in cases {
        let input = case["url"].as_str().expect("url");
        let parsed = url(input);
        let mut next_opaque = 0;
        let origin = Origin::of_url(&parsed, &mut next_opaque);
        let actual = serde_json::json!({
            "url": input,
            "origin": origin.serialize(),
            "site": origin.site().to_string(),
            "potentially_trustworthy_url": is_url_potentially_trustworthy(&parsed),
            "potentially_trustworthy_origin": origin.is_potentially_trustworthy(),
        });
        if &actual != case {
            failures.push(format!("expected {case}\n  actual {actual}"));
        }
    }
    assert!(failures.is_empty(), "{} failing vectors:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn opaque_ids_come_from_the_simulator_counter() {
    let mut next_opaque = 5;
    assert_eq!(Origin::of_url(&url("data:,a"), &mut next_opaque), Origin::Opaque(5));
    assert_eq!(Origin::of_url(&url("about:blank"), &mut next_opaque), Origin::Opaque(6));
    // A tuple origin takes no id.
    assert_eq!(
        Origin::of_url(&url("https://example.com"), &mut next_opaque),
        Origin::Tuple { scheme: "https".into(), host: "example.com".into(), port: None }
    );
    // A blob URL with no tuple-origin inner URL takes exactly one id.
    assert_eq!(Origin::of_url(&url("blob:data:,x"), &mut next_opaque), Origin::Opaque(7));
    assert_eq!(next_opaque, 8);
}

#[test]
fn tuple_fields() {
    assert_eq!(
        origin("https://Example.COM:8443/x"),
        Origin::Tuple { scheme: "https".into(), host: "example.com".into(), port: Some(8443) }
    );
    assert_eq!(origin("http://[::1]/"), Origin::Tuple { scheme: "http".into(), host: "[::1]".into(), port: None });
    assert_eq!(origin("file:///tmp/a.html"), Origin::Tuple { scheme: "file".into(), host: "".into(), port: None });
}

#[test]
fn scheme_and_opacity() {
    assert_eq!(origin("https://example.com").scheme(), Some("https"));
    assert_eq!(origin("file:///a").scheme(), Some("file"));
    assert_eq!(origin("data:,x").scheme(), None);
    assert!(origin("data:,x").is_opaque());
    assert!(!origin("file:///a").is_opaque());
}

#[test]
fn same_origin() {
    assert!(origin("https://example.com/a").same_origin(&origin("https://example.com:443/b")));
    assert!(!origin("https://example.com").same_origin(&origin("http://example.com")));
    assert!(!origin("https://example.com").same_origin(&origin("https://example.com:8443")));
    assert!(!origin("https://a.example.com").same_origin(&origin("https://b.example.com")));
    assert!(Origin::Opaque(3).same_origin(&Origin::Opaque(3)));
    assert!(!Origin::Opaque(3).same_origin(&Origin::Opaque(4)));
    assert!(origin("file:///a").same_origin(&origin("file:///b")));
}

#[test]
fn serialization_and_display() {
    assert_eq!(Origin::Opaque(7).serialize(), "null");
    assert_eq!(Origin::Opaque(7).to_string(), "opaque#7");
    assert_eq!(origin("https://example.com:8443/").to_string(), "https://example.com:8443");
    assert_eq!(origin("file:///x").to_string(), "file://");
    assert_eq!(Site::Opaque(3).to_string(), "opaque#3");
    assert_eq!(origin("https://www.example.co.uk").site().to_string(), "https://example.co.uk");
}

#[test]
fn sites() {
    let site = |s: &str| origin(s).site();
    assert_eq!(
        site("https://a.example.co.uk:8443"),
        Site::SchemeAndHost { scheme: "https".into(), host: "example.co.uk".into() }
    );
    assert!(site("https://a.example.co.uk").same_site(&site("https://b.example.co.uk:444")));
    assert!(!site("https://a.example.co.uk").same_site(&site("http://a.example.co.uk")));
    assert!(!site("https://a.github.io").same_site(&site("https://b.github.io")));
    assert!(!site("http://127.0.0.1").same_site(&site("http://127.0.0.2")));
    assert_eq!(Origin::Opaque(2).site(), Site::Opaque(2));
    assert!(Site::Opaque(2).same_site(&Site::Opaque(2)));
    assert!(!Site::Opaque(2).same_site(&Site::Opaque(3)));
}

#[test]
fn shared_strings_change_neither_equality_nor_order() {
    // Origins made from URLs share their strings; ones built by hand do not, and compare the same.
    let unshared =
        |scheme: &str, host: &str, port: Option<u16>| Origin::Tuple { scheme: scheme.into(), host: host.into(), port };
    assert_eq!(origin("https://a.example"), unshared("https", "a.example", None));
    assert_ne!(origin("https://a.example"), unshared("https", "a.example", Some(1)));
    assert_ne!(origin("https://a.example"), unshared("http", "a.example", None));
    // The order is the derived one: opaque first, then scheme, host, port.
    let mut origins = [
        unshared("https", "b.example", None),
        origin("https://a.example:8443"),
        Origin::Opaque(2),
        origin("http://z.example"),
        origin("https://a.example"),
        Origin::Opaque(1),
    ];
    origins.sort();
    assert_eq!(
        origins.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "opaque#1",
            "opaque#2",
            "http://z.example",
            "https://a.example",
            "https://a.example:8443",
            "https://b.example"
        ]
    );
    assert_eq!(origin("https://a.example").cmp(&unshared("https", "a.example", None)), std::cmp::Ordering::Equal);
    let site = |s: &str| origin(s).site();
    assert_eq!(
        site("https://x.example.co.uk"),
        Site::SchemeAndHost { scheme: "https".into(), host: "example.co.uk".into() }
    );
    assert!(Site::Opaque(9) < site("https://a.example"));
    assert!(site("http://b.example") < site("https://a.example"));
}
