//! Navigables: what each is (`NavigableInfo`), what navigation changes (`NavigableState`), and
//! the navigable tree.

use super::documents::DocumentState;
use super::{DocId, NavId, World};

/// A navigable's container attributes (iframes only).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct ContainerAttributes {
    pub allow: Option<std::rc::Rc<str>>,
    pub sandbox: Option<std::rc::Rc<str>>,
}

impl ContainerAttributes {
    /// The sandbox attribute without `allow-same-origin` sets the "sandboxed origin browsing context flag".
    pub fn sandboxed_origin(&self) -> bool {
        match &self.sandbox {
            None => false,
            Some(tokens) => !tokens.split_ascii_whitespace().any(|t| t.eq_ignore_ascii_case("allow-same-origin")),
        }
    }
}

/// What a navigable is: fixed when it is created, except that its children grow as its
/// documents create iframes. Kept apart from what navigation changes (`NavigableState`), so a
/// navigation or an iframe removal copies and rehashes only that small part.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct NavigableInfo {
    /// The scenario's name for it.
    pub name: std::rc::Rc<str>,
    pub parent: Option<NavId>,
    /// The document whose iframe is this navigable's container (None for a traversable).
    pub container_document: Option<DocId>,
    pub container: ContainerAttributes,
    pub children: Vec<NavId>,
    /// The tab (top-level traversable) this navigable belongs to.
    pub traversable: NavId,
    /// HTML's browsing context group of its traversable, named by the group's first top-level
    /// traversable: a tab's own, unless it is an auxiliary browsing context (`window.open`
    /// without noopener: HTML "create a new auxiliary browsing context and document" 2, "Let
    /// group be openerTopLevelBrowsingContext's group"), which joins its opener's.
    pub group: NavId,
}

/// What navigation and iframe removal change of a navigable.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct NavigableState {
    pub active_document: Option<DocId>,
    /// The iframe was removed: the navigable is destroyed.
    pub destroyed: bool,
}

/// A navigable as `World::nav` reads it: its fixed `NavigableInfo` (reached through `Deref`)
/// and a copy of its `NavigableState`.
#[derive(Clone, Copy, Debug)]
pub struct Navigable<'a> {
    pub info: &'a NavigableInfo,
    pub active_document: Option<DocId>,
    /// The iframe was removed: the navigable is destroyed.
    pub destroyed: bool,
}

impl std::ops::Deref for Navigable<'_> {
    type Target = NavigableInfo;
    fn deref(&self) -> &NavigableInfo {
        self.info
    }
}

impl<S: Clone> World<S> {
    /// Marks a navigable destroyed (HTML "destroy a navigable"; its documents are unloaded by
    /// the caller).
    pub fn destroy_navigable(&mut self, nav: NavId) {
        self.lifecycles.navigables[nav.index()].destroyed = true;
        // Of the navigable's documents only its active one can have been fully active.
        if let Some(doc) = self.lifecycles.navigables[nav.index()].active_document {
            self.refresh_fully_active_of(doc);
        }
        self.debug_assert_fully_active_cache();
    }

    pub fn nav(&self, id: NavId) -> Navigable<'_> {
        let state = self.lifecycles.navigables[id.index()];
        Navigable {
            info: &self.seldom.navigable_infos[id.index()],
            active_document: state.active_document,
            destroyed: state.destroyed,
        }
    }

    /// A navigable's fixed info, if `id` names one.
    pub fn get_nav_info(&self, id: NavId) -> Option<&NavigableInfo> {
        self.seldom.navigable_infos.get(id.index())
    }

    /// Creates a top-level traversable (`container_document` None) or a child navigable.
    pub fn create_navigable(
        &mut self,
        name: &str,
        container_document: Option<DocId>,
        container: ContainerAttributes,
    ) -> NavId {
        self.create_navigable_in_group(name, container_document, container, None)
    }

    /// Creates a top-level traversable in the browsing context group of the traversable
    /// `opener` (an auxiliary browsing context: HTML "create a new auxiliary browsing context
    /// and document" 2); `create_navigable` makes a top-level traversable in a new group.
    pub fn create_auxiliary_traversable(&mut self, name: &str, opener: NavId) -> NavId {
        let group = self.nav(self.nav(opener).traversable).group;
        self.create_navigable_in_group(name, None, ContainerAttributes::default(), Some(group))
    }

    fn create_navigable_in_group(
        &mut self,
        name: &str,
        container_document: Option<DocId>,
        container: ContainerAttributes,
        group: Option<NavId>,
    ) -> NavId {
        let id = NavId(self.seldom.navigable_infos.len() as u32);
        let (parent, traversable, group) = match container_document {
            Some(doc) => {
                let parent = self.doc_info(doc).navigable;
                (Some(parent), self.nav(parent).traversable, self.nav(parent).group)
            }
            None => (None, id, group.unwrap_or(id)),
        };
        let infos = &mut self.seldom.navigable_infos;
        infos.push(NavigableInfo {
            name: name.into(),
            parent,
            container_document,
            container,
            children: Vec::new(),
            traversable,
            group,
        });
        if let Some(parent) = parent {
            infos[parent.index()].children.push(id);
        }
        self.lifecycles.navigables.push(NavigableState::default());
        self.seldom.session_histories.push(Default::default());
        id
    }

    /// HTML "inclusive descendant navigables" of a navigable, in tree order (skipping destroyed ones).
    pub fn inclusive_descendant_navigables(&self, nav: NavId) -> Vec<NavId> {
        // Sized for every navigable: one allocation, never grown.
        let mut out = Vec::with_capacity(self.seldom.navigable_infos.len());
        self.inclusive_descendant_navigables_into(nav, &mut out);
        out
    }

    /// `inclusive_descendant_navigables` written into `out` (cleared first), so a caller that
    /// walks the tree often can reuse one list.
    pub fn inclusive_descendant_navigables_into(&self, nav: NavId, out: &mut Vec<NavId>) {
        out.clear();
        self.collect_descendants(nav, out);
    }

    fn collect_descendants(&self, nav: NavId, out: &mut Vec<NavId>) {
        let state = self.lifecycles.navigables[nav.index()];
        if state.destroyed {
            return;
        }
        out.push(nav);
        for child in self.child_navigables(nav) {
            self.collect_descendants(child, out);
        }
    }

    /// A navigable's child navigables, in tree order: those whose container document is its
    /// active document (destroyed ones included; `collect_descendants` skips them).
    pub fn child_navigables(&self, nav: NavId) -> impl Iterator<Item = NavId> + '_ {
        let active = self.lifecycles.navigables[nav.index()].active_document;
        let infos = &self.seldom.navigable_infos;
        infos[nav.index()].children.iter().copied().filter(move |c| infos[c.index()].container_document == active)
    }

    /// The child navigables that `doc` contains, in tree order, without the destroyed ones. For
    /// the active document these are `child_navigables`' live ones; a document kept in the
    /// back/forward cache keeps its own beside its successor's.
    pub fn document_child_navigables(&self, doc: DocId) -> impl Iterator<Item = NavId> + '_ {
        let nav = self.doc_info(doc).navigable;
        self.seldom.navigable_infos[nav.index()].children.iter().copied().filter(move |&c| {
            self.seldom.navigable_infos[c.index()].container_document == Some(doc)
                && !self.lifecycles.navigables[c.index()].destroyed
        })
    }

    /// HTML "node navigable" of a document: the navigable whose active document it is, or null.
    /// A destroyed document is no navigable's active document, nor is a document in the
    /// back/forward cache (the tab shows another document meanwhile, which is not modelled).
    pub fn node_navigable(&self, doc: DocId) -> Option<NavId> {
        (self.doc(doc).state == DocumentState::Active).then(|| self.doc_info(doc).navigable)
    }

    /// The traversable navigable of the navigable a document was created in: its node
    /// navigable's traversable navigable while it is active (callers that read the spec's
    /// "node navigable" check `node_navigable` first).
    pub fn traversable_of(&self, doc: DocId) -> NavId {
        self.nav(self.doc_info(doc).navigable).traversable
    }
}
