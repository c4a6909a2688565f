//! A callback's realm, and whether it can run: WebIDL's "invoke a callback function" and "call
//! a user object's operation" take the callback's associated realm (for a function, ECMAScript
//! GetFunctionRealm; for a `handleEvent` object, the realm it was made in), and first ask HTML's
//! "check if we can run script" of that realm's settings object, returning when it says "do not
//! run" (its step 1: the global is a Window whose Document is not fully active).
//!
//! The realm matters, not the realm the callback was registered through: an iframe that sets
//! `parent.document.modelContext.ontoolchange` gives its parent's ModelContext a callback of the
//! iframe's realm, which does not run once the iframe is removed, though the parent's dispatch
//! does.
//!
//! QuickJS keeps a function's realm inside and does not export GetFunctionRealm, so the realm is
//! found from the object's prototype chain: the first object on it that is one realm's
//! `Function.prototype` or `Object.prototype` names that realm (an ordinary, arrow, async or
//! generator function, a class, a bound function and a plain `handleEvent` object all reach
//! their own realm's first); a proxy is followed to its target, as GetFunctionRealm does. A page
//! that sets a callback's prototype to another realm's, or makes it with a null prototype,
//! defeats this: the first is taken as that realm's, the second as of no realm, and it runs
//! (docs/model.md).

use rquickjs::{qjs, Ctx, Function, Object, Value};

use crate::state::{RealmKey, State};

/// Steps of a prototype chain followed before giving up (a chain of proxies can be long).
const MAX_CHAIN: u32 = 10_000;

impl State {
    /// The realm of `callback`, among the realms of `realm`'s agent (see the module's text).
    pub(crate) fn callback_realm<'js>(
        &self,
        ctx: &Ctx<'js>,
        realm: RealmKey,
        callback: &Value<'js>,
    ) -> Option<RealmKey> {
        let el = self.realms.borrow().get(realm)?.el;
        // Each realm's Function.prototype and Object.prototype, by address.
        let intrinsics: Vec<(RealmKey, [usize; 2])> = {
            let realms = self.realms.borrow();
            realms
                .iter()
                .filter(|(_, r)| r.el == el)
                .filter_map(|(k, r)| {
                    // SAFETY: a context of the runtime the running entry holds locked.
                    let other = unsafe { Ctx::from_raw(r.context.as_raw()) };
                    let function = Function::prototype(other.clone()).into_value();
                    let object = Object::new(other).ok()?.get_prototype()?.into_value();
                    Some((k, [bits(&function), bits(&object)]))
                })
                .collect()
        };
        let mut value = callback.clone();
        for _ in 0..MAX_CHAIN {
            if !value.is_object() {
                return None;
            }
            if value.is_proxy() {
                // GetFunctionRealm 4: a proxy's realm is its target's (a revoked one has none).
                // SAFETY: `value` is a live proxy of `ctx`'s runtime; the result is owned here.
                let target = unsafe { qjs::JS_GetProxyTarget(ctx.as_raw().as_ptr(), value.as_raw()) };
                // SAFETY: the value JS_GetProxyTarget returned, owned (and freed on drop).
                value = unsafe { Value::from_raw(ctx.clone(), target) };
                if value.is_exception() {
                    let _ = ctx.catch();
                    return None;
                }
                continue;
            }
            let b = bits(&value);
            if let Some((k, _)) = intrinsics.iter().find(|(_, i)| i.contains(&b)) {
                return Some(*k);
            }
            // Not a proxy: reading its prototype runs no page code.
            value = value.as_object()?.get_prototype()?.into_value();
        }
        None
    }

    /// WebIDL's "check if we can run script" of `callback`'s realm (found among the realms of
    /// `realm`'s agent), before a callback is invoked: false when it says "do not run".
    /// `what` names the callback in the trace.
    pub(crate) fn can_run_callback<'js>(
        &self,
        ctx: &Ctx<'js>,
        realm: RealmKey,
        callback: &Value<'js>,
        what: &str,
    ) -> bool {
        let Some(of) = self.callback_realm(ctx, realm, callback) else { return true };
        let Some(doc) = self.realms.borrow().get(of).map(|r| r.doc) else { return true };
        self.with_sim(|sim| sim.script_can_run_script(doc, what))
    }
}

/// An object's address, the same in every context of its runtime (only called on objects).
fn bits(value: &Value<'_>) -> usize {
    // SAFETY: reads the value's pointer, never dereferences it.
    unsafe { qjs::JS_VALUE_GET_PTR(value.as_raw()) as usize }
}

/// Installs `natives.canRunCallback(callback, what)` for the prelude's DOM "inner invoke" and
/// HTML's event handler processing algorithm (`prelude/event.js`).
pub(crate) fn install<'js>(
    ctx: &Ctx<'js>,
    natives: &Object<'js>,
    state: &State,
    realm: RealmKey,
) -> rquickjs::Result<()> {
    let weak = state.me.clone();
    natives.set(
        "canRunCallback",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, callback: Value<'js>, what: String| -> bool {
            let Some(state) = weak.upgrade() else { return true };
            state.can_run_callback(&ctx, realm, &callback, &what)
        })?,
    )?;
    Ok(())
}
