//! HTML `History` (<https://html.spec.whatwg.org/#the-history-interface>): the natives behind
//! `prelude/history.js`, over the simulator's steps (`Sim::script_history_go`,
//! `Sim::script_history_length`), for the History object of this realm's Window.

use browser::DocId;
use rquickjs::{Ctx, Function, Object, Value};

use crate::convert::to_js;
use crate::state::{RealmKey, State};

pub(crate) fn install<'js>(
    ctx: &Ctx<'js>,
    natives: &Object<'js>,
    state: &State,
    realm: RealmKey,
    doc: DocId,
) -> rquickjs::Result<()> {
    // go(delta), back() (delta −1) and forward() (1), named by `member`: null, or the exception
    // to throw.
    let weak = state.me.clone();
    natives.set(
        "historyGo",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, delta: f64, member: String| -> rquickjs::Result<Value<'js>> {
            let Some(state) = weak.upgrade() else { return Ok(Value::new_null(ctx.clone())) };
            // WebIDL `long`: ToInt32.
            let delta = if delta.is_finite() { delta.trunc() as i64 as i32 } else { 0 };
            match state.with_sim(|sim| sim.script_history_go(doc, i64::from(delta), &member)) {
                Ok(()) => Ok(Value::new_null(ctx.clone())),
                Err(error) => to_js(&ctx, &state, realm, &error),
            }
        })?,
    )?;
    // The length getter: a number, or the exception to throw.
    let weak = state.me.clone();
    natives.set(
        "historyLength",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>| -> rquickjs::Result<Value<'js>> {
            let Some(state) = weak.upgrade() else { return Ok(Value::new_null(ctx.clone())) };
            match state.with_sim(|sim| sim.script_history_length(doc)) {
                Ok(length) => Ok(Value::new_int(ctx.clone(), length as i32)),
                Err(error) => to_js(&ctx, &state, realm, &error),
            }
        })?,
    )?;
    Ok(())
}
