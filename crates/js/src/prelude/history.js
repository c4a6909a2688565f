// HTML History (https://html.spec.whatwg.org/#the-history-interface): this realm's Window's
// `history`. `history.rs` has the natives; the steps are the simulator's (`webmcp::history`):
// `go(0)` reloads, and a traversal runs where the simulator knows the session history (one
// step: `back()` and `forward()` then do nothing, as HTML's "traverse the history by a delta"
// 4.4 says); anywhere else it throws a TypeError naming the step. `state` is null (no entry has
// serialized state: `pushState` and `replaceState`, like `scrollRestoration`, are not modelled
// and throw, naming themselves). Run before window.js, which puts `lib.history` on the global.
(function (natives, lib) {
  "use strict";
  const { guarded } = lib;

  function rethrow(error) {
    if (error !== null) throw error;
  }
  class History {
    constructor() { throw new TypeError("Illegal constructor"); }
  }
  Object.defineProperty(History.prototype, Symbol.toStringTag, { value: "History", configurable: true });
  const history = Object.create(History.prototype, {
    length: {
      get() {
        const length = natives.historyLength();
        if (typeof length !== "number") throw length;
        return length;
      },
      enumerable: true,
    },
    // The state getter: 1. If this's relevant global object's associated Document is not fully
    // active, then throw a "SecurityError" DOMException (read with `length`'s check).
    // 2. Return this's state (null: no entry here has serialized state).
    state: { get() { void history.length; return null; }, enumerable: true },
    // go(delta = 0), back(), forward(): the method steps (`webmcp::history`).
    go: { value(delta = 0) { rethrow(natives.historyGo(Number(delta), "go")); }, enumerable: true },
    back: { value() { rethrow(natives.historyGo(-1, "back")); }, enumerable: true },
    forward: { value() { rethrow(natives.historyGo(1, "forward")); }, enumerable: true },
  });
  lib.History = History;
  lib.history = guarded(history, "History");
})
