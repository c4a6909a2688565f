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
const PRELUDE: [(&str, &str); 4] = [
    ("event.js", include_str!("prelude/event.js")),
    ("abort.js", include_str!("prelude/abort.js")),
    ("model_context.js", include_str!("prelude/model_context.js")),
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
    crate::model_context::install(ctx, &natives, state, realm, doc)?;
    crate::document::install(ctx, &natives, state, realm)?;
    crate::abort_signal::install(ctx, &natives, state, realm, doc)?;
    crate::abort_controller::install(ctx, &natives, state, realm, doc)?;
    natives.set("toolEvents", state.with_sim(|sim| sim.has_variant(scenario::Variant::ToolEvents)))?;
    crate::rejections::install(ctx, &natives, state, realm, doc)?;
    crate::window_proxy::install(ctx, &natives, state, realm, doc)?;
    // The prelude's files, in order; each adds to `lib` what the next ones use.
    let lib = Object::new(ctx.clone())?;
    let mut helpers = None;
    for (file, text) in PRELUDE {
        let mut options = EvalOptions::default();
        options.global = true;
        options.strict = true;
        options.filename = Some(format!("{PRELUDE_FILE}/{file}"));
        let part: Function = ctx.eval_with_options(text, options)?;
        helpers = Some(part.call::<_, Value>((natives.clone(), lib.clone(), nav.0))?);
    }
    let helpers: Object = helpers.and_then(|h| h.into_object()).expect("window.js returns the helpers");
    Ok(Persistent::save(ctx, helpers))
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
