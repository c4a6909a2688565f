//! HTML's WindowProxy objects of other navigables and `postMessage`
//! (<https://html.spec.whatwg.org/#windowproxy>, <https://html.spec.whatwg.org/#dom-window-postmessage>):
//! the natives behind `prelude/window.js`'s `windowFor` (`parent`, `top`, the Window a
//! navigable shows when this realm may reach it) and the window post message steps, whose task
//! (step 8) runs in the target's realm on the posted message task source.

use browser::{DocId, JsValue, NavId, Origin, TaskSource};
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
    // The parent getter steps: 1. Let navigable be this's navigable. … 3. If navigable's parent
    // is not null, then set navigable to navigable's parent. 4. Return navigable's active
    // WindowProxy.
    let weak = state.me.clone();
    natives.set(
        "parentNavigable",
        Function::new(ctx.clone(), move |nav: u32| -> u32 {
            let Some(state) = weak.upgrade() else { return nav };
            state.with_sim(|sim| sim.script_parent_navigable(NavId(nav))).map_or(nav, |p| p.0)
        })?,
    )?;
    // The top getter steps: return this's navigable's top-level traversable's active WindowProxy.
    let weak = state.me.clone();
    natives.set(
        "topNavigable",
        Function::new(ctx.clone(), move |nav: u32| -> u32 {
            let Some(state) = weak.upgrade() else { return nav };
            state.with_sim(|sim| sim.script_top_navigable(NavId(nav))).0
        })?,
    )?;
    // The WindowProxy's indexed access: [the child navigable at `index` or -1, the number of
    // children] (HTML "document-tree child navigables", in tree order).
    let weak = state.me.clone();
    natives.set(
        "childAt",
        Function::new(ctx.clone(), move |nav: u32, index: u32| -> Vec<i64> {
            let Some(state) = weak.upgrade() else { return vec![-1, 0] };
            let (child, length) = state.with_sim(|sim| sim.script_child_navigable_at(NavId(nav), index as usize));
            vec![child.map_or(-1, |c| i64::from(c.0)), length as i64]
        })?,
    )?;
    // The Window navigable `nav` shows now, as its own realm's WindowProxy, when this realm may
    // reach it (same origin, same agent); else null.
    let weak = state.me.clone();
    natives.set(
        "windowGlobal",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, nav: u32| -> rquickjs::Result<Value<'js>> {
            let null = Value::new_null(ctx.clone());
            let Some(state) = weak.upgrade() else { return Ok(null) };
            let target = state.with_sim(|sim| {
                let target = sim.script_window_of(NavId(nav)).ok()?;
                sim.script_can_reach(doc, target).then_some(target)
            });
            let Some(target) = target else { return Ok(null) };
            let global = state.with_sim(|sim| state.helper_object(sim, target, "windowProxy"));
            match global {
                Some(global) => global.restore(&ctx).map(|o| o.into_value()).or(Ok(null)),
                None => Ok(null),
            }
        })?,
    )?;
    // DOM "insert" of an iframe element the page made into `container`'s body: HTML's iframe
    // HTML element insertion steps (`Sim::script_insert_iframe`). Returns [navigable, its name],
    // or the exception to throw.
    let weak = state.me.clone();
    natives.set(
        "insertIframe",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>,
                  container: u32,
                  src: String,
                  allow: Option<String>,
                  name: String,
                  on_load: Function<'js>|
                  -> rquickjs::Result<Value<'js>> {
                let Some(state) = weak.upgrade() else { return Ok(Value::new_null(ctx.clone())) };
                let key = state.save_callback(&ctx, realm, on_load);
                let inserted = state.with_sim(|sim| {
                    let nav = sim.script_insert_iframe(DocId(container), &src, allow.as_deref(), &name, handle(key))?;
                    Ok::<_, JsValue>((nav.0, sim.navigable_name(nav)))
                });
                match inserted {
                    Ok((nav, name)) => {
                        let array = rquickjs::Array::new(ctx.clone())?;
                        array.set(0, nav)?;
                        array.set(1, name)?;
                        Ok(array.into_value())
                    }
                    Err(error) => {
                        state.drop_callback(key);
                        to_js(&ctx, &state, realm, &error)
                    }
                }
            },
        )?,
    )?;
    // The window post message steps given the Window navigable `nav` shows, the message
    // (already serialized and deserialized in this realm: `structuredClone`) and targetOrigin.
    // Returns null, or the exception to throw.
    let weak = state.me.clone();
    natives.set(
        "postMessage",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>,
                  nav: u32,
                  message: Value<'js>,
                  target_origin: String|
                  -> rquickjs::Result<Value<'js>> {
                let Some(state) = weak.upgrade() else { return Ok(Value::new_null(ctx.clone())) };
                match post_message(&ctx, &state, realm, doc, NavId(nav), &message, &target_origin) {
                    Ok(()) => Ok(Value::new_null(ctx.clone())),
                    Err(error) => to_js(&ctx, &state, realm, &error),
                }
            },
        )?,
    )?;
    Ok(())
}

/// HTML "window post message steps" from `doc` (the incumbent settings object's) to the Window
/// navigable `nav` shows.
fn post_message<'js>(
    ctx: &Ctx<'js>,
    state: &State,
    realm: RealmKey,
    doc: DocId,
    nav: NavId,
    message: &Value<'js>,
    target_origin: &str,
) -> Result<(), JsValue> {
    // 1. Let targetRealm be targetWindow's realm. (targetWindow: the Window the WindowProxy
    // stands for now.)
    let target = state.with_sim(|sim| sim.script_window_of(nav))?;
    // 3–5. targetOrigin ("*", "/", or a URL's origin; a "SyntaxError" DOMException otherwise).
    let target_origin = state.with_sim(|sim| sim.script_target_origin(doc, target_origin))?;
    // 7. StructuredSerializeWithTransfer(message, transfer) (done by the caller); the record
    // crosses agents as the simulator's value (docs/model.md).
    let data = to_sim(ctx, state, realm, message);
    // 8.2. Let origin be the serialization of incumbentSettings's origin. 8.3. Let source be
    // the WindowProxy object corresponding to incumbentSettings's global object.
    let (origin, source) = state.with_sim(|sim| (sim.origin_of(doc), sim.navigable_of(doc)));
    // 8. Queue a global task on the posted message task source given targetWindow to run the
    // following steps: …
    let queued = state.with_sim(|sim| {
        let target_realm = state.ensure_realm(sim, target).ok()?;
        let key = state.enter(sim, target_realm, |tctx| {
            let task = message_task(&tctx, state, target_realm, target, data, origin, source, target_origin).ok()?;
            Some(state.save_callback(&tctx, target_realm, task))
        })??;
        sim.script_queue_global_task(
            TaskSource::PostedMessage,
            target,
            handle(key),
            "message",
            ("HTML", "window post message steps 8"),
        );
        Some(())
    });
    queued.ok_or_else(|| JsValue::type_error("postMessage: the target window's realm could not be made"))
}

/// The task of window post message steps 8, a function of the target's realm.
#[allow(clippy::too_many_arguments)]
fn message_task<'js>(
    ctx: &Ctx<'js>,
    state: &State,
    realm: RealmKey,
    target: DocId,
    data: JsValue,
    origin: String,
    source: NavId,
    target_origin: Option<Origin>,
) -> rquickjs::Result<Function<'js>> {
    let weak = state.me.clone();
    Function::new(ctx.clone(), move |ctx: Ctx<'js>| -> rquickjs::Result<()> {
        let Some(state) = weak.upgrade() else { return Ok(()) };
        // 8.1. If the targetOrigin argument is not a single literal U+002A ASTERISK character (*)
        // and targetWindow's associated Document's origin is not same origin with targetOrigin,
        // then return.
        if !state.with_sim(|sim| sim.script_origin_allows(target, target_origin.as_ref())) {
            state.with_sim(|sim| {
                sim.script_note(
                    ("HTML", "window post message steps 8.1"),
                    "the target's origin is not targetOrigin: the message is dropped".into(),
                )
            });
            return Ok(());
        }
        // 8.4–8.5. Let messageClone be StructuredDeserializeWithTransfer(…, targetRealm).
        let message_clone = to_js(&ctx, &state, realm, &data)?;
        // 8.7. Fire an event named message at targetWindow (`prelude/window.js`).
        let helpers = state.helpers(&ctx, realm)?;
        let fire: Function = helpers.get("fireMessage")?;
        fire.call((message_clone, origin.as_str(), source.0))
    })
}
