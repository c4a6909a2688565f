//! The Console Standard's `console.log`, `info`, `warn` and `error`, into the outcome's console
//! lines (the arguments formatted by `prelude/window.js`: strings as they are, errors as
//! `Name: message`, objects as JSON).

use browser::DocId;
use rquickjs::{Ctx, Function, Object};

use crate::state::State;

pub(crate) fn install<'js>(ctx: &Ctx<'js>, natives: &Object<'js>, state: &State, doc: DocId) -> rquickjs::Result<()> {
    let weak = state.me.clone();
    natives.set(
        "log",
        Function::new(ctx.clone(), move |error: bool, text: String| {
            if let Some(state) = weak.upgrade() {
                state.with_sim(|sim| sim.script_console(doc, text, error));
            }
        })?,
    )?;
    Ok(())
}
