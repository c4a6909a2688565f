//! Inert-task facts learned at run time, for JavaScript pages (issue 28).
//!
//! A page's script is opaque before it runs, so what `InertFacts::of` reads off the action
//! language's statements (which promises a script reads, which documents get a `toolchange`
//! handler, which navigables a script removes) cannot be read off a page. The stateless search
//! therefore *assumes* that no page does any of these things and runs the tasks that are inert
//! under that assumption when they are queued; every execution watches the pages, and the first
//! time one does such a thing (a *contradiction*), the fact is noted here and the search starts
//! again from nothing with what it has learned (`explore::explore_measured`). The facts only
//! shrink (a contradicted fact is never assumed again), and there are finitely many (the
//! scenario's call sites, navigables and documents), so the restarts end.
//!
//! Each fact says that no unit of any execution performs an event of one kind, and every such
//! event is seen when it happens (docs/model.md, "Inert tasks in JavaScript pages", argues why a
//! complete search that saw none is sound):
//! - **a read of a page promise made at a call site** (`file:line:col` of `registerTool` or
//!   `getTools`): the promise's own `then` or `constructor` is read (`prelude/model_context.js`
//!   puts accessors there), which every way JavaScript has of reacting to a promise does
//!   (`then`, `catch`, `finally`, `await`, `Promise.resolve`, `Promise.all`, resolving another
//!   promise with it);
//! - **a `toolchange` listener on a navigable's document** (`addEventListener`, `ontoolchange`):
//!   the page hands the simulator a dispatcher for `toolchange`;
//! - **the unloading of a document at the virtual time a task was queued for it** (HTML "unload
//!   a document", which a page's `iframe.remove()` and its navigations, `location.assign`,
//!   `replace`, `href`, `reload`, run on the document the navigable shows and its descendants):
//!   noted by the document's label (`player@2`: the navigable's name and the document's number
//!   in it, which do not depend on how independent lanes interleave) when it is unloaded at the
//!   virtual time of a task the search ran early for it (`Sim::learn_unloaded`). A task queued
//!   earlier has run in every schedule by then (virtual time advances only when no lane can
//!   run), so unloading the document later removes nothing unrun. Per document and time rather
//!   than per navigable: a page that navigates a frame at 5 ms contradicts nothing about the
//!   tasks its documents had at 0 ms, nor about the frame's next document (issue 28).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The facts contradicted so far, and whether the running search has seen a new one. Shared by
/// every execution of one exploration (`explore::SimModel` holds it, a model the engine may
/// share between threads, hence the lock; the stateless search's worker threads each run on a
/// [`Learned::snapshot`]).
#[derive(Debug, Default)]
pub struct Learned {
    /// Call sites some page read a promise of.
    read_sites: Mutex<BTreeSet<String>>,
    /// Navigables (by scenario name) whose document some page gave a `toolchange` listener.
    toolchange_navigables: Mutex<BTreeSet<String>>,
    /// Documents (by label) some execution unloaded at the virtual time a task the search ran
    /// early for them was queued.
    unloaded_documents: Mutex<BTreeSet<String>>,
    /// A fact was contradicted since the search started: it must start again.
    contradicted: AtomicBool,
}

/// A set of facts, locked (a panic elsewhere cannot leave it half written: inserting is one
/// step, so a poisoned lock's set is used as it is).
fn set(m: &Mutex<BTreeSet<String>>) -> std::sync::MutexGuard<'_, BTreeSet<String>> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Learned {
    /// Some page read a promise made at `site`.
    pub(crate) fn read(&self, site: &str) -> bool {
        set(&self.read_sites).contains(site)
    }

    /// Some page gave navigable `name`'s document a `toolchange` listener.
    pub(crate) fn toolchange(&self, name: &str) -> bool {
        set(&self.toolchange_navigables).contains(name)
    }

    /// Some execution unloaded the document labelled `label` at the virtual time a task run
    /// early for it was queued.
    pub(crate) fn unloaded(&self, label: &str) -> bool {
        set(&self.unloaded_documents).contains(label)
    }

    pub(crate) fn note_read(&self, site: &str) {
        Self::note(&self.read_sites, &self.contradicted, site);
    }

    pub(crate) fn note_toolchange(&self, name: &str) {
        Self::note(&self.toolchange_navigables, &self.contradicted, name);
    }

    pub(crate) fn note_unloaded(&self, label: &str) {
        Self::note(&self.unloaded_documents, &self.contradicted, label);
    }

    fn note(facts: &Mutex<BTreeSet<String>>, contradicted: &AtomicBool, key: &str) {
        if set(facts).insert(key.to_string()) {
            contradicted.store(true, Ordering::Relaxed);
        }
    }

    /// A copy of the facts, for executions run on another thread (`SimModel::detached`): what
    /// they contradict stays in the copy until the search takes the execution in ([`Learned::absorb`]).
    pub fn snapshot(&self) -> Learned {
        Learned {
            read_sites: Mutex::new(set(&self.read_sites).clone()),
            toolchange_navigables: Mutex::new(set(&self.toolchange_navigables).clone()),
            unloaded_documents: Mutex::new(set(&self.unloaded_documents).clone()),
            contradicted: AtomicBool::new(false),
        }
    }

    /// Adds the facts of `copy` (a [`Learned::snapshot`] an execution ran with). Whether that
    /// execution contradicted a fact it reports itself (`RunError::Contradicted`), so this does
    /// not mark one.
    pub fn absorb(&self, copy: &Learned) {
        set(&self.read_sites).extend(set(&copy.read_sites).iter().cloned());
        set(&self.toolchange_navigables).extend(set(&copy.toolchange_navigables).iter().cloned());
        set(&self.unloaded_documents).extend(set(&copy.unloaded_documents).iter().cloned());
    }

    /// Whether a fact was contradicted since the last call (and forgets it).
    pub fn take_contradicted(&self) -> bool {
        self.contradicted.swap(false, Ordering::Relaxed)
    }

    /// How many facts were contradicted in all.
    pub fn count(&self) -> usize {
        set(&self.read_sites).len() + set(&self.toolchange_navigables).len() + set(&self.unloaded_documents).len()
    }

    /// The contradicted facts, for the report (`promises read at [a.js:3:5] toolchange
    /// listeners on [top]`, each kind only when it has one, each list sorted).
    pub fn describe(&self) -> String {
        let kinds = [
            ("promises read at", &self.read_sites),
            ("toolchange listeners on", &self.toolchange_navigables),
            ("documents unloaded", &self.unloaded_documents),
        ];
        let described: Vec<String> = kinds
            .iter()
            .filter_map(|(what, facts)| {
                let facts = set(facts);
                (!facts.is_empty()).then(|| format!("{what} [{}]", facts.iter().cloned().collect::<Vec<_>>().join(" ")))
            })
            .collect();
        described.join(", ")
    }
}
