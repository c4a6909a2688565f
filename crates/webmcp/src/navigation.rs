//! Navigation a page script starts through a `Location` object (HTML "Location-object navigate",
//! "navigate" with exceptions enabled, and "reload"): the checks HTML makes while the script
//! runs, then one task (`Work::CompleteScriptNavigation`) that completes it with the same
//! steps the action language's `navigate` runs (`Sim::navigate_to`). The new document is the
//! one the scenario's server holds at the URL (`Program::served_document`).
//!
//! Step numbers are those of the HTML Living Standard's "navigate" as of late 2025 (docs/model.md,
//! "Navigation from page script").

use std::rc::Rc;

use browser::{DocId, JsValue, NavId, TaskSource};

use crate::footprint::Resource;
use crate::kernel::{RunError, Sim};
use crate::work::{HistoryHandling, Work};

const HTML: &str = "HTML";

impl Sim<'_> {
    /// A `Location` object's relevant Document: the active document of the navigable whose
    /// Window the object belongs to, or None if that navigable is gone (HTML: "this Location
    /// object's relevant global object's browsing context's active document, if [it] is
    /// non-null, and null otherwise").
    pub fn script_location_document(&mut self, nav: NavId) -> Option<DocId> {
        let navigable = self.world.nav(nav);
        match navigable.active_document.filter(|_| !navigable.destroyed) {
            Some(doc) => {
                self.touch_lifecycle_of(doc);
                Some(doc)
            }
            None => {
                // A navigation may yet give the navigable a document: this depends on every unit.
                self.footprint.touch(Resource::Global, false);
                None
            }
        }
    }

    /// HTML "same origin-domain" of two documents' origins. No page here sets `document.domain`
    /// (the scenario's `setsDocumentDomain` only keys the agent cluster by site), so it is
    /// "same origin".
    pub fn script_same_origin_domain(&self, a: DocId, b: DocId) -> bool {
        self.world.doc_info(a).origin.same_origin(&self.world.doc_info(b).origin)
    }

    /// HTML "encoding-parsing a URL" given `url`, relative to the entry settings object (the
    /// document of the script that runs, `entry`): the URL, or the "SyntaxError" DOMException
    /// the Location members throw when it fails.
    pub fn script_parse_url(&self, entry: DocId, url: &str) -> Result<url::Url, JsValue> {
        let base = &self.world.doc_info(entry).url;
        base.join(url).map_err(|e| JsValue::DomException {
            name: "SyntaxError".into(),
            message: format!("Failed to execute 'assign' on 'Location': '{url}' is not a valid URL ({e})"),
        })
    }

    /// HTML "Location-object navigate" a Location object of navigable `nav` to `url`, from
    /// script whose incumbent global object's document is `source`.
    pub fn script_location_navigate(
        &mut self,
        source: DocId,
        nav: NavId,
        url: url::Url,
        history_handling: HistoryHandling,
    ) -> Result<(), JsValue> {
        // Step 1. Let navigable be location's relevant global object's navigable.
        // Step 2. Let sourceDocument be the incumbent global object's associated Document.
        // Step 3. If location's relevant Document is not yet completely loaded, and the incumbent global object does not have transient activation, then set historyHandling to "replace".
        // (Not modelled: a document's load is its script's task, so it is always completely loaded here.)
        // Step 4. Navigate navigable to url using sourceDocument, with exceptionsEnabled set to true and historyHandling set to historyHandling.
        note!(
            self,
            (HTML, "Location-object navigate 4"),
            "navigate {} to {url} (historyHandling {:?})",
            self.world.nav(nav).name,
            history_handling.as_str()
        );
        self.navigate_from_script(nav, url, source, history_handling)
    }

    /// HTML "navigate" `nav` to `url` using `source_document`, with exceptionsEnabled set to
    /// true: the steps that run while the script runs, up to step 23, whose in-parallel steps
    /// and finalization are one later task (`complete_script_navigation`).
    pub(crate) fn navigate_from_script(
        &mut self,
        nav: NavId,
        url: url::Url,
        source_document: DocId,
        mut history_handling: HistoryHandling,
    ) -> Result<(), JsValue> {
        let Some(active) = self.script_location_document(nav) else {
            note!(
                self,
                (HTML, "navigate"),
                "navigable {} has no active document: nothing to navigate",
                self.world.nav(nav).name
            );
            return Ok(());
        };
        // Step 5. If sourceDocument's node navigable is not allowed by sandboxing to navigate navigable given sourceSnapshotParams, then: 5.1. If exceptionsEnabled is true, then throw a "SecurityError" DOMException. 5.2. Return.
        let source_nav = self.world.doc_info(source_document).navigable;
        if !self.allowed_by_sandboxing_to_navigate(source_nav, nav) {
            note!(
                self,
                (HTML, "navigate 5"),
                "{} is not allowed by sandboxing to navigate {}",
                self.world.nav(source_nav).name,
                self.world.nav(nav).name
            );
            return Err(JsValue::DomException {
                name: "SecurityError".into(),
                message: format!(
                    "The frame attempting navigation of {} is sandboxed and not allowed to navigate it",
                    self.world.nav(nav).name
                ),
            });
        }
        // Step 12. If historyHandling is "auto", then: 12.1. If url equals navigable's active document's URL, and initiatorOriginSnapshot is same origin with targetNavigable's active document's origin, then set historyHandling to "replace". 12.2. Otherwise, set historyHandling to "push".
        let active_url = self.world.doc_info(active).url.clone();
        if history_handling == HistoryHandling::Auto {
            history_handling = if url == active_url && self.script_same_origin_domain(source_document, active) {
                HistoryHandling::Replace
            } else {
                HistoryHandling::Push
            };
        }
        // Step 14. If all of the following are true: documentResource is null; response is null; url equals navigable's active session history entry's URL with exclude fragments set to true; and url's fragment is non-null, then: 14.1. Navigate to a fragment … 14.2. Return.
        let without_fragment = |u: &url::Url| {
            let mut u = u.clone();
            u.set_fragment(None);
            u
        };
        if url.fragment().is_some() && without_fragment(&url) == without_fragment(&active_url) {
            return Err(JsValue::type_error(format!(
                "navigating to a fragment ({url}: HTML \"navigate\" 14, a same-document navigation) is not modelled by webmcp-sim"
            )));
        }
        // Step 20. If url's scheme is "javascript", then … (and other schemes whose documents
        // the simulator cannot make: about:, data:, blob:).
        if !matches!(url.scheme(), "http" | "https" | "file") {
            return Err(JsValue::type_error(format!(
                "navigating to a {}: URL ({url}) is not modelled by webmcp-sim",
                url.scheme()
            )));
        }
        // Step 23. In parallel, run these steps: … (the fetch, then "finalize a cross-document
        // navigation" in a task on the navigation and traversal task source).
        self.queue_script_navigation(source_document, nav, &url, history_handling, (HTML, "navigate 23"));
        Ok(())
    }

    /// HTML `location.reload()` step 4, "Reload document's node navigable" (HTML "reload"):
    /// no navigate event (the navigation API is not modelled), the session history traversal
    /// steps that "apply the reload history step" are one later task that creates a new
    /// document at the document's URL.
    pub fn script_location_reload(&mut self, document: DocId) {
        let nav = self.world.doc_info(document).navigable;
        let url = self.world.doc_info(document).url.clone();
        // Step 2. Set navigable's active session history entry's document state's reload pending to true.
        // Step 3. Let traversable be navigable's traversable navigable.
        // Step 4. Append the following session history traversal steps to traversable: 4.1. Apply the reload history step to traversable given userInvolvement.
        note!(self, (HTML, "reload 4"), "reload {}: a new document at {url}", self.label(document));
        self.queue_script_navigation(document, nav, &url, HistoryHandling::Reload, (HTML, "reload 4"));
    }

    /// The task that completes a navigation a script started: of `source`'s document, on the
    /// navigation and traversal task source, as the action language's `navigate` queues it.
    pub(crate) fn queue_script_navigation(
        &mut self,
        source: DocId,
        nav: NavId,
        url: &url::Url,
        history_handling: HistoryHandling,
        step: (&'static str, &'static str),
    ) {
        self.interpretation(
            step,
            "a script-started navigation completes in a later task (navigation and traversal task source) of the navigating script's document, as `navigate` steps do; this task goes on in the old document",
        );
        let work = Work::CompleteScriptNavigation { navigable: nav, url: Rc::from(url.as_str()), history_handling };
        self.queue_navigation_completion(source, work, step);
    }

    /// `Work::NavigationResponse` (`options.network` "unbounded"): HTML "navigate" 23 runs in
    /// parallel, and the fetch's response arrives now, after any number of later timers (its
    /// block may have been put off by `net.wait`); the task that completes the navigation is
    /// queued as the default network queues it at once (`Sim::queue_navigation_completion`).
    pub(crate) fn navigation_response(&mut self, source: DocId, completion: &Work) {
        self.footprint.touch(Resource::Fetches, true);
        note!(
            self,
            (HTML, "navigate 23"),
            "the navigation's response arrives (options.network unbounded: at any moment after the navigation started)"
        );
        self.queue_global_task(TaskSource::NavigationAndTraversal, source, completion.clone(), (HTML, "navigate 23"));
    }

    /// `Work::CompleteScriptNavigation`: `nav` gets the document the scenario's server holds at
    /// `url` (`Sim::navigate_to`, the steps the action language's `navigate` runs).
    pub(crate) fn complete_script_navigation(
        &mut self,
        nav: NavId,
        url: &str,
        history_handling: HistoryHandling,
    ) -> Result<(), RunError> {
        let step = if history_handling == HistoryHandling::Reload { (HTML, "reload 4") } else { (HTML, "navigate 23") };
        let parsed = url::Url::parse(url).map_err(|e| RunError::Scenario(format!("navigation to {url}: {e}")))?;
        let (document, served) = self.program.served_document(&parsed).map_err(RunError::Scenario)?;
        if served {
            note!(self, step, "the scenario's server holds a document at {}: its resource", parsed.path());
        } else {
            note!(
                self,
                step,
                "the scenario's server holds no document at {} (`resources`): a document with no script",
                parsed.path()
            );
        }
        self.navigate_to(nav, &document, history_handling)
    }

    /// HTML "allowed by sandboxing to navigate": whether navigable `a` may navigate `b`. The
    /// only sandboxing flags modelled are those of the `sandbox` attributes of `a`'s container
    /// and its ancestors' (a document's active sandboxing flag set includes its container's
    /// document's): any `sandbox` sets the sandboxed navigation browsing context flag, and one
    /// without `allow-top-navigation` the sandboxed top-level navigation without user
    /// activation browsing context flag. No page has transient activation.
    pub(crate) fn allowed_by_sandboxing_to_navigate(&mut self, a: NavId, b: NavId) -> bool {
        let (mut navigation, mut top_level) = (false, false);
        let mut at = Some(a);
        while let Some(n) = at {
            let navigable = self.world.nav(n);
            if let Some(sandbox) = &navigable.container.sandbox {
                navigation = true;
                top_level |= !sandbox.split_ascii_whitespace().any(|k| k.eq_ignore_ascii_case("allow-top-navigation"));
            }
            at = navigable.info.parent;
        }
        let b_is_top = self.world.nav(b).info.parent.is_none();
        let a_is_b_or_below = {
            let mut at = Some(a);
            let mut found = false;
            while let Some(n) = at {
                if n == b {
                    found = true;
                    break;
                }
                at = self.world.nav(n).info.parent;
            }
            found
        };
        // 1. If A is not the same navigable as B, and A is not one of the ancestor navigables of B, and B is not a top-level traversable, and A's active document's active sandboxing flag set has its sandboxed navigation browsing context flag set, then return false.
        let a_is_ancestor_of_b = {
            let mut at = self.world.nav(b).info.parent;
            let mut found = false;
            while let Some(n) = at {
                if n == a {
                    found = true;
                    break;
                }
                at = self.world.nav(n).info.parent;
            }
            found
        };
        if a != b && !a_is_ancestor_of_b && !b_is_top && navigation {
            return false;
        }
        // 2. If B is a top-level traversable, and is one of the ancestor navigables of A, then: … 2.2. If sourceSnapshotParams's has transient activation is false, and sourceSnapshotParams's sandboxing flags's sandboxed top-level navigation without user activation browsing context flag is set, then return false.
        if b_is_top && a != b && a_is_b_or_below && top_level {
            return false;
        }
        // 3. Return true.
        true
    }
}
