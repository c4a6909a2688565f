//! HTML `Location` (<https://html.spec.whatwg.org/#the-location-interface>): the natives behind
//! `prelude/location.js`, whose objects are made per navigable in the realm that reaches them
//! (`location`, `otherWindow.location`), so that the incumbent and entry settings object of
//! their members is that realm's document. The getters read the relevant Document's URL; `href`'s
//! setter, `assign`, `replace` and `reload` navigate through the simulator's navigation
//! (`Sim::script_location_navigate`, `Sim::script_location_reload`: HTML "Location-object
//! navigate" and "navigate", whose rest is the task `Work::CompleteScriptNavigation`).

use browser::{DocId, NavId};
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
    // A Location object's relevant Document: its relevant global object's navigable's active
    // document, or -1 (null) when the navigable is gone.
    let weak = state.me.clone();
    natives.set(
        "locationDocument",
        Function::new(ctx.clone(), move |nav: u32| -> i64 {
            let Some(state) = weak.upgrade() else { return -1 };
            state.with_sim(|sim| sim.script_location_document(NavId(nav))).map_or(-1, |d| i64::from(d.0))
        })?,
    )?;
    // HTML "same origin-domain" of a Location's relevant Document with the entry settings
    // object's origin (this realm's document's).
    let weak = state.me.clone();
    natives.set(
        "sameOriginDomain",
        Function::new(ctx.clone(), move |target: u32| -> bool {
            weak.upgrade().is_some_and(|state| state.with_sim(|sim| sim.script_same_origin_domain(doc, DocId(target))))
        })?,
    )?;
    // The relevant Document's URL, as the URL Standard's getters give it (`href`, `protocol`,
    // `host`, `hostname`, `port`, `pathname`, `search`, `hash`), and its origin.
    let weak = state.me.clone();
    natives.set(
        "url",
        Function::new(ctx.clone(), move |target: u32| -> Vec<String> {
            weak.upgrade().map(|state| state.with_sim(|sim| sim.url_parts(DocId(target)).to_vec())).unwrap_or_default()
        })?,
    )?;
    let weak = state.me.clone();
    natives.set(
        "originOf",
        Function::new(ctx.clone(), move |target: u32| -> String {
            weak.upgrade().map(|state| state.with_sim(|sim| sim.origin_of(DocId(target)))).unwrap_or_default()
        })?,
    )?;
    // Encoding-parsing `url` relative to the entry settings object, then "Location-object
    // navigate" the Location of navigable `nav` to it given `historyHandling` ("auto" or
    // "replace"), with this realm's document as the incumbent's (the source document). Returns
    // null, or the exception to throw (a "SyntaxError" DOMException when the URL does not parse,
    // the "SecurityError" of "navigate" 5, a TypeError for what is not modelled).
    let weak = state.me.clone();
    natives.set(
        "navigate",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, nav: u32, url: String, history_handling: String| -> rquickjs::Result<Value<'js>> {
                let Some(state) = weak.upgrade() else { return Ok(Value::new_null(ctx.clone())) };
                let handling = match history_handling.as_str() {
                    "replace" => webmcp::HistoryHandling::Replace,
                    "push" => webmcp::HistoryHandling::Push,
                    _ => webmcp::HistoryHandling::Auto,
                };
                let navigated = state.with_sim(|sim| {
                    let url = sim.script_parse_url(doc, &url)?;
                    sim.script_location_navigate(doc, NavId(nav), url, handling)
                });
                match navigated {
                    Ok(()) => Ok(Value::new_null(ctx.clone())),
                    Err(error) => to_js(&ctx, &state, realm, &error),
                }
            },
        )?,
    )?;
    // reload() step 4: "Reload document's node navigable" (the document the Location's checks
    // found, `target`).
    let weak = state.me.clone();
    natives.set(
        "reload",
        Function::new(ctx.clone(), move |target: u32| {
            if let Some(state) = weak.upgrade() {
                state.with_sim(|sim| sim.script_location_reload(DocId(target)));
            }
        })?,
    )?;
    Ok(())
}
