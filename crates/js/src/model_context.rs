//! WebMCP `ModelContext` (<https://webmachinelearning.github.io/webmcp/#modelcontext>):
//! `registerTool`, `getTools`, `executeTool` and the event listeners' dispatcher, as natives
//! behind the object `prelude/model_context.js` makes (an EventTarget). Each converts its arguments as WebIDL says, notes its page call
//! site (`file:line:col`) in the trace, and runs the method steps of `webmcp` (the same steps,
//! and so the same trace lines, as the action language's). The promise it returns follows the
//! simulator's promise (`State::mirror`). WebIDL: an exception while converting the arguments of
//! a promise-returning operation is a rejected promise, not a throw.

use browser::{DocId, JsValue, NavId, PromiseId, SignalId};
use rquickjs::{Ctx, Function, Object, Value};
use webmcp::{Annotations, ModelContextTool, ToolExecute};

use crate::convert::{call_site, to_js, to_sim};
use crate::state::{handle, RealmKey, State};

/// An argument conversion failed: the TypeError (or the exception) to reject with.
type Conversion<T> = Result<T, JsValue>;

pub(crate) fn install<'js>(
    ctx: &Ctx<'js>,
    natives: &Object<'js>,
    state: &State,
    realm: RealmKey,
    doc: DocId,
) -> rquickjs::Result<()> {
    // registerTool(ModelContextTool tool, optional ModelContextRegisterToolOptions options = {}).
    let weak = state.me.clone();
    natives.set(
        "registerTool",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, this: u32, tool: Value<'js>, options: Value<'js>| -> rquickjs::Result<Value<'js>> {
                let state = weak.upgrade().expect("the engine is alive");
                let site = call_site(&ctx);
                let converted = (|| -> Conversion<_> {
                    let tool = dictionary(&ctx, &tool, "tool")?;
                    let name = required_string(&ctx, &tool, "name")?;
                    let description = required_string(&ctx, &tool, "description")?;
                    let title = optional_string(&ctx, &tool, "title")?;
                    let execute: Value = tool.get("execute").map_err(|_| pending(&ctx, &state, realm))?;
                    let Some(execute) = execute.as_function().cloned() else {
                        return Err(JsValue::type_error("registerTool: tool.execute is not a function"));
                    };
                    let input_schema: Value = tool.get("inputSchema").map_err(|_| pending(&ctx, &state, realm))?;
                    let input_schema =
                        (!input_schema.is_undefined()).then(|| to_sim(&ctx, &state, realm, &input_schema));
                    let annotations = annotations(&ctx, &tool)?;
                    let options = dictionary(&ctx, &options, "options")?;
                    let signal = signal(&ctx, &state, realm, &options)?;
                    let exposed_to = string_list(&ctx, &options, "exposedTo")?;
                    Ok((name, description, title, execute, input_schema, annotations, signal, exposed_to))
                })();
                let (name, description, title, execute, input_schema, annotations, signal, exposed_to) = match converted
                {
                    Ok(c) => c,
                    Err(e) => return rejected(&ctx, &state, realm, &e),
                };
                let key = state.save_callback(&ctx, realm, execute);
                state.callbacks.borrow_mut()[key].tool = Some(name.clone());
                let promise = state.with_sim(|sim| {
                    sim.script_note(("script", "call site"), format!("{site}: registerTool"));
                    let tool = ModelContextTool {
                        name: &name,
                        title: title.as_deref(),
                        description: &description,
                        input_schema: input_schema.as_ref(),
                        annotations,
                        execute: ToolExecute::Engine(handle(key)),
                    };
                    sim.script_register_tool(DocId(this), tool, exposed_to.as_deref(), signal)
                });
                // Only a call without a signal: an abort could settle the other's promise.
                state.mirror(&ctx, realm, promise, signal.is_none().then_some(site.as_str()))
            },
        )?,
    )?;
    // getTools(optional ModelContextGetToolOptions options = {}).
    let weak = state.me.clone();
    natives.set(
        "getTools",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, this: u32, options: Value<'js>| -> rquickjs::Result<Value<'js>> {
                let state = weak.upgrade().expect("the engine is alive");
                let site = call_site(&ctx);
                let from_origins =
                    match dictionary(&ctx, &options, "options").and_then(|o| string_list(&ctx, &o, "fromOrigins")) {
                        Ok(list) => list,
                        Err(e) => return rejected(&ctx, &state, realm, &e),
                    };
                let promise = state.with_sim(|sim| {
                    sim.script_note(("script", "call site"), format!("{site}: getTools"));
                    sim.script_get_tools(DocId(this), from_origins.as_deref())
                });
                state.mirror(&ctx, realm, promise, Some(site.as_str()))
            },
        )?,
    )?;
    // executeTool(RegisteredTool tool, optional object inputObject = {}, optional
    // ModelContextExecuteToolOptions options = {}).
    let weak = state.me.clone();
    natives.set(
        "executeTool",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>,
                  this: u32,
                  tool: Value<'js>,
                  input: Value<'js>,
                  options: Value<'js>|
                  -> rquickjs::Result<Value<'js>> {
                let state = weak.upgrade().expect("the engine is alive");
                let site = call_site(&ctx);
                let converted = (|| -> Conversion<_> {
                    // WebIDL "convert to an IDL dictionary" RegisteredTool: its members in
                    // lexicographic order, a required member that is undefined a TypeError.
                    // executeTool reads only name, origin and window (its steps 3 to 5); the
                    // others are converted and dropped, as the binding does.
                    let tool = dictionary(&ctx, &tool, "tool")?;
                    annotations(&ctx, &tool)?;
                    required_string(&ctx, &tool, "description")?;
                    let schema = member(&ctx, &tool, "inputSchema")?;
                    if !schema.is_undefined() && !schema.is_object() {
                        return Err(JsValue::type_error("executeTool: tool.inputSchema is not an object"));
                    }
                    let name = required_string(&ctx, &tool, "name")?;
                    let origin = required_string(&ctx, &tool, "origin")?;
                    optional_string(&ctx, &tool, "title")?;
                    let window: Value = tool.get("window").map_err(|_| pending(&ctx, &state, realm))?;
                    if window.is_undefined() {
                        return Err(JsValue::type_error("required member window is undefined"));
                    }
                    let JsValue::WindowProxy(nav) = to_sim(&ctx, &state, realm, &window) else {
                        return Err(JsValue::type_error("executeTool: tool.window is not a WindowProxy"));
                    };
                    let options = dictionary(&ctx, &options, "options")?;
                    let signal = signal(&ctx, &state, realm, &options)?;
                    let input = (!input.is_undefined()).then(|| to_sim(&ctx, &state, realm, &input));
                    Ok((name, origin, nav, input, signal))
                })();
                let (name, origin, nav, input, signal) = match converted {
                    Ok(c) => c,
                    Err(e) => return rejected(&ctx, &state, realm, &e),
                };
                let promise = state.with_sim(|sim| {
                    sim.script_note(("script", "call site"), format!("{site}: executeTool"));
                    let tool = sim.registered_tool_arg(&name, origin, NavId(nav))?;
                    Ok(sim.script_execute_tool(DocId(this), tool, input.as_ref(), signal))
                });
                match promise {
                    Ok(promise) => state.mirror(&ctx, realm, promise, None),
                    Err(e) => rejected(&ctx, &state, realm, &e),
                }
            },
        )?,
    )?;
    // A page reacted to the page promise of simulator promise (doc, seq) (`watchPromise`).
    let weak = state.me.clone();
    natives.set(
        "promiseRead",
        Function::new(ctx.clone(), move |doc: u32, seq: u32| {
            let Some(state) = weak.upgrade() else { return };
            state.with_sim(|sim| sim.script_promise_read(PromiseId { realm: DocId(doc), seq }));
        })?,
    )?;
    // The ModelContext's event listeners (`addEventListener`, `ontoolchange`, and under the
    // variant `tool-events` `ontoolactivated`/`ontoolcancel`) are the page object's; the
    // simulator holds their dispatcher and the event types they are for (0: none).
    let weak = state.me.clone();
    natives.set(
        "listenModelContext",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, this: u32, types: u32, dispatcher: Function<'js>| {
            let Some(state) = weak.upgrade() else { return };
            let target = DocId(this);
            let existing = state.dispatchers.borrow().get(&target).copied();
            let key = match existing {
                Some(key) => key,
                None => {
                    let key = state.save_callback(&ctx, realm, dispatcher);
                    state.dispatchers.borrow_mut().insert(target, key);
                    key
                }
            };
            state.with_sim(|sim| sim.script_listen_model_context(target, doc, handle(key), types as u8));
        })?,
    )?;
    Ok(())
}

/// The exception a failed property read left pending, as a value.
fn pending<'js>(ctx: &Ctx<'js>, state: &State, realm: RealmKey) -> JsValue {
    let exception = ctx.catch();
    to_sim(ctx, state, realm, &exception)
}

/// A promise rejected with `error`, in the page's realm.
fn rejected<'js>(ctx: &Ctx<'js>, state: &State, realm: RealmKey, error: &JsValue) -> rquickjs::Result<Value<'js>> {
    let (promise, _, reject) = ctx.promise()?;
    reject.call::<_, ()>((to_js(ctx, state, realm, error)?,))?;
    Ok(promise.into_value())
}

/// WebIDL conversion to a dictionary: undefined and null are an empty one; any other
/// non-object is a TypeError.
fn dictionary<'js>(ctx: &Ctx<'js>, value: &Value<'js>, what: &str) -> Conversion<Object<'js>> {
    if value.is_undefined() || value.is_null() {
        return Object::new(ctx.clone()).map_err(|e| JsValue::type_error(e.to_string()));
    }
    value.as_object().cloned().ok_or_else(|| JsValue::type_error(format!("{what} is not an object")))
}

fn member<'js>(ctx: &Ctx<'js>, dict: &Object<'js>, key: &str) -> Conversion<Value<'js>> {
    dict.get(key).map_err(|_| {
        let exception = ctx.catch();
        let message: String = exception.as_object().and_then(|o| o.get("message").ok()).unwrap_or_default();
        JsValue::type_error(message)
    })
}

/// WebIDL DOMString conversion of a member (ToString).
fn to_string<'js>(value: Value<'js>) -> Conversion<String> {
    value
        .get::<rquickjs::Coerced<String>>()
        .map(|c| c.0)
        .map_err(|_| JsValue::type_error("the value cannot be converted to a string"))
}

fn required_string<'js>(ctx: &Ctx<'js>, dict: &Object<'js>, key: &str) -> Conversion<String> {
    let value = member(ctx, dict, key)?;
    if value.is_undefined() {
        return Err(JsValue::type_error(format!("required member {key} is undefined")));
    }
    to_string(value)
}

fn optional_string<'js>(ctx: &Ctx<'js>, dict: &Object<'js>, key: &str) -> Conversion<Option<String>> {
    let value = member(ctx, dict, key)?;
    if value.is_undefined() {
        return Ok(None);
    }
    to_string(value).map(Some)
}

/// A `sequence<USVString>` member, if present.
fn string_list<'js>(ctx: &Ctx<'js>, dict: &Object<'js>, key: &str) -> Conversion<Option<Vec<String>>> {
    let value = member(ctx, dict, key)?;
    if value.is_undefined() {
        return Ok(None);
    }
    let Some(array) = value.as_array() else {
        return Err(JsValue::type_error(format!("{key} is not a sequence")));
    };
    array
        .iter::<Value>()
        .map(|v| v.map_err(|e| JsValue::type_error(e.to_string())).and_then(to_string))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The `annotations` member (`ToolAnnotations`), if present.
fn annotations<'js>(ctx: &Ctx<'js>, tool: &Object<'js>) -> Conversion<Option<Annotations>> {
    let value = member(ctx, tool, "annotations")?;
    if value.is_undefined() {
        return Ok(None);
    }
    let dict = dictionary(ctx, &value, "annotations")?;
    let flag = |key: &str| -> Conversion<bool> {
        let v = member(ctx, &dict, key)?;
        Ok(v.get::<rquickjs::Coerced<bool>>().map(|c| c.0).unwrap_or(false))
    };
    Ok(Some(Annotations {
        read_only_hint: flag("readOnlyHint")?,
        untrusted_content_hint: flag("untrustedContentHint")?,
        consequential_hint: flag("consequentialHint")?,
    }))
}

/// The `signal` member (an `AbortSignal`), if present.
fn signal<'js>(ctx: &Ctx<'js>, state: &State, realm: RealmKey, options: &Object<'js>) -> Conversion<Option<SignalId>> {
    let value = member(ctx, options, "signal")?;
    if value.is_undefined() {
        return Ok(None);
    }
    crate::abort_signal::signal_id(ctx, state, realm, &value).map(Some)
}
