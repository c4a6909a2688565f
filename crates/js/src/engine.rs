//! The engine: one QuickJS runtime per simulated event loop (an agent; its job queue holds the
//! page's promise jobs, run only at the simulator's microtask checkpoints), one context (realm)
//! per document, the handles the simulator keeps to the engine's objects (`slotmap` keys), and
//! the way in from the simulator (`webmcp::script::Engine`).

use std::cell::Cell;

use std::rc::Rc;

use browser::{DocId, JsValue, LoopId, PromiseId, PromiseState, SignalId};
use rquickjs::{Context, Ctx, Function, Object, Persistent, Runtime, Value};

use webmcp::{EngineHandle, PageScript, Sim};

use crate::convert::{describe_exception, to_js, to_sim};
use crate::state::{key, Agent, Callback, CallbackKey, JsEngine, Mirror, Realm, RealmKey, State, BUDGET, MAX_JOBS};

impl State {
    /// Enters `realm` from the simulator (or again from inside a native) and runs `f` in it.
    pub(crate) fn enter<R>(
        &self,
        sim: &mut Sim<'_>,
        realm: RealmKey,
        f: impl for<'js> FnOnce(Ctx<'js>) -> R,
    ) -> Option<R> {
        let (context, el) = {
            let realms = self.realms.borrow();
            let r = realms.get(realm)?;
            (r.context.clone(), r.el)
        };
        let (depth, budget, stopped) = {
            let agents = self.agents.borrow();
            let a = agents.get(&el)?;
            (a.depth.get(), a.budget.clone(), a.stopped.clone())
        };
        let saved = self.sim.replace((sim as *mut Sim<'_>).cast());
        if depth == 0 {
            budget.set(BUDGET);
            stopped.set(false);
        }
        self.set_depth(el, depth + 1);
        let result = if depth == 0 {
            context.with(f)
        } else {
            // SAFETY: the runtime's lock is held by the outer entry, which is running page script
            // on this thread (this entry comes from a native it called).
            let ctx = unsafe { Ctx::from_raw(context.as_raw()) };
            f(ctx)
        };
        self.set_depth(el, depth);
        self.sim.set(saved);
        Some(result)
    }

    fn set_depth(&self, el: LoopId, depth: u32) {
        if let Some(a) = self.agents.borrow().get(&el) {
            a.depth.set(depth);
        }
    }

    /// Whether the interrupt handler stopped the running script (the budget ran out).
    pub(crate) fn stopped(&self, realm: RealmKey) -> bool {
        let el = self.realms.borrow().get(realm).map(|r| r.el);
        el.and_then(|el| self.agents.borrow().get(&el).map(|a| a.stopped.get())).unwrap_or(false)
    }

    /// Reports the exception pending in `ctx` as uncaught in `realm`'s document (HTML "report an
    /// exception"), or, when the budget stopped the script, says so.
    pub(crate) fn report<'js>(&self, ctx: &Ctx<'js>, realm: RealmKey) {
        let exception = ctx.catch();
        let doc = self.realms.borrow()[realm].doc;
        let stopped = || {
            format!(
                "script stopped: it ran past its budget ({BUDGET} interrupt checks, about {} million operations) without returning to the event loop",
                BUDGET / 100
            )
        };
        if self.stopped(realm) {
            return self.with_sim(|sim| sim.report_exception(doc, stopped()));
        }
        // HTML "report an exception" (`prelude/window.js`: the `error` event at the global,
        // then the outcome unless a listener cancelled it); before the realm's setup finished,
        // or when that fails, straight into the outcome.
        let reported = self.realms.borrow()[realm].helpers.is_some()
            && self
                .helpers(ctx, realm)
                .and_then(|h| h.get::<_, Function>("reportException"))
                .and_then(|f| f.call::<_, ()>((exception.clone(),)))
                .is_ok();
        if !reported {
            let _ = ctx.catch();
            // An `error` listener that never yields is stopped like any script.
            let text = if self.stopped(realm) { stopped() } else { describe_exception(ctx, &exception) };
            self.with_sim(|sim| sim.report_exception(doc, text));
        }
    }

    pub(crate) fn helpers<'js>(&self, ctx: &Ctx<'js>, realm: RealmKey) -> rquickjs::Result<Object<'js>> {
        let saved = self.realms.borrow()[realm].helpers.clone().expect("the realm is set up");
        saved.restore(ctx)
    }

    /// Keeps `function` for the simulator to call later, in `realm`.
    pub(crate) fn save_callback<'js>(&self, ctx: &Ctx<'js>, realm: RealmKey, function: Function<'js>) -> CallbackKey {
        let function = Persistent::save(ctx, function);
        self.callbacks.borrow_mut().insert(Callback { realm, function, tool: None })
    }

    /// A page promise that follows simulator promise `promise` (settled by `promise_settled`).
    /// `watched_at`: the page call site of a `registerTool` without a signal or a `getTools`,
    /// whose promise tells the simulator when the page first reacts to it
    /// (`prelude/model_context.js`'s `watchPromise`; issue 28).
    pub(crate) fn mirror<'js>(
        &self,
        ctx: &Ctx<'js>,
        realm: RealmKey,
        promise: PromiseId,
        watched_at: Option<&str>,
    ) -> rquickjs::Result<Value<'js>> {
        let (p, resolve, reject) = ctx.promise()?;
        let mirror = Mirror { realm, resolve: Persistent::save(ctx, resolve), reject: Persistent::save(ctx, reject) };
        self.mirrors.borrow_mut().insert(promise, mirror);
        self.with_sim(|sim| sim.mirror_promise(promise, watched_at));
        if watched_at.is_some() {
            let watch: Function = self.helpers(ctx, realm)?.get("watchPromise")?;
            watch.call::<_, ()>((p.clone(), promise.realm.0, promise.seq))?;
        }
        Ok(p.into_value())
    }

    /// The realm of `doc`, made (with its agent's runtime) if it has none yet.
    pub(crate) fn ensure_realm(&self, sim: &mut Sim<'_>, doc: DocId) -> Result<RealmKey, String> {
        if let Some(r) = self.realm_of.borrow().get(&doc) {
            return Ok(*r);
        }
        let el = sim.event_loop_of(doc);
        if !self.agents.borrow().contains_key(&el) {
            let runtime = Runtime::new().map_err(|e| format!("QuickJS runtime: {e}"))?;
            runtime.set_memory_limit(256 << 20);
            runtime.set_max_stack_size(1 << 20);
            let budget = Rc::new(Cell::new(BUDGET));
            let stopped = Rc::new(Cell::new(false));
            let (b, s) = (budget.clone(), stopped.clone());
            runtime.set_interrupt_handler(Some(Box::new(move || {
                let left = b.get();
                if left == 0 {
                    s.set(true);
                    return true;
                }
                b.set(left - 1);
                false
            })));
            // HTML HostPromiseRejectionTracker (`rejections.rs`).
            let weak = self.me.clone();
            runtime.set_host_promise_rejection_tracker(Some(Box::new(move |ctx, promise, reason, is_handled| {
                if let Some(state) = weak.upgrade() {
                    crate::rejections::track(&state, &ctx, promise, reason, is_handled);
                }
            })));
            let agent = Agent {
                runtime,
                depth: Cell::new(0),
                budget,
                stopped,
                jobs_in_a_row: Cell::new(0),
                halted: Cell::new(false),
            };
            self.agents.borrow_mut().insert(el, agent);
        }
        let context = {
            let agents = self.agents.borrow();
            let agent = &agents[&el];
            let running = self.realms.borrow().values().find(|r| r.el == el).map(|r| r.context.get_runtime_ptr());
            match running {
                // Page script of the agent is running (a native asked for another document's
                // object): the runtime is locked by that entry, so the context is made without
                // locking it again.
                Some(rt) if agent.depth.get() > 0 => {
                    // SAFETY: `rt` is the agent's runtime, locked by the running entry on this
                    // thread; the new context's one reference is the Context's.
                    let raw = unsafe { rquickjs::qjs::JS_NewContext(rt) };
                    let raw = std::ptr::NonNull::new(raw).ok_or("QuickJS context: out of memory")?;
                    unsafe { Context::from_raw(raw, agent.runtime.clone()) }
                }
                _ => Context::full(&agent.runtime).map_err(|e| format!("QuickJS context: {e}"))?,
            }
        };
        let random = Cell::new(self.seed ^ (u64::from(doc.0) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let realm = self.realms.borrow_mut().insert(Realm { doc, el, context, helpers: None, random });
        self.realm_of.borrow_mut().insert(doc, realm);
        let nav = sim.navigable_of(doc);
        let origin = sim.origin_of(doc);
        let set_up = self.enter(sim, realm, |ctx| crate::window::set_up(&ctx, self, realm, doc, nav, &origin));
        match set_up {
            Some(Ok(helpers)) => {
                self.realms.borrow_mut()[realm].helpers = Some(helpers);
                Ok(realm)
            }
            Some(Err(e)) => Err(format!("setting up the realm of {}: {e}", sim.label(doc))),
            None => Err("the realm went away while it was set up".into()),
        }
    }
}

impl State {
    /// `doc`'s Document object, made in `doc`'s own realm (which is made now if it has none).
    pub(crate) fn document_object(&self, sim: &mut Sim<'_>, doc: DocId) -> Option<Persistent<Object<'static>>> {
        self.helper_object(sim, doc, "documentFor")
    }

    /// The prelude helper `name` of `doc`'s realm (made now if it has none): an object, or what
    /// the function of that name returns given `doc`.
    pub(crate) fn helper_object(
        &self,
        sim: &mut Sim<'_>,
        doc: DocId,
        name: &str,
    ) -> Option<Persistent<Object<'static>>> {
        let realm = self.ensure_realm(sim, doc).ok()?;
        self.enter(sim, realm, |ctx| {
            let helpers = self.helpers(&ctx, realm).ok()?;
            let value: Value = helpers.get(name).ok()?;
            let object: Object = match value.as_function() {
                Some(f) => f.call((doc.0,)).ok()?,
                None => value.into_object()?,
            };
            Some(Persistent::save(&ctx, object))
        })
        .flatten()
    }

    /// The realm whose context is `ctx`, if it is one of ours.
    pub(crate) fn realm_of_ctx(&self, ctx: &Ctx<'_>) -> Option<RealmKey> {
        let raw = ctx.as_raw();
        self.realms.borrow().iter().find(|(_, r)| r.context.as_raw() == raw).map(|(k, _)| k)
    }
}

impl<'s> webmcp::script::Engine<Sim<'s>> for JsEngine {
    fn run_script(&self, sim: &mut Sim<'s>, doc: DocId, script: &PageScript) {
        let state = &self.state;
        let realm = match state.ensure_realm(sim, doc) {
            Ok(realm) => realm,
            Err(e) => return sim.report_exception(doc, e),
        };
        if let Some(a) = state.agents.borrow().get(&sim.event_loop_of(doc)) {
            a.jobs_in_a_row.set(0);
        }
        state.enter(sim, realm, |ctx| {
            let mut options = rquickjs::context::EvalOptions::default();
            options.global = true;
            options.strict = false;
            options.backtrace_barrier = false;
            options.promise = false;
            options.filename = Some(script.file.clone());
            if ctx.eval_with_options::<Value, _>(script.text.as_str(), options).is_err() {
                state.report(&ctx, realm);
            }
        });
    }

    fn run_callback(&self, sim: &mut Sim<'s>, doc: DocId, callback: EngineHandle, what: &str) {
        let state = &self.state;
        let key = key(callback);
        let Some(realm) = state.callbacks.borrow().get(key).map(|c| c.realm) else {
            // A stale handle (a cleared timer, a replaced handler): nothing runs.
            sim.script_note(("HTML", "invoke a callback"), format!("the {what} was cleared: nothing runs"));
            return;
        };
        let one_shot = ONE_SHOT.contains(&what);
        let function = {
            let mut callbacks = state.callbacks.borrow_mut();
            if one_shot {
                callbacks.remove(key).map(|c| c.function)
            } else {
                callbacks.get(key).map(|c| c.function.clone())
            }
        };
        let Some(function) = function else { return };
        if one_shot {
            state.tokens.borrow_mut().retain(|_, k| *k != key);
        }
        if let Some(a) = state.agents.borrow().get(&sim.event_loop_of(doc)) {
            a.jobs_in_a_row.set(0);
        }
        state.enter(sim, realm, |ctx| {
            let called = function.restore(&ctx).and_then(|f| f.call::<_, Value>(()));
            if called.is_err() {
                state.report(&ctx, realm);
            }
        });
    }

    fn invoke_execute(
        &self,
        sim: &mut Sim<'s>,
        tool: EngineHandle,
        doc: DocId,
        controller: SignalId,
        input_arguments: &str,
    ) -> PromiseId {
        let state = &self.state;
        let tool_promise = sim.script_new_promise(doc);
        let found = state.callbacks.borrow().get(key(tool)).map(|c| (c.realm, c.function.clone(), c.tool.clone()));
        let Some((realm, function, name)) = found else {
            sim.script_note(("script", "engine"), "the tool's execute is gone: its promise never settles".into());
            return tool_promise;
        };
        sim.script_note((IMPERATIVE, "8"), format!("invoke execute of tool {:?}", name.unwrap_or_default()));
        state.enter(sim, realm, |ctx| {
            let result = (|| -> rquickjs::Result<Value> {
                let input = ctx.json_parse(input_arguments.to_string())?;
                let helpers = state.helpers(&ctx, realm)?;
                let signal_for: Function = helpers.get("signalFor")?;
                let signal: Value = signal_for.call((controller.realm.0, controller.seq))?;
                let options = Object::new(ctx.clone())?;
                options.set("signal", signal)?;
                let execute = function.restore(&ctx)?;
                execute.call((input, options))
            })();
            match result {
                Ok(value)
                    if value.is_promise()
                        || value.as_object().is_some_and(|o| o.get::<_, Function>("then").is_ok()) =>
                {
                    // WebIDL: the callback's return value converted to Promise<any> ("a promise
                    // resolved with" it): settles when it does.
                    let settled = crate::convert::settle_when(&ctx, state, realm, &value, tool_promise);
                    if settled.is_err() {
                        state.report(&ctx, realm);
                    }
                }
                Ok(value) => {
                    let v = to_sim(&ctx, state, realm, &value);
                    state.with_sim(|sim| sim.script_settle(tool_promise, Ok(v)));
                }
                Err(_) => {
                    // WebIDL: an exception thrown by a promise-returning callback rejects its promise.
                    let exception = ctx.catch();
                    let v = if state.stopped(realm) {
                        JsValue::Error { name: "InternalError".into(), message: "interrupted: past the budget".into() }
                    } else {
                        to_sim(&ctx, state, realm, &exception)
                    };
                    state.with_sim(|sim| sim.script_settle(tool_promise, Err(v)));
                }
            }
        });
        tool_promise
    }

    fn promise_settled(&self, sim: &mut Sim<'s>, promise: PromiseId) {
        let state = &self.state;
        let Some(mirror) = state.mirrors.borrow_mut().remove(&promise) else { return };
        let result = match sim.promise_state(promise) {
            PromiseState::Fulfilled(v) => Ok(v.clone()),
            PromiseState::Rejected(e) => Err(e.clone()),
            PromiseState::Pending => return,
        };
        let realm = mirror.realm;
        state.enter(sim, realm, |ctx| {
            let called = (|| -> rquickjs::Result<()> {
                let (function, value) = match &result {
                    Ok(v) => (mirror.resolve.restore(&ctx)?, to_js(&ctx, state, realm, v)?),
                    Err(e) => (mirror.reject.restore(&ctx)?, to_js(&ctx, state, realm, e)?),
                };
                function.call::<_, ()>((value,))
            })();
            if called.is_err() {
                state.report(&ctx, realm);
            }
        });
    }

    fn fire_event(
        &self,
        sim: &mut Sim<'s>,
        realm_doc: DocId,
        dispatcher: EngineHandle,
        event: &str,
        tool_name: Option<&str>,
    ) {
        let state = &self.state;
        let found = state.callbacks.borrow().get(key(dispatcher)).map(|c| (c.realm, c.function.clone()));
        let Some((realm, function)) = found else {
            sim.script_note(("DOM", "dispatch"), format!("the listeners of {event} are gone: nothing runs"));
            return;
        };
        let _ = realm_doc;
        if let Some(a) = state.agents.borrow().get(&sim.event_loop_of(state.realms.borrow()[realm].doc)) {
            a.jobs_in_a_row.set(0);
        }
        state.enter(sim, realm, |ctx| {
            let called = function.restore(&ctx).and_then(|f| f.call::<_, Value>((event, tool_name)));
            if called.is_err() {
                state.report(&ctx, realm);
            }
        });
    }

    fn fire_page_transition_event(&self, sim: &mut Sim<'s>, doc: DocId, event: &str, persisted: bool) {
        let state = &self.state;
        // A document whose script never ran has no realm, so no listener.
        let Some(realm) = state.realm_of.borrow().get(&doc).copied() else { return };
        state.enter(sim, realm, |ctx| {
            let called = state
                .helpers(&ctx, realm)
                .and_then(|h| h.get::<_, Function>("firePageTransition"))
                .and_then(|f| f.call::<_, ()>((event, persisted)));
            if called.is_err() {
                state.report(&ctx, realm);
            }
        });
    }

    fn notify_about_rejected_promises(&self, sim: &mut Sim<'s>, el: LoopId) {
        crate::rejections::notify(&self.state, sim, el);
    }

    fn run_one_job(&self, sim: &mut Sim<'s>, el: LoopId) -> bool {
        let state = &self.state;
        let (halted, pending) = {
            let agents = state.agents.borrow();
            let Some(a) = agents.get(&el) else { return false };
            (a.halted.get(), a.runtime.is_job_pending())
        };
        if halted || !pending {
            return false;
        }
        let in_a_row = {
            let agents = state.agents.borrow();
            let a = &agents[&el];
            a.jobs_in_a_row.set(a.jobs_in_a_row.get() + 1);
            a.jobs_in_a_row.get()
        };
        // A realm of the agent, to enter with (the job runs in its own realm).
        let Some(realm) = state.realms.borrow().iter().find(|(_, r)| r.el == el).map(|(k, _)| k) else { return false };
        if in_a_row > MAX_JOBS {
            let doc = state.realms.borrow()[realm].doc;
            state.agents.borrow()[&el].halted.set(true);
            sim.report_exception(
                doc,
                format!("promise jobs stopped: {MAX_JOBS} ran back to back on this event loop (a promise chain that never ends?)"),
            );
            return false;
        }
        state
            .enter(sim, realm, |ctx| {
                let mut job_ctx = std::ptr::null_mut();
                // SAFETY: the runtime is locked by `enter`; `job_ctx` receives the context the job ran in.
                let ran = unsafe {
                    let rt = rquickjs::qjs::JS_GetRuntime(ctx.as_raw().as_ptr());
                    rquickjs::qjs::JS_ExecutePendingJob(rt, &mut job_ctx)
                };
                if ran < 0 {
                    if let Some(job_ctx) = std::ptr::NonNull::new(job_ctx) {
                        // SAFETY: a live context of this runtime, which `enter` holds locked.
                        let job = unsafe { Ctx::from_raw(job_ctx) };
                        let job_realm = state
                            .realms
                            .borrow()
                            .iter()
                            .find(|(_, r)| r.context.as_raw() == job_ctx)
                            .map(|(k, _)| k)
                            .unwrap_or(realm);
                        state.report(&job, job_realm);
                    }
                }
                ran != 0
            })
            .unwrap_or(false)
    }
}

/// The callbacks that run once (their handle is stale after): a timer's steps, a notification
/// task, a posted message's task.
const ONE_SHOT: [&str; 5] = ["timer", "unhandled rejections", "rejectionhandled", "message", "definitely close"];

/// The imperative execute steps' name, as the trace cites it.
const IMPERATIVE: &str = "imperative execute steps";
