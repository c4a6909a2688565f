//! The plug for a page-script engine other than the action language (JavaScript, in `crates/js`,
//! which depends on this crate; this crate never names it): the `Engine` trait the script
//! interface calls, the handles the simulator keeps to the engine's objects, and the steps an
//! engine calls back into (the IDL method steps and the kernel's primitives, as `pub` methods on
//! `Sim`).
//!
//! An engine's heap cannot be cloned: a `Sim` that holds one is run, replayed and sampled, never
//! explored by the stateful search (which clones states); `explore` refuses such programs.

use std::rc::Rc;

use browser::{DocId, JsValue, LoopId, NavId, PromiseId, PromiseState, SignalId};
use trace::ConsoleLine;

use crate::callback::{Engine, EngineHandle, EngineListeners};
use crate::idl::{ModelContextTool, RegisterToolArgs, RegisteredToolArg};
use crate::kernel::{RunError, Sim};
use crate::program::Program;
use crate::work::Work;

/// Makes the engine for one run of a program.
pub type EngineFactory = fn(&Program) -> Rc<dyn for<'s> Engine<Sim<'s>>>;

/// The engine linked into this process (`link_engine`): which implementation runs page scripts
/// is a property of the binary, not of a program or a run.
static LINKED: std::sync::OnceLock<EngineFactory> = std::sync::OnceLock::new();

/// Links an engine in: every run of a program with page scripts makes its engine with
/// `factory`. The first call wins (a binary links one engine).
pub fn link_engine(factory: EngineFactory) {
    let _ = LINKED.set(factory);
}

/// The steps an engine calls: the IDL method steps and the kernel's primitives, for page script.
impl Sim<'_> {
    /// The engine this run holds, if its program has page scripts an engine runs.
    pub(crate) fn engine(&self) -> Option<Rc<dyn for<'s> Engine<Sim<'s>>>> {
        self.engine.clone()
    }

    /// Makes the linked engine for a program with page scripts (`Sim::new`).
    pub(crate) fn attach_engine(&mut self) -> Result<(), RunError> {
        if !self.program.has_page_scripts() {
            return Ok(());
        }
        let Some(factory) = LINKED.get().copied() else {
            return Err(RunError::NotModelled(
                "this scenario has JavaScript pages, and no engine is linked in (the `js` crate's `js::link`, which the `webmcp-sim` binary calls)".into(),
            ));
        };
        self.engine = Some(factory(self.program));
        Ok(())
    }

    /// `registerTool(tool, options)` from page script.
    pub fn script_register_tool(
        &mut self,
        this: DocId,
        tool: ModelContextTool<'_>,
        exposed_to: Option<&[String]>,
        signal: Option<SignalId>,
    ) -> PromiseId {
        self.model_context_register_tool(this, RegisterToolArgs { tool, exposed_to, signal, as_: None })
    }

    /// `getTools(options)` from page script.
    pub fn script_get_tools(&mut self, this: DocId, from_origins: Option<&[String]>) -> PromiseId {
        self.model_context_get_tools(this, from_origins, None)
    }

    /// `executeTool(tool, inputObject, options)` from page script.
    pub fn script_execute_tool(
        &mut self,
        this: DocId,
        tool: RegisteredToolArg,
        input_object: Option<&JsValue>,
        signal: Option<SignalId>,
    ) -> PromiseId {
        self.model_context_execute_tool(this, tool, input_object, signal, None)
    }

    /// Sets (or clears) the engine's listeners on `this`'s ModelContext: `dispatcher`, a callback
    /// of `realm` that dispatches an event to them, and the event types they are for
    /// (`EngineListeners::TOOLCHANGE`, …; 0 clears).
    pub fn script_listen_model_context(&mut self, this: DocId, realm: DocId, dispatcher: EngineHandle, types: u8) {
        if types & EngineListeners::TOOLCHANGE != 0 {
            if let Some(learned) = self.learning() {
                learned.note_toolchange(&self.world.nav(self.world.doc_info(this).navigable).info.name);
            }
        }
        self.model_contexts[this.index()].engine_listeners =
            (types != 0).then_some(EngineListeners { realm, dispatcher, types });
    }

    /// The RegisteredTool argument for `name`, `origin` and a WindowProxy of navigable `window`.
    pub fn registered_tool_arg(
        &mut self,
        name: &str,
        origin: String,
        window: NavId,
    ) -> Result<RegisteredToolArg, JsValue> {
        let window = self.window_proxy_window(window)?;
        Ok(RegisteredToolArg { name: name.into(), origin, window })
    }

    /// `document.modelContext` of `doc` (the `[SecureContext]` check): Err with the TypeError
    /// reading a member of undefined throws.
    pub fn script_model_context(&mut self, doc: DocId, member: &str) -> Result<DocId, JsValue> {
        self.model_context_of(doc, None, member)
    }

    /// A same-origin iframe's document as `iframe.contentDocument` reaches it from `doc`: the
    /// checks of `model_context_of` (a cross-origin one is a SecurityError).
    pub fn script_content_document(&mut self, doc: DocId, iframe: &str) -> Result<DocId, JsValue> {
        self.same_origin_document(doc, iframe)
    }

    /// `console.log` (or `console.error`, `error`) in `doc`.
    pub fn script_console(&mut self, doc: DocId, text: String, error: bool) {
        let line = ConsoleLine { document: self.label(doc), text };
        self.console_line(("console", if error { "error" } else { "log" }), line, false);
    }

    /// HTML "report an exception": an exception that escaped `doc`'s script.
    pub fn report_exception(&mut self, doc: DocId, text: String) {
        let line = ConsoleLine { document: self.label(doc), text };
        self.console_line(("script", "uncaught exception"), line, true);
    }

    /// A trace note of the running script (a call site, a budget stop).
    pub fn script_note(&mut self, step: (&'static str, &'static str), message: String) {
        if self.record {
            self.note(step, message);
        }
    }

    /// Whether the run models `variant` (a page's platform objects depend on some: the
    /// `tool-events` variant's events).
    pub fn has_variant(&self, variant: scenario::Variant) -> bool {
        self.program.has_variant(variant)
    }

    /// Virtual time in milliseconds.
    pub fn now_ms(&self) -> u64 {
        self.world.now()
    }

    /// `setTimeout(callback, ms)` in `doc`: HTML "run steps after a timeout" with the callback.
    pub fn script_set_timeout(&mut self, doc: DocId, ms: u64, callback: EngineHandle) {
        note!(self, ("HTML", "setTimeout"), "timer set for {ms} ms");
        self.world.run_steps_after_a_timeout(doc, ms, Work::EngineCallback { doc, callback, what: "timer" });
    }

    /// `clearTimeout`: removes the timer that would run `callback`, if it is not yet due (a
    /// due timer's task is already queued; the engine makes it do nothing).
    pub fn script_clear_timeout(&mut self, doc: DocId, callback: EngineHandle) -> bool {
        self.world.clear_timeout(&Work::EngineCallback { doc, callback, what: "timer" })
    }

    /// `new AbortController()` in `doc`.
    pub fn script_new_abort_controller(&mut self, doc: DocId) -> SignalId {
        self.new_abort_controller_in(doc, None)
    }

    /// `controller.abort(reason)`.
    pub fn script_abort(&mut self, signal: SignalId, reason: Option<JsValue>) {
        note!(self, ("DOM", "AbortController abort()"), "abort()");
        self.signal_abort(signal, reason, ("DOM", "signal abort 4.3"));
    }

    /// A signal's aborted flag and abort reason.
    pub fn signal_state(&self, signal: SignalId) -> (bool, JsValue) {
        let s = &self.world.signals[signal];
        (s.aborted, s.reason.clone())
    }

    /// An engine's `abort` listeners on `signal` (its dispatcher, a callback of `doc`'s realm, run
    /// by "signal abort" with the signal's other listeners, in the order they were added).
    pub fn script_add_abort_listener(&mut self, signal: SignalId, doc: DocId, callback: EngineHandle) {
        self.world.signals[signal].listeners.push(Work::EngineCallback { doc, callback, what: "abort listener" });
    }

    /// Removes a dispatcher `script_add_abort_listener` added (its last listener was removed).
    pub fn script_remove_abort_listener(&mut self, signal: SignalId, doc: DocId, callback: EngineHandle) {
        let listener = Work::EngineCallback { doc, callback, what: "abort listener" };
        self.world.signals[signal].listeners.retain(|l| *l != listener);
    }

    /// DOM "add" an abort algorithm (a callback of `doc`'s realm) to `signal`: it runs with the
    /// signal's other abort algorithms, in the order they were added, before its `abort` event.
    pub fn script_add_abort_algorithm(&mut self, signal: SignalId, doc: DocId, callback: EngineHandle) {
        self.world.add_abort_algorithm(signal, Work::EngineCallback { doc, callback, what: "abort algorithm" });
    }

    /// DOM `AbortSignal.abort(reason)` in `doc`'s realm.
    pub fn script_abort_signal_abort(&mut self, doc: DocId, reason: Option<JsValue>) -> SignalId {
        // Step 1. Let signal be a new AbortSignal object.
        let signal = self.new_abort_controller_in(doc, None);
        // Step 2. Set signal's abort reason to reason if it is given; otherwise to a new "AbortError" DOMException.
        // (Nothing listens to a new signal: no abort steps run.)
        let _ = self.world.signal_abort(signal, reason);
        note!(self, ("DOM", "AbortSignal.abort 2"), "a new signal, already aborted");
        // Step 3. Return signal.
        signal
    }

    /// DOM `AbortSignal.timeout(milliseconds)` in `doc`'s realm.
    pub fn script_abort_signal_timeout(&mut self, doc: DocId, ms: u64) -> SignalId {
        // Step 1. Let signal be a new AbortSignal object.
        let signal = self.new_abort_controller_in(doc, None);
        // Step 2. Let global be signal's relevant global object.
        // Step 3. Run steps after a timeout given global, "AbortSignal-timeout", milliseconds, and the following step: …
        note!(self, ("DOM", "AbortSignal.timeout 3"), "signal times out after {ms} ms");
        self.world.run_steps_after_a_timeout(doc, ms, Work::AbortSignalTimeout { signal });
        // Step 4. Return signal.
        signal
    }

    /// DOM `AbortSignal.timeout` step 3.1 (a task on the timer task source).
    pub(crate) fn abort_signal_timeout(&mut self, signal: SignalId) {
        // Step 3.1. Queue a global task on the timer task source given global to signal abort given signal and a new "TimeoutError" DOMException.
        let reason = JsValue::DomException { name: "TimeoutError".into(), message: "signal timed out".into() };
        self.signal_abort(signal, Some(reason), ("DOM", "AbortSignal.timeout 3.1"));
    }

    /// DOM `AbortSignal.any(signals)` in `doc`'s realm: return the result of creating a
    /// dependent abort signal from signals using AbortSignal and the current realm.
    pub fn script_abort_signal_any(&mut self, doc: DocId, signals: &[SignalId]) -> SignalId {
        let signal = self.world.create_a_dependent_abort_signal(signals, doc);
        note!(self, ("DOM", "create a dependent abort signal"), "a signal that follows {} signals", signals.len());
        signal
    }

    /// The Window a WindowProxy of navigable `nav` stands for now: its active document.
    pub fn script_window_of(&mut self, nav: NavId) -> Result<DocId, JsValue> {
        self.window_proxy_window(nav)
    }

    /// `doc`'s URL as the URL Standard's getters give it (HTML `Location`): `href`, `protocol`,
    /// `host`, `hostname`, `port`, `pathname`, `search`, `hash`, in that order.
    pub fn url_parts(&self, doc: DocId) -> [String; 8] {
        let url = &self.world.doc_info(doc).url;
        let hostname = url.host_str().unwrap_or("").to_string();
        let port = url.port().map(|p| p.to_string()).unwrap_or_default();
        let host = if port.is_empty() { hostname.clone() } else { format!("{hostname}:{port}") };
        let prefixed =
            |p: &str, s: Option<&str>| s.filter(|s| !s.is_empty()).map(|s| format!("{p}{s}")).unwrap_or_default();
        [
            url.to_string(),
            format!("{}:", url.scheme()),
            host,
            hostname,
            port,
            url.path().to_string(),
            prefixed("?", url.query()),
            prefixed("#", url.fragment()),
        ]
    }

    /// `iframe.remove()` of the iframe element whose child navigable is `nav`, in `doc`: DOM's
    /// "remove" runs HTML's "destroy a child navigable" (as the action language's `removeIframe`).
    pub fn script_remove_iframe(&mut self, doc: DocId, nav: NavId) -> Result<(), JsValue> {
        if self.world.nav(nav).container_document != Some(doc) {
            return Err(JsValue::type_error(format!("iframe {} is not in this document", self.world.nav(nav).name)));
        }
        self.remove_iframe(nav);
        Ok(())
    }

    /// A page inserts an iframe element it made (`document.createElement('iframe')`,
    /// `document.body.appendChild`) into `container`: HTML's "create a new child navigable" and
    /// the navigation to `src` (resolved against the container's URL), done at once (docs/model.md:
    /// no initial about:blank document, no fetch). The new document's script is the scenario's
    /// resource at the `src` path, if any: it is queued, and the iframe load event after it
    /// runs (`Work::RunResourceScript`); with no resource the document has no script and the
    /// load event is queued at once (`queue_iframe_load_event`). Returns the new navigable.
    ///
    /// Traces and outcomes name the new navigable by the element's `name` attribute (HTML: the
    /// child navigable's target name) when no navigable has that name yet; otherwise by its
    /// container's navigable and the count of iframes page script has inserted there, this one
    /// included (`app-iframe1`, `app-iframe2`, …), as the Chromium driver names it
    /// (tools/chromium-driver/driver.mjs, `navigableOf`).
    pub fn script_insert_iframe(
        &mut self,
        container: DocId,
        src: &str,
        allow: Option<&str>,
        name: &str,
        on_load: EngineHandle,
    ) -> Result<NavId, JsValue> {
        let base = self.world.doc_info(container).url.clone();
        let src = if src.is_empty() { "about:blank" } else { src };
        let url = base.join(src).map_err(|e| JsValue::DomException {
            name: "SyntaxError".into(),
            message: format!("iframe src {src:?}: {e}"),
        })?;
        if url.scheme() == "about" || url.scheme() == "data" || url.scheme() == "javascript" {
            return Err(JsValue::type_error(format!(
                "an iframe of {url} (the initial about:blank document, data: and javascript: URLs) is not modelled by webmcp-sim"
            )));
        }
        let response =
            crate::program::document_response(url.as_str(), &Default::default(), false).map_err(JsValue::type_error)?;
        // The scenario's server: a document it holds at the URL's path (at any origin) runs its
        // script; any other URL gives a document with no script.
        let script = self.program.resource_script(url.path());
        let parent = self.world.doc_info(container).navigable;
        let inserted = self.seldom.inserted_iframes.entry(parent).or_insert(0);
        *inserted += 1;
        let k = *inserted;
        let id = if !name.is_empty() && !self.seldom.nav_by_name.contains_key(name) {
            name.to_string()
        } else {
            let parent = self.world.nav(parent).name.to_string();
            let mut id = format!("{parent}-iframe{k}");
            // (Where the scenario or a name attribute took that name: `app-iframe1-2`, ….)
            let mut n = 1;
            while self.seldom.nav_by_name.contains_key(id.as_str()) {
                n += 1;
                id = format!("{parent}-iframe{k}-{n}");
            }
            id
        };
        let frame = crate::program::FrameSpec {
            id: id.clone(),
            opener: None,
            allow: allow.map(Into::into),
            sandbox: None,
            document: crate::program::DocSpec {
                url: url.to_string(),
                response,
                script: script.unwrap_or(self.program.no_script),
                frames: Vec::new(),
            },
        };
        // A new navigable changes the tree every step that walks it reads.
        self.footprint.touch(crate::footprint::Resource::Global, true);
        self.interpretation(
            ("HTML", "create a new child navigable"),
            if script.is_some() {
                "an iframe a page inserts gets its src document at once (no initial about:blank, no fetch); the document is the scenario's resource at that path, its script queued as it loads"
            } else {
                "an iframe a page inserts gets its src document at once (no initial about:blank, no fetch); the scenario holds no resource at that path, so the document has no script"
            },
        );
        let first_new = self.world.document_count() as u32;
        let nav = self.create_iframe(container, &frame).map_err(|e| JsValue::type_error(e.to_string()))?;
        note!(self, ("HTML", "create a new child navigable"), "navigable {id} created, showing {url}");
        // The new document's script (a resource's), on the networking task source, as the
        // scenario's own documents' scripts are queued (`Sim::queue_script`); the load event is
        // queued when it has run.
        if let Some(script) = script {
            let doc = DocId(first_new);
            let work = Work::RunResourceScript { doc, script, container, on_load };
            self.world.queue_global_task(browser::TaskSource::Networking, doc, work);
            return Ok(nav);
        }
        self.queue_iframe_load_event(container, on_load);
        Ok(nav)
    }

    /// HTML "completely finish loading" 6, for an iframe a page inserted: queue an element task
    /// on the DOM manipulation task source given the container to run the iframe load event
    /// steps (`on_load`, the element's `load` dispatcher).
    pub(crate) fn queue_iframe_load_event(&mut self, container: DocId, on_load: EngineHandle) {
        self.queue_global_task(
            browser::TaskSource::DomManipulation,
            container,
            Work::EngineCallback { doc: container, callback: on_load, what: "iframe load event" },
            ("HTML", "completely finish loading 6"),
        );
    }

    /// HTML `window.parent`: the parent navigable of `nav` (None for a top-level traversable,
    /// whose `parent` is itself).
    pub fn script_parent_navigable(&self, nav: NavId) -> Option<NavId> {
        self.world.nav(nav).info.parent
    }

    /// The WindowProxy's indexed access (`window[index]`, `frames[index]`; HTML "document-tree
    /// child navigables" of the navigable's active document, in tree order): the child at
    /// `index`, and how many there are (`window.length`).
    pub fn script_child_navigable_at(&mut self, nav: NavId, index: usize) -> (Option<NavId>, usize) {
        // Which children the navigable has follows from its active document (a navigation of it
        // unloads that document) and their documents (removing an iframe unloads its document;
        // inserting one touches everything).
        match self.world.nav(nav).active_document {
            Some(doc) => self.touch_lifecycle_of(doc),
            None => self.footprint.touch(crate::footprint::Resource::Global, false),
        }
        let children: Vec<NavId> = self.world.child_navigables(nav).filter(|c| !self.world.nav(*c).destroyed).collect();
        for child in &children {
            match self.world.nav(*child).active_document {
                Some(doc) => self.touch_lifecycle_of(doc),
                None => self.footprint.touch(crate::footprint::Resource::Global, false),
            }
        }
        (children.get(index).copied(), children.len())
    }

    /// HTML `window.top`: the traversable navigable of `nav`.
    pub fn script_top_navigable(&self, nav: NavId) -> NavId {
        self.world.nav(nav).info.traversable
    }

    /// Whether script in `doc` may reach the objects of `target`'s realm: same origin and the
    /// same agent (event loop), as `contentDocument` requires (a WindowProxy of a cross-origin
    /// Window offers only HTML's cross-origin properties).
    pub fn script_can_reach(&mut self, doc: DocId, target: DocId) -> bool {
        self.touch_lifecycle_of(target);
        let (d, t) = (self.world.doc_info(doc), self.world.doc_info(target));
        target == doc || (d.origin.same_origin(&t.origin) && d.event_loop == t.event_loop)
    }

    /// HTML window post message steps 3–5: `targetOrigin` as given ("*" stays, "/" is `doc`'s
    /// origin, otherwise the origin of the URL it parses to), or a "SyntaxError" DOMException.
    pub fn script_target_origin(&self, doc: DocId, target_origin: &str) -> Result<Option<browser::Origin>, JsValue> {
        // Step 4. If targetOrigin is a single U+002F SOLIDUS character (/), then set targetOrigin to incumbentSettings's origin.
        if target_origin == "/" {
            return Ok(Some(self.world.doc_info(doc).origin.clone()));
        }
        // Step 5. Otherwise, if targetOrigin is not a single U+002A ASTERISK character (*), then: 5.1. Let parsedURL be the result of running the URL parser on targetOrigin. 5.2. If parsedURL is failure, then throw a "SyntaxError" DOMException. 5.3. Set targetOrigin to parsedURL's origin.
        if target_origin == "*" {
            return Ok(None);
        }
        let parsed = url::Url::parse(target_origin).map_err(|_| JsValue::DomException {
            name: "SyntaxError".into(),
            message: format!("Failed to execute 'postMessage' on 'Window': Invalid target origin '{target_origin}'"),
        })?;
        let mut opaque = u32::MAX;
        Ok(Some(browser::Origin::of_url(&parsed, &mut opaque)))
    }

    /// HTML window post message steps 8.1: whether `target`'s origin is same origin with the
    /// target origin (None: "*").
    pub fn script_origin_allows(&self, target: DocId, target_origin: Option<&browser::Origin>) -> bool {
        target_origin.is_none_or(|o| self.world.doc_info(target).origin.same_origin(o))
    }

    /// A global task on `source` for `doc` that runs the engine's `callback` (HTML "queue a
    /// global task": the rejected promises' notification, a posted message).
    pub fn script_queue_global_task(
        &mut self,
        source: browser::TaskSource,
        doc: DocId,
        callback: EngineHandle,
        what: &'static str,
        step: (&'static str, &'static str),
    ) {
        self.queue_global_task(source, doc, Work::EngineCallback { doc, callback, what }, step);
    }

    /// A new promise in `doc`'s realm, for a callback's result.
    pub fn script_new_promise(&mut self, doc: DocId) -> PromiseId {
        self.new_unnamed_promise(doc)
    }

    /// Resolves or rejects a promise the engine made (`script_new_promise`).
    pub fn script_settle(&mut self, promise: PromiseId, result: Result<JsValue, JsValue>) {
        self.settle(promise, result, (crate::cite::IMPERATIVE, "8"));
    }

    /// Asks for `Engine::promise_settled` once `promise` settles (a reaction, run as a microtask).
    /// `site`: the page call site of a `registerTool` without a signal or a `getTools`, whose
    /// promise's settling may be an inert task while the search explores
    /// (`crate::inert::learned`); the engine then reports every read of the page's promise
    /// (`script_promise_read`).
    pub fn mirror_promise(&mut self, promise: PromiseId, site: Option<&str>) {
        self.world.react(promise, Work::EngineSettle { promise });
        self.seldom.page_promises.insert(promise, site.map(Rc::from));
    }

    /// Page script read the page promise that mirrors `promise` (its `then` or `constructor`,
    /// which every reaction to a promise reads): while exploring, a promise made at its call
    /// site is no longer taken as one nobody reads (`crate::inert::learned`).
    pub fn script_promise_read(&mut self, promise: PromiseId) {
        let Some(learned) = self.learning() else { return };
        if let Some(Some(site)) = self.seldom.page_promises.get(&promise) {
            learned.note_read(site);
        }
    }

    /// The facts the running search learns about pages, if it does.
    fn learning(&self) -> Option<&crate::inert::learned::Learned> {
        self.eager_inert.as_ref().and_then(|facts| facts.learned.as_deref())
    }

    /// A promise's state.
    pub fn promise_state(&self, promise: PromiseId) -> &PromiseState {
        &self.world.promises[promise].state
    }

    /// The event loop of `doc`'s agent.
    pub fn event_loop_of(&self, doc: DocId) -> LoopId {
        self.world.doc_info(doc).event_loop
    }

    /// The navigable that shows `doc`.
    pub fn navigable_of(&self, doc: DocId) -> NavId {
        self.world.doc_info(doc).navigable
    }

    /// `self.origin`: `doc`'s origin, serialized.
    pub fn origin_of(&self, doc: DocId) -> String {
        self.world.doc_info(doc).origin.to_string()
    }

    /// The iframe `id` that is a child navigable of `doc`'s (`document.getElementById`).
    pub fn child_navigable(&self, doc: DocId, id: &str) -> Option<NavId> {
        let nav = *self.seldom.nav_by_name.get(id)?;
        (self.world.nav(nav).container_document == Some(doc)).then_some(nav)
    }

    /// The id (scenario name) of navigable `nav`.
    pub fn navigable_name(&self, nav: NavId) -> String {
        self.world.nav(nav).name.to_string()
    }
}
