// The instrumentation prelude of a JavaScript page in `webmcp-sim chromium` (docs/chromium.md,
// "JavaScript pages"): run after runtime.js in every document of a scenario whose pages are
// JavaScript (`js`, `jsFile`, `resources`), before the page's own script, it records what the
// simulator's outcome holds of a JavaScript page, as the simulator names and renders it:
// - console lines: console.log/info/debug/warn/error, the arguments formatted as the
//   simulator's console does (crates/js/src/prelude/window.js, `format`);
// - each WebMCP promise the page gets, `registerTool#N@doc`, `getTools#N@doc`,
//   `executeTool#N@doc` (N counting that method's calls in the document whose modelContext made
//   it, crates/webmcp/src/kernel.rs `api_promise`), and how it settled, rendered as runtime.js
//   renders values. A call whose arguments the simulator's WebIDL conversion refuses
//   (crates/js/src/model_context.rs) gets no label there, so it gets none here (`converts`);
// - uncaught exceptions and unhandled rejections, as the simulator's HTML "report an exception"
//   and "notify about rejected promises" write them (crates/js/src/convert.rs,
//   `describe_exception`), only when no page listener cancelled the event.
// Timers: setTimeout/setInterval and AbortSignal.timeout wait `ms` × `--time-scale` real ms,
// and pending timers are counted for the driver's quiescence (the `timers` record).
// Returns the function that runs the page's script as a classic script of the document.
(W, cfg) => {
  const rec = W.rec;
  const realSetTimeout = setTimeout;
  const realClearTimeout = clearTimeout;
  const realSetInterval = setInterval;
  const realClearInterval = clearInterval;
  const realThen = Promise.prototype.then;
  const kind = (v) => Object.prototype.toString.call(v);
  const pending = new Map();
  const timerRecord = () => rec('timers', { c: W.timers });
  // Timers on the scenario's scale: 1 virtual ms is `cfg.scale` real ms.
  const scaled = (ms) => {
    const n = Number(ms);
    return n > 0 ? n * cfg.scale : 0;
  };
  globalThis.setTimeout = function setTimeout(handler, ms, ...args) {
    let id;
    const run = typeof handler === 'function'
      ? function () { pending.delete(id); W.timers--; timerRecord(); return handler.apply(this, args); }
      : handler;
    id = realSetTimeout(run, scaled(ms));
    if (typeof handler === 'function') { pending.set(id, 'timeout'); W.timers++; timerRecord(); }
    return id;
  };
  globalThis.setInterval = function setInterval(handler, ms, ...args) {
    const id = realSetInterval(handler, scaled(ms), ...args);
    pending.set(id, 'interval'); W.timers++; timerRecord();
    return id;
  };
  const clear = (real) => function (id) {
    if (pending.has(id)) { pending.delete(id); W.timers--; timerRecord(); }
    return real(id);
  };
  globalThis.clearTimeout = clear(realClearTimeout);
  globalThis.clearInterval = clear(realClearInterval);
  if (typeof AbortSignal === 'function' && typeof AbortSignal.timeout === 'function') {
    const realTimeout = AbortSignal.timeout;
    AbortSignal.timeout = function timeout(ms) {
      const signal = realTimeout.call(this, scaled(ms));
      W.timers++; timerRecord();
      signal.addEventListener('abort', () => { W.timers--; timerRecord(); }, { once: true });
      return signal;
    };
  }

  // The console, formatted as the simulator's (prelude/window.js `format`).
  const format = (args) => args.map((a) => {
    if (typeof a === 'string') return a;
    if (a instanceof Error) return `${a.name}: ${a.message}`;
    if (a !== null && typeof a === 'object') {
      try { return JSON.stringify(a); } catch (e) { return String(a); }
    }
    return String(a);
  }).join(' ');
  for (const method of ['log', 'info', 'debug', 'warn', 'error']) {
    const real = console[method].bind(console);
    console[method] = function (...args) {
      let text;
      try { text = format(args); } catch (e) { text = '<unformattable>'; }
      rec('log', { t: text });
      return real(...args);
    };
  }

  // Uncaught exceptions as the simulator describes them (`describe_exception`, without the call
  // site): an object's `name: message`, a primitive's `Uncaught value`.
  const describe = (e) => {
    if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
      let name = 'Error';
      let message = '';
      try { if (typeof e.name === 'string') name = e.name; } catch {}
      try { if (typeof e.message === 'string') message = e.message; } catch {}
      return `${name}: ${message}`;
    }
    if (typeof e === 'symbol') return 'Uncaught a value';
    return `Uncaught ${String(e)}`;
  };
  // Recorded once every listener has run, unless one cancelled the event (the simulator reports
  // only then, as HTML's "report an exception" and "notify about rejected promises" say).
  addEventListener('error', (e) => {
    if (!(e instanceof ErrorEvent)) return;
    const text = describe(e.error);
    realSetTimeout(() => { if (!e.defaultPrevented) rec('uncaught-js', { t: text }); }, 0);
  });
  addEventListener('unhandledrejection', (e) => {
    const d = describe(e.reason);
    const text = 'Uncaught (in promise) ' + (d.startsWith('Uncaught ') ? d.slice('Uncaught '.length) : d);
    realSetTimeout(() => { if (!e.defaultPrevented) rec('uncaught-js', { t: text }); }, 0);
  });

  // Whether the simulator's WebIDL conversion of a call's arguments succeeds (then the call gets
  // a labelled promise there): the checks of crates/js/src/model_context.rs, in its order.
  const dict = (v) => {
    if (v === undefined || v === null) return {};
    if (typeof v !== 'object' && typeof v !== 'function') throw new TypeError('not a dictionary');
    return v;
  };
  const str = (v) => { if (typeof v === 'symbol') throw new TypeError('symbol'); return String(v); };
  const required = (d, k) => { const v = d[k]; if (v === undefined) throw new TypeError(k); str(v); };
  const optional = (d, k) => { const v = d[k]; if (v !== undefined) str(v); };
  const list = (d, k) => {
    const v = d[k];
    if (v === undefined) return;
    if (!Array.isArray(v)) throw new TypeError(k);
    v.forEach(str);
  };
  const signal = (d) => {
    const s = d.signal;
    if (s !== undefined && kind(s) !== '[object AbortSignal]') throw new TypeError('signal');
  };
  const isWindow = (v) => { try { return v !== null && typeof v === 'object' && v.window === v; } catch { return false; } };
  const converts = {
    registerTool(tool, options) {
      const t = dict(tool);
      required(t, 'name');
      required(t, 'description');
      optional(t, 'title');
      if (typeof t.execute !== 'function') throw new TypeError('execute');
      if (t.annotations !== undefined) dict(t.annotations);
      const o = dict(options);
      signal(o);
      list(o, 'exposedTo');
    },
    getTools(options) {
      list(dict(options), 'fromOrigins');
    },
    executeTool(tool, input, options) {
      const t = dict(tool);
      if (t.annotations !== undefined) dict(t.annotations);
      required(t, 'description');
      if (t.inputSchema !== undefined && (t.inputSchema === null || (typeof t.inputSchema !== 'object' && typeof t.inputSchema !== 'function'))) throw new TypeError('inputSchema');
      required(t, 'name');
      required(t, 'origin');
      optional(t, 'title');
      if (!isWindow(t.window)) throw new TypeError('window');
      signal(dict(options));
    },
  };
  // The page gets a promise that follows the API's (one microtask later): the recorder's
  // reaction handles the API's own promise, and whether the page handles its rejection stays
  // the page's (an unhandled rejection is still reported).
  // How a promise of this document is recorded: its creation, then its settlement.
  W.observe = (p, name, d) => {
    rec('promise', { p: name, d });
    return realThen.call(p,
      (v) => { rec('settle', { p: name, d, s: 'fulfilled(' + W.render(v) + ')' }); return v; },
      (e) => { rec('settle', { p: name, d, s: 'rejected(' + W.settled(e) + ')' }); throw e; });
  };
  // Once this document is a removed iframe's (no browsing context: `defaultView` is null), its
  // console no longer reaches DevTools and promise jobs of its realm no longer run (HTML's
  // HostEnqueuePromiseJob skips a realm that is not fully active), so a call a live document
  // makes on its modelContext is recorded through its parent's runtime (same origin), under this
  // document's label.
  let relay = null;
  try { if (parent !== window && parent.__wmcp && parent.__wmcp.observe) relay = parent.__wmcp; } catch {}
  const counts = { registerTool: 0, getTools: 0, executeTool: 0 };
  // The methods are wrapped on the interface's prototype, without reading
  // `document.modelContext`: Chromium 156 creates a document's ModelContext when a script first
  // reads it, and one created in the task that registers a tool sometimes misses that tool's
  // `toolchange` (docs/chromium.md). Reading it here, before the page's script, hid that bug in
  // every JavaScript page. A ModelContext whose prototype is this realm's is this document's.
  // (A browser without the `ModelContext` interface object falls back to reading it.)
  const proto = typeof ModelContext === 'function' && ModelContext.prototype
    ? ModelContext.prototype
    : (document.modelContext ? Object.getPrototypeOf(document.modelContext) : null);
  if (proto) {
    for (const method of Object.keys(counts)) {
      const real = proto[method];
      if (typeof real !== 'function') continue;
      const wrapped = {
        [method](...args) {
          let labelled = this !== null && typeof this === 'object' && Object.getPrototypeOf(this) === proto;
          if (labelled) {
            try { converts[method](...args); } catch { labelled = false; }
          }
          const p = real.apply(this, args);
          // A removed iframe's document makes its promise in the caller's realm: any promise.
          if (!labelled || p === null || typeof p !== 'object' || typeof p.then !== 'function') return p;
          const name = `${method}#${++counts[method]}@${cfg.label}`;
          const recorder = document.defaultView === null && relay !== null ? relay : W;
          return recorder.observe(p, name, cfg.label);
        },
      }[method];
      Object.defineProperty(proto, method, { value: wrapped, writable: true, enumerable: true, configurable: true });
    }
  }

  // Runs the page's script as a classic script of this document (its errors reach `error`).
  return (source, file) => {
    const script = document.createElement('script');
    script.textContent = source + '\n//# sourceURL=' + file;
    (document.head ?? document.documentElement).appendChild(script);
    script.remove();
  };
}
