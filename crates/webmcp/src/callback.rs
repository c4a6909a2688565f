//! What the simulator keeps of page script it runs later: callbacks and a tool's `execute`
//! member, each an action list or a handle to a page-script engine's object.

use crate::program::{ScriptId, ToolDictId};

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

impl From<ScriptId> for Callback {
    fn from(script: ScriptId) -> Callback {
        Callback::Action(script)
    }
}
