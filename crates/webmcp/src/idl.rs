//! The IDL arguments a script passes to the WebMCP method steps, as the algorithms read them
//! (what the script interface hands to `model_context_register_tool` and
//! `model_context_execute_tool`).

use std::rc::Rc;

use browser::{DocId, SignalId};

use crate::program::{PromiseSlot, ToolDictId};

/// Arguments of `registerTool(tool, options)`.
pub struct RegisterToolArgs<'a> {
    pub tool: ToolDictId,
    pub exposed_to: Option<&'a [String]>,
    pub signal: Option<SignalId>,
    pub as_: Option<PromiseSlot>,
}

/// A `RegisteredTool` dictionary as `executeTool` reads it.
pub struct RegisteredToolArg {
    pub name: Rc<str>,
    pub origin: String,
    /// The document whose Window the `window` member is when executeTool converts it (WebIDL:
    /// a WindowProxy converts to its [[Window]], the Window of the document its navigable shows).
    pub window: DocId,
}
