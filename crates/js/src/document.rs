//! DOM `Document` and HTML `HTMLIFrameElement`, as far as WebMCP pages use them:
//! `document.modelContext` (`[SecureContext]`: undefined outside secure contexts),
//! `document.getElementById(id)` for the iframes the scenario declares, and an iframe's
//! `contentDocument` (HTML: null unless same origin; here also same event loop; the document's
//! own object, from its own realm) and `contentWindow`. The objects are made by
//! `prelude/window.js`; these are their natives.

use browser::DocId;
use rquickjs::{Ctx, Function, Object, Value};

use crate::state::State;

pub(crate) fn install<'js>(
    ctx: &Ctx<'js>,
    natives: &Object<'js>,
    state: &State,
    realm: crate::state::RealmKey,
) -> rquickjs::Result<()> {
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
    // HTML contentDocument: the iframe's active document if the page may reach it (same origin;
    // here also same event loop), else null. It is the document's own object, made in its own
    // realm (made now if the document has none yet), so that a listener added through it is on
    // the one ModelContext of that document.
    let weak = state.me.clone();
    natives.set(
        "contentDocument",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, container: u32, id: String| -> rquickjs::Result<Value<'js>> {
            let null = Value::new_null(ctx.clone());
            let Some(state) = weak.upgrade() else { return Ok(null) };
            let Ok(target) = state.with_sim(|sim| sim.script_content_document(DocId(container), &id)) else {
                return Ok(null);
            };
            let object = state.with_sim(|sim| state.document_object(sim, target));
            match object {
                Some(object) => object.restore(&ctx).map(|o| o.into_value()).or(Ok(null)),
                None => Ok(null),
            }
        })?,
    )?;
    // DOM remove() of a declared iframe element: the element leaves the document, and HTML's
    // "destroy a child navigable" runs (the iframe's document is unloaded and destroyed).
    // Returns null, or the exception to throw.
    let weak = state.me.clone();
    natives.set(
        "removeIframe",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, container: u32, nav: u32| -> rquickjs::Result<Value<'js>> {
            let Some(state) = weak.upgrade() else { return Ok(Value::new_null(ctx.clone())) };
            match state.with_sim(|sim| sim.script_remove_iframe(DocId(container), browser::NavId(nav))) {
                Ok(()) => Ok(Value::new_null(ctx.clone())),
                Err(e) => crate::convert::to_js(&ctx, &state, realm, &e),
            }
        })?,
    )?;
    Ok(())
}
