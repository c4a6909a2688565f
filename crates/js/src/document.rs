//! DOM `Document` and HTML `HTMLIFrameElement`, as far as WebMCP pages use them:
//! `document.modelContext` (`[SecureContext]`: undefined outside secure contexts),
//! `document.getElementById(id)` for the iframes the scenario declares, and an iframe's
//! `contentDocument` (HTML: null unless same origin; here also same event loop) and
//! `contentWindow`. The objects are made by `prelude/window.js`; these are their natives.

use browser::DocId;
use rquickjs::{Ctx, Function, Object};

use crate::state::State;

pub(crate) fn install<'js>(ctx: &Ctx<'js>, natives: &Object<'js>, state: &State) -> rquickjs::Result<()> {
    // WebIDL [SecureContext]: the member exists only in a secure context.
    let weak = state.me.clone();
    natives.set(
        "secureContext",
        Function::new(ctx.clone(), move |target: u32| -> bool {
            weak.upgrade().is_some_and(|state| {
                state.with_sim(|sim| sim.script_model_context(DocId(target), "modelContext").is_ok())
            })
        })?,
    )?;
    // getElementById: the child navigable with that id, or -1.
    let weak = state.me.clone();
    natives.set(
        "childNavigable",
        Function::new(ctx.clone(), move |container: u32, id: String| -> i64 {
            let Some(state) = weak.upgrade() else { return -1 };
            state.with_sim(|sim| sim.child_navigable(DocId(container), &id)).map_or(-1, |nav| i64::from(nav.0))
        })?,
    )?;
    // HTML contentDocument: the iframe's active document if the page may reach it, else null.
    let weak = state.me.clone();
    natives.set(
        "contentDocument",
        Function::new(ctx.clone(), move |container: u32, id: String| -> i64 {
            let Some(state) = weak.upgrade() else { return -1 };
            state.with_sim(|sim| sim.script_content_document(DocId(container), &id)).map_or(-1, |d| i64::from(d.0))
        })?,
    )?;
    Ok(())
}
