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

const PRELUDE: &str = include_str!("prelude/window.js");

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
    crate::document::install(ctx, &natives, state)?;
    crate::abort_signal::install(ctx, &natives, state, realm, doc)?;
    crate::abort_controller::install(ctx, &natives, state, realm, doc)?;
    let mut options = EvalOptions::default();
    options.global = true;
    options.strict = true;
    options.filename = Some(PRELUDE_FILE.into());
    let prelude: Function = ctx.eval_with_options(PRELUDE, options)?;
    let helpers: Object = prelude.call((natives, nav.0))?;
    Ok(Persistent::save(ctx, helpers))
}

fn install<'js>(
    ctx: &Ctx<'js>,
    natives: &Object<'js>,
    state: &State,
    realm: RealmKey,
    doc: DocId,
) -> rquickjs::Result<()> {
    // HTML setTimeout(handler, timeout): the timer initialization steps, with virtual time
    // (nested-timer clamping is not modelled). Returns the timer's id.
    let weak = state.me.clone();
    natives.set(
        "setTimeout",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, handler: Function<'js>, ms: f64| -> u32 {
            let Some(state) = weak.upgrade() else { return 0 };
            let key = state.save_callback(&ctx, realm, handler);
            let id = state.next_timer.get();
            state.next_timer.set(id + 1);
            state.timers.borrow_mut().insert((realm, id), key);
            state.with_sim(|sim| sim.script_set_timeout(doc, ms.max(0.0) as u64, handle(key)));
            id
        })?,
    )?;
    // HTML clearTimeout(id): the timer's callback handle goes stale (a due timer's task then does
    // nothing); a timer not yet due is removed.
    let weak = state.me.clone();
    natives.set(
        "clearTimeout",
        Function::new(ctx.clone(), move |id: u32| {
            let Some(state) = weak.upgrade() else { return };
            let key = state.timers.borrow_mut().remove(&(realm, id));
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
