// DOM AbortController and AbortSignal (https://dom.spec.whatwg.org/#aborting-ongoing-activities),
// over the simulator's signals (`abort_signal.rs`, `abort_controller.rs`): the simulator keeps
// each signal's abort reason, abort algorithms, dependent signals and listeners, and runs "signal
// abort"; the page's object, one per signal per realm, is an EventTarget whose `abort` listeners
// the simulator reaches through one dispatcher.
(function (natives, lib) {
  "use strict";
  const { guarded, DOMException, Event, EventTarget, makeTarget, fire, defineEventHandler } = lib;
  const SIGNAL = Symbol("signal");
  const constructing = Symbol("constructing");

  class AbortSignal extends EventTarget {
    constructor(token) {
      if (token !== constructing) throw new TypeError("Illegal constructor");
      super();
    }
    // The aborted getter steps: return true if this is aborted; otherwise false.
    get aborted() { const [realm, seq] = idOf(this); return natives.signalAborted(realm, seq); }
    // The reason getter steps: return this's abort reason.
    get reason() { const [realm, seq] = idOf(this); return natives.signalReason(realm, seq); }
    // The throwIfAborted() method steps: throw this's abort reason, if this is aborted.
    throwIfAborted() {
      const [realm, seq] = idOf(this);
      if (natives.signalAborted(realm, seq)) throw natives.signalReason(realm, seq);
    }
    // The static abort(reason) method steps: a new AbortSignal whose abort reason is reason if it
    // is given, otherwise a new "AbortError" DOMException.
    static abort(reason) {
      const [realm, seq] = natives.signalAbort(reason);
      return signalFor(realm, seq);
    }
    // The static timeout(milliseconds) method steps (WebIDL [EnforceRange] unsigned long long).
    static timeout(milliseconds) {
      const ms = Number(milliseconds);
      if (!Number.isFinite(ms) || ms < 0 || ms > Number.MAX_SAFE_INTEGER) {
        throw new TypeError("Failed to execute 'timeout' on 'AbortSignal': Value is outside the 'unsigned long long' value range.");
      }
      const [realm, seq] = natives.signalTimeout(Math.trunc(ms));
      return signalFor(realm, seq);
    }
    // The static any(signals) method steps: return the result of creating a dependent abort
    // signal from signals using AbortSignal and the current realm.
    static any(signals) {
      if (signals === null || typeof signals !== "object" || typeof signals[Symbol.iterator] !== "function") {
        throw new TypeError("Failed to execute 'any' on 'AbortSignal': The provided value cannot be converted to a sequence.");
      }
      const ids = [];
      for (const signal of signals) {
        if (!isAbortSignal(signal)) throw new TypeError("Failed to execute 'any' on 'AbortSignal': Failed to convert value to 'AbortSignal'.");
        ids.push(...idOf(signal));
      }
      const [realm, seq] = natives.signalAny(ids);
      return signalFor(realm, seq);
    }
  }
  defineEventHandler(AbortSignal.prototype, "abort");
  Object.defineProperty(AbortSignal.prototype, Symbol.toStringTag, { value: "AbortSignal", configurable: true });

  // One object per signal per realm. Its `abort` listeners reach the simulator's "signal abort"
  // through one dispatcher, added to the simulator's signal while the object has listeners.
  const signals = new Map();
  function signalFor(realm, seq) {
    const key = `${realm}:${seq}`;
    let signal = signals.get(key);
    if (signal) return signal;
    const object = new AbortSignal(constructing);
    Object.defineProperty(object, SIGNAL, { value: [realm, seq] });
    signal = guarded(object, "AbortSignal");
    let dispatcher = null;
    // Fire an event named abort at signal (DOM "run the abort steps" 3).
    const fireAbort = () => { fire(signal, new Event("abort")); };
    makeTarget(signal, null, (list) => {
      if (list.length > 0 && dispatcher === null) dispatcher = natives.signalListen(realm, seq, fireAbort);
      else if (list.length === 0 && dispatcher !== null) { natives.signalUnlisten(realm, seq, dispatcher); dispatcher = null; }
    });
    signals.set(key, signal);
    return signal;
  }
  function idOf(value) {
    const id = value !== null && typeof value === "object" ? value[SIGNAL] : undefined;
    if (!id) throw new TypeError("Illegal invocation: not an AbortSignal");
    return id;
  }
  function isAbortSignal(value) {
    return value !== null && typeof value === "object" && Array.isArray(value[SIGNAL]);
  }
  // DOM "add" an algorithm to an AbortSignal: the simulator runs it with the signal's other
  // abort algorithms (nothing is added to a signal already aborted).
  function addAbortAlgorithm(signal, algorithm) {
    const [realm, seq] = idOf(signal);
    natives.signalAddAlgorithm(realm, seq, algorithm);
  }

  class AbortController {
    // The new AbortController() constructor steps: 1. Let signal be a new AbortSignal object.
    // 2. Set this's signal to signal.
    constructor() {
      const [realm, seq] = natives.newController();
      Object.defineProperty(this, "signal", { value: signalFor(realm, seq), enumerable: true });
      return guarded(this, "AbortController");
    }
    // The abort(reason) method steps are to signal abort on this's signal with reason if it is
    // given.
    abort(reason) {
      const [realm, seq] = idOf(this.signal);
      natives.abort(realm, seq, reason);
    }
  }
  Object.defineProperty(AbortController.prototype, Symbol.toStringTag, { value: "AbortController", configurable: true });

  Object.assign(lib, { AbortSignal, AbortController, signalFor, signalOf: idOf, isAbortSignal, addAbortAlgorithm });
  void DOMException;
})
