//! Spec citations: a step as the trace cites it, and the names of the WebMCP algorithms that
//! the trace and findings cite, shared by the algorithms, the script interface and the run loop.

use trace::Cite;

/// A spec citation: algorithm name and step number.
pub type Step = (&'static str, &'static str);

pub fn cite(step: Step) -> Cite {
    Cite::new(step.0, step.1)
}

pub const REGISTER_TOOL: &str = "registerTool";
pub const GET_TOOLS: &str = "getTools";
pub const EXECUTE_TOOL: &str = "executeTool";
pub const NOTIFY: &str = "notify documents of a tool change";
pub const EXPOSED: &str = "tool is exposed to an origin";
pub const UNREGISTER: &str = "unregister a tool";
pub const TOOL_EXECUTE_STEPS: &str = "tool execute steps";
pub const IMPERATIVE: &str = "imperative execute steps";
pub const CANCEL: &str = "cancel a pending tool execution";
pub const CLEANUP: &str = "unloading document cleanup steps";
pub const OBSERVE: &str = "perform an observation";
pub const AGENT_CALL: &str = "agent tool call";
