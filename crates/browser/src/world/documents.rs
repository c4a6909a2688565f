//! Documents: creating one (origin, permissions policy, secure context, agent cluster and event
//! loop), their lifecycle states and the cached "fully active", and "allowed to use".

use std::fmt;

use url::Url;

use super::{DocId, LoopId, NavId, World};
use crate::origin::{is_url_potentially_trustworthy, Origin, Site};
use crate::policy::{self, PermissionsPolicy, Policy};

/// Where a document is in its lifecycle.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DocumentState {
    /// Its navigable's active document (fully active if its ancestors are too).
    Active,
    /// In the back/forward cache: not fully active, not unloaded; its tasks wait.
    Bfcached,
    /// Unloaded and destroyed (navigated away from, or its iframe was removed).
    Destroyed,
}

/// What a document is: fixed when it is created. Kept apart from its lifecycle state
/// (`DocumentLifecycle`), so a lifecycle change copies and rehashes only that small part.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DocumentInfo {
    /// Trace label: the navigable's name, plus `@N` for the N-th document of that navigable.
    pub label: String,
    pub navigable: NavId,
    pub url: Url,
    pub origin: Origin,
    pub event_loop: LoopId,
    pub origin_keyed: bool,
    pub secure_context: bool,
    pub policy: PermissionsPolicy,
    /// Permissions Policy "is feature enabled in document for origin?" with the document's own
    /// origin, per supported feature (`policy::features_enabled_for_own_origin`): the policy and
    /// origin are fixed, so HTML "allowed to use" reads the answer instead of recomputing it.
    pub features_enabled: [bool; policy::SUPPORTED_FEATURES.len()],
}

impl std::hash::Hash for DocumentInfo {
    /// What identifies the document (its label and URL): the rest follows from those within one
    /// scenario.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.label.hash(state);
        self.url.as_str().hash(state);
    }
}

/// What lifecycle changes change of a document: its state, and the cached "fully active"
/// derived from it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct DocumentLifecycle {
    /// Changed only through `World::set_document_state` (which keeps `fully_active` up to date;
    /// `World::is_fully_active` checks that in debug builds).
    state: DocumentState,
    /// HTML "fully active", derived from the documents' states and the navigables (not hashed):
    /// `World` recomputes it whenever one of those changes (`World::refresh_fully_active_of`), as
    /// every task's document is checked before every step.
    fully_active: bool,
}

impl std::hash::Hash for DocumentLifecycle {
    /// The state only (one byte): `fully_active` follows from the states and the navigables.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u8(self.state as u8);
    }
}

/// A document as `World::doc` reads it: its fixed `DocumentInfo` (reached through `Deref`) and
/// a copy of its lifecycle state (changed only through `World::set_document_state`).
#[derive(Clone, Copy, Debug)]
pub struct Document<'a> {
    pub info: &'a DocumentInfo,
    pub state: DocumentState,
}

impl std::ops::Deref for Document<'_> {
    type Target = DocumentInfo;
    #[inline]
    fn deref(&self) -> &DocumentInfo {
        self.info
    }
}

/// An agent cluster key: a site, or an origin when origin-keyed.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum ClusterKey {
    Site(Site),
    Origin(Origin),
}

impl fmt::Display for ClusterKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClusterKey::Site(site) => write!(f, "site {site}"),
            ClusterKey::Origin(origin) => write!(f, "origin {origin} (origin-keyed)"),
        }
    }
}

/// What a new document is made from.
pub struct DocumentInit<'a> {
    pub url: &'a Url,
    /// `Permissions-Policy` header value, if any.
    pub permissions_policy: Option<&'a str>,
    /// The document asks for an origin-keyed agent cluster (`Origin-Agent-Cluster` is not `?0`
    /// and it does not set `document.domain`).
    pub requests_origin_keyed: bool,
}

/// What a new document is made from, with everything that depends only on the response (its
/// URL and headers) computed once: a caller that creates many documents from one response (the
/// simulator, once per scenario document, when the scenario is compiled) builds this once and
/// passes it to `World::create_document_from_response`, which then only copies from it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DocumentResponse {
    pub url: Url,
    /// URL Standard "origin" of `url` when it is a tuple origin; `None` when it is "a new opaque
    /// origin", which each document gets its own of (allocated when the document is created).
    pub url_origin: Option<Origin>,
    /// Secure Contexts "Is url potentially trustworthy?" of `url`.
    pub url_potentially_trustworthy: bool,
    /// Permissions Policy §9.1 "Process response policy": the declared policy of the
    /// `Permissions-Policy` header, empty when there is none.
    pub declared_policy: Policy,
    /// The document asks for an origin-keyed agent cluster (see `DocumentInit`).
    pub requests_origin_keyed: bool,
}

impl DocumentResponse {
    /// Computes the parts of a document that depend only on its response; fails on a malformed
    /// `Permissions-Policy` header.
    pub fn new(init: DocumentInit) -> Result<DocumentResponse, WorldError> {
        // Opaque ids are not allocated here: an opaque answer is only "a new opaque origin".
        let mut scratch_opaque = 0;
        let url_origin = Some(Origin::of_url(init.url, &mut scratch_opaque)).filter(|o| !o.is_opaque());
        let declared_policy = match init.permissions_policy {
            Some(header) => {
                policy::parse_permissions_policy_header(header).map_err(WorldError::BadPermissionsPolicy)?
            }
            None => Policy::default(),
        };
        Ok(DocumentResponse {
            url: init.url.clone(),
            url_origin,
            url_potentially_trustworthy: is_url_potentially_trustworthy(init.url),
            declared_policy,
            requests_origin_keyed: init.requests_origin_keyed,
        })
    }
}

/// Errors creating a document that a scenario can cause.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum WorldError {
    BadPermissionsPolicy(String),
}

impl<S: Clone> World<S> {
    /// Changes a document's lifecycle state.
    pub fn set_document_state(&mut self, doc: DocId, state: DocumentState) {
        self.lifecycles.documents[doc.index()].state = state;
        self.refresh_fully_active_of(doc);
        self.debug_assert_fully_active_cache();
    }

    /// HTML "fully active" of a document from its state, its navigable and its container
    /// document's cached answer.
    fn fully_active_from_cache(&self, doc: DocId) -> bool {
        // The state first: a document that is not active (most of those a refresh passes are
        // destroyed) needs no look at its navigable.
        if self.lifecycles.documents[doc.index()].state != DocumentState::Active {
            return false;
        }
        let nav = self.nav(self.document_infos[doc.index()].navigable);
        !nav.destroyed
            && nav.active_document == Some(doc)
            && nav.container_document.is_none_or(|parent| {
                debug_assert!(parent < doc, "a container document comes before its iframes' documents");
                self.lifecycles.documents[parent.index()].fully_active
            })
    }

    /// Recomputes a document's cached "fully active" (`DocumentLifecycle::fully_active`) after a change
    /// to its state or to its navigable; when it changes, so may its descendants' (whose
    /// documents all come after it: a container document is created before the documents of
    /// its iframes), which are recomputed in one pass in document order. A document whose
    /// answer does not change is not written (nor the list copied).
    pub(super) fn refresh_fully_active_of(&mut self, doc: DocId) {
        let fully_active = self.fully_active_from_cache(doc);
        if self.lifecycles.documents[doc.index()].fully_active != fully_active {
            self.lifecycles.documents[doc.index()].fully_active = fully_active;
            for i in doc.index() + 1..self.lifecycles.documents.len() {
                let fully_active = self.fully_active_from_cache(DocId(i as u32));
                if self.lifecycles.documents[i].fully_active != fully_active {
                    self.lifecycles.documents[i].fully_active = fully_active;
                }
            }
        }
    }

    /// Checks (in debug builds) that every document's cached "fully active" follows the definition.
    pub(super) fn debug_assert_fully_active_cache(&self) {
        debug_assert!(
            (0..self.document_count() as u32)
                .all(|d| { self.lifecycles.documents[d as usize].fully_active == self.compute_fully_active(DocId(d)) }),
            "the cached fully active flags follow the definition"
        );
    }

    pub fn doc(&self, id: DocId) -> Document<'_> {
        Document { info: &self.document_infos[id.index()], state: self.lifecycles.documents[id.index()].state }
    }

    /// What a document is (`doc` without its state).
    pub fn doc_info(&self, id: DocId) -> &DocumentInfo {
        &self.document_infos[id.index()]
    }

    /// How many documents have been created (their ids are `0..document_count()`).
    pub fn document_count(&self) -> usize {
        self.document_infos.len()
    }

    /// Every document, by id.
    pub fn documents(&self) -> impl Iterator<Item = Document<'_>> {
        self.document_infos
            .iter()
            .zip(self.lifecycles.documents.iter())
            .map(|(info, lifecycle)| Document { info, state: lifecycle.state })
    }

    /// Creates a document in `navigable` and makes it the active document.
    pub fn create_document(&mut self, navigable: NavId, init: DocumentInit) -> Result<DocId, WorldError> {
        let response = DocumentResponse::new(init)?;
        let container_policy =
            self.nav(navigable).container.allow.as_deref().map(policy::parse_allow_attribute).unwrap_or_default();
        Ok(self.create_document_from_response(navigable, &response, &container_policy))
    }

    /// Creates a document in `navigable` from a response whose response-only parts are computed
    /// (see `DocumentResponse`), and makes it the active document. `container_policy` is
    /// Permissions Policy §9.4 "Process permissions policy attributes" on `navigable`'s container
    /// (`parse_allow_attribute` of its `allow` attribute, empty for a traversable), which the
    /// caller may also have computed once per attribute value.
    pub fn create_document_from_response(
        &mut self,
        navigable: NavId,
        response: &DocumentResponse,
        container_policy: &Policy,
    ) -> DocId {
        debug_assert_eq!(
            *container_policy,
            self.nav(navigable).container.allow.as_deref().map(policy::parse_allow_attribute).unwrap_or_default(),
            "the container policy is that of the navigable's container"
        );
        let nav = self.nav(navigable);
        // Agent clusters are per browsing context group (`NavigableInfo::group`).
        let (container_document, tab, sandboxed_origin) =
            (nav.container_document, nav.group, nav.container.sandboxed_origin());
        let origin = if sandboxed_origin {
            self.new_opaque_origin()
        } else if matches!(response.url.scheme(), "about") {
            // about:blank and about:srcdoc inherit the container document's origin.
            match container_document {
                Some(parent) => self.doc_info(parent).origin.clone(),
                None => self.new_opaque_origin(),
            }
        } else {
            // URL Standard "origin" of the URL: computed by DocumentResponse::new, except that a
            // new opaque origin is allocated here, one per document.
            match &response.url_origin {
                Some(origin) => origin.clone(),
                None => self.new_opaque_origin(),
            }
        };
        // Permissions Policy §9.1 "Process response policy" ran in DocumentResponse::new, and §9.4
        // "Process permissions policy attributes" where the caller got `container_policy`.
        let declared = &response.declared_policy;
        let permissions = match container_document {
            Some(parent) => {
                let parent = self.doc_info(parent);
                // The origin 'src' stands for: the iframe's declared origin. For a sandboxed iframe
                // we use the document's own opaque origin (see docs/model.md).
                let container = policy::Container {
                    parent_origin: &parent.origin,
                    parent_policy: &parent.policy,
                    container_policy,
                    declared_origin: &origin,
                };
                policy::create_a_permissions_policy(Some(&container), &origin, declared)
            }
            None => policy::create_a_permissions_policy(None, &origin, declared),
        };
        // Secure Contexts "Is url potentially trustworthy?" ran in DocumentResponse::new.
        let secure_context = response.url_potentially_trustworthy
            && container_document.is_none_or(|parent| self.doc_info(parent).secure_context);
        let key = self.obtain_agent_cluster_key(tab, &origin, response.requests_origin_keyed);
        let origin_keyed = matches!(key, ClusterKey::Origin(_));
        let event_loop = self.event_loop_of_cluster(tab, key);
        let generation = self.document_infos.iter().filter(|d| d.navigable == navigable).count();
        // The label is `name`, or `name@N` for the N-th document (written without `format!`).
        let name = &self.nav(navigable).info.name;
        let mut label = String::with_capacity(name.len() + 4);
        label.push_str(name);
        if generation > 0 {
            label.push('@');
            label.push_str(itoa::Buffer::new().format(generation + 1));
        }
        let features_enabled = policy::features_enabled_for_own_origin(&permissions, &origin);
        let id = DocId(self.document_infos.len() as u32);
        self.document_infos.push(std::rc::Rc::new(DocumentInfo {
            label,
            navigable,
            url: response.url.clone(),
            origin,
            event_loop,
            origin_keyed,
            secure_context,
            features_enabled,
            policy: permissions,
        }));
        self.lifecycles.documents.push(DocumentLifecycle { state: DocumentState::Active, fully_active: false });
        let previous = self.lifecycles.navigables[navigable.index()].active_document.replace(id);
        if let Some(previous) = previous {
            self.refresh_fully_active_of(previous);
        }
        self.refresh_fully_active_of(id);
        self.debug_assert_fully_active_cache();
        id
    }

    fn new_opaque_origin(&mut self) -> Origin {
        let seldom = &mut *self.seldom;
        let id = seldom.next_opaque;
        seldom.next_opaque += 1;
        Origin::Opaque(id)
    }

    /// HTML "obtain a similar-origin window agent", the part that picks the agent cluster key:
    /// the site, or the origin when the origin asks to be origin-keyed; the first answer for an
    /// origin in a browsing context group sticks (the historical agent cluster key map).
    fn obtain_agent_cluster_key(&mut self, tab: NavId, origin: &Origin, requests_origin_keyed: bool) -> ClusterKey {
        if origin.is_opaque() {
            return ClusterKey::Origin(origin.clone());
        }
        if let Some(key) = self.seldom.historical_agent_cluster_keys.get(&(tab, origin.clone())) {
            return key.clone();
        }
        let key =
            if requests_origin_keyed { ClusterKey::Origin(origin.clone()) } else { ClusterKey::Site(origin.site()) };
        self.seldom.historical_agent_cluster_keys.insert((tab, origin.clone()), key.clone());
        key
    }

    /// HTML "fully active": the active document of its navigable, and its container document
    /// (if any) is fully active. Cached per document (see `refresh_fully_active_of`).
    pub fn is_fully_active(&self, doc: DocId) -> bool {
        let fully_active = self.lifecycles.documents[doc.index()].fully_active;
        debug_assert_eq!(
            fully_active,
            self.compute_fully_active(doc),
            "a document's state changed without World::set_document_state"
        );
        fully_active
    }

    /// HTML "fully active" computed from its definition (what `refresh_fully_active_of` caches).
    fn compute_fully_active(&self, doc: DocId) -> bool {
        let d = self.doc(doc);
        if d.state != DocumentState::Active {
            return false;
        }
        let nav = self.nav(d.navigable);
        if nav.destroyed || nav.active_document != Some(doc) {
            return false;
        }
        match nav.container_document {
            None => true,
            Some(parent) => self.compute_fully_active(parent),
        }
    }

    /// HTML "allowed to use" a policy-controlled feature.
    pub fn is_allowed_to_use(&self, doc: DocId, feature: &str) -> bool {
        let d = self.doc(doc);
        // 1. If document's browsing context is null, then return false.
        if d.state == DocumentState::Destroyed {
            return false;
        }
        // 2. If document is not fully active, then return false.
        if !self.is_fully_active(doc) {
            return false;
        }
        // 3. If the result of running is feature enabled in document for origin on feature,
        //    document, and document's origin is "Enabled", then return true.
        // 4. Return false.
        // The document's policy and origin are fixed, so that result was computed when the
        // document was created (`DocumentInfo::features_enabled`).
        policy::enabled_for_own_origin(&d.features_enabled, feature)
    }

    /// Forgets what only a destroyed document's own tasks and scripts could read, none of which
    /// will ever run (HTML "destroy a document" removed its tasks, and no task of it runs again):
    /// its count of timers set (which orders only its own later timers) and its scoped promises
    /// and signals (those a tool execution made, numbered from the execution: no other realm holds
    /// them). Two runs that differ only in those then reach one state.
    pub fn forget_destroyed(&mut self, doc: DocId) {
        debug_assert!(self.doc(doc).state == DocumentState::Destroyed);
        if self.timers.set.contains_key(&doc) {
            self.timers.set.remove(&doc);
        }
        self.promises.remove_scoped(doc);
        self.signals.remove_scoped(doc);
    }
}
