//! DOM `AbortSignal` (<https://dom.spec.whatwg.org/#interface-AbortSignal>): `aborted`,
//! `reason`, `throwIfAborted()`, `onabort` and `addEventListener('abort')`, over the
//! simulator's signals (the object is made by `prelude/window.js`, one per signal per realm).
//! A signal's `reason` is the simulator's value made anew at each read (an object reason is
//! equal, not identical, from read to read).

use browser::{DocId, JsValue, SignalId};
use rquickjs::{Ctx, Function, Object, Value};

use crate::convert::to_js;
use crate::state::{handle, RealmKey, State};

pub(crate) fn install<'js>(
    ctx: &Ctx<'js>,
    natives: &Object<'js>,
    state: &State,
    realm: RealmKey,
    doc: DocId,
) -> rquickjs::Result<()> {
    // The aborted getter steps: return true if this is aborted.
    let weak = state.me.clone();
    natives.set(
        "signalAborted",
        Function::new(ctx.clone(), move |signal_realm: u32, seq: u32| -> bool {
            let signal = SignalId { realm: DocId(signal_realm), seq };
            weak.upgrade().is_some_and(|state| state.with_sim(|sim| sim.signal_state(signal).0))
        })?,
    )?;
    // The reason getter steps: return this's abort reason.
    let weak = state.me.clone();
    natives.set(
        "signalReason",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, signal_realm: u32, seq: u32| -> rquickjs::Result<Value<'js>> {
                let signal = SignalId { realm: DocId(signal_realm), seq };
                let state = weak.upgrade().expect("the engine is alive");
                let (aborted, reason) = state.with_sim(|sim| sim.signal_state(signal));
                to_js(&ctx, &state, realm, if aborted { &reason } else { &JsValue::Undefined })
            },
        )?,
    )?;
    // addEventListener('abort', listener) and the onabort handler: an abort listener, run by the
    // simulator's "signal abort" (in the listeners' order).
    let weak = state.me.clone();
    natives.set(
        "signalListen",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, signal_realm: u32, seq: u32, listener: Function<'js>| {
            let Some(state) = weak.upgrade() else { return };
            let signal = SignalId { realm: DocId(signal_realm), seq };
            let key = state.save_callback(&ctx, realm, listener);
            state.with_sim(|sim| sim.script_add_abort_listener(signal, doc, handle(key)));
        })?,
    )?;
    Ok(())
}

/// The simulator's signal a page `AbortSignal` stands for (a TypeError for anything else).
pub(crate) fn signal_id<'js>(
    ctx: &Ctx<'js>,
    state: &State,
    realm: RealmKey,
    value: &Value<'js>,
) -> Result<SignalId, JsValue> {
    let not_a_signal = || JsValue::type_error("signal is not an AbortSignal");
    let helpers = state.helpers(ctx, realm).map_err(|_| not_a_signal())?;
    let id: Value = helpers.get::<_, Function>("signalOf").and_then(|f| f.call((value.clone(),))).map_err(|_| {
        let _ = ctx.catch();
        not_a_signal()
    })?;
    let pair: Vec<u32> = id.get().map_err(|_| not_a_signal())?;
    match pair.as_slice() {
        [realm, seq] => Ok(SignalId { realm: DocId(*realm), seq: *seq }),
        _ => Err(not_a_signal()),
    }
}
