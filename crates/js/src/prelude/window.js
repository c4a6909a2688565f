// The realm's setup, run once when a document's realm is made: the platform objects of `window`
// that are written in JavaScript over the host's natives (`natives`, never visible to the page).
// The Rust file of each interface says which steps its members implement. Returns the helpers the
// host calls.
(function (natives, selfNav) {
  "use strict";
  const global = globalThis;
  const NAV = Symbol("navigable");
  const SIGNAL = Symbol("signal");

  // A member the simulator does not model throws a TypeError naming it (docs/scenario-format.md).
  const passThrough = new Set(["then", "toJSON", "constructor", "valueOf", "toString"]);
  function guarded(target, iface) {
    return new Proxy(target, {
      get(t, p, r) {
        if (typeof p === "string" && !(p in t) && !passThrough.has(p)) {
          throw new TypeError(`${iface}.${p} is not modelled by webmcp-sim`);
        }
        return Reflect.get(t, p, r);
      },
    });
  }

  // WebIDL DOMException.
  class DOMException extends Error {
    constructor(message = "", name = "Error") {
      super(String(message));
      Object.defineProperty(this, "name", { value: String(name), writable: true, configurable: true });
    }
  }
  Object.defineProperty(DOMException.prototype, "name", { value: "DOMException", writable: true, configurable: true });

  // Events: a plain Event with `type` and `target`.
  function makeEvent(type, target) {
    return guarded({ type, target, currentTarget: target, defaultPrevented: false }, "Event");
  }

  // DOM AbortSignal, one wrapper per signal per realm.
  const signals = new Map();
  function signalFor(realm, seq) {
    const key = `${realm}:${seq}`;
    let signal = signals.get(key);
    if (signal) return signal;
    let onabort = null;
    let listening = false;
    const target = {
      get aborted() { return natives.signalAborted(realm, seq); },
      get reason() { return natives.signalReason(realm, seq); },
      throwIfAborted() { if (natives.signalAborted(realm, seq)) throw natives.signalReason(realm, seq); },
      get onabort() { return onabort; },
      set onabort(handler) {
        onabort = typeof handler === "function" ? handler : null;
        if (!listening) {
          listening = true;
          natives.signalListen(realm, seq, () => { if (onabort) onabort.call(signal, makeEvent("abort", signal)); });
        }
      },
      addEventListener(type, listener) {
        if (type !== "abort") throw new TypeError(`AbortSignal.addEventListener(${JSON.stringify(String(type))}) is not modelled by webmcp-sim`);
        if (typeof listener === "function") natives.signalListen(realm, seq, () => listener.call(signal, makeEvent("abort", signal)));
      },
      [SIGNAL]: [realm, seq],
      [Symbol.toStringTag]: "AbortSignal",
    };
    signal = guarded(target, "AbortSignal");
    signals.set(key, signal);
    return signal;
  }
  function signalOf(value) {
    const id = value !== null && typeof value === "object" ? value[SIGNAL] : undefined;
    if (!id) throw new TypeError("options.signal is not an AbortSignal");
    return id;
  }

  // DOM AbortController.
  class AbortController {
    constructor() {
      const [realm, seq] = natives.newController();
      Object.defineProperty(this, "signal", { value: signalFor(realm, seq), enumerable: true });
      return guarded(this, "AbortController");
    }
    abort(reason) {
      const [realm, seq] = this.signal[SIGNAL];
      natives.abort(realm, seq, reason);
    }
  }

  // HTML WindowProxy stand-ins for other navigables (this realm's own is `window`).
  const windows = new Map();
  function windowFor(nav) {
    if (nav === selfNav) return windowProxy;
    let w = windows.get(nav);
    if (!w) {
      w = guarded({ [NAV]: nav, [Symbol.toStringTag]: "Window" }, "Window (another navigable)");
      windows.set(nav, w);
    }
    return w;
  }
  function navOf(value) {
    if (value === windowProxy || value === global) return selfNav;
    return value !== null && typeof value === "object" && typeof value[NAV] === "number" ? value[NAV] : -1;
  }

  // WebMCP ModelContext, one per document this realm reaches.
  const contexts = new Map();
  function modelContextFor(doc) {
    let mc = contexts.get(doc);
    if (mc) return mc;
    let ontoolchange = null;
    mc = guarded({
      registerTool(tool, options) { return natives.registerTool(doc, tool, options); },
      getTools(options) { return natives.getTools(doc, options); },
      executeTool(tool, inputObject, options) { return natives.executeTool(doc, tool, inputObject, options); },
      get ontoolchange() { return ontoolchange; },
      set ontoolchange(handler) {
        ontoolchange = typeof handler === "function" ? handler : null;
        natives.setOnToolchange(doc, ontoolchange && (() => ontoolchange.call(mc, makeEvent("toolchange", mc))));
      },
      [Symbol.toStringTag]: "ModelContext",
    }, "ModelContext");
    contexts.set(doc, mc);
    return mc;
  }

  // DOM Document, one per document this realm reaches.
  const documents = new Map();
  function documentFor(doc) {
    let d = documents.get(doc);
    if (d) return d;
    d = guarded({
      get modelContext() { return natives.secureContext(doc) ? modelContextFor(doc) : undefined; },
      getElementById(id) {
        const nav = natives.childNavigable(doc, String(id));
        return nav < 0 ? null : iframeFor(doc, String(id), nav);
      },
      [Symbol.toStringTag]: "Document",
    }, "Document");
    documents.set(doc, d);
    return d;
  }

  // HTML HTMLIFrameElement, for the iframes the scenario declares (by their `id`).
  const iframes = new Map();
  function iframeFor(doc, id, nav) {
    const key = `${doc}:${id}`;
    let element = iframes.get(key);
    if (element) return element;
    element = guarded({
      id,
      get contentDocument() {
        const target = natives.contentDocument(doc, id);
        return target < 0 ? null : documentFor(target);
      },
      get contentWindow() { return windowFor(nav); },
      [Symbol.toStringTag]: "HTMLIFrameElement",
    }, "HTMLIFrameElement");
    iframes.set(key, element);
    return element;
  }

  // The console.
  function format(args) {
    return args.map((a) => {
      if (typeof a === "string") return a;
      if (a instanceof Error) return `${a.name}: ${a.message}`;
      if (a !== null && typeof a === "object") {
        try { return JSON.stringify(a); } catch (e) { return String(a); }
      }
      return String(a);
    }).join(" ");
  }
  const console = {
    log: (...args) => natives.log(false, format(args)),
    info: (...args) => natives.log(false, format(args)),
    warn: (...args) => natives.log(true, format(args)),
    error: (...args) => natives.log(true, format(args)),
  };

  // HTML timers and queueMicrotask.
  function setTimeout(handler, timeout = 0, ...args) {
    if (typeof handler !== "function") throw new TypeError("setTimeout with a string handler is not modelled by webmcp-sim");
    let ms = Number(timeout);
    if (!(ms > 0)) ms = 0;
    return natives.setTimeout(() => handler(...args), Math.floor(ms));
  }
  function clearTimeout(id) { natives.clearTimeout(Number(id) | 0); }
  function queueMicrotask(callback) {
    if (typeof callback !== "function") throw new TypeError("queueMicrotask: the callback is not a function");
    Promise.resolve().then(() => { try { callback(); } catch (e) { natives.report(e); } });
  }

  // No wall clock: Date and performance read virtual time; Math.random is seeded.
  const RealDate = Date;
  class VirtualDate extends RealDate {
    constructor(...args) { if (args.length === 0) super(natives.now()); else super(...args); }
    static now() { return natives.now(); }
  }
  const DateProxy = new Proxy(VirtualDate, { apply() { return new RealDate(natives.now()).toString(); } });
  const performance = guarded({ now: () => natives.now(), timeOrigin: 0 }, "Performance");
  Math.random = natives.random;

  const windowProxy = new Proxy(global, {
    get(t, p, r) {
      if (typeof p === "string" && !(p in t) && !passThrough.has(p)) {
        throw new TypeError(`Window.${p} is not modelled by webmcp-sim`);
      }
      return Reflect.get(t, p, r);
    },
  });
  const own = {
    window: windowProxy, self: windowProxy, document: documentFor(natives.selfDocument),
    console, setTimeout, clearTimeout, queueMicrotask, performance,
    Date: DateProxy, DOMException, AbortController,
    origin: natives.origin,
  };
  for (const [name, value] of Object.entries(own)) {
    Object.defineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
  }
  Object.defineProperty(global, NAV, { value: selfNav });
  return { windowFor, navOf, signalFor, signalOf, makeEvent, DOMException };
})
