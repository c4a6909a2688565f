//! Unit tests for permissions policy, driven by `fixtures/policy/vectors.json`: header and `allow` parsing, and "tools" through frame chains.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

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

fn vectors() -> Value {
    let path = fixture_path("policy/vectors.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Renders a policy as the fixtures spell it: feature → `["*"]`, or the keywords `'self'` and `'src'` followed by serialized origins.
fn render(policy: &Policy) -> Value {
    let mut features = serde_json::Map::new();
    for (feature, allowlist) in &policy.0 {
        let mut items = Vec::new();
        if allowlist.star {
            items.push("*".to_owned());
        }
        if allowlist.self_ {
            items.push("'self'".to_owned());
        }
        if allowlist.src {
            items.push("'src'".to_owned());
        }
        items.extend(allowlist.origins.iter().map(Origin::serialize));
        features.insert(feature.clone(), json!(items));
    }
    Value::Object(features)
}

fn origin(s: &str) -> Origin {
    Origin::of_url(&url::Url::parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}")), &mut 0)
}

fn allowlist(star: bool, self_: bool, src: bool, origins: &[&str]) -> Allowlist {
    Allowlist { star, self_, src, origins: origins.iter().map(|s| origin(s)).collect() }
}

fn policy(entries: &[(&str, Allowlist)]) -> Policy {
    Policy(entries.iter().map(|(feature, allowlist)| ((*feature).to_owned(), allowlist.clone())).collect())
}

#[test]
fn header_vectors() {
    let vectors = vectors();
    let cases = vectors["header"].as_array().expect("header cases");
    assert_eq!(cases.len(), 28);
    let mut failures = Vec::new();
    for case in cases {
        let header = case["header"].as_str().expect("header");
        let actual = match parse_permissions_policy_header(header) {
            Ok(policy) => json!({ "header": header, "policy": render(&policy) }),
            Err(_) => json!({ "header": header, "error": true }),
        };
        if &actual != case {
            failures.push(format!("expected {case}\n  actual {actual}"));
        }
    }
    assert!(failures.is_empty(), "{} failing header vectors:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn header_error_message() {
    assert_eq!(
        parse_permissions_policy_header("tools='self'"),
        Err("invalid Permissions-Policy header \"tools='self'\" (expected start of bare item at index 6); a valid value \
             is a structured-field dictionary such as `tools=()`, `tools=*`, `tools=self` or `tools=(self \"https://a.example\")`"
            .to_owned())
    );
}

#[test]
fn allow_vectors() {
    let vectors = vectors();
    let cases = vectors["allow"].as_array().expect("allow cases");
    assert_eq!(cases.len(), 14);
    let mut failures = Vec::new();
    for case in cases {
        let allow = case["allow"].as_str().expect("allow");
        let actual = json!({ "allow": allow, "policy": render(&parse_allow_attribute(allow)) });
        if &actual != case {
            failures.push(format!("expected {case}\n  actual {actual}"));
        }
    }
    assert!(failures.is_empty(), "{} failing allow vectors:\n{}", failures.len(), failures.join("\n"));
}

/// One document in a frame chain, with what the harness computed for it.
struct Frame {
    origin: Origin,
    policy: PermissionsPolicy,
    sandboxed_origin: bool,
}

/// Builds each frame of a chain in turn and returns whether "tools" is enabled in each, for the frame's own origin.
///
/// A frame is origin-sandboxed when its `sandbox` attribute lacks `allow-same-origin` or its parent is origin-sandboxed; it then gets a fresh opaque origin.
/// Its declared origin (what `'src'` matches) is its own document's origin: the fixtures have no redirects, and for an origin-sandboxed or opaque-URL document this reads HTML's "unique opaque origin" as that document's origin.
fn run_chain(frames: &[Value]) -> Vec<bool> {
    let mut next_opaque = 0;
    let mut built: Vec<Frame> = Vec::new();
    for (level, frame) in frames.iter().enumerate() {
        let url = url::Url::parse(frame["url"].as_str().expect("url")).expect("frame url parses");
        let sandbox = frame.get("sandbox").map(|s| s.as_str().expect("sandbox is a string"));
        let allow = frame.get("allow").map(|s| s.as_str().expect("allow is a string"));
        let parent = built.last();
        if parent.is_none() {
            assert!(sandbox.is_none() && allow.is_none(), "the top-level frame has no container attributes");
        }
        let sandboxed_origin = parent.is_some_and(|p| p.sandboxed_origin)
            || sandbox.is_some_and(|s| !s.split_ascii_whitespace().any(|t| t == "allow-same-origin"));
        let origin = if sandboxed_origin {
            let id = next_opaque;
            next_opaque += 1;
            Origin::Opaque(id)
        } else {
            Origin::of_url(&url, &mut next_opaque)
        };
        let declared = match frame.get("header") {
            Some(header) => parse_permissions_policy_header(header.as_str().expect("header is a string"))
                .unwrap_or_else(|e| panic!("level {level}: {e}")),
            None => Policy::default(),
        };
        let container_policy = parse_allow_attribute(allow.unwrap_or(""));
        let policy = match parent {
            None => create_a_permissions_policy(None, &origin, &declared),
            Some(parent) => {
                let container = Container {
                    parent_origin: &parent.origin,
                    parent_policy: &parent.policy,
                    container_policy: &container_policy,
                    declared_origin: &origin,
                };
                create_a_permissions_policy(Some(&container), &origin, &declared)
            }
        };
        built.push(Frame { origin, policy, sandboxed_origin });
    }
    built
        .iter()
        .map(|frame| is_feature_enabled_in_document_for_origin(TOOLS, &frame.policy, &frame.origin, &frame.origin))
        .collect()
}

#[test]
fn frame_chain_vectors() {
    let vectors = vectors();
    let chains = vectors["frame_chains"].as_array().expect("frame chains");
    assert_eq!(chains.len(), 41);
    let mut failures = Vec::new();
    for chain in chains {
        let name = chain["name"].as_str().expect("name");
        let frames = chain["frames"].as_array().expect("frames");
        let expected: Vec<bool> =
            frames.iter().map(|frame| frame["tools_enabled"].as_bool().expect("tools_enabled")).collect();
        let actual = run_chain(frames);
        if actual != expected {
            failures.push(format!("{name}: expected {expected:?}, actual {actual:?}"));
        }
    }
    assert!(failures.is_empty(), "{} failing frame chains:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn default_allowlists() {
    assert_eq!(default_allowlist(TOOLS), Some(DefaultAllowlist::SelfOrigin));
    assert_eq!(default_allowlist("camera"), None);
    assert_eq!(SUPPORTED_FEATURES, &[("tools", DefaultAllowlist::SelfOrigin)]);
}

#[test]
fn allowlist_matching() {
    let a = origin("https://a.example");
    let b = origin("https://b.example");
    let opaque = Origin::Opaque(4);

    // The special value * matches every origin, opaque ones included.
    let star = allowlist(true, false, false, &[]);
    assert!(allowlist_matches(&star, &b, &a, None));
    assert!(allowlist_matches(&star, &opaque, &a, None));

    // 'self' stands for self_origin.
    let self_only = allowlist(false, true, false, &[]);
    assert!(allowlist_matches(&self_only, &a, &a, Some(&b)));
    assert!(!allowlist_matches(&self_only, &b, &a, Some(&b)));

    // 'src' stands for src_origin, and matches nothing without one.
    let src_only = allowlist(false, false, true, &[]);
    assert!(allowlist_matches(&src_only, &b, &a, Some(&b)));
    assert!(!allowlist_matches(&src_only, &a, &a, Some(&b)));
    assert!(!allowlist_matches(&src_only, &b, &a, None));
    assert!(allowlist_matches(&src_only, &opaque, &a, Some(&Origin::Opaque(4))));
    assert!(!allowlist_matches(&src_only, &opaque, &a, Some(&Origin::Opaque(5))));

    // Listed origins match by same origin; ports count.
    let listed = allowlist(false, false, false, &["https://b.example", "https://c.example:8443"]);
    assert!(allowlist_matches(&listed, &b, &a, None));
    assert!(allowlist_matches(&listed, &origin("https://c.example:8443/x"), &a, None));
    assert!(!allowlist_matches(&listed, &origin("https://c.example"), &a, None));
    assert!(!allowlist_matches(&listed, &a, &a, None));
    assert!(!allowlist_matches(&listed, &opaque, &a, None));

    // The empty allowlist ('none') matches nothing, not even self_origin.
    assert!(!allowlist_matches(&Allowlist::default(), &a, &a, Some(&a)));
}

#[test]
fn top_level_policy() {
    let a = origin("https://a.example");
    let b = origin("https://b.example");
    let policy = create_a_permissions_policy(None, &a, &Policy::default());
    assert_eq!(policy, PermissionsPolicy { inherited: InheritedPolicy([true]), declared: Policy::default() });
    assert!(is_feature_enabled_in_document_for_origin(TOOLS, &policy, &a, &a));
    // The default allowlist 'self' refuses another origin, which "get feature value for origin" does not consult.
    assert!(!is_feature_enabled_in_document_for_origin(TOOLS, &policy, &a, &b));
    assert!(get_feature_value_for_origin(TOOLS, &policy, &a, &b));
    // Unsupported features have no inherited policy and are never enabled.
    assert!(!is_feature_enabled_in_document_for_origin("camera", &policy, &a, &a));
    assert!(!get_feature_value_for_origin("camera", &policy, &a, &a));
}

#[test]
fn declared_policy_keeps_only_enabled_supported_features() {
    let a = origin("https://a.example");
    let b = origin("https://b.example");
    let header = parse_permissions_policy_header("tools=(self \"https://b.example\"), camera=*").expect("valid header");
    let top = create_a_permissions_policy(None, &a, &header);
    assert_eq!(top.declared, policy(&[("tools", allowlist(false, true, false, &["https://b.example"]))]));
    assert!(is_feature_enabled_in_document_for_origin(TOOLS, &top, &a, &a));
    assert!(is_feature_enabled_in_document_for_origin(TOOLS, &top, &a, &b));
    assert!(!is_feature_enabled_in_document_for_origin(TOOLS, &top, &a, &origin("https://c.example")));

    // A child whose inherited policy is disabled ignores its own header.
    let no_allow = Policy::default();
    let container =
        Container { parent_origin: &a, parent_policy: &top, container_policy: &no_allow, declared_origin: &b };
    let child =
        create_a_permissions_policy(Some(&container), &b, &policy(&[("tools", allowlist(true, false, false, &[]))]));
    assert_eq!(child, PermissionsPolicy { inherited: InheritedPolicy([false]), declared: Policy::default() });
    assert_eq!(create_a_permissions_policy_for_a_navigable(Some(&container), &b), child);
}

#[test]
fn inherited_policy_steps() {
    let a = origin("https://a.example");
    let b = origin("https://b.example");
    let c = origin("https://c.example");
    let top = create_a_permissions_policy(None, &a, &Policy::default());
    let none = Policy::default();
    let allow_tools = parse_allow_attribute("tools");

    // Step 1: no container.
    assert!(define_an_inherited_policy(TOOLS, None, &b));
    // Step 7: default allowlist 'self' against the container's node document.
    let container = Container { parent_origin: &a, parent_policy: &top, container_policy: &none, declared_origin: &a };
    assert!(define_an_inherited_policy(TOOLS, Some(&container), &a));
    assert!(!define_an_inherited_policy(TOOLS, Some(&container), &b));
    // Step 5: the container policy's 'src' is the declared origin, not the document that actually loads.
    let container =
        Container { parent_origin: &a, parent_policy: &top, container_policy: &allow_tools, declared_origin: &b };
    assert!(define_an_inherited_policy(TOOLS, Some(&container), &b));
    assert!(!define_an_inherited_policy(TOOLS, Some(&container), &c));
    // Step 8: an unsupported feature has no default allowlist.
    assert!(!define_an_inherited_policy("camera", Some(&container), &a));

    // Step 3: the parent's declared policy must match the child's origin, whatever the container policy says.
    let restricted =
        create_a_permissions_policy(None, &a, &parse_permissions_policy_header("tools=self").expect("valid"));
    let allow_star = parse_allow_attribute("tools *");
    let container =
        Container { parent_origin: &a, parent_policy: &restricted, container_policy: &allow_star, declared_origin: &b };
    assert!(!define_an_inherited_policy(TOOLS, Some(&container), &b));
    assert!(define_an_inherited_policy(TOOLS, Some(&container), &a));

    // Step 2: the parent's declared policy must match the parent's own origin.
    let excluded = create_a_permissions_policy(
        None,
        &a,
        &parse_permissions_policy_header("tools=(\"https://b.example\")").expect("valid"),
    );
    let container =
        Container { parent_origin: &a, parent_policy: &excluded, container_policy: &allow_star, declared_origin: &b };
    assert!(get_feature_value_for_origin(TOOLS, &excluded, &a, &b));
    assert!(!define_an_inherited_policy(TOOLS, Some(&container), &b));
}
