//! Promises and abort signals, numbered per realm (`PerRealm`), and the world's WebIDL and DOM
//! steps on them.

use super::{DocId, World};
use crate::shared::Shared;
use crate::value::JsValue;

/// A promise: the `seq`-th one created in document `realm`'s relevant realm.
///
/// Numbered per realm, not globally: the promises of one document are created by units on its
/// own event loop, so their numbers do not depend on how independent event loops interleave, and
/// two schedules that differ only in that order reach equal states (see `PerRealm`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct PromiseId {
    pub realm: DocId,
    pub seq: u32,
}

/// An `AbortController` and its `AbortSignal` (one-to-one): the `seq`-th one created in document
/// `realm`'s relevant realm (numbered per realm, as `PromiseId`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct SignalId {
    pub realm: DocId,
    pub seq: u32,
}

/// Values numbered per realm (promises, abort signals): a list per document, each list and each
/// value a shared part, so a unit that changes one promise copies that document's list and that
/// promise, not every promise.
///
/// A value may instead be *scoped*: numbered by the caller from what created it (a number with
/// [`PerRealm::SCOPED`] set), not by the order of creation, and kept apart in number order. The
/// simulator's reduction names the objects an inert tool execution creates so
/// (`webmcp::inert`): two such executions then leave the same lists in either order.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PerRealm<T>(Vec<Shared<Vec<Shared<T>>>>, Shared<Vec<(DocId, u32, Shared<T>)>>);

impl<T> Default for PerRealm<T> {
    fn default() -> Self {
        PerRealm(Vec::new(), Shared::default())
    }
}

impl<T: Clone> PerRealm<T> {
    /// The bit that marks a scoped number.
    pub const SCOPED: u32 = 1 << 31;

    /// Adds a value created in `realm`'s realm; returns its number there.
    fn push(&mut self, realm: DocId, value: T) -> u32 {
        if self.0.len() <= realm.index() {
            self.0.resize_with(realm.index() + 1, Shared::default);
        }
        let list = &mut self.0[realm.index()];
        list.push(Shared::new(value));
        list.len() as u32 - 1
    }

    /// Adds a value created in `realm`'s realm under the scoped number `seq` (which has
    /// [`PerRealm::SCOPED`] set and is not taken).
    fn insert_scoped(&mut self, realm: DocId, seq: u32, value: T) {
        debug_assert!(seq & Self::SCOPED != 0, "a scoped number has the SCOPED bit");
        let at = self.1.partition_point(|(r, s, _)| (*r, *s) < (realm, seq));
        debug_assert!(self.1.get(at).is_none_or(|(r, s, _)| (*r, *s) != (realm, seq)), "a scoped number is unique");
        self.1.insert(at, (realm, seq, Shared::new(value)));
    }

    /// Drops the scoped values of `realm` (a destroyed document's: see `World::forget_destroyed`).
    pub(super) fn remove_scoped(&mut self, realm: DocId) {
        // Read before writing: a list without such values is not copied.
        if self.1.iter().any(|(r, _, _)| *r == realm) {
            self.1.retain(|(r, _, _)| *r != realm);
        }
    }

    fn scoped_at(&self, realm: DocId, seq: u32) -> usize {
        self.1.binary_search_by(|(r, s, _)| (*r, *s).cmp(&(realm, seq))).expect("a scoped value that exists")
    }

    fn get(&self, realm: DocId, seq: u32) -> &T {
        if seq & Self::SCOPED != 0 {
            return &self.1[self.scoped_at(realm, seq)].2;
        }
        &self.0[realm.index()][seq as usize]
    }

    fn get_mut(&mut self, realm: DocId, seq: u32) -> &mut T {
        if seq & Self::SCOPED != 0 {
            let at = self.scoped_at(realm, seq);
            return &mut self.1[at].2;
        }
        &mut self.0[realm.index()][seq as usize]
    }

    /// Every value with its realm and number: by realm, then in creation order; then the scoped
    /// ones, by realm and number.
    pub fn iter(&self) -> impl Iterator<Item = (DocId, u32, &T)> {
        self.0
            .iter()
            .enumerate()
            .flat_map(|(d, list)| list.iter().enumerate().map(move |(seq, v)| (DocId(d as u32), seq as u32, &**v)))
            .chain(self.1.iter().map(|(d, seq, v)| (*d, *seq, &**v)))
    }
}

impl<S: Clone> std::ops::Index<PromiseId> for PerRealm<Promise<S>> {
    type Output = Promise<S>;
    fn index(&self, id: PromiseId) -> &Promise<S> {
        self.get(id.realm, id.seq)
    }
}

impl<S: Clone> std::ops::IndexMut<PromiseId> for PerRealm<Promise<S>> {
    fn index_mut(&mut self, id: PromiseId) -> &mut Promise<S> {
        self.get_mut(id.realm, id.seq)
    }
}

impl<S: Clone> std::ops::Index<SignalId> for PerRealm<AbortSignal<S>> {
    type Output = AbortSignal<S>;
    fn index(&self, id: SignalId) -> &AbortSignal<S> {
        self.get(id.realm, id.seq)
    }
}

impl<S: Clone> std::ops::IndexMut<SignalId> for PerRealm<AbortSignal<S>> {
    fn index_mut(&mut self, id: SignalId) -> &mut AbortSignal<S> {
        self.get_mut(id.realm, id.seq)
    }
}

/// A promise's state.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum PromiseState {
    Pending,
    Fulfilled(JsValue),
    Rejected(JsValue),
}

/// A promise (its realm is its id's: `PromiseId::realm`; its reactions run on that document's
/// event loop).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Promise<S> {
    pub state: PromiseState,
    pub reactions: Vec<S>,
    /// The scenario's name for it, if it has one (shared: a promise is copied each time a state
    /// that shares it settles it or adds a reaction).
    pub name: Option<std::rc::Rc<str>>,
}

/// An abort signal (its realm is its id's: `SignalId::realm`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct AbortSignal<S> {
    /// The scenario's name for its controller, if it has one (shared, like a promise's name).
    pub name: Option<std::rc::Rc<str>>,
    pub aborted: bool,
    pub reason: JsValue,
    pub abort_algorithms: Vec<S>,
    /// `abort` event listeners (event handler and added listeners), in order.
    pub listeners: Vec<S>,
    /// DOM: a signal made by "create a dependent abort signal" (`AbortSignal.any`).
    pub dependent: bool,
    /// DOM "source signals" (an ordered set; of a dependent signal only).
    pub source_signals: Vec<SignalId>,
    /// DOM "dependent signals" (an ordered set).
    pub dependent_signals: Vec<SignalId>,
}

impl<S> AbortSignal<S> {
    /// A signal not aborted, with nothing to run on abort.
    fn new(name: Option<String>) -> Self {
        AbortSignal {
            name: name.map(std::rc::Rc::from),
            aborted: false,
            reason: JsValue::Undefined,
            abort_algorithms: Vec::new(),
            listeners: Vec::new(),
            dependent: false,
            source_signals: Vec::new(),
            dependent_signals: Vec::new(),
        }
    }
}

impl<S: Clone> World<S> {
    /// WebIDL "a new promise" created in `realm`'s relevant realm.
    pub fn new_promise(&mut self, realm: DocId, name: Option<std::rc::Rc<str>>) -> PromiseId {
        let seq = self.promises.push(realm, Promise { state: PromiseState::Pending, reactions: Vec::new(), name });
        PromiseId { realm, seq }
    }

    /// A new pending promise with a scoped number (`PerRealm::SCOPED` set; see `PerRealm`).
    pub fn new_scoped_promise(&mut self, realm: DocId, seq: u32) -> PromiseId {
        self.promises.insert_scoped(
            realm,
            seq,
            Promise { state: PromiseState::Pending, reactions: Vec::new(), name: None },
        );
        PromiseId { realm, seq }
    }

    /// Resolves or rejects a pending promise and queues its reactions as microtasks.
    /// Returns false (and changes nothing) when the promise was already settled: WebIDL's
    /// resolve/reject of a settled promise is a no-op.
    pub fn settle_promise(&mut self, promise: PromiseId, result: Result<JsValue, JsValue>) -> bool {
        // Read before writing: settling a settled promise copies no list and no promise.
        let p = &self.promises[promise];
        if p.state != PromiseState::Pending {
            return false;
        }
        // One write (one copy of the list and of the promise when another state shares them).
        let p: &mut Promise<S> = &mut self.promises[promise];
        p.state = match result {
            Ok(v) => PromiseState::Fulfilled(v),
            Err(e) => PromiseState::Rejected(e),
        };
        let reactions = std::mem::take(&mut p.reactions);
        for r in reactions {
            self.queue_microtask(promise.realm, r);
        }
        true
    }

    /// WebIDL "react to" / `then`: a reaction runs as a microtask once the promise settles.
    pub fn react(&mut self, promise: PromiseId, reaction: S) {
        let p = &mut self.promises[promise];
        if p.state == PromiseState::Pending {
            p.reactions.push(reaction);
        } else {
            self.queue_microtask(promise.realm, reaction);
        }
    }

    /// `new AbortController()` in `realm`.
    pub fn new_abort_controller(&mut self, realm: DocId, name: Option<String>) -> SignalId {
        let seq = self.signals.push(realm, AbortSignal::new(name));
        SignalId { realm, seq }
    }

    /// A new `AbortController` with a scoped number (`PerRealm::SCOPED` set; see `PerRealm`).
    pub fn new_scoped_abort_controller(&mut self, realm: DocId, name: Option<String>, seq: u32) -> SignalId {
        self.signals.insert_scoped(realm, seq, AbortSignal::new(name));
        SignalId { realm, seq }
    }

    /// DOM "add" an abort algorithm: does nothing if the signal is already aborted.
    pub fn add_abort_algorithm(&mut self, signal: SignalId, algorithm: S) {
        // Read before writing: an aborted signal is not copied.
        if self.signals[signal].aborted {
            return;
        }
        self.signals[signal].abort_algorithms.push(algorithm);
    }

    /// DOM "signal abort" steps 1–2 and the first half of "run the abort steps": marks the signal
    /// aborted with `reason` (default: a new "AbortError" DOMException) and returns its abort
    /// algorithms (in order, emptied from the signal) and its `abort` listeners, for the caller to
    /// run. Returns None when the signal was already aborted.
    pub fn signal_abort(&mut self, signal: SignalId, reason: Option<JsValue>) -> Option<(Vec<S>, Vec<S>)> {
        // Read before writing: an aborted signal is not copied.
        if self.signals[signal].aborted {
            return None;
        }
        let s: &mut AbortSignal<S> = &mut self.signals[signal];
        s.aborted = true;
        s.reason = reason.unwrap_or_else(|| JsValue::dom_exception("AbortError"));
        Some((std::mem::take(&mut s.abort_algorithms), s.listeners.clone()))
    }

    /// DOM "signal abort" steps 3–4, after `signal_abort` marked `signal` aborted: 3. Let
    /// dependentSignalsToAbort be a new list. 4. For each dependentSignal of signal's dependent
    /// signals: 4.1. If dependentSignal is not aborted: 4.1.1. Set dependentSignal's abort reason
    /// to signal's abort reason. 4.1.2. Append dependentSignal to dependentSignalsToAbort.
    /// Returns each such signal with its abort algorithms (emptied) and listeners, for the
    /// caller to run the abort steps of (step 6).
    #[allow(clippy::type_complexity)]
    pub fn abort_dependent_signals(&mut self, signal: SignalId) -> Vec<(SignalId, Vec<S>, Vec<S>)> {
        if self.signals[signal].dependent_signals.is_empty() {
            return Vec::new();
        }
        let reason = self.signals[signal].reason.clone();
        let dependents = self.signals[signal].dependent_signals.clone();
        let mut to_abort = Vec::new();
        for dependent in dependents {
            let d: &mut AbortSignal<S> = &mut self.signals[dependent];
            if d.aborted {
                continue;
            }
            d.aborted = true;
            d.reason = reason.clone();
            to_abort.push((dependent, std::mem::take(&mut d.abort_algorithms), d.listeners.clone()));
        }
        to_abort
    }

    /// DOM "create a dependent abort signal" from `signals`, in `realm` (`AbortSignal.any`).
    pub fn create_a_dependent_abort_signal(&mut self, signals: &[SignalId], realm: DocId) -> SignalId {
        // Step 1. Let resultSignal be a new object implementing signalInterface using realm.
        let result = self.new_abort_controller(realm, None);
        // Step 2. For each signal of signals: if signal is aborted, then set resultSignal's abort reason to signal's abort reason and return resultSignal.
        if let Some(aborted) = signals.iter().find(|s| self.signals[**s].aborted) {
            let reason = self.signals[*aborted].reason.clone();
            let r: &mut AbortSignal<S> = &mut self.signals[result];
            r.aborted = true;
            r.reason = reason;
            return result;
        }
        // Step 3. Set resultSignal's dependent to true.
        self.signals[result].dependent = true;
        // Step 4. For each signal of signals:
        for &signal in signals {
            // Step 4.1. If signal's dependent is false: append signal to resultSignal's source signals; append resultSignal to signal's dependent signals.
            // Step 4.2. Otherwise, for each sourceSignal of signal's source signals: append sourceSignal to resultSignal's source signals; append resultSignal to sourceSignal's dependent signals.
            let sources =
                if self.signals[signal].dependent { self.signals[signal].source_signals.clone() } else { vec![signal] };
            for source in sources {
                if !self.signals[result].source_signals.contains(&source) {
                    self.signals[result].source_signals.push(source);
                }
                if !self.signals[source].dependent_signals.contains(&result) {
                    self.signals[source].dependent_signals.push(result);
                }
            }
        }
        // Step 5. Return resultSignal.
        result
    }
}
