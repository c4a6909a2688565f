//! What the simulator keeps of page script it runs later: callbacks and a tool's `execute`
//! member, each an action list or a handle to a page-script engine's object; and the trait of
//! such an engine (`crate::script` plugs it in).

use browser::{DocId, LoopId, PromiseId, SignalId};

use crate::program::{PageScript, ScriptId, ToolDictId};

/// A handle the simulator keeps to an object of the engine's (a callback, a tool's `execute`):
/// the engine's own key (a `slotmap` key as its `u64` form), opaque here.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct EngineHandle(pub u64);

/// A callback the simulator runs later: an action list, or an engine's function.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Callback {
    Action(ScriptId),
    Engine(EngineHandle),
}

/// A tool's `execute` member: the action language's dictionary, or an engine's function.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ToolExecute {
    Action(ToolDictId),
    Engine(EngineHandle),
}

/// The listeners a page-script engine keeps on one document's `ModelContext` (DOM "event listener
/// list"; the `on…` event handler attributes are listeners there): the engine's dispatcher, which
/// runs DOM "dispatch" at the object in the realm of `realm`, and the event types some listener
/// is added for (`EngineListeners::TOOLCHANGE`, …), so that an event nobody listens for is not
/// handed to the engine.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct EngineListeners {
    pub realm: DocId,
    pub dispatcher: EngineHandle,
    pub types: u8,
}

impl EngineListeners {
    pub const TOOLCHANGE: u8 = 1;
    pub const TOOLACTIVATED: u8 = 2;
    pub const TOOLCANCEL: u8 = 4;

    /// The bit of an event type a ModelContext is fired (0 for any other).
    pub fn bit(event: &str) -> u8 {
        match event {
            "toolchange" => Self::TOOLCHANGE,
            "toolactivated" => Self::TOOLACTIVATED,
            "toolcancel" => Self::TOOLCANCEL,
            _ => 0,
        }
    }
}

impl From<ScriptId> for Callback {
    fn from(script: ScriptId) -> Callback {
        Callback::Action(script)
    }
}

/// A page-script engine, given the simulator as `S` (`webmcp::Sim`; a parameter so that this
/// file names nothing of the kernel). Every method may re-enter the simulator through `sim` (and the
/// simulator may call the engine again from inside: an `abort()` runs abort listeners at once),
/// so methods take `&self`.
pub trait Engine<S: ?Sized> {
    /// Runs `script`, `doc`'s page script, as HTML "run a classic script"; an exception that
    /// escapes is reported through `Sim::report_exception`.
    fn run_script(&self, sim: &mut S, doc: DocId, script: &PageScript);
    /// Calls `callback` (a timer's, an event handler, an abort listener) in its realm, `doc`.
    fn run_callback(&self, sim: &mut S, doc: DocId, callback: EngineHandle, what: &str);
    /// WebIDL "invoke a callback function" for a tool's `execute` given the input object
    /// (`input_arguments` parsed) and the execution's `controller`: returns the callback's
    /// promise, a simulator promise in `doc`'s realm that the engine settles.
    fn invoke_execute(
        &self,
        sim: &mut S,
        tool: EngineHandle,
        doc: DocId,
        controller: SignalId,
        input_arguments: &str,
    ) -> PromiseId;
    /// A simulator promise the engine mirrors (`Sim::mirror_promise`) has settled: settle the
    /// engine's promise the same way (a microtask of the promise's realm).
    fn promise_settled(&self, sim: &mut S, promise: PromiseId);
    /// Runs one of the engine's own promise jobs queued on event loop `el`, if any (part of
    /// HTML "perform a microtask checkpoint"); returns whether one ran.
    fn run_one_job(&self, sim: &mut S, el: LoopId) -> bool;
    /// DOM "fire an event" named `event` at the object whose listeners `dispatcher` dispatches
    /// to (in the realm of `realm`), with the tool's name for the `tool-events` variant's
    /// `ToolActivatedEvent` and `ToolCancelEvent`.
    fn fire_event(&self, sim: &mut S, realm: DocId, dispatcher: EngineHandle, event: &str, tool_name: Option<&str>);
    /// HTML "fire a page transition event" named `event` (`pageshow`, `pagehide`) at `doc`'s
    /// Window with `persisted`. An engine that has no Window listeners does nothing.
    fn fire_page_transition_event(&self, sim: &mut S, doc: DocId, event: &str, persisted: bool) {
        let _ = (sim, doc, event, persisted);
    }
    /// HTML "perform a microtask checkpoint" step 4: "notify about rejected promises" for each
    /// realm of event loop `el`.
    fn notify_about_rejected_promises(&self, sim: &mut S, el: LoopId);
}
