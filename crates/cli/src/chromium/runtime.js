// The in-page half of `webmcp-sim chromium` (crates/cli/src/chromium.rs): every served document
// starts with this function, called with its configuration; the compiled scenario script calls
// the returned helpers. Each observation is one console.debug record (marker + JSON) in the
// document's own order: console lines, promise creations and settlements, uncaught exceptions.
// Values are rendered in the simulator's outcome notation (browser::JsValue::render).
(cfg) => {
  const MARK = '\u2063wmcp';
  const debug = console.debug.bind(console);
  const realSetTimeout = setTimeout;
  const DOM_NAMES = ['AbortError', 'DataError', 'InvalidStateError', 'NotAllowedError', 'NotFoundError',
    'NotSupportedError', 'SecurityError', 'TimeoutError', 'UnknownError'];
  const specials = new WeakMap();
  const W = { P: {}, V: {}, C: {}, timers: 0, label: cfg.label };
  // Every record carries its emitter (`src`) and a sequence number (`n`): the driver receives
  // each record on two channels and keeps the first copy (docs/chromium.md). The emitter is
  // this document instance, not its label: a page reloaded in its navigable (location.reload,
  // a bfcache restore that reloads) has the same label and starts counting from 1 again.
  // (`crypto.randomUUID` is for secure contexts only: an insecure page's instance is random too.)
  const unique = typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Math.random()}`.slice(2) + `${Math.random()}`.slice(2);
  const instance = `${cfg.label}#${unique}`;
  let seq = 0;
  const rec = (k, o = {}) => {
    o.d = o.d ?? cfg.label;
    o.k = k;
    o.src = instance;
    o.n = ++seq;
    debug(MARK + JSON.stringify(o));
  };
  W.rec = rec;
  const kind = (v) => Object.prototype.toString.call(v);
  const isError = (e) => e !== null && typeof e === 'object' && typeof e.name === 'string' && typeof e.message === 'string'
    && (kind(e) === '[object Error]' || kind(e) === '[object DOMException]');
  const isWindow = (v) => { try { return v !== null && typeof v === 'object' && v.window === v; } catch { return false; } };
  // Every window of this tab, with the navigable ids the plan gave their frame paths.
  const windows = () => {
    const out = [[top, cfg.tab]];
    const walk = (w, path) => {
      let n = 0;
      try { n = w.length; } catch { return; }
      for (let i = 0; i < n; i++) {
        const c = w[i];
        const p = path === '' ? String(i) : path + '/' + i;
        out.push([c, cfg.frames[p] ?? '?']);
        walk(c, p);
      }
    };
    walk(top, '');
    return out;
  };
  W.render = (v, seen = []) => {
    if (v === undefined) return 'undefined';
    if (v === null) return 'null';
    switch (typeof v) {
      case 'boolean': return String(v);
      case 'number': return String(v);
      case 'string': return JSON.stringify(v);
      case 'bigint': return String(v) + 'n';
      case 'function': return '<function>';
    }
    if (specials.has(v)) return specials.get(v);
    if (isWindow(v)) {
      const found = windows().find(([w]) => w === v);
      return '<Window of ' + (found ? found[1] : '?') + '>';
    }
    if (kind(v) === '[object DOMException]') return 'DOMException(' + v.name + (v.message ? ': ' + v.message : '') + ')';
    if (kind(v) === '[object Error]') return v.name + '(' + JSON.stringify(v.message) + ')';
    if (seen.includes(v)) return '<object with a cycle>';
    const inner = [...seen, v];
    if (Array.isArray(v)) return '[' + v.map((x) => W.render(x, inner)).join(', ') + ']';
    return '{' + Object.keys(v).map((k) => k + ': ' + W.render(v[k], inner)).join(', ') + '}';
  };
  // A rejection or abort reason as the simulator writes it: an Error's or DOMException's name,
  // else the value.
  const settled = (e) => (isError(e) ? e.name : W.render(e));
  W.settled = settled;
  // The `{"$js": …}` values JSON cannot write.
  W.special = (what) => {
    let v;
    if (what === 'cycle') { v = {}; v.self = v; specials.set(v, '<object with a cycle>'); }
    else if (what === 'toJSON-undefined') { v = { toJSON() { return undefined; } }; specials.set(v, '<object whose toJSON returns undefined>'); }
    else if (what === 'function') v = function () {};
    else if (what === 'bigint') v = 1n;
    else v = undefined;
    return v;
  };
  W.log = (text) => { console.log(text); rec('log', { t: text }); };
  // A script, callback or handler body: an exception that escapes is uncaught.
  W.body = (f) => { try { f(); } catch (e) { rec('uncaught', { t: W.render(e) }); } };
  // The promises a `then` returned: one its reaction's exception rejected, which nothing
  // handles, is reported by HTML's "notify about rejected promises", as the simulator reports an
  // action list's (crates/webmcp/src/script.rs, `run_promise_reaction`).
  W.derived = new WeakSet();
  addEventListener('unhandledrejection', (e) => {
    if (W.derived.has(e.promise)) rec('uncaught', { t: 'Uncaught (in promise) ' + W.render(e.reason) });
  });
  W.timer = (ms, f) => {
    W.timers++;
    rec('timers', { c: W.timers });
    realSetTimeout(() => { W.timers--; rec('timers', { c: W.timers }); f(); }, ms * cfg.scale);
  };
  // A promise the scenario names with `as`: record it, and its settlement.
  // A promise the scenario names with `as`, made in the realm of the document whose
  // modelContext made it (`target`, a navigable id, or null for this document): record it, and
  // its settlement, under that document's label.
  W.prom = (name, target, p) => {
    if (name === null) return p;
    const d = W.labelOf(target);
    W.P[name] = p;
    rec('promise', { p: name, d });
    p.then((v) => { W.V[name] = v; rec('settle', { p: name, d, s: 'fulfilled(' + W.render(v) + ')' }); },
      (e) => rec('settle', { p: name, d, s: 'rejected(' + settled(e) + ')' }));
    return p;
  };
  W.labelOf = (id) => {
    if (id === null || id === cfg.nav) return cfg.label;
    try {
      const w = W.win(id);
      if (w) return w.__wmcp.label;
    } catch {}
    return (gone[id] && gone[id][2]) ?? id;
  };
  // A promise or controller a script names: its own, or one made in a same-origin document of
  // the tab (the simulator's "same agent"); otherwise a ReferenceError, as an unshared variable.
  W.lookup = (store, name) => {
    if (name in W[store]) return W[store][name];
    for (const [w] of windows()) {
      try {
        const o = w.__wmcp;
        if (o && name in o[store]) return o[store][name];
      } catch {}
    }
    throw new ReferenceError(name + ' is not defined');
  };
  // The window of the navigable `id` (iframe.contentWindow, parent, top), or null.
  W.win = (id) => {
    if (id === cfg.tab) return top;
    const queue = [top];
    while (queue.length) {
      const w = queue.shift();
      try {
        const c = w[id];
        if (isWindow(c)) return c;
      } catch {}
      let n = 0;
      try { n = w.length; } catch {}
      for (let i = 0; i < n; i++) queue.push(w[i]);
    }
    return null;
  };
  // `document.modelContext` of this document or of another one (`iframe.contentDocument`).
  // A removed iframe's window and document stay reachable through references taken before
  // (as the simulator keeps a navigable's last active document): remember the iframes' ones.
  const gone = {};
  const remember = () => {
    for (const f of document.querySelectorAll('iframe')) {
      try { gone[f.name] = [f.contentWindow, f.contentDocument, f.contentWindow.__wmcp.label]; } catch {}
    }
  };
  W.doc = (id) => {
    if (id === null || id === cfg.nav) return document;
    const w = W.win(id);
    if (!w) {
      if (gone[id] && gone[id][1]) return gone[id][1];
      throw new TypeError('navigable ' + id + ' has no document');
    }
    return w.document;
  };
  W.fromGetTools = (promise, name) => {
    W.lookup('P', promise);
    let v;
    try { v = W.lookup('V', promise); } catch { v = undefined; }
    if (!Array.isArray(v)) throw new TypeError(promise + ' is not a fulfilled getTools() result');
    const t = v.find((t) => t.name === name);
    if (!t) throw new TypeError("Cannot read properties of undefined (reading 'name')");
    return t;
  };
  W.window = (id) => {
    const w = W.win(id) ?? (gone[id] && gone[id][0]);
    if (!w) throw new TypeError('navigable ' + id + ' has no window');
    return w;
  };
  W.throw = (name, message) => {
    if (DOM_NAMES.includes(name)) throw new DOMException(message, name);
    throw new globalThis[name](message);
  };
  W.navigate = (id, url) => {
    if (id === cfg.nav) { location.href = url; return; }
    const w = W.win(id);
    if (!w) throw new TypeError('navigable ' + id + ' has no document');
    w.location.href = url;
  };
  W.removeIframe = (id) => {
    const f = [...document.querySelectorAll('iframe')].find((f) => f.name === id);
    if (!f) throw new TypeError('iframe ' + id + ' is not in this document');
    remember();
    f.remove();
  };
  // `arm`: the driver's number for a document it served to a JavaScript page's navigation or
  // iframe, sent back when the document starts and when it is gone.
  const armed = () => (cfg.arm === undefined ? {} : { arm: cfg.arm });
  W.start = (busy, f) => {
    // The driver waits for every initial document's start before it counts quiescence.
    rec('started', armed());
    const end = performance.now() + busy;
    while (performance.now() < end) {}
    remember();
    W.body(f);
  };
  addEventListener('pagehide', () => rec('gone', armed()));
  // A page restored from the back/forward cache says so (`restored`, pageshow.persisted):
  // crates/cli/src/chromium.rs counts these against the scenario's restoreFromBfcache steps (a
  // run short of them reloaded a page and did not test the cache). Entering the cache has no
  // such record: a record logged at pagehide by a page that stays cached never reaches DevTools.
  
  addEventListener('pageshow', (e) => { if (e.persisted) { rec('restored'); rec('timers', { c: W.timers }); } });
  window.__wmcp = W;
  // The browser's own setTimeout, for the driver's start barrier: a JavaScript page's prelude
  // (jspage.js) scales the page's setTimeout by --time-scale.
  window.__wmcp_setTimeout = realSetTimeout;
  return W;
}
