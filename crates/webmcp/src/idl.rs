//! The IDL arguments a script passes to the WebMCP method steps, as the algorithms read them
//! (what the script interface hands to `model_context_register_tool` and
//! `model_context_execute_tool`).

use std::rc::Rc;

use browser::{DocId, JsValue, SignalId};

use crate::callback::ToolExecute;
use crate::kernel::Annotations;
use crate::program::PromiseSlot;

/// A `ModelContextTool` dictionary, converted (WebIDL): a missing member is `None`; a member
/// given as `undefined` is `Some(JsValue::Undefined)` where the steps tell the two apart
/// (`inputSchema`).
pub struct ModelContextTool<'a> {
    pub name: &'a str,
    pub title: Option<&'a str>,
    pub description: &'a str,
    pub input_schema: Option<&'a JsValue>,
    pub annotations: Option<Annotations>,
    pub execute: ToolExecute,
}

/// Arguments of `registerTool(tool, options)`.
pub struct RegisterToolArgs<'a> {
    pub tool: ModelContextTool<'a>,
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
