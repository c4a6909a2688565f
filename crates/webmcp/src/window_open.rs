//! HTML's auxiliary windows (<https://html.spec.whatwg.org/#dom-open>): the "window open steps"
//! with "tokenize the features argument", "rules for choosing a navigable", "finding a navigable
//! by target name" and "create a new top-level traversable"; the `opener` getter and setter; the
//! `close()` method steps with "definitely close a top-level traversable"; the `closed` getter.
//!
//! A new top-level traversable opened without noopener is an auxiliary browsing context in its
//! opener's browsing context group (`browser::World::create_auxiliary_traversable`), so a
//! same-site page there shares its opener's agent cluster and event loop; with noopener it is in
//! a new group. Its document is the scenario's resource at the URL (`Program::served_document`),
//! made by the simulator's navigation (`Work::CompleteScriptNavigation`, a later task), as a
//! `location` navigation's. What is not modelled fails with an error naming the HTML step
//! (docs/model.md, "Windows a page opens").

use std::rc::Rc;

use browser::{DocId, DocumentState, JsValue, NavId};

use crate::callback::EngineHandle;
use crate::footprint::Resource;
use crate::kernel::Sim;
use crate::work::{HistoryHandling, Work};

pub(crate) mod opened;
use opened::OpenedWindow;

const HTML: &str = "HTML";

/// HTML "rules for choosing a navigable"'s windowType.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum WindowType {
    ExistingOrNone,
    NewAndUnrestricted,
}

/// HTML "tokenize the features argument": an ordered map of names to values (a later duplicate
/// name sets the earlier entry's value, in its place).
pub(crate) fn tokenize_the_features_argument(features: &str) -> Vec<(String, String)> {
    let is_separator = |c: char| c.is_ascii_whitespace() || c == '=' || c == ',';
    // 1. Let tokenizedFeatures be a new ordered map.
    let mut tokenized: Vec<(String, String)> = Vec::new();
    let chars: Vec<char> = features.chars().collect();
    // 2. Let position point at the first code point of features.
    let mut position = 0;
    // 3. While position is not past the end of features:
    while position < chars.len() {
        // 3.3. Collect a sequence of code points that are feature separators … (leading separators).
        while position < chars.len() && is_separator(chars[position]) {
            position += 1;
        }
        // 3.4. Collect a sequence of code points that are not feature separators: name, converted to ASCII lowercase.
        let start = position;
        while position < chars.len() && !is_separator(chars[position]) {
            position += 1;
        }
        let name: String = chars[start..position].iter().collect::<String>().to_ascii_lowercase();
        // 3.5. Set name to the result of normalizing the feature name name.
        let name = match name.as_str() {
            "screenx" => "left".to_string(),
            "screeny" => "top".to_string(),
            "innerwidth" => "width".to_string(),
            "innerheight" => "height".to_string(),
            _ => name,
        };
        // 3.6. While position is not past the end of features and the code point at position is not U+003D (=): if it is U+002C (,), or if it is not a feature separator, then break; advance position by 1.
        while position < chars.len() && chars[position] != '=' {
            if chars[position] == ',' || !is_separator(chars[position]) {
                break;
            }
            position += 1;
        }
        let mut value = String::new();
        // 3.7. If the code point at position in features is a feature separator:
        if position < chars.len() && is_separator(chars[position]) {
            // 3.7.1. While … a feature separator: if it is U+002C (,), then break; advance position by 1.
            while position < chars.len() && is_separator(chars[position]) {
                if chars[position] == ',' {
                    break;
                }
                position += 1;
            }
            // 3.7.2. Collect a sequence of code points that are not feature separators: value, converted to ASCII lowercase.
            let start = position;
            while position < chars.len() && !is_separator(chars[position]) {
                position += 1;
            }
            value = chars[start..position].iter().collect::<String>().to_ascii_lowercase();
        }
        // 3.8. If name is not the empty string, then set tokenizedFeatures[name] to value.
        if !name.is_empty() {
            match tokenized.iter_mut().find(|(n, _)| *n == name) {
                Some(entry) => entry.1 = value,
                None => tokenized.push((name, value)),
            }
        }
    }
    // 4. Return tokenizedFeatures.
    tokenized
}

/// HTML "parse a boolean feature" given `value`.
pub(crate) fn parse_a_boolean_feature(value: &str) -> bool {
    // 1. If value is the empty string, then return true. 2. If value is "yes", then return true. 3. If value is "true", then return true.
    if value.is_empty() || value == "yes" || value == "true" {
        return true;
    }
    // 4. Let parsed be the result of parsing value as an integer. 5. If parsed is an error, then set it to 0.
    // 6. Return false if parsed is 0, and true otherwise.
    parse_integer(value).unwrap_or(0) != 0
}

/// HTML "rules for parsing integers": leading ASCII whitespace, a sign, then digits (the rest
/// ignored); None for an error. (Only zero or not matters here, so overflow is not an error.)
fn parse_integer(input: &str) -> Option<i64> {
    let s = input.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let (negative, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let digits: String = digits.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() {
        return None;
    }
    let value = digits.bytes().fold(0i64, |v, d| v.saturating_mul(10).saturating_add(i64::from(d - b'0')));
    Some(if negative { -value } else { value })
}

impl Sim<'_> {
    /// HTML "window open steps" given `url`, `target` and `features`, run by script of `source`
    /// (the entry global object's associated Document). Returns the navigable whose active
    /// WindowProxy `open()` returns, or None for null; an exception to throw, or a TypeError for
    /// what is not modelled.
    pub fn script_window_open(
        &mut self,
        source: DocId,
        url: &str,
        target: &str,
        features: &str,
    ) -> Result<Option<NavId>, JsValue> {
        // Step 1. If the event loop's termination nesting level is nonzero, then return null.
        // (No unload steps run page script here: the level is zero.)
        // Step 2. Let sourceDocument be the entry global object's associated Document.
        let source_document = source;
        // Step 3. Let urlRecord be null.
        let mut url_record = None;
        // Step 4. If url is not the empty string, then: 4.1. Set urlRecord to the result of encoding-parsing a URL given url, relative to sourceDocument. 4.2. If urlRecord is failure, then throw a "SyntaxError" DOMException.
        if !url.is_empty() {
            let base = &self.world.doc_info(source_document).url;
            url_record = Some(base.join(url).map_err(|e| JsValue::DomException {
                name: "SyntaxError".into(),
                message: format!(
                    "Failed to execute 'open' on 'Window': Unable to open a window with invalid URL '{url}' ({e})."
                ),
            })?);
        }
        // Step 5. If target is the empty string, then set target to "_blank".
        let target = if target.is_empty() { "_blank" } else { target };
        // Step 6. Let tokenizedFeatures be the result of tokenizing features.
        let tokenized = tokenize_the_features_argument(features);
        let feature = |name: &str| tokenized.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        // Step 7. Let noreferrer be false. Step 8. If tokenizedFeatures["noreferrer"] exists, then set noreferrer to the result of parsing tokenizedFeatures["noreferrer"] as a boolean feature.
        let noreferrer = feature("noreferrer").is_some_and(parse_a_boolean_feature);
        // Step 9. Let noopener be the result of getting noopener for window open with sourceDocument, tokenizedFeatures, and urlRecord.
        // (No URL here has a blob URL entry: getting noopener for window open 2–3.)
        let mut noopener = feature("noopener").is_some_and(parse_a_boolean_feature);
        // Step 10. Remove tokenizedFeatures["noopener"] and tokenizedFeatures["noreferrer"].
        // Step 11. Let referrerPolicy be the empty string. Step 12. If noreferrer is true, then set noopener to true and set referrerPolicy to "no-referrer".
        if noreferrer {
            noopener = true;
        }
        // What the simulator cannot navigate to fails before anything is made: a new window's
        // initial about:blank document, and URLs other than http(s) and file.
        if let Some(url) = &url_record {
            if !matches!(url.scheme(), "http" | "https" | "file") {
                return Err(JsValue::type_error(format!(
                    "Window.open to a {}: URL ({url}: HTML \"window open steps\" 15.4, \"navigate\" 20) is not modelled by webmcp-sim",
                    url.scheme()
                )));
            }
        }
        note!(
            self,
            (HTML, "window open steps 13"),
            "window.open({}, {target:?}) from {}: noopener {noopener}",
            url_record.as_ref().map_or("(no URL)".to_string(), |u| u.to_string()),
            self.label(source_document)
        );
        // Step 13. Let targetNavigable and windowType be the result of applying the rules for choosing a navigable given target, sourceDocument's node navigable, and noopener.
        let Some(current) = self.world.node_navigable(source_document) else {
            return Err(JsValue::type_error(
                "Window.open from a document that is not its navigable's active document (HTML \"window open steps\" 13: sourceDocument's node navigable is null) is not modelled by webmcp-sim",
            ));
        };
        let (target_navigable, window_type) =
            self.rules_for_choosing_a_navigable(target, current, noopener, url_record.is_some())?;
        // Step 14. If targetNavigable is null, then return null.
        let Some(target_navigable) = target_navigable else {
            return Ok(None);
        };
        if window_type == WindowType::NewAndUnrestricted {
            // Step 15. If windowType is either "new and unrestricted" or "new with no opener", then:
            // 15.1. Set targetNavigable's active browsing context's is popup … 15.2. Set up browsing context features … (nothing reads them here).
            // 15.3. If urlRecord is null, then set urlRecord to a URL record representing about:blank.
            // 15.4. If urlRecord matches about:blank, then perform the URL and history update steps …
            // (`rules_for_choosing_a_navigable` refused a new window without a URL.)
            let Some(url) = url_record else { return Ok(None) };
            // 15.5. Otherwise, navigate targetNavigable to urlRecord using sourceDocument, with referrerPolicy set to referrerPolicy and exceptionsEnabled set to true.
            // (The rules for choosing a navigable 8's note: the newly created navigable is navigated as a "replace" navigation.)
            self.queue_script_navigation(
                source_document,
                target_navigable,
                &url,
                HistoryHandling::Replace,
                (HTML, "window open steps 15.5"),
            );
        } else {
            // Step 16. Otherwise: 16.1. If urlRecord is not null, then navigate targetNavigable to urlRecord using sourceDocument, with referrerPolicy set to referrerPolicy and exceptionsEnabled set to true.
            if let Some(url) = url_record {
                self.navigate_from_script(target_navigable, url, source_document, HistoryHandling::Auto)?;
            }
            // 16.2. If noopener is false, then set targetNavigable's active browsing context's opener browsing context to sourceDocument's browsing context.
            if !noopener {
                let opened = self.seldom.opened.get(&target_navigable).cloned().unwrap_or_default();
                if opened.opener != Some(current) {
                    self.footprint.touch(Resource::Global, true);
                    self.seldom.opened.insert(target_navigable, OpenedWindow { opener: Some(current), ..opened });
                    note!(
                        self,
                        (HTML, "window open steps 16.2"),
                        "the opener browsing context of {} is now {}'s",
                        self.world.nav(target_navigable).name,
                        self.world.nav(current).name
                    );
                }
            }
        }
        // Step 17. If noopener is true or windowType is "new with no opener", then return null.
        if noopener {
            note!(self, (HTML, "window open steps 17"), "noopener: open() returns null");
            return Ok(None);
        }
        // Step 18. Return targetNavigable's active WindowProxy.
        Ok(Some(target_navigable))
    }

    /// HTML "rules for choosing a navigable" given `name`, `current` and `noopener`: the chosen
    /// navigable (None: none) and the windowType.
    /// `has_url`: whether the window open steps have a URL to navigate a new window to (without
    /// one, a new window would show its initial about:blank document, which is not modelled: that
    /// fails here, before anything is made).
    fn rules_for_choosing_a_navigable(
        &mut self,
        name: &str,
        current: NavId,
        noopener: bool,
        has_url: bool,
    ) -> Result<(Option<NavId>, WindowType), JsValue> {
        // Step 1. Let chosen be null. Step 2. Let windowType be "existing or none".
        let mut chosen = None;
        // Step 3. Let sandboxingFlagSet be currentNavigable's active document's active sandboxing flag set.
        let sandboxes = self.sandbox_attributes_above(current);
        let lower = name.to_ascii_lowercase();
        if lower.is_empty() || lower == "_self" {
            // Step 4. If name is the empty string or an ASCII case-insensitive match for "_self", then set chosen to currentNavigable.
            chosen = Some(current);
        } else if lower == "_parent" {
            // Step 5. Otherwise, if name is an ASCII case-insensitive match for "_parent", set chosen to currentNavigable's parent, if any, and currentNavigable otherwise.
            chosen = Some(self.world.nav(current).info.parent.unwrap_or(current));
        } else if lower == "_top" {
            // Step 6. Otherwise, if name is an ASCII case-insensitive match for "_top", set chosen to currentNavigable's traversable navigable.
            chosen = Some(self.world.nav(current).info.traversable);
        } else if lower != "_blank" && !noopener {
            // Step 7. Otherwise, if name is not an ASCII case-insensitive match for "_blank" and noopener is false, then set chosen to the result of finding a navigable by target name given name and currentNavigable.
            chosen = self.find_a_navigable_by_target_name(name, current);
        }
        if let Some(chosen) = chosen {
            // Step 9. Return chosen and windowType.
            note!(
                self,
                (HTML, "rules for choosing a navigable 9"),
                "{name:?} chooses the existing navigable {}",
                self.world.nav(chosen).name
            );
            return Ok((Some(chosen), WindowType::ExistingOrNone));
        }
        // Step 8. If chosen is null, then a new top-level traversable is being requested, and what happens depends on the user agent's configuration and abilities: …
        // "If sandboxingFlagSet has the sandboxed auxiliary navigation browsing context flag set": the user agent may report that a popup has been blocked.
        let all_allow = |token: &str| {
            sandboxes.iter().all(|sandbox| sandbox.split_ascii_whitespace().any(|t| t.eq_ignore_ascii_case(token)))
        };
        if !all_allow("allow-popups") {
            note!(
                self,
                (HTML, "rules for choosing a navigable 8"),
                "the sandboxed auxiliary navigation browsing context flag is set (a sandbox without allow-popups): the popup is blocked, open() returns null"
            );
            return Ok((None, WindowType::ExistingOrNone));
        }
        // 8.9. If sandboxingFlagSet's sandbox propagates to auxiliary browsing contexts flag is set, then all the flags that are set in sandboxingFlagSet must be set in chosen's active browsing context's popup sandboxing flag set.
        if !all_allow("allow-popups-to-escape-sandbox") {
            return Err(JsValue::type_error(
                "Window.open from a sandboxed document whose sandbox propagates to the new window (HTML \"rules for choosing a navigable\" 8.9, the popup sandboxing flag set) is not modelled by webmcp-sim",
            ));
        }
        if !has_url {
            return Err(JsValue::type_error(
                "Window.open of a new window without a URL (its initial about:blank document: HTML \"window open steps\" 15.3–15.4, \"create a new browsing context and document\") is not modelled by webmcp-sim",
            ));
        }
        // "If the user agent has been configured such that in this instance it will create a new top-level traversable":
        self.interpretation(
            (HTML, "rules for choosing a navigable 8"),
            "the user agent creates a new top-level traversable (no popup blocker, no user activation needed; Chromium blocks a popup a page opens without transient activation)",
        );
        // 8.1. Consume user activation of currentNavigable's active window. (No page has transient activation.)
        // 8.2. Set windowType to "new and unrestricted".
        // 8.3. Let currentDocument be currentNavigable's active document. 8.4. If currentDocument's opener policy's value is "same-origin" or "same-origin-plus-COEP", … (No document has an opener policy other than "unsafe-none": no COOP header is modelled.)
        // 8.5. Let targetName be the empty string. 8.6. If name is not an ASCII case-insensitive match for "_blank", then set targetName to name.
        let target_name = if lower == "_blank" { "" } else { name };
        let new = if noopener {
            // 8.7. If noopener is true, then set chosen to the result of creating a new top-level traversable given null, targetName, and currentNavigable.
            self.create_a_new_top_level_traversable(None, target_name, current)
        } else {
            // 8.8.1. Set chosen to the result of creating a new top-level traversable given currentNavigable's active browsing context, targetName, and currentNavigable.
            // 8.8.2. If sandboxingFlagSet's sandboxed navigation browsing context flag is set, then set chosen's active browsing context's one permitted sandboxed navigator … (a sandboxed document got past 8 only with allow-popups-to-escape-sandbox; the permitted navigator is not modelled, and nothing here navigates the new window from a sandbox.)
            self.create_a_new_top_level_traversable(Some(current), target_name, current)
        };
        // 8.10. Set chosen's is created by web content to true (done as it was created).
        Ok((Some(new), WindowType::NewAndUnrestricted))
    }

    /// The `sandbox` attributes of `nav`'s container and its ancestors' containers: a document's
    /// active sandboxing flag set is its container's and its container document's (the flags the
    /// simulator models, as `allowed_by_sandboxing_to_navigate` reads them).
    fn sandbox_attributes_above(&self, nav: NavId) -> Vec<Rc<str>> {
        let mut out = Vec::new();
        let mut at = Some(nav);
        while let Some(n) = at {
            let navigable = self.world.nav(n);
            if let Some(sandbox) = &navigable.container.sandbox {
                out.push(sandbox.clone());
            }
            at = navigable.info.parent;
        }
        out
    }

    /// HTML "create a new top-level traversable" given `opener` (the navigable of the opener
    /// browsing context, or None), `target_name` and `opener_navigable_for_webdriver`: a new
    /// traversable with no document yet (its initial about:blank document is not modelled; the
    /// window open steps navigate it at once, and the navigation makes its first document).
    fn create_a_new_top_level_traversable(&mut self, opener: Option<NavId>, target_name: &str, _from: NavId) -> NavId {
        // A new navigable changes the tree every step that walks it reads.
        self.footprint.touch(Resource::Global, true);
        // The navigable's name in traces and outcomes: its target name, when no navigable has
        // that name already; else `window<N>`.
        let name = if !target_name.is_empty() && !self.seldom.nav_by_name.contains_key(target_name) {
            target_name.to_string()
        } else {
            let mut n = 1;
            while self.seldom.nav_by_name.contains_key(format!("window{n}").as_str()) {
                n += 1;
            }
            format!("window{n}")
        };
        // Step 2 (opener null): "creating a new top-level browsing context and document": a new
        // browsing context group. Step 3 (otherwise): "creating a new auxiliary browsing context
        // and document" given opener: its top-level browsing context's group (2), and the new
        // browsing context's opener browsing context is opener (7).
        let nav = match opener {
            None => self.world.create_navigable(&name, None, browser::ContainerAttributes::default()),
            Some(opener) => self.world.create_auxiliary_traversable(&name, opener),
        };
        self.seldom.nav_by_name.insert(name.clone(), nav);
        self.pending_tool_executions.insert(nav, Vec::new());
        // "Set traversable's target name to targetName" (and its opener, is closing).
        // Rules for choosing a navigable 8.10: its is created by web content is true.
        let opened =
            OpenedWindow { target_name: Rc::from(target_name), opener, closing: false, created_by_web_content: true };
        self.seldom.opened.insert(nav, opened);
        note!(
            self,
            (HTML, "create a new top-level traversable"),
            "top-level traversable {name} created ({})",
            match opener {
                Some(o) => format!(
                    "an auxiliary browsing context: {}'s browsing context group, opener {}",
                    self.world.nav(o).name,
                    self.world.nav(o).name
                ),
                None => "a new browsing context group, no opener".to_string(),
            }
        );
        nav
    }

    /// HTML "find a navigable by target name" given `name` and `current`: the only navigables
    /// with a target name here are the windows pages opened with one (a scenario's tabs and
    /// iframes have none: their `id` is not an iframe's `name` attribute).
    fn find_a_navigable_by_target_name(&mut self, name: &str, current: NavId) -> Option<NavId> {
        // Which windows exist, and which are destroyed, depends on every unit that opens or
        // closes one.
        self.footprint.touch(Resource::Global, false);
        let candidates: Vec<NavId> = self
            .seldom
            .opened
            .iter()
            .filter(|(nav, opened)| *opened.target_name == *name && !self.world.nav(**nav).destroyed)
            .map(|(nav, _)| *nav)
            .collect();
        // For each navigable searched: if currentNavigable's active browsing context is not familiar with navigable's active browsing context, then continue; … if navigable's target name is name, then return navigable.
        candidates.into_iter().find(|nav| self.familiar_with(current, *nav))
    }

    /// HTML "familiar with": whether the browsing context of navigable `a` is familiar with that
    /// of navigable `b` (each read as its active document's).
    fn familiar_with(&self, a: NavId, b: NavId) -> bool {
        let origin = |n: NavId| self.world.nav(n).active_document.map(|d| self.world.doc_info(d).origin.clone());
        let top = |n: NavId| self.world.nav(n).info.traversable;
        // A's active document's origin is same origin with B's active document's origin;
        if let (Some(x), Some(y)) = (origin(a), origin(b)) {
            if x.same_origin(&y) {
                return true;
            }
        }
        // A's top-level browsing context is B;
        if top(a) == b {
            return true;
        }
        // B is an auxiliary browsing context and A is familiar with B's opener browsing context;
        if let Some(opener) = self.seldom.opened.get(&b).and_then(|o| o.opener) {
            if opener != b && self.familiar_with(a, opener) {
                return true;
            }
        }
        // B is not a top-level browsing context, but there exists an ancestor browsing context of B whose active document has the same origin as the active document of A.
        let mut at = self.world.nav(b).info.parent;
        while let Some(n) = at {
            if let (Some(x), Some(y)) = (origin(a), origin(n)) {
                if x.same_origin(&y) {
                    return true;
                }
            }
            at = self.world.nav(n).info.parent;
        }
        false
    }

    /// HTML Window's `opener` getter, for the Window of `doc`: the navigable whose WindowProxy
    /// it returns, or None for null.
    pub fn script_opener(&mut self, doc: DocId) -> Option<NavId> {
        // 1. Let current be this's browsing context. 2. If current is null, then return null.
        if self.world.doc(doc).state == DocumentState::Destroyed {
            return None;
        }
        let nav = self.world.doc_info(doc).navigable;
        // 3. If current's opener browsing context is null, then return null. 4. Return current's opener browsing context's WindowProxy object.
        // (Whether a window was disowned is written by its own pages and by `open()` in another
        // window: a unit that reads it depends on every unit.)
        self.footprint.touch(Resource::Global, false);
        self.seldom.opened.get(&nav).and_then(|o| o.opener)
    }

    /// The `opener` getter of the Window navigable `nav` shows now (through a WindowProxy). A
    /// window `open()` made has no document until its navigation completes; its browsing
    /// context, and so its opener, exists from its creation (HTML "create a new auxiliary
    /// browsing context and document" 7), so the navigable's is read then.
    pub fn script_opener_of_navigable(&mut self, nav: NavId) -> Option<NavId> {
        match self.world.nav(nav).active_document {
            Some(doc) => {
                self.touch_lifecycle_of(doc);
                self.script_opener(doc)
            }
            None => {
                self.footprint.touch(Resource::Global, false);
                self.seldom.opened.get(&nav).and_then(|o| o.opener)
            }
        }
    }

    /// HTML Window's `opener` setter given null, for the Window of `doc`: "1. If the given value
    /// is null and this's browsing context is non-null, then set this's browsing context's opener
    /// browsing context to null."
    pub fn script_disown_opener(&mut self, doc: DocId) {
        if self.world.doc(doc).state == DocumentState::Destroyed {
            return;
        }
        let nav = self.world.doc_info(doc).navigable;
        self.footprint.touch(Resource::Global, true);
        if let Some(mut opened) = self.seldom.opened.get(&nav).cloned().filter(|o| o.opener.is_some()) {
            opened.opener = None;
            self.seldom.opened.insert(nav, opened);
            note!(
                self,
                (HTML, "opener setter 1"),
                "{} is disowned: its opener browsing context is null",
                self.world.nav(nav).name
            );
        }
    }

    /// HTML Window's `closed` getter for the Window navigable `nav` shows: "true if this's
    /// browsing context is null or its is closing is true; otherwise false."
    pub fn script_closed(&mut self, nav: NavId) -> bool {
        self.footprint.touch(Resource::Global, false);
        self.world.nav(nav).destroyed || self.seldom.opened.get(&nav).is_some_and(|o| o.closing)
    }

    /// HTML Window's `close()` method steps for the Window navigable `nav` shows, called by script
    /// whose incumbent global object's document is `incumbent`. `definitely_close` is the engine's
    /// callback that runs `script_definitely_close` for the task step 6.2 queues. Returns whether
    /// that task was queued (else the engine drops the callback).
    pub fn script_close(
        &mut self,
        incumbent: DocId,
        nav: NavId,
        definitely_close: EngineHandle,
    ) -> Result<bool, JsValue> {
        self.footprint.touch(Resource::Global, true);
        // Step 1. Let thisTraversable be this's navigable.
        // Step 2. If thisTraversable is not a top-level traversable, then return.
        if self.world.nav(nav).info.parent.is_some() || self.world.nav(nav).destroyed {
            note!(
                self,
                (HTML, "close() 2"),
                "{} is not a top-level traversable: nothing to close",
                self.world.nav(nav).name
            );
            return Ok(false);
        }
        // Step 3. If thisTraversable's is closing is true, then return.
        if self.seldom.opened.get(&nav).is_some_and(|o| o.closing) {
            note!(self, (HTML, "close() 3"), "{} is closing already", self.world.nav(nav).name);
            return Ok(false);
        }
        // Step 4. Let browsingContext be thisTraversable's active browsing context. Step 5. Let sourceSnapshotParams be …
        // Step 6. If all the following are true: thisTraversable is script-closable; the incumbent global object's browsing context is familiar with browsingContext; and the incumbent global object's navigable is allowed by sandboxing to navigate thisTraversable, given sourceSnapshotParams, then: …
        // "A navigable is script-closable if it is a top-level traversable, and any of the following are true: its is created by web content is true; or its session history entries's size is 1."
        let created_by_web_content = self.seldom.opened.get(&nav).is_some_and(|o| o.created_by_web_content);
        if !created_by_web_content {
            let shows_first = self
                .world
                .nav(nav)
                .active_document
                .is_some_and(|d| *self.world.doc_info(d).label == *self.world.nav(nav).name);
            if !shows_first {
                return Err(JsValue::type_error(format!(
                    "Window.close of tab {} after it navigated (whether it is script-closable: HTML \"close()\" 6, its session history entries's size) is not modelled by webmcp-sim",
                    self.world.nav(nav).name
                )));
            }
        }
        let from = self.world.doc_info(incumbent).navigable;
        if !self.familiar_with(from, nav) {
            note!(
                self,
                (HTML, "close() 6"),
                "{} is not familiar with {}: not closed",
                self.world.nav(from).name,
                self.world.nav(nav).name
            );
            return Ok(false);
        }
        if !self.allowed_by_sandboxing_to_navigate(from, nav) {
            note!(
                self,
                (HTML, "close() 6"),
                "{} is not allowed by sandboxing to navigate {}: not closed",
                self.world.nav(from).name,
                self.world.nav(nav).name
            );
            return Ok(false);
        }
        // 6.1. Set thisTraversable's is closing to true.
        let opened = self.seldom.opened.get(&nav).cloned().unwrap_or_default();
        self.seldom.opened.insert(nav, OpenedWindow { closing: true, ..opened });
        // (While exploring, the learned inert-task facts are checked where each of the window's
        // documents is unloaded: `Sim::learn_unloaded` in "unload a document".)
        // 6.2. Queue a task on the DOM manipulation task source to definitely close thisTraversable.
        let work = Work::EngineCallback { doc: incumbent, callback: definitely_close, what: "definitely close" };
        self.queue_global_task(browser::TaskSource::DomManipulation, incumbent, work, (HTML, "close() 6.2"));
        Ok(true)
    }

    /// HTML "definitely close a top-level traversable" `nav` (the task `close()` 6.2 queues).
    pub fn script_definitely_close(&mut self, nav: NavId) {
        self.footprint.touch(Resource::Global, true);
        if self.world.nav(nav).destroyed {
            return;
        }
        // 1. Let toUnload be traversable's active document's inclusive descendant navigables.
        // 2. If the result of checking if unloading is canceled for toUnload is not "continue", then return. (No beforeunload handler is modelled: "continue".)
        // 3. Append the following session history traversal steps to traversable: 3.1. Let afterAllUnloads be an algorithm step which destroys traversable. 3.2. Unload a document and its descendants given traversable's active document, null, and afterAllUnloads.
        if let Some(doc) = self.world.nav(nav).active_document {
            self.unload_a_document_and_its_descendants(doc, false);
        }
        // "Destroy a top-level traversable": 2. For each historyEntry in traversable's session history entries: destroy a document and its descendants (the one document modelled, above). 3. Remove browsingContext. … 6. Remove traversable from the user agent's top-level traversable set.
        self.destroy_navigables(nav);
        note!(
            self,
            (HTML, "definitely close a top-level traversable"),
            "top-level traversable {} destroyed",
            self.world.nav(nav).name
        );
    }

    /// Whether navigable `nav` has an active document (a window `open()` made has none until its
    /// navigation completes: its initial about:blank document is not modelled).
    pub fn script_has_document(&mut self, nav: NavId) -> bool {
        if self.world.nav(nav).active_document.is_none() {
            self.footprint.touch(Resource::Global, false);
            return false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_features_argument_is_tokenized_as_html_says() {
        let t = super::tokenize_the_features_argument;
        let pairs = |v: Vec<(String, String)>| v.into_iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>();
        assert_eq!(pairs(t("noopener")), ["noopener="]);
        assert_eq!(pairs(t(" NoOpener = 1 ,popup")), ["noopener=1", "popup="]);
        assert_eq!(pairs(t("screenX=5,width=2,width=3")), ["left=5", "width=3"]);
        assert_eq!(pairs(t("no opener")), ["no=", "opener="]);
        assert_eq!(pairs(t("=,,= a")), ["a="]);
        let b = super::parse_a_boolean_feature;
        assert!(b("") && b("yes") && b("true") && b("1") && b("-2") && b(" 7x"));
        assert!(!b("0") && !b("no") && !b("false") && !b("x"));
    }
}
