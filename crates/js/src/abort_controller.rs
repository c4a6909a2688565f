//! DOM `AbortController` (<https://dom.spec.whatwg.org/#interface-abortcontroller>): the
//! constructor and `abort(reason)`, over the simulator's signals (the class is in
//! `prelude/window.js`).

use browser::{DocId, SignalId};
use rquickjs::{Ctx, Function, Object, Value};

use crate::convert::to_sim;
use crate::state::{RealmKey, State};

pub(crate) fn install<'js>(
    ctx: &Ctx<'js>,
    natives: &Object<'js>,
    state: &State,
    realm: RealmKey,
    doc: DocId,
) -> rquickjs::Result<()> {
    // The new AbortController() constructor steps: 1. Let signal be a new AbortSignal object.
    let weak = state.me.clone();
    natives.set(
        "newController",
        Function::new(ctx.clone(), move || -> Vec<u32> {
            let Some(state) = weak.upgrade() else { return vec![] };
            let signal = state.with_sim(|sim| sim.script_new_abort_controller(doc));
            vec![signal.realm.0, signal.seq]
        })?,
    )?;
    // The abort(reason) method steps: signal abort on this's signal with reason if it is given
    // (WebIDL: undefined is not given).
    let weak = state.me.clone();
    natives.set(
        "abort",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, signal_realm: u32, seq: u32, reason: Value<'js>| {
            let Some(state) = weak.upgrade() else { return };
            let signal = SignalId { realm: DocId(signal_realm), seq };
            let reason = (!reason.is_undefined()).then(|| to_sim(&ctx, &state, realm, &reason));
            state.with_sim(|sim| sim.script_abort(signal, reason));
        })?,
    )?;
    Ok(())
}
