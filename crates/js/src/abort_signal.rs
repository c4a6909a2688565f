//! DOM `AbortSignal` (<https://dom.spec.whatwg.org/#interface-AbortSignal>): `aborted`,
//! `reason`, `throwIfAborted()`, its `abort` listeners (the object is an EventTarget, made by
//! `prelude/abort.js`, one per signal per realm), the static `abort(reason)`, `timeout(ms)` on
//! virtual time and `any(signals)` (DOM's dependent signals), over the simulator's signals.
//! A signal's `reason` is the simulator's value made anew at each read (an object reason is
//! equal, not identical, from read to read).

use browser::{DocId, JsValue, SignalId};
use rquickjs::{Ctx, Function, Object, Value};

use crate::convert::{to_js, to_sim};
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
    // The signal's `abort` listeners (`addEventListener('abort')`, `onabort`), kept by the page's
    // object: while it has any, one dispatcher of theirs is among the listeners the simulator's
    // "signal abort" runs (DOM "run the abort steps" 3: fire an event named abort at signal).
    // Returns the dispatcher's token.
    let weak = state.me.clone();
    natives.set(
        "signalListen",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, signal_realm: u32, seq: u32, dispatcher: Function<'js>| -> u32 {
                let Some(state) = weak.upgrade() else { return 0 };
                let signal = SignalId { realm: DocId(signal_realm), seq };
                let key = state.save_callback(&ctx, realm, dispatcher);
                state.with_sim(|sim| sim.script_add_abort_listener(signal, doc, handle(key)));
                state.token(realm, key)
            },
        )?,
    )?;
    // The object's last listener went: its dispatcher leaves the simulator's signal.
    let weak = state.me.clone();
    natives.set(
        "signalUnlisten",
        Function::new(ctx.clone(), move |signal_realm: u32, seq: u32, token: u32| {
            let Some(state) = weak.upgrade() else { return };
            let signal = SignalId { realm: DocId(signal_realm), seq };
            let key = state.tokens.borrow_mut().remove(&(realm, token));
            if let Some(key) = key {
                state.with_sim(|sim| sim.script_remove_abort_listener(signal, doc, handle(key)));
                state.drop_callback(key);
            }
        })?,
    )?;
    // DOM "add" an algorithm to a signal (an event listener's `signal` option: remove the
    // listener when the signal aborts).
    let weak = state.me.clone();
    natives.set(
        "signalAddAlgorithm",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, signal_realm: u32, seq: u32, algorithm: Function<'js>| {
            let Some(state) = weak.upgrade() else { return };
            let signal = SignalId { realm: DocId(signal_realm), seq };
            let key = state.save_callback(&ctx, realm, algorithm);
            state.with_sim(|sim| sim.script_add_abort_algorithm(signal, doc, handle(key)));
        })?,
    )?;
    // The static AbortSignal.abort(reason) method steps (WebIDL: undefined is not given).
    let weak = state.me.clone();
    natives.set(
        "signalAbort",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, reason: Value<'js>| -> Vec<u32> {
            let Some(state) = weak.upgrade() else { return vec![] };
            let reason = (!reason.is_undefined()).then(|| to_sim(&ctx, &state, realm, &reason));
            let signal = state.with_sim(|sim| sim.script_abort_signal_abort(doc, reason));
            vec![signal.realm.0, signal.seq]
        })?,
    )?;
    // The static AbortSignal.timeout(milliseconds) method steps, on virtual time.
    let weak = state.me.clone();
    natives.set(
        "signalTimeout",
        Function::new(ctx.clone(), move |ms: f64| -> Vec<u32> {
            let Some(state) = weak.upgrade() else { return vec![] };
            let signal = state.with_sim(|sim| sim.script_abort_signal_timeout(doc, ms.max(0.0) as u64));
            vec![signal.realm.0, signal.seq]
        })?,
    )?;
    // The static AbortSignal.any(signals) method steps (`ids`: each signal's realm and number).
    let weak = state.me.clone();
    natives.set(
        "signalAny",
        Function::new(ctx.clone(), move |ids: Vec<u32>| -> Vec<u32> {
            let Some(state) = weak.upgrade() else { return vec![] };
            let signals: Vec<SignalId> =
                ids.chunks_exact(2).map(|p| SignalId { realm: DocId(p[0]), seq: p[1] }).collect();
            let signal = state.with_sim(|sim| sim.script_abort_signal_any(doc, &signals));
            vec![signal.realm.0, signal.seq]
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
