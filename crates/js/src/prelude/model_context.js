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

  Object.assign(lib, { ModelContext, modelContextFor, toolEventClasses: toolEvents ? { ToolActivatedEvent, ToolCancelEvent } : {} });
})
