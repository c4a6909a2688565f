// WebMCP ModelContext (https://webmachinelearning.github.io/webmcp/#modelcontext), an EventTarget:
// registerTool, getTools and executeTool run the simulator's method steps (`model_context.rs`);
// `ontoolchange` and `addEventListener` are DOM's. Under the variant `tool-events` (issue #146),
// ToolActivatedEvent and ToolCancelEvent, and the `ontoolactivated`/`ontoolcancel` attributes.
// One object per document this realm reaches.
(function (natives, lib) {
  "use strict";
  const { guarded, Event, EventTarget, makeTarget, fire, defineEventHandler, eventState } = lib;
  const DOC = Symbol("document");
  const constructing = Symbol("constructing");
  const toolEvents = natives.toolEvents;

  function docOf(value) {
    const doc = value !== null && typeof value === "object" ? value[DOC] : undefined;
    if (typeof doc !== "number") throw new TypeError("Illegal invocation: not a ModelContext");
    return doc;
  }
  class ModelContext extends EventTarget {
    constructor(token) {
      if (token !== constructing) throw new TypeError("Illegal constructor");
      super();
    }
    registerTool(tool, options) { return natives.registerTool(docOf(this), tool, options); }
    getTools(options) { return natives.getTools(docOf(this), options); }
    executeTool(tool, inputObject, options) { return natives.executeTool(docOf(this), tool, inputObject, options); }
  }
  defineEventHandler(ModelContext.prototype, "toolchange");
  if (toolEvents) {
    defineEventHandler(ModelContext.prototype, "toolactivated");
    defineEventHandler(ModelContext.prototype, "toolcancel");
  }
  Object.defineProperty(ModelContext.prototype, Symbol.toStringTag, { value: "ModelContext", configurable: true });

  // Variant tool-events (PR #245): `toolName` is the executed tool's name.
  const TOOL_NAMES = new WeakMap();
  class ToolActivatedEvent extends Event {
    constructor(type, eventInitDict) {
      super(type, eventInitDict);
      TOOL_NAMES.set(this, eventInitDict && eventInitDict.toolName !== undefined ? String(eventInitDict.toolName) : "");
    }
    get toolName() { eventState(this); return TOOL_NAMES.get(this); }
  }
  class ToolCancelEvent extends Event {
    constructor(type, eventInitDict) {
      super(type, eventInitDict);
      TOOL_NAMES.set(this, eventInitDict && eventInitDict.toolName !== undefined ? String(eventInitDict.toolName) : "");
    }
    get toolName() { eventState(this); return TOOL_NAMES.get(this); }
  }
  Object.defineProperty(ToolActivatedEvent.prototype, Symbol.toStringTag, { value: "ToolActivatedEvent", configurable: true });
  Object.defineProperty(ToolCancelEvent.prototype, Symbol.toStringTag, { value: "ToolCancelEvent", configurable: true });

  const bits = { toolchange: 1, toolactivated: 2, toolcancel: 4 };
  const contexts = new Map();
  function modelContextFor(doc) {
    let mc = contexts.get(doc);
    if (mc) return mc;
    const object = new ModelContext(constructing);
    Object.defineProperty(object, DOC, { value: doc });
    mc = guarded(object, "ModelContext");
    // The simulator fires an event at this ModelContext through one dispatcher, which it holds
    // with the types some listener is for (a type nobody listens for is not handed over).
    // DOM "fire an event" named type at the ModelContext: a trusted Event, or under the variant
    // a ToolActivatedEvent / ToolCancelEvent with its toolName.
    const dispatcher = (type, toolName) => {
      let event;
      if (type === "toolactivated" && toolEvents) event = new ToolActivatedEvent(type, { toolName });
      else if (type === "toolcancel" && toolEvents) event = new ToolCancelEvent(type, { toolName });
      else event = new Event(type);
      fire(mc, event);
    };
    let types = 0;
    makeTarget(mc, null, (list) => {
      let now = 0;
      for (const l of list) now |= bits[l.type] || 0;
      if (now !== types) {
        types = now;
        natives.listenModelContext(doc, types, dispatcher);
      }
    });
    contexts.set(doc, mc);
    return mc;
  }

  // A promise registerTool (without a signal) or getTools gives the page tells the simulator,
  // once, that the page reacts to it (issue 28: while exploring, the task that settles a promise
  // made at a call site no page reads is run when it is queued; docs/model.md, "Inert tasks in
  // JavaScript pages"). Every reaction to a promise reads its `then` (`then`, `catch`,
  // `finally`, resolving a promise with it) or its `constructor` (`await`, `Promise.resolve`,
  // `Promise.all` and the rest, and `then`'s species lookup): own accessors here, non-enumerable,
  // that read on from the promise's prototype, so the page gets the members it would; setting
  // one makes it an ordinary own property. Primordials are taken before any page script runs.
  const getPrototypeOf = Object.getPrototypeOf;
  const reflectGet = Reflect.get;
  const defineProperty = Object.defineProperty;
  function watchPromise(promise, doc, seq) {
    let read = false;
    const note = () => {
      if (!read) {
        read = true;
        natives.promiseRead(doc, seq);
      }
    };
    for (const key of ["then", "constructor"]) {
      defineProperty(promise, key, {
        get() { note(); return reflectGet(getPrototypeOf(promise), key, this); },
        set(value) { note(); defineProperty(this, key, { value, writable: true, enumerable: true, configurable: true }); },
        enumerable: false,
        configurable: true,
      });
    }
  }

  Object.assign(lib, { ModelContext, modelContextFor, watchPromise, toolEventClasses: toolEvents ? { ToolActivatedEvent, ToolCancelEvent } : {} });
})
