//! HTML `Window`: a realm's global object and its setup (`prelude/window.js`), the timers
//! (`setTimeout`, `clearTimeout`; `queueMicrotask` is the page's own promise job), the clock
//! (`Date`, `performance.now()` on virtual time), the seeded `Math.random`, `self.origin`, and
//! HTML "report an exception" for a microtask's. Members the simulator does not model throw a
//! TypeError naming them (`window.foo`).

use browser::{DocId, NavId};
use rquickjs::context::EvalOptions;
use rquickjs::{Ctx, Function, Object, Persistent, Value};

use crate::convert::{describe_exception, PRELUDE_FILE};
use crate::state::{handle, RealmKey, State};

/// The realm's setup scripts, run in this order (`prelude/`).
const PRELUDE: [(&str, &str); 7] = [
    ("event.js", include_str!("prelude/event.js")),
    ("abort.js", include_str!("prelude/abort.js")),
    ("model_context.js", include_str!("prelude/model_context.js")),
    ("location.js", include_str!("prelude/location.js")),
    ("open.js", include_str!("prelude/open.js")),
    ("history.js", include_str!("prelude/history.js")),
    ("window.js", include_str!("prelude/window.js")),
];

/// Sets up `doc`'s realm: its natives, then the prelude; returns the prelude's helpers.
pub(crate) fn set_up<'js>(
    ctx: &Ctx<'js>,
    state: &State,
    realm: RealmKey,
    doc: DocId,
    nav: NavId,
    origin: &str,
) -> rquickjs::Result<Persistent<Object<'static>>> {
    let natives = Object::new(ctx.clone())?;
    natives.set("selfDocument", doc.0)?;
    natives.set("origin", origin)?;
    install(ctx, &natives, state, realm, doc)?;
    crate::console::install(ctx, &natives, state, doc)?;
    crate::callback_realm::install(ctx, &natives, state, realm)?;
    crate::model_context::install(ctx, &natives, state, realm, doc)?;
    crate::document::install(ctx, &natives, state, realm)?;
    crate::abort_signal::install(ctx, &natives, state, realm, doc)?;
    crate::abort_controller::install(ctx, &natives, state, realm, doc)?;
    natives.set("toolEvents", state.with_sim(|sim| sim.has_variant(scenario::Variant::ToolEvents)))?;
    crate::rejections::install(ctx, &natives, state, realm, doc)?;
    crate::window_proxy::install(ctx, &natives, state, realm, doc)?;
    crate::location::install(ctx, &natives, state, realm, doc)?;
    crate::window_open::install(ctx, &natives, state, realm, doc)?;
    crate::history::install(ctx, &natives, state, realm, doc)?;
    // The prelude's files, in order; each adds to `lib` what the next ones use. Each is
    // compiled once per process (`prelude_bytecode`) and read into every realm.
    let lib = Object::new(ctx.clone())?;
    let mut helpers = None;
    for (i, (file, text)) in PRELUDE.iter().enumerate() {
        let part: Function = match prelude_bytecode().get(i) {
            Some(bytecode) => read_bytecode(ctx, bytecode)?,
            None => {
                let mut options = EvalOptions::default();
                options.global = true;
                options.strict = true;
                options.filename = Some(format!("{PRELUDE_FILE}/{file}"));
                ctx.eval_with_options(*text, options)?
            }
        };
        helpers = Some(part.call::<_, Value>((natives.clone(), lib.clone(), nav.0))?);
    }
    let helpers: Object = helpers.and_then(|h| h.into_object()).expect("window.js returns the helpers");
    Ok(Persistent::save(ctx, helpers))
}

/// The prelude's files compiled to QuickJS bytecode, once per process (parsing them again for
/// every realm was most of a page run's cost: docs/performance.md). Empty if compiling failed,
/// and then each realm parses the text.
fn prelude_bytecode() -> &'static [Vec<u8>] {
    static BYTECODE: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    BYTECODE.get_or_init(|| compile_prelude().unwrap_or_default())
}

fn compile_prelude() -> Option<Vec<Vec<u8>>> {
    use rquickjs::qjs;
    let runtime = rquickjs::Runtime::new().ok()?;
    let context = rquickjs::Context::full(&runtime).ok()?;
    context.with(|ctx| {
        PRELUDE
            .iter()
            .map(|(file, text)| {
                let source = std::ffi::CString::new(*text).ok()?;
                let name = std::ffi::CString::new(format!("{PRELUDE_FILE}/{file}")).ok()?;
                let raw = ctx.as_raw().as_ptr();
                let flags = qjs::JS_EVAL_TYPE_GLOBAL | qjs::JS_EVAL_FLAG_STRICT | qjs::JS_EVAL_FLAG_COMPILE_ONLY;
                // SAFETY: a live context, locked by `with`; the strings outlive the call.
                let compiled =
                    unsafe { qjs::JS_Eval(raw, source.as_ptr(), text.len() as _, name.as_ptr(), flags as i32) };
                // SAFETY: the value JS_Eval returned, owned (and freed on drop) here.
                let compiled = unsafe { Value::from_raw(ctx.clone(), compiled) };
                if compiled.is_exception() {
                    let _ = ctx.catch();
                    return None;
                }
                let mut size = 0;
                // SAFETY: `compiled` is a live function bytecode object of this context; the
                // buffer QuickJS returns is copied, then freed with the context's allocator.
                unsafe {
                    let buffer =
                        qjs::JS_WriteObject(raw, &mut size, compiled.as_raw(), qjs::JS_WRITE_OBJ_BYTECODE as i32);
                    if buffer.is_null() {
                        return None;
                    }
                    let bytes = std::slice::from_raw_parts(buffer, size as usize).to_vec();
                    qjs::js_free(raw, buffer.cast());
                    Some(bytes)
                }
            })
            .collect()
    })
}

/// Reads a prelude file's bytecode into `ctx` and runs it: the function it evaluates to.
fn read_bytecode<'js>(ctx: &Ctx<'js>, bytecode: &[u8]) -> rquickjs::Result<Function<'js>> {
    use rquickjs::qjs;
    let raw = ctx.as_raw().as_ptr();
    // SAFETY: a live context (the caller's entry holds the runtime); `bytecode` was written by
    // JS_WriteObject of this QuickJS build. JS_EvalFunction takes the object read.
    let value = unsafe {
        let object = qjs::JS_ReadObject(raw, bytecode.as_ptr(), bytecode.len() as _, qjs::JS_READ_OBJ_BYTECODE as i32);
        let object = Value::from_raw(ctx.clone(), object);
        if object.is_exception() {
            return Err(rquickjs::Error::Exception);
        }
        Value::from_raw(ctx.clone(), qjs::JS_EvalFunction(raw, qjs::JS_DupValue(raw, object.as_raw())))
    };
    if value.is_exception() {
        return Err(rquickjs::Error::Exception);
    }
    value.into_function().ok_or(rquickjs::Error::Exception)
}

fn install<'js>(
    ctx: &Ctx<'js>,
    natives: &Object<'js>,
    state: &State,
    realm: RealmKey,
    doc: DocId,
) -> rquickjs::Result<()> {
    // HTML "run steps after a timeout" for the timer initialization steps (`prelude/window.js`
    // holds the map of setTimeout and setInterval IDs): after `ms` of virtual time, a task on the
    // timer task source runs `steps`. Returns a token for `clearTimeout`.
    let weak = state.me.clone();
    natives.set(
        "setTimeout",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, steps: Function<'js>, ms: f64| -> u32 {
            let Some(state) = weak.upgrade() else { return 0 };
            let key = state.save_callback(&ctx, realm, steps);
            let token = state.token(realm, key);
            state.with_sim(|sim| sim.script_set_timeout(doc, ms.max(0.0) as u64, handle(key)));
            token
        })?,
    )?;
    // The timer of a token goes: a timer not yet due is taken off the list (a due one's task is
    // queued, and its steps find the id gone from the map).
    let weak = state.me.clone();
    natives.set(
        "clearTimeout",
        Function::new(ctx.clone(), move |token: u32| {
            let Some(state) = weak.upgrade() else { return };
            let key = state.tokens.borrow_mut().remove(&(realm, token));
            if let Some(key) = key {
                state.with_sim(|sim| sim.script_clear_timeout(doc, handle(key)));
                state.drop_callback(key);
            }
        })?,
    )?;
    let weak = state.me.clone();
    natives.set(
        "now",
        Function::new(ctx.clone(), move || -> f64 {
            weak.upgrade().map_or(0.0, |state| state.with_sim(|sim| sim.now_ms() as f64))
        })?,
    )?;
    // Math.random: SplitMix64, seeded per realm (docs/scenario-format.md).
    let weak = state.me.clone();
    natives.set(
        "random",
        Function::new(ctx.clone(), move || -> f64 {
            let Some(state) = weak.upgrade() else { return 0.0 };
            let realms = state.realms.borrow();
            let cell = &realms[realm].random;
            let mut z = cell.get().wrapping_add(0x9E37_79B9_7F4A_7C15);
            cell.set(z);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (z >> 11) as f64 / (1u64 << 53) as f64
        })?,
    )?;
    // HTML "report an exception" for an exception a queueMicrotask callback threw.
    let weak = state.me.clone();
    natives.set(
        "report",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, error: Value<'js>| {
            let Some(state) = weak.upgrade() else { return };
            let text = describe_exception(&ctx, &error);
            state.with_sim(|sim| sim.report_exception(doc, text));
        })?,
    )?;
    Ok(())
}
