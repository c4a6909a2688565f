// DOM events (https://dom.spec.whatwg.org/#events) and HTML event handlers: DOMException, Event,
// EventTarget, DOM "dispatch", and the event handler IDL attributes (`onabort`, `ontoolchange`,
// …). Run first when a realm is set up; what it puts in `lib` the other prelude files use.
//
// Every event target here has no parent (a ModelContext, an AbortSignal, a Window, a page's own
// `new EventTarget()`): DOM "get the parent" returns null, so an event's path is its target
// alone, and the capture and bubble phases never reach another object (docs/model.md).
(function (natives, lib) {
  "use strict";
  const global = globalThis;

  // A member the simulator does not model throws a TypeError naming it (docs/scenario-format.md).
  const passThrough = new Set(["then", "toJSON", "constructor", "valueOf", "toString", "handleEvent"]);
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

  // WebIDL DOMException: constructor(optional message = "", optional name = "Error"); `code` is
  // the legacy code of the names that have one (WebIDL's table), else 0.
  const codes = {
    IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
    NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11,
    SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15,
    TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21,
    QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25,
  };
  class DOMException extends Error {
    constructor(message = "", name = "Error") {
      super(String(message));
      Object.defineProperty(this, "name", { value: String(name), writable: true, configurable: true });
    }
    get code() { return codes[this.name] || 0; }
  }
  Object.defineProperty(DOMException.prototype, "name", { value: "DOMException", writable: true, configurable: true });
  for (const [name, code] of Object.entries(codes)) {
    const constant = name.replace(/Error$/, "").replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase() + "_ERR";
    Object.defineProperty(DOMException, constant, { value: code, enumerable: true });
    Object.defineProperty(DOMException.prototype, constant, { value: code, enumerable: true });
  }

  // DOM Event: its internal state (flags, target, phase) is kept out of the page's reach.
  const EVENTS = new WeakMap();
  function state(event) {
    const s = EVENTS.get(event);
    if (!s) throw new TypeError("Illegal invocation: not an Event");
    return s;
  }
  // [LegacyUnforgeable] readonly attribute boolean isTrusted: an own accessor of each event.
  const isTrustedGetter = { get isTrusted() { return state(this).isTrusted; } };
  const isTrusted = Object.getOwnPropertyDescriptor(isTrustedGetter, "isTrusted").get;
  // DOM "set the canceled flag": if event's cancelable attribute value is true and event's in
  // passive listener flag is unset, then set event's canceled flag.
  function setCanceled(s) { if (s.cancelable && !s.inPassiveListener) s.canceled = true; }
  class Event {
    // The new Event(type, eventInitDict) constructor steps: "inner event creation steps" with
    // this's relevant realm, the current time and eventInitDict: 1. initialized flag set;
    // 2. timeStamp; 3. each member of eventInitDict sets the attribute of that name.
    constructor(type, eventInitDict) {
      if (arguments.length < 1) throw new TypeError(`Failed to construct '${new.target.name}': 1 argument required, but only 0 present.`);
      const init = eventInitDict === undefined || eventInitDict === null ? {} : eventInitDict;
      if (typeof init !== "object" && typeof init !== "function") throw new TypeError("The provided value is not of type 'EventInit'.");
      EVENTS.set(this, {
        type: String(type), bubbles: !!init.bubbles, cancelable: !!init.cancelable, composed: !!init.composed,
        target: null, currentTarget: null, eventPhase: 0, isTrusted: false, timeStamp: natives.now(),
        initialized: true, dispatch: false, stopPropagation: false, stopImmediatePropagation: false,
        canceled: false, inPassiveListener: false,
      });
      Object.defineProperty(this, "isTrusted", { get: isTrusted, enumerable: true, configurable: false });
    }
    get type() { return state(this).type; }
    get target() { return state(this).target; }
    get srcElement() { return state(this).target; }
    get currentTarget() { return state(this).currentTarget; }
    // composedPath(): the path's one item while the event is dispatched, else empty.
    composedPath() { const s = state(this); return s.currentTarget === null ? [] : [s.currentTarget]; }
    get eventPhase() { return state(this).eventPhase; }
    stopPropagation() { state(this).stopPropagation = true; }
    get cancelBubble() { return state(this).stopPropagation; }
    set cancelBubble(value) { if (value) state(this).stopPropagation = true; }
    stopImmediatePropagation() { const s = state(this); s.stopPropagation = true; s.stopImmediatePropagation = true; }
    get bubbles() { return state(this).bubbles; }
    get cancelable() { return state(this).cancelable; }
    get returnValue() { return !state(this).canceled; }
    set returnValue(value) { if (!value) setCanceled(state(this)); }
    preventDefault() { setCanceled(state(this)); }
    get defaultPrevented() { return state(this).canceled; }
    get composed() { return state(this).composed; }
    get timeStamp() { return state(this).timeStamp; }
    // initEvent(type, bubbles, cancelable): 1. If this's dispatch flag is set, then return.
    // 2. Initialize this with type, bubbles, and cancelable.
    initEvent(type, bubbles = false, cancelable = false) {
      const s = state(this);
      if (s.dispatch) return;
      Object.assign(s, { initialized: true, stopPropagation: false, stopImmediatePropagation: false, canceled: false,
        isTrusted: false, target: null, type: String(type), bubbles: !!bubbles, cancelable: !!cancelable });
    }
  }
  const phases = { NONE: 0, CAPTURING_PHASE: 1, AT_TARGET: 2, BUBBLING_PHASE: 3 };
  for (const [name, value] of Object.entries(phases)) {
    Object.defineProperty(Event, name, { value, enumerable: true });
    Object.defineProperty(Event.prototype, name, { value, enumerable: true });
  }
  Object.defineProperty(Event.prototype, Symbol.toStringTag, { value: "Event", configurable: true });

  // DOM EventTarget: each target's event listener list. A Window's is kept under the global
  // object (the WindowProxy and the global are one target).
  const LISTENERS = new WeakMap();
  // What `currentTarget` and `this` are for a target (the WindowProxy for the global).
  const EXPOSED = new WeakMap();
  // Per target, what its list change is reported to (the simulator keeps whether a
  // ModelContext or an AbortSignal has listeners, and of which types).
  const WATCHERS = new WeakMap();
  function listenersOf(target) {
    const key = lib.targetKey ? lib.targetKey(target) : target;
    const list = LISTENERS.get(key);
    if (!list) throw new TypeError("Illegal invocation: not an EventTarget");
    return [key, list];
  }
  function makeTarget(object, exposed, watcher) {
    LISTENERS.set(object, []);
    if (exposed) EXPOSED.set(object, exposed);
    if (watcher) WATCHERS.set(object, watcher);
  }
  function changed(key, list) {
    const watcher = WATCHERS.get(key);
    if (watcher) watcher(list);
  }
  // DOM "flatten" / "flatten more" of the options argument.
  function flatten(options) {
    if (typeof options === "boolean") return { capture: options };
    if (options === undefined || options === null) return { capture: false };
    if (typeof options !== "object" && typeof options !== "function") return { capture: !!options };
    return { capture: !!options.capture };
  }
  function flattenMore(options) {
    const { capture } = flatten(options);
    if (options === null || (typeof options !== "object" && typeof options !== "function")) {
      return { capture, once: false, passive: null, signal: null };
    }
    let signal = null;
    if (options.signal !== undefined) {
      signal = options.signal;
      if (!lib.isAbortSignal(signal)) throw new TypeError("Failed to read the 'signal' property from 'AddEventListenerOptions': Failed to convert value to 'AbortSignal'.");
    }
    return { capture, once: !!options.once, passive: options.passive === undefined ? null : !!options.passive, signal };
  }
  function callbackArgument(callback) {
    if (callback === undefined || callback === null) return null;
    if (typeof callback !== "object" && typeof callback !== "function") {
      throw new TypeError("The callback provided as parameter 2 is not an object.");
    }
    return callback;
  }
  // DOM "add an event listener" given eventTarget and listener.
  function addAnEventListener(target, listener) {
    const [key, list] = listenersOf(target);
    // 2. If listener's signal is not null and is aborted, then return.
    if (listener.signal !== null && listener.signal.aborted) return;
    // 3. If listener's callback is null, then return.
    if (listener.callback === null) return;
    // 4. If listener's passive is null, then set it to the default passive value given
    // listener's type and eventTarget (false: no target here is a Window's touch/wheel one).
    if (listener.passive === null) listener.passive = false;
    // 5. If eventTarget's event listener list does not contain an event listener whose type is
    // listener's type, callback is listener's callback, and capture is listener's capture, then
    // append listener to eventTarget's event listener list.
    if (list.some((l) => l.type === listener.type && l.callback === listener.callback && l.capture === listener.capture)) return;
    list.push(listener);
    changed(key, list);
    // 6. If listener's signal is not null, then add the following abort steps to it: remove an
    // event listener with eventTarget and listener.
    if (listener.signal !== null) lib.addAbortAlgorithm(listener.signal, () => removeAnEventListener(target, listener));
  }
  // DOM "remove an event listener" given eventTarget and listener: 2. Set listener's removed to
  // true and remove listener from eventTarget's event listener list.
  function removeAnEventListener(target, listener) {
    const [key, list] = listenersOf(target);
    listener.removed = true;
    const at = list.indexOf(listener);
    if (at >= 0) {
      list.splice(at, 1);
      changed(key, list);
    }
  }
  class EventTarget {
    // The new EventTarget() constructor steps are to do nothing (a new list).
    constructor() { makeTarget(this); }
    // The addEventListener(type, callback, options) method steps: 1. Let capture, passive, once,
    // and signal be the result of flattening more options. 2. Add an event listener with this and
    // an event listener whose type is type, callback is callback, …
    addEventListener(type, callback, options) {
      const target = this === undefined || this === null ? global : this;
      if (arguments.length < 2) throw new TypeError(`Failed to execute 'addEventListener' on 'EventTarget': 2 arguments required, but only ${arguments.length} present.`);
      const cb = callbackArgument(callback);
      const { capture, passive, once, signal } = flattenMore(options);
      addAnEventListener(target, { type: String(type), callback: cb, capture, passive, once, signal, removed: false });
    }
    // The removeEventListener(type, callback, options) method steps: 2. Let capture be the
    // result of flattening options. 3. If this's event listener list contains an event listener
    // whose type is type, callback is callback, and capture is capture, then remove an event
    // listener with this and that event listener.
    removeEventListener(type, callback, options) {
      const target = this === undefined || this === null ? global : this;
      if (arguments.length < 2) throw new TypeError(`Failed to execute 'removeEventListener' on 'EventTarget': 2 arguments required, but only ${arguments.length} present.`);
      const cb = callbackArgument(callback);
      const { capture } = flatten(options);
      const [, list] = listenersOf(target);
      const found = list.find((l) => l.type === String(type) && l.callback === cb && l.capture === capture);
      if (found) removeAnEventListener(target, found);
    }
    // The dispatchEvent(event) method steps: 1. If event's dispatch flag is set, or if its
    // initialized flag is not set, then throw an "InvalidStateError" DOMException. 2. Initialize
    // event's isTrusted attribute to false. 3. Return the result of dispatching event to this.
    dispatchEvent(event) {
      const target = this === undefined || this === null ? global : this;
      if (!EVENTS.has(event)) throw new TypeError("Failed to execute 'dispatchEvent' on 'EventTarget': parameter 1 is not of type 'Event'.");
      const s = state(event);
      if (s.dispatch || !s.initialized) throw new DOMException("The event is already being dispatched.", "InvalidStateError");
      s.isTrusted = false;
      return dispatch(event, target);
    }
  }
  Object.defineProperty(EventTarget.prototype, Symbol.toStringTag, { value: "EventTarget", configurable: true });

  // DOM "dispatch" event to target (no legacy target override, no related target, no shadow
  // trees, no activation behaviour; the path is [target]).
  function dispatch(event, target) {
    const s = state(event);
    const [key] = listenersOf(target);
    const exposed = EXPOSED.get(key) || target;
    // 1. Set event's dispatch flag.
    s.dispatch = true;
    // 5.4. Append to an event path with event, target, targetOverride, relatedTarget, touchTargets, and false.
    // 5.9. Let parent be the result of invoking eventTarget's get the parent with event: null.
    // 5.13. For each struct in event's path, in reverse order: 5.13.1. If struct's shadow-adjusted
    // target is non-null, then set event's eventPhase attribute to AT_TARGET. 5.13.3. Invoke with
    // struct, event, "capturing", and legacyOutputDidListenersThrowFlag if given.
    s.eventPhase = 2;
    invoke(key, exposed, event, "capturing");
    // 5.14. For each struct in event's path: 5.14.1. If struct's shadow-adjusted target is
    // non-null, then set event's eventPhase attribute to AT_TARGET. 5.14.3. Invoke with struct,
    // event, "bubbling", and legacyOutputDidListenersThrowFlag if given.
    s.eventPhase = 2;
    invoke(key, exposed, event, "bubbling");
    // 6. Set event's eventPhase attribute to NONE. 7. Set event's currentTarget attribute to null.
    s.eventPhase = 0;
    s.currentTarget = null;
    // 9. Unset event's dispatch flag, stop propagation flag, and stop immediate propagation flag.
    s.dispatch = false;
    s.stopPropagation = false;
    s.stopImmediatePropagation = false;
    // 12. Return false if event's canceled flag is set; otherwise true.
    return !s.canceled;
  }
  // DOM "invoke" given struct, event and phase.
  function invoke(key, exposed, event, phase) {
    const s = state(event);
    // 1. Set event's target to the shadow-adjusted target of the last struct in event's path.
    s.target = exposed;
    // 3. If event's stop propagation flag is set, then return.
    if (s.stopPropagation) return;
    // 4. Initialize event's currentTarget attribute to struct's invocation target.
    s.currentTarget = exposed;
    // 5. Let listeners be a clone of event's currentTarget attribute value's event listener list.
    const listeners = LISTENERS.get(key).slice();
    // 6. Let found be the result of running inner invoke with event, listeners, phase, …
    innerInvoke(key, exposed, event, listeners, phase);
  }
  // DOM "inner invoke".
  function innerInvoke(key, exposed, event, listeners, phase) {
    const s = state(event);
    // 2. For each listener of listeners, whose removed is false:
    for (const listener of listeners) {
      if (listener.removed) continue;
      // 2.1. If event's type attribute value is not listener's type, then continue.
      if (s.type !== listener.type) continue;
      // 2.3. If phase is "capturing" and listener's capture is false, then continue.
      if (phase === "capturing" && !listener.capture) continue;
      // 2.4. If phase is "bubbling" and listener's capture is true, then continue.
      if (phase === "bubbling" && listener.capture) continue;
      // 2.5. If listener's once is true, then remove an event listener given event's
      // currentTarget attribute value and listener.
      if (listener.once) removeAnEventListener(key, listener);
      // 2.9. If listener's passive is true, then set event's in passive listener flag.
      if (listener.passive) s.inPassiveListener = true;
      // 2.11. Call a user object's operation with listener's callback, "handleEvent", « event »,
      // and event's currentTarget attribute value. If this throws an exception exception:
      // 2.11.1. Report exception for listener's callback's corresponding JavaScript object's
      // associated realm's global object.
      try {
        const callback = listener.callback;
        // WebIDL "call a user object's operation": HTML "check if we can run script" with the
        // callback's realm (its own, not the target's); "do not run" returns, and the next
        // listener is invoked.
        if (!natives.canRunCallback(callback, "event listener")) {
          // nothing runs
        } else if (typeof callback === "function") {
          callback.call(exposed, event);
        } else {
          const handleEvent = callback.handleEvent;
          if (typeof handleEvent !== "function") throw new TypeError("The listener's handleEvent is not a function");
          handleEvent.call(callback, event);
        }
      } catch (e) {
        lib.reportException(e);
      }
      // 2.12. Unset event's in passive listener flag.
      s.inPassiveListener = false;
      // 2.14. If event's stop immediate propagation flag is set, then break.
      if (s.stopImmediatePropagation) break;
    }
  }
  // DOM "fire an event" named e at target, using eventConstructor with its attributes
  // initialized (isTrusted true); returns the result of dispatching.
  function fire(target, event) {
    state(event).isTrusted = true;
    return dispatch(event, target);
  }

  // HTML event handler IDL attributes: `name` (e.g. "onabort") on `proto`, for event type
  // `type`. Each target's event handler map holds { value, listener }.
  const HANDLERS = new WeakMap();
  function handlerOf(target, type) {
    const [key] = listenersOf(target);
    let map = HANDLERS.get(key);
    if (!map) HANDLERS.set(key, (map = new Map()));
    let handler = map.get(type);
    if (!handler) map.set(type, (handler = { value: null, listener: null }));
    return [key, handler];
  }
  function defineEventHandler(proto, type) {
    Object.defineProperty(proto, `on${type}`, {
      configurable: true,
      enumerable: true,
      // The getter steps: return the result of getting the current value of the event handler.
      get() { return handlerOf(this === undefined ? global : this, type)[1].value; },
      // The setter steps: 1. If the given value is null, then deactivate an event handler.
      // 2. Otherwise: 2.4. Set eventHandler's value to the given value. 2.5. Activate an event
      // handler given eventTarget and name. (WebIDL [LegacyTreatNonObjectAsNull]: a value that is
      // not an object is null.)
      set(value) {
        const target = this === undefined ? global : this;
        const [key, handler] = handlerOf(target, type);
        if (value === null || (typeof value !== "object" && typeof value !== "function")) {
          // Deactivate: 3. Set eventHandler's value to null. 4-5. If its listener is not null,
          // remove an event listener with eventTarget and listener; set it to null.
          handler.value = null;
          if (handler.listener !== null) removeAnEventListener(key, handler.listener);
          handler.listener = null;
          return;
        }
        handler.value = value;
        // Activate: 3. If eventHandler's listener is not null, then return. 4-7. Let listener
        // be a new event listener whose type is the event handler event type and callback is
        // the event handler processing algorithm; add an event listener with eventTarget and
        // listener; set eventHandler's listener to listener.
        if (handler.listener !== null) return;
        const listener = {
          type, capture: false, passive: null, once: false, signal: null, removed: false,
          // The event handler processing algorithm: 1. Let callback be the result of getting
          // the current value of the event handler. 2. If callback is null, then return.
          // 4. Let return value be the result of invoking callback with « event », "rethrow"
          // and callback this value set to event's currentTarget. 5. If return value is false,
          // then set the canceled flag.
          callback(event) {
            const callback = handler.value;
            if (callback === null) return;
            if (typeof callback !== "function") throw new TypeError(`the on${type} handler is not a function`);
            // 4. Invoking callback (WebIDL "invoke a callback function") first does HTML "check
            // if we can run script" with callback's realm: "do not run" returns.
            if (!natives.canRunCallback(callback, `on${type} handler`)) return;
            const returned = callback.call(this, event);
            if (returned === false) setCanceled(state(event));
          },
        };
        handler.listener = listener;
        addAnEventListener(key, listener);
      },
    });
  }

  Object.assign(lib, { guarded, passThrough, DOMException, Event, EventTarget, makeTarget, fire, defineEventHandler, eventState: state });
})
