//! JavaScript pages in the simulated browser (issue 27): a document's script written in
//! JavaScript runs on QuickJS (`rquickjs`), one runtime per simulated event loop and one realm
//! per document, with the platform objects WebMCP pages use, one file per WebIDL interface
//! (`model_context`, `abort_signal`, `abort_controller`, `document`, `window`, `console`), and
//! HTML's rejected promises (`rejections`), other navigables' WindowProxy objects and
//! `postMessage` (`window_proxy`). The objects themselves are made by the realm's
//! setup scripts, `prelude/{event,abort,model_context,window}.js`.
//!
//! `webmcp` calls it through its script interface (`webmcp::script::Engine`) and never names
//! this crate: [`link`] plugs the engine in, [`check_syntax`] reports a page's syntax error
//! before a run.

mod abort_controller;
mod abort_signal;
mod callback_realm;
mod console;
mod convert;
mod document;
mod engine;
mod history;
mod location;
mod model_context;
mod rejections;
mod state;
mod window;
mod window_open;
mod window_proxy;

use std::rc::Rc;

pub use state::{JsEngine, BUDGET, MAX_JOBS};

/// Plugs the JavaScript engine into `webmcp`: runs of programs with JavaScript pages make one.
/// Idempotent.
pub fn link() {
    webmcp::script::link_engine(make);
}

fn make(program: &webmcp::Program) -> Rc<dyn for<'s> webmcp::script::Engine<webmcp::Sim<'s>>> {
    // Math.random's seed: from the scenario's name (a run's schedule seed is not known to a
    // replay, which must reproduce the run byte for byte).
    let seed =
        program.name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    Rc::new(JsEngine::new(seed))
}

/// A syntax error in a page script: where (1-based line and column in the script) and the
/// engine's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// Compiles `text` (named `file`) without running it; a syntax error is returned.
pub fn check_syntax(file: &str, text: &str) -> Result<(), SyntaxError> {
    let fail = |message: String| SyntaxError { line: 0, column: 0, message };
    let runtime = rquickjs::Runtime::new().map_err(|e| fail(e.to_string()))?;
    let context = rquickjs::Context::full(&runtime).map_err(|e| fail(e.to_string()))?;
    context.with(|ctx| {
        let source = std::ffi::CString::new(text).map_err(|_| fail("the script contains a NUL character".into()))?;
        let name = std::ffi::CString::new(file).unwrap_or_default();
        // SAFETY: a live context, locked by `with`; the strings outlive the call.
        let compiled = unsafe {
            rquickjs::qjs::JS_Eval(
                ctx.as_raw().as_ptr(),
                source.as_ptr(),
                text.len() as _,
                name.as_ptr(),
                (rquickjs::qjs::JS_EVAL_TYPE_GLOBAL | rquickjs::qjs::JS_EVAL_FLAG_COMPILE_ONLY) as i32,
            )
        };
        // SAFETY: the value JS_Eval returned, owned here.
        let value = unsafe { rquickjs::Value::from_raw(ctx.clone(), compiled) };
        if !value.is_exception() {
            return Ok(());
        }
        let exception = ctx.catch();
        let object = exception.as_object();
        let message: String = object.and_then(|o| o.get("message").ok()).unwrap_or_else(|| "syntax error".into());
        let stack: String = object.and_then(|o| o.get("stack").ok()).unwrap_or_default();
        let (mut line, mut column) = (0, 0);
        if let Some(at) = convert::first_frame(&stack) {
            let mut parts = at.rsplitn(3, ':');
            column = parts.next().and_then(|c| c.parse().ok()).unwrap_or(0);
            line = parts.next().and_then(|l| l.parse().ok()).unwrap_or(0);
        }
        Err(SyntaxError { line, column, message })
    })
}

#[cfg(test)]
mod tests;
