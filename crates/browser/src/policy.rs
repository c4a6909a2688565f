//! Permissions Policy for policy-controlled features such as WebMCP's "tools": header and `allow` parsing, allowlist matching, inheritance through containers, and the enabled check.
//!
//! Algorithms follow the W3C Permissions Policy specification, <https://w3c.github.io/webappsec-permissions-policy/>.
//! Section and step numbers in comments are those of the Working Draft of 2023-12-18 (<https://www.w3.org/TR/2023/WD-permissions-policy-1-20231218/>), the revision Chromium's implementation cites; the allowlist's `'self'` and `'src'` items follow the Editor's Draft, which stores them as the allowlist's self-origin and src-origin.

use std::collections::BTreeMap;

use crate::origin::Origin;

/// The WebMCP policy-controlled feature.
///
/// <https://webmachinelearning.github.io/webmcp/#permissiondef-tools>
pub const TOOLS: &str = "tools";

/// A policy-controlled feature's default allowlist.
///
/// <https://w3c.github.io/webappsec-permissions-policy/#default-allowlist>
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DefaultAllowlist {
    /// `*`: allowed in top-level documents and, by default, in every child document.
    Star,
    /// `'self'`: allowed in top-level documents and, by default, in same-origin child documents.
    SelfOrigin,
}

/// The simulated user agent's supported features, each with its default allowlist, in feature-name order.
///
/// <https://w3c.github.io/webappsec-permissions-policy/#supported-features>
pub const SUPPORTED_FEATURES: &[(&str, DefaultAllowlist)] = &[
    // "Access to the APIs in this specification is gated behind the policy-controlled feature "tools", which has a default allowlist of 'self'."
    (TOOLS, DefaultAllowlist::SelfOrigin),
];

/// The default allowlist of `feature`, or `None` when the simulated user agent does not support it.
pub fn default_allowlist(feature: &str) -> Option<DefaultAllowlist> {
    SUPPORTED_FEATURES.iter().find(|(name, _)| *name == feature).map(|(_, default)| *default)
}

/// Where `feature` is in [`SUPPORTED_FEATURES`], or `None` when the simulated user agent does not support it.
#[inline]
pub fn supported_feature_index(feature: &str) -> Option<usize> {
    SUPPORTED_FEATURES.iter().position(|(name, _)| *name == feature)
}

/// An allowlist: the special value `*`, or a set of items.
///
/// <https://w3c.github.io/webappsec-permissions-policy/#allowlist>
///
/// The keywords `'self'` and `'src'` are kept as flags and resolved when matching (see [`allowlist_matches`]), because the parsers run before the origins they stand for are known.
/// When `star` is set the other fields are empty.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Allowlist {
    /// The special value `*`, which matches every origin.
    pub star: bool,
    /// The allowlist's self-origin is set: `'self'` in an `allow` attribute, `self` in a header.
    pub self_: bool,
    /// The allowlist's src-origin is set: `'src'` in an `allow` attribute, or an `allow` directive with no allowlist.
    pub src: bool,
    /// Tuple origins named explicitly, in order, without duplicates.
    pub origins: Vec<Origin>,
}

impl Allowlist {
    /// The special value `*`.
    fn special_value_star() -> Allowlist {
        Allowlist { star: true, ..Allowlist::default() }
    }

    /// Appends the origin of `element`, parsed as an absolute URL, to the ordered set of origins, unless the parse fails or the origin is opaque or already present.
    fn append_origin_of(&mut self, element: &str) {
        // Let result be the result of executing the URL parser on element.
        let Ok(result) = url::Url::parse(element) else {
            return;
        };
        // If result is not failure:
        //   Let target be the origin of result.
        //   If target is not an opaque origin, append target to allowlist.
        // Opaque targets are dropped, so their ids never matter: a throwaway counter is enough.
        let mut scratch_opaque = 0;
        let target = Origin::of_url(&result, &mut scratch_opaque);
        if !target.is_opaque() && !self.origins.contains(&target) {
            self.origins.push(target);
        }
    }
}

/// A policy: feature name → allowlist.
/// It is a declared policy (from a `Permissions-Policy` header) or a container policy (from an `allow` attribute).
///
/// <https://w3c.github.io/webappsec-permissions-policy/#policy-directive>
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Policy(pub BTreeMap<String, Allowlist>);

/// Parses a `Permissions-Policy` header value into a declared policy.
///
/// <https://w3c.github.io/webappsec-permissions-policy/#process-response-policy>
/// <https://w3c.github.io/webappsec-permissions-policy/#construct-policy>
///
/// The value is a structured-field Dictionary (RFC 9651, which RFC 8941 headers parse identically).
/// `self` is kept as [`Allowlist::self_`]; it stands for the origin of the document the response creates.
/// Members whose value has another form (a bare token other than `*` or `self`, a number, a boolean, …) are ignored, as are inner-list items that are neither the tokens `*` and `self` nor strings.
/// A bare string member value is read as a one-element list.
///
/// On a malformed header this returns `Err` with a message; §9.1 step 2 then aborts, so the caller applies no declared policy.
pub fn parse_permissions_policy_header(value: &str) -> Result<Policy, String> {
    // §9.1 Process response policy.
    // Step 1. Let parsed header be the result of executing get a structured field value given "Permissions-Policy" and "dictionary" from response's header list.
    // Step 2. If parsed header is null, abort these steps.
    let parsed_header: sfv::Dictionary = if value.trim_matches(' ').is_empty() {
        // An empty field value parses as an empty dictionary (RFC 9651 §4.2), which sfv reports as an error.
        sfv::Dictionary::default()
    } else {
        sfv::Parser::new(value).parse().map_err(|error| {
            format!(
                "invalid Permissions-Policy header {value:?} ({error}); a valid value is a structured-field \
                 dictionary such as `tools=()`, `tools=*`, `tools=self` or `tools=(self \"https://a.example\")`"
            )
        })?
    };
    // Step 3. Let policy be the result of executing Construct policy from dictionary and origin on parsed header and origin.
    // Step 4. Return policy.
    Ok(construct_policy_from_dictionary(&parsed_header))
}

/// §9.2 Construct policy from dictionary and origin, with the origin left symbolic as [`Allowlist::self_`].
///
/// <https://w3c.github.io/webappsec-permissions-policy/#construct-policy>
fn construct_policy_from_dictionary(dictionary: &sfv::Dictionary) -> Policy {
    // Step 1. Let policy be an empty ordered map.
    let mut policy = Policy::default();
    // Step 2. For each feature-name → value of dictionary:
    for (feature_name, value) in dictionary {
        // Step 2.1. If feature-name does not identify any recognized policy-controlled feature, then continue.
        // Deviation: unrecognized features are kept, because the parser does not know which features the caller supports; create_a_permissions_policy drops them (§9.6 step 3.1 finds no inherited policy for them).
        // Step 2.2. Let feature be the policy-controlled feature identified by feature-name.
        let feature = feature_name.as_str().to_owned();
        // §5.2: the member value is a String, the Token `*`, the Token `self`, or an Inner List of those; "Member Values of any other form will cause the entire Dictionary Member to be ignored by the processing steps."
        let elements: Vec<&sfv::BareItem> = match value {
            sfv::ListEntry::Item(item) => match &item.bare_item {
                sfv::BareItem::Token(token) if matches!(token.as_str(), "*" | "self") => {
                    vec![&item.bare_item]
                }
                sfv::BareItem::String(_) => vec![&item.bare_item],
                _ => continue,
            },
            sfv::ListEntry::InnerList(inner_list) => inner_list.items.iter().map(|item| &item.bare_item).collect(),
        };
        let is_token = |element: &sfv::BareItem, name: &str| matches!(element, sfv::BareItem::Token(token) if token.as_str() == name);
        // Step 2.3. Let allowlist be a new allowlist.
        // Step 2.4. If value is the token *, or if value is a list which contains the token *, set allowlist to the special value *.
        let allowlist = if elements.iter().any(|element| is_token(element, "*")) {
            Allowlist::special_value_star()
        } else {
            // Step 2.5. Otherwise:
            // Step 2.5.1. Set allowlist to a new ordered set.
            let mut allowlist = Allowlist::default();
            // Step 2.5.2. If value is the token self, append origin to allowlist.
            // Step 2.5.3. If value is a list, then for each element in value:
            for element in elements {
                // Step 2.5.3.1. If element is the token self, append origin to allowlist.
                if is_token(element, "self") {
                    allowlist.self_ = true;
                    continue;
                }
                // Step 2.5.3.2. Otherwise, let result be the result of executing the URL parser on element.
                // Step 2.5.3.3. If result is not failure: let target be the origin of result; if target is not an opaque origin, append target to allowlist.
                // §5.2: "Any other items inside of an Inner List will be ignored by the processing steps", so only strings reach the URL parser.
                if let sfv::BareItem::String(string) = element {
                    allowlist.append_origin_of(string.as_str());
                }
            }
            allowlist
        };
        // Step 2.6. Set policy[feature] to allowlist.
        policy.0.insert(feature, allowlist);
    }
    // Step 3. Return policy.
    policy
}

/// Parses an iframe's `allow` attribute into a container policy.
///
/// <https://w3c.github.io/webappsec-permissions-policy/#process-policy-attributes>
/// <https://w3c.github.io/webappsec-permissions-policy/#parse-policy-directive>
///
/// `'self'` is kept as [`Allowlist::self_`] (the container's node document's origin) and `'src'` as [`Allowlist::src`] (the container's declared origin); a directive with no allowlist gets `'src'`.
/// Elements that are not keywords and do not parse as absolute URLs with a tuple origin, such as `'none'`, are ignored.
pub fn parse_allow_attribute(value: &str) -> Policy {
    // §9.4 Process permissions policy attributes.
    // Step 1. Let container policy be the result of running Parse policy directive on the value of element's allow attribute, with container origin set to the origin of element's node document, and target origin set to element's declared origin.
    // The two origins stay symbolic; define_an_inherited_policy resolves them from its Container.
    // Step 2. If element is an iframe element: the allowfullscreen attribute … adds fullscreen.
    // TODO(spec): not modelled; the simulator has no fullscreen feature.
    // Step 3. Return container policy.

    // §9.3 Parse policy directive.
    // Step 1. Let directive be an empty ordered map.
    let mut directive = Policy::default();
    // Step 2. For each serialized-declaration returned by strictly splitting value on the delimiter U+003B (;):
    for serialized_declaration in value.split(';') {
        // Step 2.1. Let tokens be the result of splitting serialized-declaration on ASCII whitespace.
        let tokens: Vec<&str> =
            serialized_declaration.split(is_ascii_whitespace).filter(|token| !token.is_empty()).collect();
        // Step 2.2. If tokens is an empty list, then continue.
        let Some((feature_name, targetlist)) = tokens.split_first() else {
            continue;
        };
        // Step 2.3. Let feature-name be the first element of tokens.
        // Step 2.4. If feature-name does not identify any recognized policy-controlled feature, then continue.
        // Deviation: unrecognized features are kept, as in parse_permissions_policy_header, because the parser does not know which features the caller supports.
        // Step 2.5. Let feature be the policy-controlled feature identified by feature-name.
        let feature = (*feature_name).to_owned();
        // Step 2.6. Let targetlist be the remaining elements, if any, of tokens.
        // Step 2.7. Let allowlist be a new allowlist.
        // Step 2.8. If any element of targetlist is the string "*", set allowlist to the special value *.
        let allowlist = if targetlist.contains(&"*") {
            Allowlist::special_value_star()
        } else {
            // Step 2.9. Otherwise:
            // Step 2.9.1. Set allowlist to a new ordered set.
            let mut allowlist = Allowlist::default();
            // Step 2.9.2. If targetlist is empty and target origin is given, append target origin to allowlist.
            // An iframe always has a declared origin, so target origin is always given.
            if targetlist.is_empty() {
                allowlist.src = true;
            }
            // Step 2.9.3. For each element in targetlist:
            for element in targetlist {
                // Step 2.9.3.1. If element is an ASCII case-insensitive match for "'self'", let result be container origin.
                if element.eq_ignore_ascii_case("'self'") {
                    allowlist.self_ = true;
                    continue;
                }
                // Step 2.9.3.2. If target origin is given, and element is an ASCII case-insensitive match for "'src'", let result be target origin.
                if element.eq_ignore_ascii_case("'src'") {
                    allowlist.src = true;
                    continue;
                }
                // Step 2.9.3.3. Otherwise, let result be the result of executing the URL parser on element.
                // Step 2.9.3.4. If result is not failure: let target be the origin of result; if target is not an opaque origin, append target to allowlist.
                // `'none'` has no step of its own: it fails to parse as a URL and adds nothing.
                allowlist.append_origin_of(element);
            }
            allowlist
        };
        // Step 2.10. Set directive[feature] to allowlist.
        directive.0.insert(feature, allowlist);
    }
    // Step 3. Return directive.
    directive
}

/// Infra's ASCII whitespace: U+0009 TAB, U+000A LF, U+000C FF, U+000D CR, or U+0020 SPACE.
///
/// <https://infra.spec.whatwg.org/#ascii-whitespace>
fn is_ascii_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{c}' | '\r' | ' ')
}

/// Whether an allowlist matches an origin.
///
/// <https://w3c.github.io/webappsec-permissions-policy/#matches>
///
/// `self_origin` is the origin `'self'` stands for (the document whose header declared the allowlist, or the container's node document for an `allow` attribute); `src_origin` is the origin `'src'` stands for (the container's declared origin), `None` for a header.
/// The simulator does not model `document.domain`, so "same origin-domain" is [`Origin::same_origin`].
pub fn allowlist_matches(
    allowlist: &Allowlist,
    origin: &Origin,
    self_origin: &Origin,
    src_origin: Option<&Origin>,
) -> bool {
    // Step 1. If the allowlist is the special value *, then return true.
    if allowlist.star {
        return true;
    }
    // Step 2. If the allowlist's self-origin is not null and it is same origin-domain with origin, then return true.
    if allowlist.self_ && self_origin.same_origin(origin) {
        return true;
    }
    // Step 3. If the allowlist's src-origin is not null and it is same origin-domain with origin, then return true.
    if allowlist.src && src_origin.is_some_and(|src_origin| src_origin.same_origin(origin)) {
        return true;
    }
    // Step 4. If origin is an opaque origin, return false.
    if origin.is_opaque() {
        return false;
    }
    // Step 5. Let url be the result of calling the URL parser on the serialization of origin.
    // Step 6. For each permissions-source-expression item in the allowlist's expressions: if url matches item (CSP "Does url match expression in origin with redirect count?"), return true.
    // Deviation: the expressions are exact origins compared with same origin, because the simulator's parsers (following the Working Draft) store the origin of each parsed URL; wildcard subdomains and scheme-only sources are not modelled.
    if allowlist.origins.iter().any(|item| item.same_origin(origin)) {
        return true;
    }
    // Step 7. Return false.
    false
}

/// An inherited policy: one entry per supported feature, `true` for "Enabled" and `false` for "Disabled".
///
/// <https://w3c.github.io/webappsec-permissions-policy/#inherited-policy>
///
/// The map's keys are exactly the supported features, so it is stored as one flag per entry of [`SUPPORTED_FEATURES`], in that order: creating a document's policy allocates nothing.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct InheritedPolicy(pub [bool; SUPPORTED_FEATURES.len()]);

impl InheritedPolicy {
    /// `inherited policy[feature]`: `Some(true)` for "Enabled", `Some(false)` for "Disabled", `None` when `feature` is not supported (not a key of the map).
    pub fn get(&self, feature: &str) -> Option<bool> {
        supported_feature_index(feature).map(|index| self.0[index])
    }
}

/// A document's permissions policy: its inherited policy (feature → enabled) and its declared policy.
///
/// <https://w3c.github.io/webappsec-permissions-policy/#permissions-policy>
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PermissionsPolicy {
    /// The inherited policy: `true` for "Enabled", `false` for "Disabled", one entry per supported feature.
    pub inherited: InheritedPolicy,
    /// The declared policy, from the document's `Permissions-Policy` header; its `'self'` is the document's origin.
    pub declared: Policy,
}

/// What "define an inherited policy for feature in container at origin" reads off a navigable container.
pub struct Container<'a> {
    /// The origin of the container's node document.
    pub parent_origin: &'a Origin,
    /// The permissions policy of the container's node document.
    pub parent_policy: &'a PermissionsPolicy,
    /// The container policy, from [`parse_allow_attribute`] on the container's `allow` attribute (empty when it has none).
    pub container_policy: &'a Policy,
    /// The container's declared origin, which `'src'` stands for.
    /// For a sandboxed iframe without `allow-same-origin` pass the sandboxed document's own opaque origin (see the module's tests).
    pub declared_origin: &'a Origin,
}

/// Creates a permissions policy for a navigable, with an empty declared policy.
/// `container` is `None` for a top-level traversable.
///
/// <https://w3c.github.io/webappsec-permissions-policy/#create-for-navigable>
pub fn create_a_permissions_policy_for_a_navigable(
    container: Option<&Container>,
    origin: &Origin,
) -> PermissionsPolicy {
    // Step 1. Assert: If not null, container is a navigable container.
    // The Container type only describes navigable containers.
    // Step 2. Let inherited policy be a new ordered map.
    // Every entry is set by step 3 (its keys are the supported features; see InheritedPolicy).
    let mut inherited_policy = InheritedPolicy([false; SUPPORTED_FEATURES.len()]);
    // Step 3. For each feature supported,
    for (index, (feature, _)) in SUPPORTED_FEATURES.iter().enumerate() {
        // Step 3.1. Let isInherited be the result of running Define an inherited policy for feature in container at origin on feature, container and origin.
        let is_inherited = define_an_inherited_policy(feature, container, origin);
        // Step 3.2. Set inherited policy[feature] to isInherited.
        inherited_policy.0[index] = is_inherited;
    }
    // Step 4. Let policy be a new permissions policy, with inherited policy inherited policy and declared policy a new ordered map.
    // Step 5. Return policy.
    PermissionsPolicy { inherited: inherited_policy, declared: Policy::default() }
}

/// Creates a permissions policy for a navigable from a response whose `Permissions-Policy` header parsed to `declared` (pass `Policy::default()` when the header is absent or malformed).
/// `container` is `None` for a top-level traversable.
///
/// <https://w3c.github.io/webappsec-permissions-policy/#create-from-response>
pub fn create_a_permissions_policy(
    container: Option<&Container>,
    origin: &Origin,
    declared: &Policy,
) -> PermissionsPolicy {
    // Step 1. Let policy be the result of running Create a Permissions Policy for a navigable given container and origin.
    let mut policy = create_a_permissions_policy_for_a_navigable(container, origin);
    // Step 2. Let d be the result of running Process response policy on response and origin.
    // The caller ran parse_permissions_policy_header, once per response (the simulator's callers when the scenario is compiled); `self` in d stands for origin.
    let d = declared;
    // Step 3. For each feature → allowlist of d:
    for (feature, allowlist) in &d.0 {
        // Step 3.1. If policy's inherited policy[feature] is true, then set policy's declared policy[feature] to allowlist.
        // Unsupported features have no inherited policy and are dropped here.
        if policy.inherited.get(feature) == Some(true) {
            policy.declared.0.insert(feature.clone(), allowlist.clone());
        }
    }
    // Step 4. Return policy.
    policy
}

/// Defines an inherited policy for `feature` in `container` at `origin`: `true` for "Enabled".
/// `container` is `None` for a top-level traversable.
///
/// <https://w3c.github.io/webappsec-permissions-policy/#define-inherited-policy-in-container>
pub fn define_an_inherited_policy(feature: &str, container: Option<&Container>, origin: &Origin) -> bool {
    // Step 1. If container is null, return "Enabled".
    let Some(container) = container else {
        return true;
    };
    // Step 2. If the result of executing Get feature value for origin on feature, container's node document, and container's node document's origin is "Disabled", return "Disabled".
    if !get_feature_value_for_origin(feature, container.parent_policy, container.parent_origin, container.parent_origin)
    {
        return false;
    }
    // Step 3. If the result of executing Get feature value for origin on feature, container's node document, and origin is "Disabled", return "Disabled".
    if !get_feature_value_for_origin(feature, container.parent_policy, container.parent_origin, origin) {
        return false;
    }
    // Step 4. Let container policy be the result of running Process permissions policy attributes on container.
    let container_policy = container.container_policy;
    // Step 5. If feature is a key in container policy:
    if let Some(allowlist) = container_policy.0.get(feature) {
        // Step 5.1. If the allowlist for feature in container policy matches origin, return "Enabled".
        // Step 5.2. Otherwise return "Disabled".
        return allowlist_matches(allowlist, origin, container.parent_origin, Some(container.declared_origin));
    }
    match default_allowlist(feature) {
        // Step 6. If feature's default allowlist is *, return "Enabled".
        Some(DefaultAllowlist::Star) => true,
        // Step 7. If feature's default allowlist is 'self', and origin is same origin with container's node document's origin, return "Enabled".
        Some(DefaultAllowlist::SelfOrigin) => origin.same_origin(container.parent_origin),
        // Step 8. Otherwise return "Disabled".
        None => false,
    }
}

/// Gets the value of `feature` for `origin` in a document with permissions policy `policy` and origin `document_origin`: `true` for "Enabled".
/// Unlike [`is_feature_enabled_in_document_for_origin`] it does not consult the default allowlist; inheritance asks it of the parent document.
///
/// <https://w3c.github.io/webappsec-permissions-policy/#get-feature-value-for-origin>
pub fn get_feature_value_for_origin(
    feature: &str,
    policy: &PermissionsPolicy,
    document_origin: &Origin,
    origin: &Origin,
) -> bool {
    // Step 1. Let policy be document's permissions policy.
    // Step 2. If policy's inherited policy for feature is "Disabled", return "Disabled".
    // An unsupported feature has no inherited policy and is treated as "Disabled".
    if policy.inherited.get(feature) != Some(true) {
        return false;
    }
    // Step 3. If feature is present in policy's declared policy:
    if let Some(allowlist) = policy.declared.0.get(feature) {
        // Step 3.1. If the allowlist for feature in policy's declared policy matches origin, then return "Enabled".
        // Step 3.2. Otherwise return "Disabled".
        return allowlist_matches(allowlist, origin, document_origin, None);
    }
    // Step 4. Return "Enabled".
    true
}

/// Whether `feature` is enabled in a document with permissions policy `policy` and origin `document_origin`, for `origin`.
///
/// <https://w3c.github.io/webappsec-permissions-policy/#is-feature-enabled>
///
/// HTML's "allowed to use" also requires the document to have a browsing context and be fully active; its caller checks those, then asks this with `origin` = `document_origin`.
pub fn is_feature_enabled_in_document_for_origin(
    feature: &str,
    policy: &PermissionsPolicy,
    document_origin: &Origin,
    origin: &Origin,
) -> bool {
    // Step 1. Let policy be document's Permissions Policy.
    // Step 2. If policy's inherited policy for feature is Disabled, return "Disabled".
    // An unsupported feature has no inherited policy and is treated as "Disabled".
    if policy.inherited.get(feature) != Some(true) {
        return false;
    }
    // Step 3. If feature is present in policy's declared policy:
    if let Some(allowlist) = policy.declared.0.get(feature) {
        // Step 3.1. If the allowlist for feature in policy's declared policy matches origin, then return "Enabled".
        // Step 3.2. Otherwise return "Disabled".
        return allowlist_matches(allowlist, origin, document_origin, None);
    }
    match default_allowlist(feature) {
        // Step 4. If feature's default allowlist is *, return "Enabled".
        Some(DefaultAllowlist::Star) => true,
        // Step 5. If feature's default allowlist is 'self', and origin is same origin with document's origin, return "Enabled".
        Some(DefaultAllowlist::SelfOrigin) => origin.same_origin(document_origin),
        // Step 6. Return "Disabled".
        None => false,
    }
}

/// [`is_feature_enabled_in_document_for_origin`] for every supported feature, with `origin` the document's own origin: one flag per entry of [`SUPPORTED_FEATURES`], in that order.
///
/// A document's permissions policy and origin are fixed when it is created, so its creator computes these answers once and HTML's "allowed to use" reads them (see [`enabled_for_own_origin`]).
pub fn features_enabled_for_own_origin(
    policy: &PermissionsPolicy,
    document_origin: &Origin,
) -> [bool; SUPPORTED_FEATURES.len()] {
    let mut enabled = [false; SUPPORTED_FEATURES.len()];
    for (index, (feature, _)) in SUPPORTED_FEATURES.iter().enumerate() {
        enabled[index] = is_feature_enabled_in_document_for_origin(feature, policy, document_origin, document_origin);
    }
    enabled
}

/// The answer [`features_enabled_for_own_origin`] computed for `feature`: `false` when the simulated user agent does not support it (as [`is_feature_enabled_in_document_for_origin`] answers).
#[inline]
pub fn enabled_for_own_origin(enabled: &[bool; SUPPORTED_FEATURES.len()], feature: &str) -> bool {
    supported_feature_index(feature).is_some_and(|index| enabled[index])
}

#[cfg(test)]
#[path = "policy/tests.rs"]
mod tests;
