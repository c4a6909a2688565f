//! What the engine holds: one QuickJS runtime per simulated event loop (an agent), one context
//! (realm) per document, the page functions and promises the simulator keeps handles to
//! (`slotmap` keys, so a stale handle is caught), and the simulator lent to the entry now
//! running. The way in from the simulator is `engine`.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::{Rc, Weak};

use browser::{DocId, LoopId, PromiseId};
use rquickjs::{Context, Function, Object, Persistent, Runtime, Value};
use slotmap::{new_key_type, Key, KeyData, SlotMap};
use webmcp::{EngineHandle, Sim};

new_key_type! {
    /// A page function the simulator will call (a timer's, a listener, a tool's `execute`).
    pub struct CallbackKey;
    /// A document's realm.
    pub struct RealmKey;
}

/// How many times QuickJS may ask the interrupt handler (about every 10,000 operations) in one
/// entry from the simulator before the script is stopped: a script that never yields.
pub const BUDGET: u32 = 2_000;
/// How many promise jobs may run back to back on one event loop before the loop's page jobs are
/// stopped (a promise chain that never ends).
pub const MAX_JOBS: u32 = 100_000;

pub(crate) struct Callback {
    pub realm: RealmKey,
    pub function: Persistent<Function<'static>>,
    /// A tool's `execute`: the tool's name, for the trace.
    pub tool: Option<String>,
}

pub(crate) struct Mirror {
    pub realm: RealmKey,
    pub resolve: Persistent<Function<'static>>,
    pub reject: Persistent<Function<'static>>,
}

/// A rejected promise the page has not handled (HTML "HostPromiseRejectionTracker"), with its
/// reason and whether a handler was added since (its [[PromiseIsHandled]]).
pub(crate) struct Rejected {
    pub promise: Persistent<Value<'static>>,
    pub reason: Persistent<Value<'static>>,
    pub handled: Cell<bool>,
}

/// A realm's rejected promises, as HTML keeps them on its global.
#[derive(Default)]
pub(crate) struct Rejections {
    /// HTML "about-to-be-notified rejected promises list".
    pub about_to_be_notified: Vec<Rc<Rejected>>,
    /// Promises handed to a queued notification task, not yet notified.
    pub notifying: Vec<Rc<Rejected>>,
    /// HTML "outstanding rejected promises weak set".
    pub outstanding: Vec<Rc<Rejected>>,
}

pub(crate) struct Realm {
    pub doc: DocId,
    pub el: LoopId,
    pub context: Context,
    /// What the realm's setup script returned (`windowFor`, `navOf`, `signalFor`, …).
    pub helpers: Option<Persistent<Object<'static>>>,
    /// The state of the realm's `Math.random` (SplitMix64).
    pub random: Cell<u64>,
}

pub(crate) struct Agent {
    pub runtime: Runtime,
    /// Entries from the simulator now running (a native can call back into the simulator, which
    /// can call the engine again: an `abort()` runs abort listeners at once).
    pub depth: Cell<u32>,
    pub budget: Rc<Cell<u32>>,
    pub stopped: Rc<Cell<bool>>,
    pub jobs_in_a_row: Cell<u32>,
    pub halted: Cell<bool>,
}

/// Everything the engine holds. Fields drop in order: the saved functions before the realms,
/// the realms before the runtimes.
pub(crate) struct State {
    pub callbacks: RefCell<SlotMap<CallbackKey, Callback>>,
    pub mirrors: RefCell<BTreeMap<PromiseId, Mirror>>,
    /// The callbacks a realm's prelude holds a token for (a timer's, a signal's dispatcher), by
    /// the token the native returned.
    pub tokens: RefCell<BTreeMap<(RealmKey, u32), CallbackKey>>,
    pub next_token: Cell<u32>,
    /// The dispatcher of each ModelContext's listeners (by the context's document).
    pub dispatchers: RefCell<BTreeMap<DocId, CallbackKey>>,
    /// Each realm's rejected promises (HTML's about-to-be-notified list and outstanding set).
    pub rejections: RefCell<BTreeMap<RealmKey, Rejections>>,
    pub realms: RefCell<SlotMap<RealmKey, Realm>>,
    pub realm_of: RefCell<BTreeMap<DocId, RealmKey>>,
    pub agents: RefCell<BTreeMap<LoopId, Agent>>,
    /// The simulator lent to the entry now running (see `with_sim`).
    pub(crate) sim: Cell<*mut ()>,
    /// Seeds each realm's `Math.random`.
    pub seed: u64,
    pub me: Weak<State>,
}

/// The JavaScript engine of one run (`webmcp::script::Engine`).
pub struct JsEngine {
    pub(crate) state: Rc<State>,
}

impl JsEngine {
    pub fn new(seed: u64) -> JsEngine {
        let state = Rc::new_cyclic(|me| State {
            callbacks: RefCell::default(),
            mirrors: RefCell::default(),
            tokens: RefCell::default(),
            next_token: Cell::new(1),
            dispatchers: RefCell::default(),
            rejections: RefCell::default(),
            realms: RefCell::default(),
            realm_of: RefCell::default(),
            agents: RefCell::default(),
            sim: Cell::new(std::ptr::null_mut()),
            seed,
            me: me.clone(),
        });
        JsEngine { state }
    }
}

pub(crate) fn handle(key: CallbackKey) -> EngineHandle {
    EngineHandle(key.data().as_ffi())
}

pub(crate) fn key(handle: EngineHandle) -> CallbackKey {
    KeyData::from_ffi(handle.0).into()
}

impl State {
    /// Whether an entry from the simulator is running (natives may use `with_sim`).
    pub(crate) fn has_sim(&self) -> bool {
        !self.sim.get().is_null()
    }

    /// Runs `f` with the simulator the running entry was lent. Natives call this; they run only
    /// inside an entry (`enter`), which set the pointer from its `&mut Sim` and restores the
    /// outer one when it returns.
    pub(crate) fn with_sim<R>(&self, f: impl FnOnce(&mut Sim<'_>) -> R) -> R {
        let ptr = self.sim.get().cast::<Sim<'static>>();
        assert!(!ptr.is_null(), "a page native ran outside an entry from the simulator");
        // SAFETY: `ptr` comes from the `&mut Sim` of the innermost running entry, which does not
        // touch it while page script (and so this native) runs; the reference does not outlive
        // this call.
        unsafe { f(&mut *ptr) }
    }
}

impl State {
    /// A token the prelude holds for callback `key` of `realm` (a number a page cannot forge
    /// into another realm's).
    pub(crate) fn token(&self, realm: RealmKey, key: CallbackKey) -> u32 {
        let token = self.next_token.get();
        self.next_token.set(token + 1);
        self.tokens.borrow_mut().insert((realm, token), key);
        token
    }

    /// Removes a callback (a cleared timer, a replaced handler): its handle goes stale.
    pub(crate) fn drop_callback(&self, key: CallbackKey) {
        self.callbacks.borrow_mut().remove(key);
    }
}

impl Drop for JsEngine {
    fn drop(&mut self) {
        // Saved functions and promises first: they hold values of the runtimes.
        self.state.callbacks.borrow_mut().clear();
        self.state.mirrors.borrow_mut().clear();
        self.state.rejections.borrow_mut().clear();
        for realm in self.state.realms.borrow_mut().values_mut() {
            realm.helpers = None;
        }
    }
}
