//! The WebMCP algorithms, one function each, named after the spec's definitions, with the spec's
//! step numbers as comments. Every trace event cites its algorithm and step. The IDL method steps
//! (`model_context_register_tool`, `model_context_get_tools`, `model_context_execute_tool`) are
//! the entry points the script interface calls; the algorithms call the script interface
//! (`crate::script`) to run a handler or a tool's execute callback.
//!
//! - `register`: registerTool, unregister a tool, notify documents of a tool change, toolchange.
//! - `get_tools`: getTools and the `RegisteredTool` dictionaries it returns.
//! - `execute`: executeTool, the tool execute steps, the imperative execute steps, completion
//!   steps, the pending tool executions maps.
//! - `cancel`: cancel a pending tool execution, the unloading document cleanup steps, DOM's
//!   signal abort.

use browser::{DocId, JsValue, Origin};

use crate::kernel::Sim;

mod cancel;
pub(crate) mod execute;
mod get_tools;
mod register;

/// Infra "code unit less than" on strings.
pub(crate) fn code_unit_less_than(a: &str, b: &str) -> std::cmp::Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// A `RegisteredTool` dictionary's `name` (its first member, as `registered_tool` builds it).
pub(crate) fn registered_tool_name(tool: &JsValue) -> &str {
    match tool {
        JsValue::Object(members) => match members.first() {
            Some((_, JsValue::String(name))) => name,
            _ => "",
        },
        _ => "",
    }
}

/// Tool name rule of registerTool step 11 (length in code units 1..=128; ASCII alphanumeric, `_`, `-`, `.`).
pub(crate) fn tool_name_is_invalid(name: &str) -> bool {
    let len = name.encode_utf16().count();
    len == 0 || len > 128 || !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// URL-parse `origin` and take its origin, for registerTool 16.1 and getTools 7.1.
pub(crate) fn parse_origin(sim: &mut Sim, text: &str) -> Option<Origin> {
    thread_local! {
        /// Text → tuple origin (or no URL): a pure function of the text, so it is remembered
        /// (exploration parses the same few strings millions of times). A scenario names a few
        /// origins, so a short list searched in order costs less than hashing the text. Opaque
        /// origins are not remembered: their ids depend on the state.
        static TUPLE_ORIGINS: std::cell::RefCell<Vec<(Box<str>, Option<Origin>)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let known = TUPLE_ORIGINS.with_borrow(|m| m.iter().find(|(t, _)| **t == *text).map(|(_, o)| o.clone()));
    if let Some(known) = known {
        return known;
    }
    let origin = url::Url::parse(text).ok().map(|url| {
        let mut next = 1_000_000 + sim.world.document_count() as u32;
        Origin::of_url(&url, &mut next)
    });
    if !origin.as_ref().is_some_and(Origin::is_opaque) {
        TUPLE_ORIGINS.with_borrow_mut(|m| {
            if m.len() >= 64 {
                m.clear();
            }
            m.push((text.into(), origin.clone()));
        });
    }
    origin
}

impl Sim<'_> {
    /// Checks a document's agent cluster and scheme, as registerTool 4, getTools 4 and executeTool 3 do.
    pub(crate) fn origin_keyed_or_file(&self, doc: DocId) -> bool {
        let d = self.world.doc_info(doc);
        d.origin_keyed || d.origin.scheme() == Some("file")
    }
}
