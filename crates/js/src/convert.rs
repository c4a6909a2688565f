//! Values between the page's heap and the simulator: a page value as the simulator's `JsValue`
//! (what the WebMCP steps read and serialize) and back, an exception as the text the outcome
//! shows, and the call site of a native (`file:line:col`).

use browser::value::{Num, DOM_EXCEPTION_NAMES, ERROR_NAMES};
use browser::{JsValue, PromiseId};
use rquickjs::function::Constructor;
use rquickjs::{Array, Ctx, Function, Object, Value};

use crate::state::{RealmKey, State};

/// The file name of the realm's setup script (left out of call sites).
pub const PRELUDE_FILE: &str = "webmcp-sim:prelude";

/// A page value as the simulator's value. Objects are read as JSON reads them (own enumerable
/// string keys, `toJSON` called); a WindowProxy is its navigable; an object that contains itself
/// is `Cycle`.
pub fn to_sim<'js>(ctx: &Ctx<'js>, state: &State, realm: RealmKey, value: &Value<'js>) -> JsValue {
    let mut seen = Vec::new();
    read(ctx, state, realm, value, &mut seen)
}

fn read<'js>(
    ctx: &Ctx<'js>,
    state: &State,
    realm: RealmKey,
    value: &Value<'js>,
    seen: &mut Vec<Object<'js>>,
) -> JsValue {
    if value.is_undefined() {
        return JsValue::Undefined;
    }
    if value.is_null() {
        return JsValue::Null;
    }
    if let Some(b) = value.as_bool() {
        return JsValue::Bool(b);
    }
    if let Some(n) = value.as_number() {
        return JsValue::Number(Num(n));
    }
    if let Some(s) = value.as_string() {
        return JsValue::string(s.to_string().unwrap_or_default());
    }
    if value.is_big_int() {
        let text: rquickjs::Result<rquickjs::Coerced<String>> = value.get();
        return JsValue::BigInt(text.map(|t| t.0).unwrap_or_default());
    }
    if value.is_function() {
        return JsValue::Function;
    }
    let Some(object) = value.as_object() else { return JsValue::Undefined };
    if let Some(nav) = window_proxy_nav(ctx, state, realm, object) {
        return JsValue::WindowProxy(nav);
    }
    if value.is_error() {
        let name: String = object.get("name").unwrap_or_else(|_| "Error".into());
        let message: String = object.get("message").unwrap_or_default();
        return if DOM_EXCEPTION_NAMES.contains(&name.as_str()) {
            JsValue::DomException { name, message }
        } else {
            JsValue::Error { name, message }
        };
    }
    if seen.iter().any(|o| o == object) {
        return JsValue::Cycle;
    }
    if let Ok(to_json) = object.get::<_, Function>("toJSON") {
        let Ok(v) = to_json.call::<_, Value>((rquickjs::function::This(object.clone()),)) else {
            let _ = ctx.catch();
            return JsValue::Undefined;
        };
        if v.is_undefined() {
            return JsValue::ToJsonUndefined;
        }
        seen.push(object.clone());
        let read = read(ctx, state, realm, &v, seen);
        seen.pop();
        return read;
    }
    seen.push(object.clone());
    let read = if let Some(array) = object.as_array() {
        JsValue::Array(
            array
                .iter::<Value>()
                .map(|v| v.map(|v| read(ctx, state, realm, &v, seen)).unwrap_or(JsValue::Undefined))
                .collect(),
        )
    } else {
        let mut members = Vec::new();
        for key in object.keys::<String>().flatten() {
            let member: Value = object.get(key.as_str()).unwrap_or_else(|_| Value::new_undefined(ctx.clone()));
            members.push((std::borrow::Cow::Owned(key), read(ctx, state, realm, &member, seen)));
        }
        JsValue::Object(members)
    };
    seen.pop();
    read
}

/// The navigable of a WindowProxy (or Window) of any realm of `realm`'s agent: this realm's own
/// stand-ins first, then each other realm's own `window` (a same-origin frame's, reached through
/// `contentWindow` or `parent`).
fn window_proxy_nav<'js>(ctx: &Ctx<'js>, state: &State, realm: RealmKey, object: &Object<'js>) -> Option<u32> {
    let nav_of = |r: RealmKey| -> Option<u32> {
        let helpers = state.helpers(ctx, r).ok()?;
        let nav: i32 = helpers.get::<_, Function>("navOf").and_then(|f| f.call((object.clone(),))).ok()?;
        u32::try_from(nav).ok()
    };
    if let Some(nav) = nav_of(realm) {
        return Some(nav);
    }
    let others: Vec<RealmKey> = {
        let realms = state.realms.borrow();
        let el = realms.get(realm)?.el;
        realms.iter().filter(|(k, r)| *k != realm && r.el == el && r.helpers.is_some()).map(|(k, _)| k).collect()
    };
    others.into_iter().find_map(|r| {
        let helpers = state.helpers(ctx, r).ok()?;
        let own: Object = helpers.get("windowProxy").ok()?;
        if own != *object {
            return None;
        }
        nav_of(r)
    })
}

/// The simulator's value as a page value in `realm`.
pub fn to_js<'js>(ctx: &Ctx<'js>, state: &State, realm: RealmKey, value: &JsValue) -> rquickjs::Result<Value<'js>> {
    Ok(match value {
        JsValue::Undefined => Value::new_undefined(ctx.clone()),
        JsValue::Null => Value::new_null(ctx.clone()),
        JsValue::Bool(b) => Value::new_bool(ctx.clone(), *b),
        JsValue::Number(n) => Value::new_number(ctx.clone(), n.0),
        JsValue::String(s) => rquickjs::String::from_str(ctx.clone(), s)?.into_value(),
        JsValue::BigInt(digits) => {
            let digits: String = digits.chars().filter(|c| c.is_ascii_digit() || *c == '-').collect();
            ctx.eval(format!("{digits}n"))?
        }
        JsValue::Array(items) => {
            let array = Array::new(ctx.clone())?;
            for (i, item) in items.iter().enumerate() {
                array.set(i, to_js(ctx, state, realm, item)?)?;
            }
            array.into_value()
        }
        JsValue::Object(members) => {
            let object = Object::new(ctx.clone())?;
            for (key, member) in members {
                object.set(key.as_ref(), to_js(ctx, state, realm, member)?)?;
            }
            object.into_value()
        }
        JsValue::Cycle => ctx.eval("(() => { const o = {}; o.self = o; return o; })()")?,
        JsValue::ToJsonUndefined => ctx.eval("({ toJSON() { return undefined; } })")?,
        JsValue::Function => ctx.eval("(function () {})")?,
        JsValue::WindowProxy(nav) => {
            let helpers = state.helpers(ctx, realm)?;
            helpers.get::<_, Function>("windowFor")?.call((*nav,))?
        }
        JsValue::DomException { name, message } => {
            let helpers = state.helpers(ctx, realm)?;
            let constructor: Constructor = helpers.get("DOMException")?;
            constructor.construct((message.as_str(), name.as_str()))?
        }
        JsValue::Error { name, message } => {
            let known = if ERROR_NAMES.contains(&name.as_str()) { name.as_str() } else { "Error" };
            let constructor: Constructor = ctx.globals().get(known)?;
            let error: Object = constructor.construct((message.as_str(),))?;
            if known != name {
                error.set("name", name.as_str())?;
            }
            error.into_value()
        }
    })
}

/// An exception as the outcome shows it: `Name: message (file:line:col)`.
pub fn describe_exception<'js>(ctx: &Ctx<'js>, exception: &Value<'js>) -> String {
    let _ = ctx;
    let Some(object) = exception.as_object() else {
        let text: rquickjs::Result<rquickjs::Coerced<String>> = exception.get();
        return format!("Uncaught {}", text.map(|t| t.0).unwrap_or_else(|_| "a value".into()));
    };
    let name: String = object.get("name").unwrap_or_else(|_| "Error".into());
    let message: String = object.get("message").unwrap_or_default();
    let stack: String = object.get("stack").unwrap_or_default();
    match first_frame(&stack) {
        Some(at) => format!("{name}: {message} ({at})"),
        None => format!("{name}: {message}"),
    }
}

/// The first page frame of a QuickJS stack (`    at f (page.js:3:5)`), as `page.js:3:5`.
pub fn first_frame(stack: &str) -> Option<String> {
    stack.lines().map(str::trim).filter(|l| !l.contains("(native)") && !l.contains(PRELUDE_FILE)).find_map(|line| {
        let line = line.strip_prefix("at ")?;
        Some(match (line.rfind('('), line.rfind(')')) {
            (Some(open), Some(close)) if open < close => line[open + 1..close].to_string(),
            _ => line.to_string(),
        })
    })
}

/// The page call site of the native now running: `file:line:col`, read from a new Error's stack.
pub fn call_site(ctx: &Ctx<'_>) -> String {
    let stack = (|| -> rquickjs::Result<String> {
        let error: Constructor = ctx.globals().get("Error")?;
        let error: Object = error.construct(())?;
        error.get("stack")
    })();
    stack.ok().and_then(|s| first_frame(&s)).unwrap_or_else(|| "?".into())
}

/// WebIDL "a promise resolved with" `value` (a thenable) for simulator promise `promise`: it
/// settles as `value` does (through the page's promise jobs).
pub fn settle_when<'js>(
    ctx: &Ctx<'js>,
    state: &State,
    realm: RealmKey,
    value: &Value<'js>,
    promise: PromiseId,
) -> rquickjs::Result<()> {
    let weak = state.me.clone();
    let on = move |fulfilled: bool| {
        let weak = weak.clone();
        move |ctx: Ctx<'js>, v: Value<'js>| {
            if let Some(state) = weak.upgrade() {
                let v = to_sim(&ctx, &state, realm, &v);
                let result = if fulfilled { Ok(v) } else { Err(v) };
                state.with_sim(|sim| sim.script_settle(promise, result));
            }
        }
    };
    let on_fulfilled = Function::new(ctx.clone(), on(true))?;
    let on_rejected = Function::new(ctx.clone(), on(false))?;
    let promise_constructor: Object = ctx.globals().get("Promise")?;
    let resolve: Function = promise_constructor.get("resolve")?;
    let resolved: Object = resolve.call((rquickjs::function::This(promise_constructor), value.clone()))?;
    let then: Function = resolved.get("then")?;
    then.call::<_, Value>((rquickjs::function::This(resolved.clone()), on_fulfilled, on_rejected))?;
    Ok(())
}
