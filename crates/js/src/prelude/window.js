// HTML Window: the realm's global object, run last when a realm is set up (after event.js,
// abort.js and model_context.js): Window as an EventTarget, `document` and the iframes the
// scenario declares, the console, the timers (`setTimeout`, `setInterval`, their `clear…`),
// `queueMicrotask`, `structuredClone`, the clock on virtual time, the seeded `Math.random`,
// unhandled promise rejections (PromiseRejectionEvent), other navigables' WindowProxy objects,
// `parent`, `top`, `frames` and `postMessage` (MessageEvent). The Rust file of each interface says
// which steps its natives implement. Returns the helpers the host calls.
(function (natives, lib, selfNav) {
  "use strict";
  const global = globalThis;
  const { guarded, passThrough, DOMException, Event, EventTarget, makeTarget, fire, defineEventHandler } = lib;
  const NAV = Symbol("navigable");

  // HTML WindowProxy [[GetOwnProperty]] for an array index: the document-tree child navigable
  // at that index (its WindowProxy), or undefined.
  const isIndex = (p) => typeof p === "string" && /^(0|[1-9][0-9]*)$/.test(p) && Number(p) < 4294967295;
  function childWindow(nav, p) {
    const [child] = natives.childAt(nav, Number(p));
    return child < 0 ? undefined : windowFor(child);
  }
  // The WindowProxy: members the simulator does not model throw a TypeError naming them.
  const windowProxy = new Proxy(global, {
    get(t, p, r) {
      if (isIndex(p)) return childWindow(selfNav, p);
      if (typeof p === "string" && !(p in t) && !passThrough.has(p)) {
        throw new TypeError(`Window.${p} is not modelled by webmcp-sim`);
      }
      return Reflect.get(t, p, r);
    },
  });
  // HTML Window is an EventTarget: the global object's prototype chain is Window.prototype,
  // EventTarget.prototype, Object.prototype; the WindowProxy and the global are one target.
  class Window extends EventTarget {
    constructor() { throw new TypeError("Illegal constructor"); }
  }
  Object.defineProperty(Window.prototype, Symbol.toStringTag, { value: "Window", configurable: true });
  for (const type of ["message", "messageerror", "unhandledrejection", "rejectionhandled", "error", "pageshow", "pagehide"]) {
    defineEventHandler(Window.prototype, type);
  }
  Object.setPrototypeOf(global, Window.prototype);
  lib.targetKey = (target) => (target === windowProxy ? global : target);
  makeTarget(global, windowProxy);

  // HTML WindowProxy objects of other navigables (this realm's own is `window`), one per
  // navigable: the members HTML allows across origins (CrossOriginProperties: `window`, `self`,
  // `frames`, `parent`, `top`, `postMessage`) on the object itself; any other member reads the
  // Window the navigable shows now, when this realm may reach it (same origin and event loop:
  // its own global, so `new frame.AbortController()` is made in that realm), and otherwise
  // throws a "SecurityError" DOMException, as HTML's [[Get]] of a cross-origin WindowProxy does.
  const windows = new Map();
  lib.windowFor = windowFor;
  function windowFor(nav) {
    if (nav === selfNav) return windowProxy;
    let w = windows.get(nav);
    if (w) return w;
    const members = {
      [NAV]: nav,
      [Symbol.toStringTag]: "Window",
      get window() { return w; },
      get self() { return w; },
      get frames() { return w; },
      get parent() { return windowFor(natives.parentNavigable(nav)); },
      get top() { return windowFor(natives.topNavigable(nav)); },
      // `location` is one of HTML's CrossOriginProperties of a Window: a Location object made
      // in this realm (`prelude/location.js`), whose members check the origin as HTML's
      // method steps do; setting it sets its href ([PutForwards=href]).
      get location() { return lib.locationFor(nav); },
      set location(value) { lib.locationFor(nav).href = value; },
      get length() { return natives.childAt(nav, 0)[1]; },
      postMessage(...args) { return postMessageTo(nav, ...oneArgument(args)); },
    };
    // `closed`, `close()` and `opener` (`prelude/open.js`).
    Object.defineProperties(members, Object.getOwnPropertyDescriptors(lib.crossOriginMembers(nav)));
    w = new Proxy(members, {
      get(t, p, r) {
        if (isIndex(p)) return childWindow(nav, p);
        if (p in t) return Reflect.get(t, p, r);
        if (typeof p !== "string" || p === "then") return undefined;
        const other = natives.windowGlobal(nav);
        if (other === null) {
          lib.checkHasDocument(nav, p);
          throw new DOMException(`Blocked a frame with origin "${natives.origin}" from accessing a cross-origin frame (Window.${p}).`, "SecurityError");
        }
        return other[p];
      },
    });
    windows.set(nav, w);
    return w;
  }
  function navOf(value) {
    if (value === windowProxy || value === global) return selfNav;
    return value !== null && typeof value === "object" && typeof value[NAV] === "number" ? value[NAV] : -1;
  }

  // HTML MessageEvent (`message` at a Window).
  const MESSAGES = new WeakMap();
  class MessageEvent extends Event {
    constructor(type, eventInitDict) {
      super(type, eventInitDict);
      const init = eventInitDict === undefined || eventInitDict === null ? {} : eventInitDict;
      MESSAGES.set(this, {
        data: init.data === undefined ? null : init.data,
        origin: init.origin === undefined ? "" : String(init.origin),
        lastEventId: init.lastEventId === undefined ? "" : String(init.lastEventId),
        source: init.source === undefined ? null : init.source,
        ports: Object.freeze(init.ports === undefined ? [] : [...init.ports]),
      });
    }
    get data() { return MESSAGES.get(this).data; }
    get origin() { return MESSAGES.get(this).origin; }
    get lastEventId() { return MESSAGES.get(this).lastEventId; }
    get source() { return MESSAGES.get(this).source; }
    get ports() { return MESSAGES.get(this).ports; }
  }
  Object.defineProperty(MessageEvent.prototype, Symbol.toStringTag, { value: "MessageEvent", configurable: true });

  // HTML postMessage(message, targetOrigin, transfer) and postMessage(message, options): the
  // window post message steps given the Window navigable `nav` shows (`window.rs` queues step 8).
  function postMessageTo(nav, message, targetOrigin, transfer) {
    let origin = "/";
    let toTransfer = transfer === undefined ? [] : transfer;
    if (targetOrigin !== null && typeof targetOrigin === "object") {
      // The options overload: WindowPostMessageOptions { targetOrigin = "/", transfer = [] }.
      if (targetOrigin.targetOrigin !== undefined) origin = String(targetOrigin.targetOrigin);
      if (targetOrigin.transfer !== undefined) toTransfer = targetOrigin.transfer;
    } else if (targetOrigin !== undefined) {
      origin = String(targetOrigin);
    }
    if ([...toTransfer].length > 0) throw new TypeError("postMessage's transfer is not modelled by webmcp-sim");
    // 7. Let serializeWithTransferResult be StructuredSerializeWithTransfer(message, transfer).
    // Rethrow any exceptions.
    const serialized = structuredClone(message);
    const error = natives.postMessage(nav, serialized, origin);
    if (error !== null) throw error;
  }
  function oneArgument(args) {
    if (args.length < 1) throw new TypeError("Failed to execute 'postMessage' on 'Window': 1 argument required, but only 0 present.");
    return args;
  }
  // Step 8's task, in the target's realm: 8.7. Fire an event named message at targetWindow,
  // using MessageEvent, with the origin attribute initialized to origin, the source attribute
  // initialized to source, the data attribute initialized to messageClone.
  function fireMessage(data, origin, sourceNav) {
    fire(global, new MessageEvent("message", { data, origin, source: windowFor(sourceNav) }));
  }

  // DOM Document, one per document this realm reaches (a same-origin iframe's is its own
  // realm's, `document.rs`).
  const documents = new Map();
  function documentFor(doc) {
    let d = documents.get(doc);
    if (d) return d;
    d = guarded({
      get modelContext() { return natives.secureContext(doc) ? lib.modelContextFor(doc) : undefined; },
      getElementById(id) {
        const nav = natives.childNavigable(doc, String(id));
        return nav < 0 ? null : iframeFor(doc, String(id), nav);
      },
      // DOM createElement(localName): an iframe element only.
      createElement(localName) {
        if (String(localName).toLowerCase() !== "iframe") {
          throw new TypeError(`Document.createElement(${JSON.stringify(String(localName))}) is not modelled by webmcp-sim (only "iframe" is)`);
        }
        return createdIframe(doc);
      },
      get body() { return bodyFor(doc); },
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
    let removed = false;
    element = guarded({
      id,
      get contentDocument() { return removed ? null : natives.contentDocument(doc, id); },
      get contentWindow() { return removed ? null : windowFor(nav); },
      // DOM ChildNode remove(): 1. If this's parent is null, then return. 2. Remove this (the
      // removing steps of an iframe destroy its child navigable: `document.rs`).
      remove() {
        if (removed) return;
        const error = natives.removeIframe(doc, nav);
        if (error !== null) throw error;
        removed = true;
      },
      [Symbol.toStringTag]: "HTMLIFrameElement",
    }, "HTMLIFrameElement");
    iframes.set(key, element);
    return element;
  }


  // HTML HTMLIFrameElement made by the page (`document.createElement('iframe')`): an
  // EventTarget with `src`, `allow`, `id`, `name`, `onload`; inserted by `document.body`'s
  // `appendChild`/`append`, which creates its child navigable (`window_proxy.rs`'s
  // `insertIframe`; docs/model.md says what is left out); `remove()` destroys it.
  const constructingElement = Symbol("constructing");
  class HTMLIFrameElement extends EventTarget {
    constructor(token) {
      if (token !== constructingElement) throw new TypeError("Illegal constructor");
      super();
    }
  }
  defineEventHandler(HTMLIFrameElement.prototype, "load");
  Object.defineProperty(HTMLIFrameElement.prototype, Symbol.toStringTag, { value: "HTMLIFrameElement", configurable: true });
  const ATTACH = new WeakMap();
  function createdIframe(doc) {
    const element = new HTMLIFrameElement(constructingElement);
    const attributes = { src: "", allow: "", id: "", name: "" };
    let state = "detached";
    let nav = -1;
    let name = "";
    for (const key of Object.keys(attributes)) {
      Object.defineProperty(element, key, {
        enumerable: true,
        get: () => attributes[key],
        set: (value) => {
          if (state !== "detached" && (key === "src" || key === "allow")) {
            throw new TypeError(`HTMLIFrameElement.${key} set after insertion (navigating the iframe) is not modelled by webmcp-sim`);
          }
          attributes[key] = String(value);
        },
      });
    }
    Object.defineProperty(element, "contentWindow", { get: () => (state === "attached" ? windowFor(nav) : null) });
    Object.defineProperty(element, "contentDocument", { get: () => (state === "attached" ? natives.contentDocument(doc, name) : null) });
    // DOM ChildNode remove(): the iframe's removing steps destroy its child navigable.
    element.remove = () => {
      if (state !== "attached") return;
      const error = natives.removeIframe(doc, nav);
      if (error !== null) throw error;
      state = "removed";
    };
    const proxy = guarded(element, "HTMLIFrameElement");
    makeTarget(proxy);
    // DOM "insert", then HTML's iframe insertion steps (`insertIframe`), the load event later.
    ATTACH.set(proxy, () => {
      if (state !== "detached") throw new TypeError("moving an inserted iframe is not modelled by webmcp-sim");
      // The navigable's name in traces is the name attribute, if set (`script_insert_iframe`).
      const inserted = natives.insertIframe(doc, attributes.src, attributes.allow === "" ? null : attributes.allow, attributes.name, () => {
        fire(proxy, new Event("load"));
      });
      if (!Array.isArray(inserted)) throw inserted;
      [nav, name] = inserted;
      state = "attached";
    });
    return proxy;
  }
  const bodies = new Map();
  function bodyFor(doc) {
    let body = bodies.get(doc);
    if (body) return body;
    const insert = (node) => {
      const attach = node !== null && typeof node === "object" ? ATTACH.get(node) : undefined;
      if (!attach) throw new TypeError("HTMLBodyElement: inserting anything but an iframe from document.createElement is not modelled by webmcp-sim");
      attach();
    };
    body = guarded({
      appendChild(node) { insert(node); return node; },
      append(...nodes) { nodes.forEach(insert); },
      [Symbol.toStringTag]: "HTMLBodyElement",
    }, "HTMLBodyElement");
    bodies.set(doc, body);
    return body;
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
    debug: (...args) => natives.log(false, format(args)),
    warn: (...args) => natives.log(true, format(args)),
    error: (...args) => natives.log(true, format(args)),
  };

  // HTML timers: the global's map of setTimeout and setInterval IDs (id → unique handle) and
  // the timer initialization steps, over the host's "run steps after a timeout" (`window.rs`).
  const activeTimers = new Map();
  let lastTimerId = 0;
  function timerInitializationSteps(handler, timeout, args, repeat, previousId) {
    // 2. If previousId was given, let id be previousId; otherwise, let id be an
    // implementation-defined integer that is greater than zero and does not already exist in
    // global's map of setTimeout and setInterval IDs.
    const id = previousId !== undefined ? previousId : ++lastTimerId;
    // 3-4. (The nesting level and its clamping are not modelled: docs/model.md.)
    // 5. If timeout is less than 0, then set timeout to 0.
    let ms = Number(timeout);
    if (!(ms > 0)) ms = 0;
    ms = Math.floor(Math.min(ms, 2147483647));
    // 7. Let uniqueHandle be null. … 10. Set uniqueHandle to the result of running steps after a
    // timeout given global, "setTimeout/setInterval", timeout, and completionStep.
    // 11. Set global's map of setTimeout and setInterval IDs[id] to uniqueHandle.
    const uniqueHandle = {};
    // 8. Let task be a task that runs the following substeps:
    const task = () => {
      // 8.2. If id does not exist in global's map of setTimeout and setInterval IDs, then abort
      // these steps. 8.3. If global's map of setTimeout and setInterval IDs[id] does not equal
      // uniqueHandle, then abort these steps.
      if (activeTimers.get(id) !== uniqueHandle) return;
      // 8.5. If handler is a Function, then invoke handler given arguments and "report", and with
      // callback this value set to thisArg. (WebIDL "invoke a callback function" first does HTML
      // "check if we can run script" with handler's own realm: "do not run" returns.)
      try {
        if (natives.canRunCallback(handler, "timer handler")) handler.apply(windowProxy, args);
      } catch (e) {
        reportException(e);
      }
      // 8.6. If id does not exist in global's map of setTimeout and setInterval IDs, then abort
      // these steps. 8.7. If global's map of setTimeout and setInterval IDs[id] does not equal
      // uniqueHandle, then abort these steps.
      if (activeTimers.get(id) !== uniqueHandle) return;
      // 8.8. If repeat is true, then perform the timer initialization steps again, given handler,
      // timeout, arguments, true, and id.
      if (repeat) timerInitializationSteps(handler, timeout, args, true, id);
      // 8.9. Otherwise, remove global's map of setTimeout and setInterval IDs[id].
      else activeTimers.delete(id);
    };
    uniqueHandle.token = natives.setTimeout(task, ms);
    activeTimers.set(id, uniqueHandle);
    // 12. Return id.
    return id;
  }
  function handlerArgument(handler, method) {
    if (typeof handler !== "function") throw new TypeError(`${method} with a string handler is not modelled by webmcp-sim`);
    return handler;
  }
  // setTimeout(handler, timeout, ...arguments) / setInterval: the timer initialization steps
  // given this, handler, timeout, arguments, and false (true for setInterval).
  function setTimeout(handler, timeout = 0, ...args) {
    return timerInitializationSteps(handlerArgument(handler, "setTimeout"), timeout, args, false);
  }
  function setInterval(handler, timeout = 0, ...args) {
    return timerInitializationSteps(handlerArgument(handler, "setInterval"), timeout, args, true);
  }
  // clearTimeout(id) / clearInterval(id): remove this's map of setTimeout and setInterval
  // IDs[id]. (The pending timer is also taken off the host's list: its task would do nothing.)
  function clearTimer(id) {
    const key = Number(id) | 0;
    const handle = activeTimers.get(key);
    if (handle === undefined) return;
    activeTimers.delete(key);
    natives.clearTimeout(handle.token);
  }
  function queueMicrotask(callback) {
    if (typeof callback !== "function") throw new TypeError("queueMicrotask: the callback is not a function");
    // Queue a microtask to invoke callback (WebIDL "invoke a callback function": HTML "check if
    // we can run script" with callback's realm first; "do not run" returns).
    Promise.resolve().then(() => {
      try {
        if (natives.canRunCallback(callback, "microtask")) callback();
      } catch (e) {
        reportException(e);
      }
    });
  }

  // HTML StructuredSerializeInternal and StructuredDeserialize, in one walk (a clone into the
  // same realm): primitives, primitive wrappers, Date, RegExp, ArrayBuffer and views, Map, Set,
  // Error objects, DOMException, arrays and ordinary objects (own enumerable string keys); a
  // value seen before is the same clone (the memory). Anything else is a "DataCloneError".
  const RealDate = Date;
  function structuredClone(value, options) {
    if (arguments.length < 1) throw new TypeError("Failed to execute 'structuredClone' on 'Window': 1 argument required, but only 0 present.");
    if (options !== undefined && options !== null && options.transfer !== undefined && [...options.transfer].length > 0) {
      throw new TypeError("structuredClone's transfer option is not modelled by webmcp-sim");
    }
    const memory = new Map();
    const cannot = (what) => new DOMException(`${what} could not be cloned.`, "DataCloneError");
    function clone(v) {
      if (typeof v === "symbol") throw cannot("A Symbol");
      if (v === null || (typeof v !== "object" && typeof v !== "function")) return v;
      if (memory.has(v)) return memory.get(v);
      if (typeof v === "function") throw cannot("A function");
      if (v instanceof EventTarget || v instanceof Event || navOf(v) >= 0) throw cannot(`${Object.prototype.toString.call(v)}`);
      const tag = Object.prototype.toString.call(v);
      let out;
      const keep = (o) => { memory.set(v, o); return o; };
      if (tag === "[object Boolean]") return keep(new Boolean(Boolean.prototype.valueOf.call(v)));
      if (tag === "[object Number]") return keep(new Number(Number.prototype.valueOf.call(v)));
      if (tag === "[object String]") return keep(new String(String.prototype.valueOf.call(v)));
      if (tag === "[object BigInt]") return keep(Object(BigInt.prototype.valueOf.call(v)));
      if (v instanceof RealDate) return keep(new RealDate(RealDate.prototype.getTime.call(v)));
      if (v instanceof RegExp) return keep(new RegExp(v.source, v.flags));
      if (v instanceof ArrayBuffer) return keep(v.slice(0));
      if (ArrayBuffer.isView(v)) {
        const buffer = clone(v.buffer);
        if (v instanceof DataView) return keep(new DataView(buffer, v.byteOffset, v.byteLength));
        return keep(new v.constructor(buffer, v.byteOffset, v.length));
      }
      if (v instanceof DOMException) return keep(new DOMException(v.message, v.name));
      if (v instanceof Error) {
        // An Error's name is one of the native error names or "Error"; message and stack kept.
        const names = ["EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"];
        const name = names.includes(v.name) ? v.name : "Error";
        out = keep(new global[name]());
        const message = Object.getOwnPropertyDescriptor(v, "message");
        if (message && "value" in message) out.message = String(message.value);
        else delete out.message;
        return out;
      }
      if (v instanceof Map) {
        out = keep(new Map());
        for (const [k, val] of [...v]) out.set(clone(k), clone(val));
        return out;
      }
      if (v instanceof Set) {
        out = keep(new Set());
        for (const k of [...v]) out.add(clone(k));
        return out;
      }
      if (Array.isArray(v)) {
        out = keep(new Array(v.length));
      } else if (tag === "[object Object]" || tag === "[object Arguments]") {
        out = keep({});
      } else {
        throw cannot(tag);
      }
      for (const key of Object.keys(v)) out[key] = clone(v[key]);
      return out;
    }
    return clone(value);
  }

  // HTML ErrorEvent (`error` at a Window).
  const ERRORS = new WeakMap();
  class ErrorEvent extends Event {
    constructor(type, eventInitDict) {
      super(type, eventInitDict);
      const init = eventInitDict === undefined || eventInitDict === null ? {} : eventInitDict;
      ERRORS.set(this, {
        message: init.message === undefined ? "" : String(init.message),
        filename: init.filename === undefined ? "" : String(init.filename),
        lineno: init.lineno === undefined ? 0 : init.lineno >>> 0,
        colno: init.colno === undefined ? 0 : init.colno >>> 0,
        error: init.error,
      });
    }
    get message() { return ERRORS.get(this).message; }
    get filename() { return ERRORS.get(this).filename; }
    get lineno() { return ERRORS.get(this).lineno; }
    get colno() { return ERRORS.get(this).colno; }
    get error() { return ERRORS.get(this).error; }
  }
  Object.defineProperty(ErrorEvent.prototype, Symbol.toStringTag, { value: "ErrorEvent", configurable: true });
  // HTML "extract error information" from exception: its message and, from the first page
  // frame of its stack, the location.
  function errorInformation(exception) {
    const info = { message: "", filename: "", lineno: 0, colno: 0, error: exception };
    if (exception !== null && (typeof exception === "object" || typeof exception === "function")) {
      try {
        info.message = `Uncaught ${exception.name}: ${exception.message}`;
        const stack = String(exception.stack || "");
        for (const line of stack.split("\n")) {
          if (line.includes("(native)") || line.includes("webmcp-sim:prelude")) continue;
          const at = /([^\s(]+):(\d+):(\d+)\)?\s*$/.exec(line);
          if (at) { info.filename = at[1]; info.lineno = Number(at[2]); info.colno = Number(at[3]); break; }
        }
      } catch (e) { /* a throwing getter: the message stays as it is */ }
    } else {
      info.message = `Uncaught ${String(exception)}`;
    }
    return info;
  }
  // HTML "report an exception" given exception and the global: 1. Let notHandled be true.
  // 2. Let errorInfo be the result of extracting error information from exception. 6. If
  // global is not in error reporting mode, then: 6.1. Set global's in error reporting mode to
  // true. 6.2. … set notHandled to the result of firing an event named error at global, using
  // ErrorEvent, with the cancelable attribute initialized to true, and additional attributes
  // initialized according to errorInfo. 6.3. Set global's in error reporting mode to false.
  // 7. If notHandled is true, then … the user agent may report exception to a developer console
  // (here: the outcome's uncaught errors).
  let inErrorReportingMode = false;
  function reportException(exception) {
    let notHandled = true;
    if (!inErrorReportingMode) {
      inErrorReportingMode = true;
      try {
        notHandled = fire(global, new ErrorEvent("error", { cancelable: true, ...errorInformation(exception) }));
      } finally {
        inErrorReportingMode = false;
      }
    }
    if (notHandled) natives.report(exception);
  }
  lib.reportException = reportException;

  // HTML PromiseRejectionEvent (`unhandledrejection`, `rejectionhandled`).
  const REJECTIONS = new WeakMap();
  class PromiseRejectionEvent extends Event {
    constructor(type, eventInitDict) {
      if (arguments.length < 2 || eventInitDict === null || typeof eventInitDict !== "object" || !("promise" in eventInitDict)) {
        throw new TypeError("Failed to construct 'PromiseRejectionEvent': required member promise is undefined.");
      }
      super(type, eventInitDict);
      REJECTIONS.set(this, { promise: eventInitDict.promise, reason: eventInitDict.reason });
    }
    get promise() { return REJECTIONS.get(this).promise; }
    get reason() { return REJECTIONS.get(this).reason; }
  }
  // HTML "notify about rejected promises" step 4's task: for each promise p of the list handed
  // over (`window.rs`): 4.1.1. If p.[[PromiseIsHandled]] is true, then continue. 4.1.2. Let
  // notCanceled be the result of firing an event named unhandledrejection at global, using
  // PromiseRejectionEvent, with the cancelable attribute initialized to true, the promise
  // attribute initialized to p, and the reason attribute initialized to p.[[PromiseResult]].
  // 4.1.3. If notCanceled is true, then the user agent may report p.[[PromiseResult]] to a
  // developer console (here: the outcome). 4.1.4. If p.[[PromiseIsHandled]] is false, then
  // append p to global's outstanding rejected promises weak set.
  function notifyRejected(list) {
    for (let i = 0; i < list.length; i += 2) {
      const p = list[i];
      const reason = list[i + 1];
      if (natives.promiseIsHandled(p)) continue;
      const notCanceled = fire(global, new PromiseRejectionEvent("unhandledrejection", { cancelable: true, promise: p, reason }));
      if (notCanceled) natives.reportRejection(reason);
      if (!natives.promiseIsHandled(p)) natives.outstanding(p);
    }
  }
  // HTML HostPromiseRejectionTracker "handle", step 4's task: fire an event named
  // rejectionhandled at global, using PromiseRejectionEvent, with the promise attribute
  // initialized to promise, and the reason attribute initialized to promise.[[PromiseResult]].
  function rejectionHandled(p, reason) {
    fire(global, new PromiseRejectionEvent("rejectionhandled", { promise: p, reason }));
  }

  // HTML PageTransitionEvent (`pageshow`, `pagehide`) and "fire a page transition event": fire
  // an event named eventName at window, using PageTransitionEvent, with the persisted
  // attribute initialized to persisted, the cancelable attribute initialized to true, the
  // bubbles attribute initialized to true, and legacy target override flag set.
  const PERSISTED = new WeakMap();
  class PageTransitionEvent extends Event {
    constructor(type, eventInitDict = {}) {
      super(type, eventInitDict);
      PERSISTED.set(this, Boolean(eventInitDict && eventInitDict.persisted));
    }
    get persisted() { return PERSISTED.get(this); }
  }
  function firePageTransition(type, persisted) {
    fire(global, new PageTransitionEvent(type, { persisted, cancelable: true, bubbles: true }));
  }

  // No wall clock: Date and performance read virtual time; Math.random is seeded.
  class VirtualDate extends RealDate {
    constructor(...args) { if (args.length === 0) super(natives.now()); else super(...args); }
    static now() { return natives.now(); }
  }
  const DateProxy = new Proxy(VirtualDate, { apply() { return new RealDate(natives.now()).toString(); } });
  const performance = guarded({ now: () => natives.now(), timeOrigin: 0 }, "Performance");
  Math.random = natives.random;

  const own = {
    window: windowProxy, self: windowProxy, document: documentFor(natives.selfDocument),
    console, setTimeout, clearTimeout: clearTimer, setInterval, clearInterval: clearTimer, queueMicrotask,
    structuredClone, performance, Date: DateProxy, DOMException, Event, EventTarget, Window,
    AbortController: lib.AbortController, AbortSignal: lib.AbortSignal, ModelContext: lib.ModelContext,
    PromiseRejectionEvent, MessageEvent, ErrorEvent, PageTransitionEvent, HTMLIFrameElement, ...lib.toolEventClasses,
    origin: natives.origin,
    Location: lib.Location,
    // HTML History (`prelude/history.js`).
    history: lib.history,
    History: lib.History,
    postMessage(...args) { return postMessageTo(selfNav, ...oneArgument(args)); },
    // HTML open() and close() (`prelude/open.js`).
    open: lib.open,
    close() { lib.closeWindow(selfNav); },
  };
  for (const [name, value] of Object.entries(own)) {
    Object.defineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
  }
  // HTML `frames` (the WindowProxy), `parent` (the parent navigable's WindowProxy, or this
  // one's for a top-level traversable) and `top` (its traversable's).
  const accessors = {
    frames: () => windowProxy,
    parent: () => windowFor(natives.parentNavigable(selfNav)),
    top: () => windowFor(natives.topNavigable(selfNav)),
    length: () => natives.childAt(selfNav, 0)[1],
    closed: () => lib.selfClosed(),
  };
  for (const [name, get] of Object.entries(accessors)) {
    Object.defineProperty(global, name, { get, configurable: true, enumerable: true });
  }
  // HTML `opener` (`prelude/open.js`).
  Object.defineProperty(global, "opener", lib.openerAccessor(global));
  // HTML `location`: this Window's Location object ([PutForwards=href]: setting it sets href).
  Object.defineProperty(global, "location", {
    get: () => lib.locationFor(selfNav),
    set: (value) => { lib.locationFor(selfNav).href = value; },
    configurable: false,
    enumerable: true,
  });
  Object.defineProperty(global, NAV, { value: selfNav });
  return {
    windowFor, navOf, documentFor, signalFor: lib.signalFor, signalOf: lib.signalOf, DOMException,
    notifyRejected, rejectionHandled, fireMessage, firePageTransition, windowProxy, reportException,
    watchPromise: lib.watchPromise,
  };
})
