//! HTML's rejected promises (<https://html.spec.whatwg.org/#unhandled-promise-rejections>):
//! QuickJS's promise rejection tracker is HTML's HostPromiseRejectionTracker; "notify about
//! rejected promises" runs at the end of each microtask checkpoint (the simulator calls
//! `Engine::notify_about_rejected_promises`) and queues a task on the DOM manipulation task
//! source that fires `unhandledrejection` at the global (`prelude/window.js`,
//! `notifyRejected`); a rejection no listener cancels is reported into the outcome, as an
//! uncaught exception is.

use std::rc::Rc;

use browser::{DocId, LoopId, TaskSource};
use rquickjs::{Array, Ctx, Function, Object, Persistent, Value};
use webmcp::Sim;

use crate::convert::describe_exception;
use crate::state::{handle, RealmKey, Rejected, State};

/// HTML HostPromiseRejectionTracker(promise, operation), for a promise of one of our realms.
pub(crate) fn track<'js>(state: &State, ctx: &Ctx<'js>, promise: Value<'js>, reason: Value<'js>, is_handled: bool) {
    let Some(realm) = state.realm_of_ctx(ctx) else { return };
    if !is_handled {
        // "reject": 1. Append promise to settings object's about-to-be-notified rejected promises list.
        let rejected = Rejected {
            promise: Persistent::save(ctx, promise),
            reason: Persistent::save(ctx, reason),
            handled: std::cell::Cell::new(false),
        };
        state.rejections.borrow_mut().entry(realm).or_default().about_to_be_notified.push(Rc::new(rejected));
        return;
    }
    // "handle":
    let mut rejections = state.rejections.borrow_mut();
    let Some(r) = rejections.get_mut(&realm) else { return };
    let same = |x: &Rc<Rejected>| x.promise.clone().restore(ctx).is_ok_and(|p| p == promise);
    // 1. If settings object's about-to-be-notified rejected promises list contains promise, then
    // remove promise from that list and return.
    if let Some(at) = r.about_to_be_notified.iter().position(same) {
        r.about_to_be_notified.remove(at);
        return;
    }
    // (A promise handed to a queued notification task: its [[PromiseIsHandled]] is now true,
    // which the task reads, step 4.1.1.)
    if let Some(x) = r.notifying.iter().find(|x| same(x)) {
        x.handled.set(true);
        return;
    }
    // 2. If settings object's outstanding rejected promises weak set does not contain promise,
    // then return. 3. Remove promise from settings object's outstanding rejected promises weak set.
    let Some(at) = r.outstanding.iter().position(same) else { return };
    let x = r.outstanding.remove(at);
    drop(rejections);
    // 4. Let global be settings object's global object. 5. Queue a global task on the DOM
    // manipulation task source given global to fire an event named rejectionhandled at global,
    // using PromiseRejectionEvent, with the promise attribute initialized to promise, and the
    // reason attribute initialized to promise.[[PromiseResult]].
    let weak = state.me.clone();
    let task = Function::new(ctx.clone(), move |ctx: Ctx<'js>| -> rquickjs::Result<()> {
        let Some(state) = weak.upgrade() else { return Ok(()) };
        let helpers = state.helpers(&ctx, realm)?;
        let fire: Function = helpers.get("rejectionHandled")?;
        fire.call((x.promise.clone().restore(&ctx)?, x.reason.clone().restore(&ctx)?))
    });
    if let Ok(task) = task {
        queue(state, ctx, realm, task, "rejectionhandled");
    }
}

/// HTML "perform a microtask checkpoint" step 4: for each realm of event loop `el`, "notify
/// about rejected promises" given its global object.
pub(crate) fn notify(state: &State, sim: &mut Sim<'_>, el: LoopId) {
    let realms: Vec<RealmKey> = state
        .rejections
        .borrow()
        .iter()
        .filter(|(_, r)| !r.about_to_be_notified.is_empty())
        .map(|(k, _)| *k)
        .filter(|k| state.realms.borrow().get(*k).is_some_and(|r| r.el == el))
        .collect();
    for realm in realms {
        // 1. Let list be a clone of global's about-to-be-notified rejected promises list.
        // 3. Empty global's about-to-be-notified rejected promises list.
        let list = {
            let mut rejections = state.rejections.borrow_mut();
            let r = rejections.entry(realm).or_default();
            let list = std::mem::take(&mut r.about_to_be_notified);
            r.notifying.extend(list.iter().cloned());
            list
        };
        // 2. If list is empty, then return.
        if list.is_empty() {
            continue;
        }
        // 4. Queue a global task on the DOM manipulation task source given global to run the following step: …
        state.enter(sim, realm, |ctx| {
            if let Ok(task) = notification_task(state, &ctx, realm, list) {
                queue(state, &ctx, realm, task, "unhandled rejections");
            }
        });
    }
}

/// The task "notify about rejected promises" step 4 queues, for `list`.
fn notification_task<'js>(
    state: &State,
    ctx: &Ctx<'js>,
    realm: RealmKey,
    list: Vec<Rc<Rejected>>,
) -> rquickjs::Result<Function<'js>> {
    let weak = state.me.clone();
    Function::new(ctx.clone(), move |ctx: Ctx<'js>| -> rquickjs::Result<()> {
        let Some(state) = weak.upgrade() else { return Ok(()) };
        let array = Array::new(ctx.clone())?;
        for (i, x) in list.iter().enumerate() {
            array.set(2 * i, x.promise.clone().restore(&ctx)?)?;
            array.set(2 * i + 1, x.reason.clone().restore(&ctx)?)?;
        }
        let helpers = state.helpers(&ctx, realm)?;
        let notify: Function = helpers.get("notifyRejected")?;
        let result = notify.call::<_, ()>((array,));
        // The list's promises are notified: those still unhandled went to the
        // outstanding set (step 4.1.4, `outstanding`).
        if let Some(r) = state.rejections.borrow_mut().get_mut(&realm) {
            r.notifying.retain(|x| !list.iter().any(|l| Rc::ptr_eq(l, x)));
        }
        result
    })
}

/// Queues `task` (a function of `realm`) as a global task on the DOM manipulation task source.
fn queue<'js>(state: &State, ctx: &Ctx<'js>, realm: RealmKey, task: Function<'js>, what: &'static str) {
    let key = state.save_callback(ctx, realm, task);
    let doc = state.realms.borrow()[realm].doc;
    if state.has_sim() {
        state.with_sim(|sim| {
            sim.script_queue_global_task(
                TaskSource::DomManipulation,
                doc,
                handle(key),
                what,
                ("HTML", "notify about rejected promises 4"),
            )
        });
    }
}

pub(crate) fn install<'js>(
    ctx: &Ctx<'js>,
    natives: &Object<'js>,
    state: &State,
    realm: RealmKey,
    doc: DocId,
) -> rquickjs::Result<()> {
    // p.[[PromiseIsHandled]] of a promise being notified (step 4.1.1 and 4.1.4).
    let weak = state.me.clone();
    natives.set(
        "promiseIsHandled",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, promise: Value<'js>| -> bool {
            let Some(state) = weak.upgrade() else { return true };
            let rejections = state.rejections.borrow();
            let Some(r) = rejections.get(&realm) else { return true };
            let x = r.notifying.iter().find(|x| x.promise.clone().restore(&ctx).is_ok_and(|p| p == promise));
            x.is_none_or(|x| x.handled.get())
        })?,
    )?;
    // Step 4.1.3: the user agent may report p.[[PromiseResult]] to a developer console; here it
    // is in the outcome, as an uncaught exception is.
    let weak = state.me.clone();
    natives.set(
        "reportRejection",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, reason: Value<'js>| {
            let Some(state) = weak.upgrade() else { return };
            let text =
                format!("Uncaught (in promise) {}", describe_exception(&ctx, &reason).trim_start_matches("Uncaught "));
            state.with_sim(|sim| sim.report_exception(doc, text));
        })?,
    )?;
    // Step 4.1.4: append p to global's outstanding rejected promises weak set.
    let weak = state.me.clone();
    natives.set(
        "outstanding",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, promise: Value<'js>| {
            let Some(state) = weak.upgrade() else { return };
            let mut rejections = state.rejections.borrow_mut();
            let Some(r) = rejections.get_mut(&realm) else { return };
            if let Some(x) = r.notifying.iter().find(|x| x.promise.clone().restore(&ctx).is_ok_and(|p| p == promise)) {
                let x = x.clone();
                r.outstanding.push(x);
            }
        })?,
    )?;
    Ok(())
}
