//! HTML's `window.open()`, `opener`, `close()` and `closed`
//! (<https://html.spec.whatwg.org/#apis-for-creating-and-navigating-browsing-contexts-by-name>):
//! the natives behind `prelude/window.js`'s members, over the simulator's steps
//! (`Sim::script_window_open`: the window open steps, the rules for choosing a navigable, create a
//! new top-level traversable; `Sim::script_close`: the close() method steps and the task that
//! definitely closes the traversable).

use browser::{DocId, NavId};
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
    // The window open steps given url, target and features, with this realm's document as the
    // entry global object's: the navigable whose WindowProxy `open()` returns, -1 for null, or
    // the exception to throw.
    let weak = state.me.clone();
    natives.set(
        "open",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, url: String, target: String, features: String| -> rquickjs::Result<Value<'js>> {
                let Some(state) = weak.upgrade() else { return Ok(Value::new_int(ctx.clone(), -1)) };
                match state.with_sim(|sim| sim.script_window_open(doc, &url, &target, &features)) {
                    Ok(Some(nav)) => Ok(Value::new_int(ctx.clone(), nav.0 as i32)),
                    Ok(None) => Ok(Value::new_int(ctx.clone(), -1)),
                    Err(error) => to_js(&ctx, &state, realm, &error),
                }
            },
        )?,
    )?;
    // The opener getter of this realm's Window (`nav` -1) or of the Window navigable `nav` shows:
    // the opener browsing context's navigable, or -1 for null.
    let weak = state.me.clone();
    natives.set(
        "opener",
        Function::new(ctx.clone(), move |nav: i64| -> i64 {
            let Some(state) = weak.upgrade() else { return -1 };
            let opener = state.with_sim(|sim| {
                if nav < 0 {
                    sim.script_opener(doc)
                } else {
                    sim.script_opener_of_navigable(NavId(nav as u32))
                }
            });
            opener.map_or(-1, |n| i64::from(n.0))
        })?,
    )?;
    // The opener setter given null: this Window's browsing context is disowned.
    let weak = state.me.clone();
    natives.set(
        "disownOpener",
        Function::new(ctx.clone(), move || {
            if let Some(state) = weak.upgrade() {
                state.with_sim(|sim| sim.script_disown_opener(doc));
            }
        })?,
    )?;
    // The closed getter of the Window navigable `nav` shows.
    let weak = state.me.clone();
    natives.set(
        "closed",
        Function::new(ctx.clone(), move |nav: u32| -> bool {
            weak.upgrade().is_some_and(|state| state.with_sim(|sim| sim.script_closed(NavId(nav))))
        })?,
    )?;
    // Whether navigable `nav` has a document yet (a window `open()` made has none until its
    // navigation completes).
    let weak = state.me.clone();
    natives.set(
        "hasDocument",
        Function::new(ctx.clone(), move |nav: u32| -> bool {
            weak.upgrade().is_some_and(|state| state.with_sim(|sim| sim.script_has_document(NavId(nav))))
        })?,
    )?;
    // The close() method steps for the Window navigable `nav` shows, with this realm's document
    // as the incumbent's; `definitelyClose` is the task's steps (a function of this realm, which
    // calls `definitelyClose` below). Returns null, or the exception to throw.
    let weak = state.me.clone();
    natives.set(
        "close",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, nav: u32, definitely_close: Function<'js>| -> rquickjs::Result<Value<'js>> {
                let Some(state) = weak.upgrade() else { return Ok(Value::new_null(ctx.clone())) };
                let key = state.save_callback(&ctx, realm, definitely_close);
                match state.with_sim(|sim| sim.script_close(doc, NavId(nav), handle(key))) {
                    Ok(true) => Ok(Value::new_null(ctx.clone())),
                    Ok(false) => {
                        state.drop_callback(key);
                        Ok(Value::new_null(ctx.clone()))
                    }
                    Err(error) => {
                        state.drop_callback(key);
                        to_js(&ctx, &state, realm, &error)
                    }
                }
            },
        )?,
    )?;
    // HTML "definitely close a top-level traversable" (the task close() 6.2 queued).
    let weak = state.me.clone();
    natives.set(
        "definitelyClose",
        Function::new(ctx.clone(), move |nav: u32| {
            if let Some(state) = weak.upgrade() {
                state.with_sim(|sim| sim.script_definitely_close(NavId(nav)));
            }
        })?,
    )?;
    Ok(())
}
