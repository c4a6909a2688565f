//! Inert tasks: the event-driven part of the reduction.
//!
//! Two posts to one FIFO task queue do not commute in general: their order is the order the
//! tasks run in. But many tasks the WebMCP algorithms queue are *inert*: running them commutes
//! with every unit that can ever run, and nothing can stop them from running:
//!
//! - "fire `toolchange`" (notify documents of a tool change 3.3) at a document that has no
//!   `ontoolchange` handler and that no script of the scenario can give one;
//! - "resolve or reject a promise" (registerTool 21.2, getTools 9.5, executeTool 15) for a
//!   promise that has no reactions, that no script reads (unnamed, or named but never used by
//!   `then` or `fromGetTools`), and that no abort algorithm can settle (its call had no signal,
//!   or a signal whose controller no step aborts, as far as the scenario's text tells: see
//!   `InertFacts::promise_name_inert`);
//!
//! both on a document that stays fully active for the rest of every run: neither it nor any
//! navigable above it is the target of a navigation, an iframe removal or a bfcache step anywhere
//! in the scenario.
//!
//! Such a task writes only what no other unit reads or writes (a promise's state, read only by
//! the outcome; nothing at all for an unheard event), so every schedule is equivalent to the one
//! that runs it at the moment it is queued: moving it earlier swaps it only with units it commutes
//! with, and it cannot be disabled. While exploring (`Sim::eager_inert`), `Sim::queue_global_task`
//! therefore runs an inert task's steps at once instead of queueing it, and the posting unit's
//! footprint notes no queue write for it. Posts that differ only in inert tasks then commute, and
//! the states that differed only in the order of inert tasks in a queue are one state.
//!
//! The outcome set is unchanged (the naive search, which never runs tasks early, is the oracle in
//! `crates/cli/tests/it/explore.rs` and `webmcp-sim fuzz`). Schedules found this way are turned
//! back into schedules of the faithful model by `explore::faithful_schedule`, which runs each
//! inert task as soon as it reaches the head of its queue.

use browser::DocId;

use crate::kernel::Sim;
use crate::work::{CompletionSteps, Work};
use facts::{scoped_number_fits, InertFacts};

pub(crate) mod facts;
pub mod learned;

impl Sim<'_> {
    /// True when `work`, queued as a task for `doc`, is inert (see the module doc).
    pub fn inert_task(&self, facts: &InertFacts, doc: DocId, work: &Work) -> bool {
        let commutes = match work {
            Work::FireToolchange { doc: target } => {
                let name = &self.world.nav(self.world.doc_info(*target).navigable).info.name;
                self.model_contexts[target.index()].ontoolchange.is_none()
                    && self.model_contexts[target.index()].engine_listeners.is_none()
                    && !InertFacts::names(&facts.toolchange_targets, name)
                    && !facts.learned.as_ref().is_some_and(|l| l.toolchange(name))
            }
            // Decided by what the promise's name says (fixed when it is created), never by the
            // state at the time of the post, so that two units that commute reach the same state
            // in either order (`webmcp-sim audit` checks it).
            Work::SettlePromise { promise, result, .. } => match self.seldom.page_promises.get(promise) {
                None => {
                    let p = &self.world.promises[*promise];
                    p.reactions.is_empty()
                        && p.name.as_deref().is_some_and(|name| facts.promise_name_inert(self.program, name))
                }
                // A page's promise: see `page_promise_inert`.
                Some(site) => result.is_ok() && self.page_promise_inert(facts, *promise, site.as_deref()),
            },
            Work::ToolExecuteSteps { tool_name, completion, .. } => {
                facts.plain(tool_name) && self.inert_completion(facts, completion)
            }
            // The timer of an inert execution's tool (`after`; a later one runs when it comes
            // due, `Sim::run_due_inert_timers`): its one reaction is the execution's, whose entry
            // in the pending tool executions map (set at executeTool 15.12, removed only by its
            // completion steps, since nothing cancels it) names a plain tool.
            Work::SettleLater { promise, .. } => match &self.world.promises[*promise].reactions[..] {
                [Work::ReactToToolPromise {
                    completion: c @ CompletionSteps::ExecuteTool { target, uuid, .. }, ..
                }] => {
                    self.inert_completion(facts, c) && {
                        let traversable = self.world.traversable_of(*target);
                        self.pending_tool_executions
                            .get(&traversable)
                            .is_some_and(|map| map.iter().any(|(u, e)| u == uuid && facts.plain(&e.tool_name)))
                    }
                }
                _ => false,
            },
            _ => false,
        };
        commutes && self.stays_fully_active(facts, doc)
    }

    /// The completion steps of a tool execution nothing can cancel and whose result nobody
    /// reads: the call's promise is inert (no script reads it; no step aborts its signal, so
    /// "cancel a pending tool execution" never runs for it from executeTool 14.4.2), and no
    /// lifecycle changes (nor from the unloading document cleanup steps). Its tasks then touch
    /// only the execution's own entries (the pending and local pending tool executions maps'
    /// entries for its uuid), the objects it makes (named by its uuid: `scoped_number`) and the
    /// inert settling of the call's promise.
    fn inert_completion(&self, facts: &InertFacts, completion: &CompletionSteps) -> bool {
        let CompletionSteps::ExecuteTool { promise, uuid, .. } = completion else {
            return false;
        };
        facts.executions_may_be_inert
            && scoped_number_fits(*uuid)
            && self.world.promises[*promise]
                .name
                .as_deref()
                .is_some_and(|name| facts.promise_name_inert(self.program, name))
    }

    /// The document is fully active now and nothing can stop it being so while a task queued for
    /// it now waits: neither its navigable nor any above it is navigated, removed or put in the
    /// back/forward cache by a step of the action language, and, as far as the search has
    /// learned, no execution unloads it at a virtual time at which a task was queued for it
    /// (`crate::inert::learned`; unloading a document above it unloads it too, and is noted for
    /// it).
    fn stays_fully_active(&self, facts: &InertFacts, doc: DocId) -> bool {
        if !self.world.is_fully_active(doc) {
            return false;
        }
        if facts.learned.as_ref().is_some_and(|l| l.unloaded(&self.world.doc_info(doc).label)) {
            return false;
        }
        let mut nav = Some(self.world.doc_info(doc).navigable);
        while let Some(n) = nav {
            let info = self.world.nav(n).info;
            if InertFacts::names(&facts.lifecycle_targets, &info.name) {
                return false;
            }
            nav = info.parent;
        }
        true
    }

    /// While exploring a scenario with pages: `doc` is being unloaded. If a task for it ran
    /// early (as inert) at this virtual time, the faithful model may still hold that task
    /// queued, and unloading removes it: the fact that no execution unloads `doc` at a time a
    /// task was queued for it is contradicted (`crate::inert::learned`). A task queued at an
    /// earlier time has run in every schedule of the faithful model by now: virtual time
    /// advances only when no lane can run, and the task could (its document was fully active).
    /// A document a step of the action language can unload never gets an inert task
    /// (`stays_fully_active`), so it has none here.
    pub(crate) fn learn_unloaded(&self, doc: DocId) {
        let Some(learned) = self.eager_inert.as_deref().and_then(|facts| facts.learned.as_deref()) else { return };
        if self.seldom.inert_posted_at.get(&doc) == Some(&self.world.now()) {
            learned.note_unloaded(&self.world.doc_info(doc).label);
        }
    }

    /// Resolving a promise a page got from `registerTool` (without a signal) or `getTools`, made
    /// at call site `site`, is inert when no page reads a promise made there (as far as the
    /// search has learned: `crate::inert::learned`) and its one reaction is the engine's mirror:
    /// then the task settles the simulator's promise and the page's, which no script can tell
    /// (a page tells a promise's state only by reacting to it), and nothing else can settle
    /// the promise (no signal; registerTool 21.2 and getTools 9.5 are its only settling steps
    /// once the method has returned it pending). Whether the call had a signal is fixed when
    /// the promise is made, never read off the state at the post.
    fn page_promise_inert(&self, facts: &InertFacts, promise: browser::PromiseId, site: Option<&str>) -> bool {
        let (Some(learned), Some(site)) = (facts.learned.as_ref(), site) else {
            return false;
        };
        !learned.read(site)
            && matches!(&self.world.promises[promise].reactions[..], [Work::EngineSettle { promise: p }] if *p == promise)
    }
}

#[cfg(test)]
mod tests;
