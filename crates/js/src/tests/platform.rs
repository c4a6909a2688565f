//! The platform objects as pages use them: each test runs a one-tab page (seed 0; the pages here
//! have one schedule, or say which outcome they expect) and reads its console and uncaught errors.

use serde_json::json;

/// Runs `page` as the script of a tab at https://example.com/ (with a same-origin iframe `child`
/// running `child`, if given) under `variants`.
fn run_with(page: &str, child: Option<&str>, variants: &[&str]) -> trace::Trace {
    run_framed(page, child.map(|c| ("https://example.com/child", c)), variants)
}

/// `run_with`, with the iframe `child` at a URL of its own.
fn run_framed(page: &str, child: Option<(&str, &str)>, variants: &[&str]) -> trace::Trace {
    crate::link();
    let mut tab = json!({ "id": "tab", "url": "https://example.com/", "js": page });
    if let Some((url, child)) = child {
        tab["frames"] = json!([{ "id": "child", "url": url, "js": child }]);
    }
    let scenario = json!({
        "version": 1, "name": "platform", "description": "a page",
        "options": { "variants": variants },
        "tabs": [tab],
    });
    let s = scenario::parse_str("t.jsonc", &scenario.to_string()).expect("the scenario parses");
    let program = webmcp::compile(&s).expect("the scenario compiles");
    webmcp::run(&program, &mut sched::RandomChooser::new(0), webmcp::Limits::default()).expect("the page runs")
}

fn run(page: &str) -> trace::Trace {
    run_with(page, None, &[])
}

fn console(trace: &trace::Trace) -> Vec<String> {
    trace.outcome.console.iter().map(|c| c.text.clone()).collect()
}

fn uncaught(trace: &trace::Trace) -> Vec<String> {
    trace.outcome.uncaught.iter().map(|c| c.text.clone()).collect()
}

#[track_caller]
fn logs(page: &str, expected: &[&str]) {
    let trace = run(page);
    assert_eq!(uncaught(&trace), Vec::<String>::new(), "uncaught errors; console: {:?}", console(&trace));
    assert_eq!(console(&trace), expected);
}

#[test]
fn event_target_listeners_run_in_order_once_and_by_capture() {
    logs(
        r#"
        const t = new EventTarget();
        const log = [];
        const a = () => log.push('a');
        const b = { handleEvent(e) { log.push('b:' + (this === b) + ':' + e.type); } };
        t.addEventListener('x', a);
        t.addEventListener('x', a);                      // the same listener: not added again
        t.addEventListener('x', a, true);                // another capture: added (runs first)
        t.addEventListener('x', b, { once: true });
        t.addEventListener('x', function () { log.push('this:' + (this === t)); });
        t.dispatchEvent(new Event('x'));
        t.dispatchEvent(new Event('x'));                 // b ran once
        t.removeEventListener('x', a, { capture: true });
        t.dispatchEvent(new Event('x'));
        t.dispatchEvent(new Event('y'));
        console.log(log.join(' '));
        console.log(t instanceof EventTarget, new Event('x') instanceof Event, typeof t.dispatchEvent);
        "#,
        &["a a b:true:x this:true a a this:true a this:true", "true true function"],
    );
}

#[test]
fn dispatch_follows_dom_inner_invoke() {
    logs(
        r#"
        const t = new EventTarget();
        const log = [];
        const late = () => log.push('late');
        const second = () => log.push('second');
        t.addEventListener('x', (e) => {
          log.push('first:' + e.eventPhase + ':' + (e.target === t) + ':' + (e.currentTarget === t) + ':' + e.isTrusted);
          t.removeEventListener('x', second);           // removed: does not run in this dispatch
          t.addEventListener('x', late);                // added during dispatch: runs next time
        });
        t.addEventListener('x', second);
        t.addEventListener('x', (e) => { e.preventDefault(); log.push('prevented'); });
        const e = new Event('x', { cancelable: true });
        log.push('returned:' + t.dispatchEvent(e));
        log.push('after:' + e.eventPhase + ':' + e.currentTarget + ':' + e.defaultPrevented);
        const stop = new EventTarget();
        stop.addEventListener('x', (e) => { e.stopImmediatePropagation(); log.push('stopped'); });
        stop.addEventListener('x', () => log.push('never'));
        stop.dispatchEvent(new Event('x'));
        const again = new EventTarget();
        again.addEventListener('x', (e) => {
          try { again.dispatchEvent(e); } catch (err) { log.push(err.name + ':' + (err instanceof DOMException) + ':' + err.code); }
        });
        again.dispatchEvent(new Event('x'));
        console.log(log.join(' '));
        "#,
        &["first:2:true:true:false prevented returned:false after:0:null:true stopped InvalidStateError:true:11"],
    );
    // The listener's exception is reported, and the next listener still runs.
    let trace = run("const t = new EventTarget();\nt.addEventListener('x', () => { throw new RangeError('boom'); });\nt.addEventListener('x', () => console.log('next'));\nt.dispatchEvent(new Event('x'));\n");
    assert_eq!(console(&trace), ["next"]);
    assert_eq!(uncaught(&trace), ["RangeError: boom (tab.inline.js:2:43)"]);
}

#[test]
fn an_event_handler_attribute_keeps_the_place_it_was_first_set_at() {
    logs(
        r#"
        const c = new AbortController();
        const log = [];
        c.signal.addEventListener('abort', () => log.push('a'));
        c.signal.onabort = () => log.push('handler 1');
        c.signal.addEventListener('abort', () => log.push('c'));
        c.signal.onabort = (e) => log.push('handler 2:' + e.type + ':' + e.isTrusted + ':' + (e.target === c.signal));
        c.abort();
        const d = new AbortController();
        d.signal.onabort = () => log.push('first handler');
        d.signal.onabort = null;                        // deactivated: set again, it goes last
        d.signal.addEventListener('abort', () => log.push('listener'));
        d.signal.onabort = () => log.push('handler again');
        d.abort();
        console.log(log.join(' | '));
        "#,
        &["a | handler 2:abort:true:true | c | listener | handler again"],
    );
}

#[test]
fn model_context_is_an_event_target() {
    let trace = run(r#"
        const mc = document.modelContext;
        console.log(mc instanceof ModelContext, mc instanceof EventTarget, mc === document.modelContext);
        try { new ModelContext(); } catch (e) { console.log(e.name); }
        mc.addEventListener('toolchange', (e) => console.log('listener', e.type, e.isTrusted, e.target === mc, e instanceof Event));
        mc.ontoolchange = () => console.log('handler');
        mc.addEventListener('toolchange', () => console.log('listener 2'));
        mc.registerTool({ name: 't', description: 'd', execute: () => 1 });
        "#);
    assert_eq!(uncaught(&trace), Vec::<String>::new());
    assert_eq!(
        console(&trace),
        ["true true true", "TypeError", "listener toolchange true true true", "handler", "listener 2"]
    );
}

#[test]
fn tool_events_fire_tool_activated_and_tool_cancel_events_under_the_variant() {
    let page = r#"
        const mc = document.modelContext;
        mc.addEventListener('toolactivated', (e) => console.log(e.constructor.name, e.type, e.toolName, e.target === mc, e.isTrusted, e.bubbles, e.cancelable));
        mc.ontoolcancel = (e) => console.log(e instanceof ToolCancelEvent, e.type, e.toolName);
        (async () => {
          await mc.registerTool({ name: 'slow', description: 'd', execute: () => new Promise(() => {}) });
          const [tool] = await mc.getTools();
          const c = new AbortController();
          const call = mc.executeTool(tool, {}, { signal: c.signal });
          setTimeout(() => c.abort(), 10);
          await call.catch((e) => console.log('call', e.name));
        })();
        "#;
    let trace = run_with(page, None, &["tool-events"]);
    assert_eq!(uncaught(&trace), Vec::<String>::new());
    assert_eq!(
        console(&trace),
        ["ToolActivatedEvent toolactivated slow true true false false", "call AbortError", "true toolcancel slow"]
    );
    // Without the variant, neither class nor event exists.
    let trace = run("console.log(typeof ToolActivatedEvent, typeof ToolCancelEvent);");
    assert_eq!(console(&trace), ["undefined undefined"]);
}

#[test]
fn abort_signal_abort_timeout_and_any() {
    logs(
        r#"
        const log = [];
        const s = AbortSignal.abort();
        log.push([s instanceof AbortSignal, s instanceof EventTarget, s.aborted, s.reason.name, s.reason instanceof DOMException, s.reason.code].join(','));
        log.push(AbortSignal.abort('why').reason);
        try { new AbortSignal(); } catch (e) { log.push(e.name); }
        const t = AbortSignal.timeout(20);
        t.onabort = () => log.push('timeout at ' + Date.now() + ': ' + t.reason.name + ' ' + (t.reason instanceof DOMException));
        const a = new AbortController(), b = new AbortController();
        const any = AbortSignal.any([a.signal, b.signal]);
        const anyOfAny = AbortSignal.any([any]);
        b.signal.addEventListener('abort', () => log.push('b aborted; any aborted already: ' + any.aborted));
        any.addEventListener('abort', () => log.push('any: ' + any.reason));
        anyOfAny.addEventListener('abort', () => log.push('any of any: ' + anyOfAny.reason));
        b.abort('from b');
        a.abort('from a');
        log.push('already: ' + AbortSignal.any([AbortSignal.abort('x'), a.signal]).reason);
        setTimeout(() => console.log(log.join(' | ')), 30);
        "#,
        &["true,true,true,AbortError,true,20 | why | TypeError | b aborted; any aborted already: true | any: from b | any of any: from b | already: x | timeout at 20: TimeoutError true"],
    );
}

#[test]
fn a_listeners_signal_removes_it() {
    logs(
        r#"
        const t = new EventTarget();
        const c = new AbortController();
        t.addEventListener('x', () => console.log('listening'), { signal: c.signal });
        t.dispatchEvent(new Event('x'));
        c.abort();
        t.dispatchEvent(new Event('x'));
        t.addEventListener('x', () => console.log('never added'), { signal: c.signal });
        t.dispatchEvent(new Event('x'));
        console.log('done');
        "#,
        &["listening", "done"],
    );
}

#[test]
fn set_interval_repeats_on_virtual_time_until_cleared() {
    logs(
        r#"
        let n = 0;
        const id = setInterval((x) => {
          n++;
          console.log('tick', n, Date.now(), x);
          if (n === 3) clearInterval(id);
        }, 10, 'arg');
        const other = setTimeout(() => console.log('cleared: never'), 15);
        clearTimeout(other);
        console.log(typeof id, id > 0);
        "#,
        &["number true", "tick 1 10 arg", "tick 2 20 arg", "tick 3 30 arg"],
    );
}

#[test]
fn promise_with_resolvers_and_structured_clone() {
    logs(
        r#"
        const { promise, resolve } = Promise.withResolvers();
        promise.then((v) => console.log('resolved', v));
        resolve(7);
        const o = { n: 1, list: [1, { deep: true }], when: new Date(5), m: new Map([[1, 'one']]), s: new Set(['a']) };
        o.self = o;
        const c = structuredClone(o);
        console.log(c !== o, c.self === c, c.list[1] !== o.list[1], c.list[1].deep, c.when.getTime(), c.m.get(1), c.s.has('a'));
        const e = structuredClone(new DOMException('m', 'AbortError'));
        console.log(e instanceof DOMException, e.name, e.message);
        try { structuredClone({ f() {} }); } catch (err) { console.log(err.name); }
        try { structuredClone(new AbortController().signal); } catch (err) { console.log(err.name); }
        "#,
        &["true true true true 5 one true", "true AbortError m", "DataCloneError", "DataCloneError", "resolved 7"],
    );
}

#[test]
fn an_unhandled_rejection_is_reported_unless_handled_or_cancelled() {
    let trace = run(r#"
        Promise.reject(new TypeError('nobody handles me'));
        const later = Promise.reject(new Error('handled in the same task'));
        later.catch(() => {});
        document.modelContext.registerTool({ name: '', description: 'd', execute() {} });
        "#);
    assert_eq!(console(&trace), Vec::<String>::new());
    let errors = uncaught(&trace);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].starts_with("Uncaught (in promise) TypeError: nobody handles me (tab.inline.js:2:"),
        "{errors:?}"
    );
    assert!(errors[1].starts_with("Uncaught (in promise) "), "{errors:?}");
    // An unhandledrejection listener sees it and may cancel the report; a handler added after
    // the notification fires rejectionhandled.
    let trace = run(r#"
        window.addEventListener('unhandledrejection', (e) => {
          console.log('unhandledrejection', e.reason, e.promise === p, e.cancelable, e instanceof PromiseRejectionEvent);
          e.preventDefault();
        });
        onrejectionhandled = (e) => console.log('rejectionhandled', e.reason);
        const p = Promise.reject('why');
        setTimeout(() => p.catch(() => {}), 5);
        "#);
    assert_eq!(uncaught(&trace), Vec::<String>::new());
    assert_eq!(console(&trace), ["unhandledrejection why true true true", "rejectionhandled why"]);
}

#[test]
fn window_is_an_event_target() {
    logs(
        r#"
        const log = [];
        addEventListener('ping', () => log.push('bare'));
        window.addEventListener('ping', (e) => log.push('window:' + (e.currentTarget === window) + ':' + (e.target === self)));
        self.dispatchEvent(new Event('ping'));
        console.log(log.join(' '), window instanceof EventTarget, window instanceof Window);
        "#,
        &["bare window:true:true true true"],
    );
}

#[test]
fn an_iframes_content_document_is_the_documents_own() {
    // The child's listener, added through its own document, and the parent's, added through
    // contentDocument, are on the one ModelContext.
    let trace = run_with(
        r#"
        const child = document.getElementById('child').contentDocument;
        child.modelContext.addEventListener('toolchange', () => console.log('parent heard the child'));
        setTimeout(() => child.modelContext.registerTool({ name: 't', description: 'd', execute() {} }), 5);
        "#,
        Some("document.modelContext.addEventListener('toolchange', () => console.log('child heard itself'));"),
        &[],
    );
    assert_eq!(uncaught(&trace), Vec::<String>::new());
    let console = console(&trace);
    assert!(console.contains(&"parent heard the child".to_string()), "{console:?}");
    assert!(console.contains(&"child heard itself".to_string()), "{console:?}");
}

#[test]
fn post_message_between_windows_of_two_origins() {
    let trace = run_framed(
        r#"
        const frame = document.getElementById('child').contentWindow;
        console.log(parent === window, top === window, frames === window, frame.parent === window, frame.top === window);
        try { frame.document; } catch (e) { console.log(e.name); }
        window.addEventListener('message', (e) => {
          console.log('parent got', JSON.stringify(e.data), e.origin, e.source === frame, e instanceof MessageEvent, e.isTrusted);
        });
        frame.postMessage({ n: 1, list: [1, 2] }, 'https://wrong.example');   // dropped: not the target's origin
        frame.postMessage({ n: 2, list: [3] }, 'https://b.example');
        try { frame.postMessage(() => {}, '*'); } catch (e) { console.log(e.name); }
        try { frame.postMessage(1, 'not a url'); } catch (e) { console.log(e.name); }
        "#,
        Some((
            "https://b.example/frame",
            r#"
            onmessage = (e) => {
              console.log('child got', JSON.stringify(e.data), e.origin, e.source === parent);
              e.source.postMessage({ echo: e.data.n }, e.origin);
            };
            "#,
        )),
        &[],
    );
    assert_eq!(uncaught(&trace), Vec::<String>::new());
    assert_eq!(
        console(&trace),
        [
            "true true true true true",
            "SecurityError",
            "DataCloneError",
            "SyntaxError",
            "child got {\"n\":2,\"list\":[3]} https://example.com true",
            "parent got {\"echo\":2} https://b.example true true true",
        ]
    );
}

#[test]
fn a_same_origin_frames_window_is_its_own_realms() {
    let trace = run_with(
        r#"
        const frame = document.getElementById('child').contentWindow;
        const c = new frame.AbortController();
        console.log(c instanceof AbortController, c instanceof frame.AbortController, frame.document.modelContext instanceof frame.ModelContext);
        "#,
        Some("console.log('child ran');"),
        &[],
    );
    assert_eq!(uncaught(&trace), Vec::<String>::new());
    assert!(console(&trace).contains(&"false true true".to_string()), "{:?}", console(&trace));
}

#[test]
fn removing_a_declared_iframe_destroys_its_navigable() {
    let trace = run_with(
        r#"
        const iframe = document.getElementById('child');
        const mc = iframe.contentDocument.modelContext;
        setTimeout(() => {
          iframe.remove();
          iframe.remove();                              // no parent any more: nothing happens
          console.log(iframe.contentWindow, iframe.contentDocument);
          mc.getTools().catch((e) => console.log('child context:', e.name));
        }, 5);
        "#,
        Some("setTimeout(() => console.log('never: the child is gone'), 10);"),
        &[],
    );
    assert_eq!(uncaught(&trace), Vec::<String>::new());
    assert_eq!(console(&trace), ["null null", "child context: InvalidStateError"]);
}

#[test]
fn location_reads_the_documents_url() {
    // Navigation through Location is tested in `tests/location.rs`.
    let trace = run("console.log(location.href, location.origin, location.protocol, location.host, location.pathname, String(location));\nlocation.pathname = '/next';\n");
    assert_eq!(console(&trace), ["https://example.com/ https://example.com https: example.com / https://example.com/"]);
    assert_eq!(uncaught(&trace).len(), 1);
    assert!(
        uncaught(&trace)[0]
            .starts_with("TypeError: Location.pathname (setting it navigates) is not modelled by webmcp-sim"),
        "{:?}",
        uncaught(&trace)
    );
}

#[test]
fn an_uncaught_exception_fires_error_at_the_window_first() {
    let trace = run(r#"
        window.addEventListener('error', (e) => {
          console.log(e instanceof ErrorEvent, e.message, e.filename, e.lineno, e.colno, e.error instanceof RangeError, e.cancelable);
          if (e.error.message === 'handled') e.preventDefault();
        });
        setTimeout(() => { throw new RangeError('handled'); }, 1);
        setTimeout(() => { throw new RangeError('reported'); }, 2);
        onerror = () => { throw new Error('in the handler'); };
        "#);
    assert_eq!(
        console(&trace),
        [
            "true Uncaught RangeError: handled tab.inline.js 6 38 true true",
            "true Uncaught RangeError: reported tab.inline.js 7 38 true true",
        ]
    );
    // The handler's own exception is reported without a second error event (error reporting
    // mode), then the one no listener cancelled.
    let errors = uncaught(&trace);
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].starts_with("Error: in the handler"), "{errors:?}");
    assert!(errors[1].starts_with("Error: in the handler"), "{errors:?}");
    assert!(errors[2].starts_with("RangeError: reported"), "{errors:?}");
}

#[test]
fn a_page_makes_inserts_and_removes_an_iframe() {
    let trace = run(r#"
        const iframe = document.createElement('iframe');
        iframe.src = '/frame.html';
        console.log(iframe instanceof HTMLIFrameElement, iframe.contentWindow, iframe.contentDocument);
        const loaded = new Promise((resolve) => { iframe.onload = resolve; });
        document.body.appendChild(iframe);
        // The child's objects are its own realm's (as in a browser, another realm's classes).
        const child = iframe.contentDocument.modelContext;
        console.log('inserted', iframe.contentWindow.parent === window, child instanceof iframe.contentWindow.ModelContext, child instanceof ModelContext);
        loaded.then(async (e) => {
          console.log('load', e.type, e.target === iframe);
          await iframe.contentDocument.modelContext.registerTool({ name: 'iframe_tool', description: 'd', execute: () => 'iframe result' });
          const tool = (await document.modelContext.getTools()).find((t) => t.name === 'iframe_tool');
          console.log(tool.origin, await document.modelContext.executeTool(tool, {}));
          iframe.remove();
          console.log('removed', iframe.contentWindow);
        });
        try { document.createElement('div'); } catch (e) { console.log(e.message); }
        "#);
    assert_eq!(uncaught(&trace), Vec::<String>::new());
    assert_eq!(
        console(&trace),
        [
            "true null null",
            "inserted true true false",
            "Document.createElement(\"div\") is not modelled by webmcp-sim (only \"iframe\" is)",
            "load load true",
            "https://example.com \"iframe result\"",
            "removed null",
        ]
    );
}

/// WebIDL "call a user object's operation" and "invoke a callback function" ask HTML "check if
/// we can run script" of the callback's own realm: an iframe's callbacks on its parent's objects
/// (listeners as functions, `handleEvent` objects, bound functions, proxies, an event handler,
/// a timer's handler and a microtask's callback) do not run once the iframe is removed, while the
/// parent's own still do.
#[test]
fn a_removed_iframes_callbacks_on_its_parents_objects_do_not_run() {
    let page = r#"
        window.target = new EventTarget();
        target.addEventListener('x', () => console.log('parent listener'));
        setTimeout(() => {
          document.getElementById('child').remove();
          target.dispatchEvent(new Event('x'));
          queueMicrotask(target.childMicrotask);
          queueMicrotask(() => console.log('parent microtask'));
        }, 10);
        setTimeout(() => console.log('parent timer'), 30);
    "#;
    let child = r#"
        const t = parent.target;
        t.addEventListener('x', () => console.log('child listener'));
        t.addEventListener('x', { handleEvent() { console.log('child handleEvent'); } });
        t.addEventListener('x', (function () { console.log('child bound'); }).bind(null));
        t.addEventListener('x', new Proxy(async () => console.log('child proxy'), {}));
        parent.setTimeout(() => console.log('child timer'), 20);
        t.childMicrotask = () => console.log('child microtask');
    "#;
    let trace = run_with(page, Some(child), &[]);
    assert_eq!(uncaught(&trace), Vec::<String>::new());
    assert_eq!(console(&trace), ["parent listener", "parent microtask", "parent timer"]);
}

/// HTML HostEnqueuePromiseJob: a promise reaction job whose handler's realm cannot run script
/// (its document is not fully active) does nothing. QuickJS runs reactions from its own job
/// queue, which the engine cannot look into before a job runs, so a removed iframe's reaction to
/// its parent's promise still runs (docs/model.md, "Callbacks of documents that are not fully
/// active").
#[test]
#[ignore = "known gap: the engine does not check a promise reaction's realm before QuickJS runs the job"]
fn a_removed_iframes_promise_reaction_does_not_run() {
    let page = r#"
        window.holder = new EventTarget();
        holder.p = new Promise((resolve) => { holder.resolve = resolve; });
        setTimeout(() => { document.getElementById('child').remove(); holder.resolve(); }, 10);
    "#;
    let child = "parent.holder.p.then(() => console.log('child reaction'));";
    let trace = run_with(page, Some(child), &[]);
    assert_eq!(console(&trace), Vec::<String>::new());
}

/// executeTool's `tool` is a RegisteredTool dictionary (WebIDL): `description`, `name`,
/// `origin` and `window` are required members, converted in lexicographic order, so a
/// hand-written `{name, origin, window}` rejects with a TypeError before any step runs (as in
/// Chromium), and an `inputSchema` that is not an object does too.
#[test]
fn execute_tool_converts_the_registered_tool_dictionary() {
    logs(
        r#"
        const mc = document.modelContext;
        mc.registerTool({ name: 't', description: 'd', execute: () => 'ok' });
        const seen = [];
        const tool = { get description() { seen.push('description'); return undefined; },
                       get name() { seen.push('name'); return 't'; } };
        const say = (label) => (v) => console.log(label, typeof v === 'string' ? v : v.name, seen.join());
        mc.executeTool(tool, {}).then(say('missing'), say('missing'));
        mc.executeTool({ name: 't', description: 'd', origin: location.origin, window, inputSchema: 1 }, {})
          .then(say('schema'), say('schema'));
        mc.executeTool({ name: 't', description: 'd', origin: location.origin, window }, {}).then(say('whole'), say('whole'));
        "#,
        &["missing TypeError description", "schema TypeError description", "whole \"ok\" description"],
    );
}
