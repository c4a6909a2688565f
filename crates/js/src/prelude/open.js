// HTML's auxiliary windows (https://html.spec.whatwg.org/#dom-open): `open()`, `opener`, `close()`
// and `closed` of this realm's Window, and `closed`, `close()` and `opener` of other windows'
// WindowProxy objects (all three are among HTML's CrossOriginProperties). `window_open.rs` has
// the natives; the steps are the simulator's (`webmcp::window_open`). Run after location.js,
// before window.js, which puts these members on the global and on `windowFor`'s proxies and
// sets `lib.windowFor`.
(function (natives, lib, selfNav) {
  "use strict";

  function rethrow(error) {
    if (error !== null) throw error;
  }
  // The WindowProxy of navigable `nav` (or null for -1), as this realm reaches it.
  function windowOrNull(nav) {
    return nav < 0 ? null : lib.windowFor(nav);
  }

  // open(optional USVString url = "", optional DOMString target = "_blank",
  // optional [LegacyNullToEmptyString] DOMString features = ""): the window open steps.
  function open(url = "", target = "_blank", features = "") {
    const opened = natives.open(String(url), String(target), features === null ? "" : String(features));
    if (typeof opened !== "number") throw opened;
    // Step 17: null (noopener, or no navigable chosen); step 18: targetNavigable's active
    // WindowProxy.
    return windowOrNull(opened);
  }

  // The close() method steps for the Window navigable `nav` shows: step 6.2's task runs
  // "definitely close a top-level traversable".
  function closeWindow(nav) {
    rethrow(natives.close(nav, () => natives.definitelyClose(nav)));
  }

  // The opener getter and setter of this realm's Window. The setter given null disowns; given
  // anything else, it defines an own "opener" data property on the Window (DefinePropertyOrThrow
  // with writable, enumerable and configurable true).
  function openerAccessor(global) {
    return {
      get: () => windowOrNull(natives.opener(-1)),
      set: (value) => {
        if (value === null) {
          natives.disownOpener();
          return;
        }
        Object.defineProperty(global, "opener", { value, writable: true, enumerable: true, configurable: true });
      },
      configurable: true,
      enumerable: true,
    };
  }

  // What window.js adds to another window's WindowProxy (`windowFor(nav)`'s members): the
  // closed getter, close(), and the opener getter of the Window the navigable shows now (HTML's
  // cross-origin [[Get]] of "opener" calls the same getter). A page that set its own `opener`
  // to a value other than null is not followed here (the own property is in its realm).
  function crossOriginMembers(nav) {
    return {
      get closed() { return natives.closed(nav); },
      close() { closeWindow(nav); },
      get opener() { return windowOrNull(natives.opener(nav)); },
    };
  }

  // A window `open()` made has no document until its navigation completes (a later task): HTML
  // gives it an initial about:blank document meanwhile, which is not modelled.
  function checkHasDocument(nav, member) {
    if (!natives.hasDocument(nav)) {
      throw new TypeError(`Window.${member} of a window before its first document loads (its initial about:blank document: HTML "create a new top-level traversable", "create a new browsing context and document") is not modelled by webmcp-sim`);
    }
  }

  Object.assign(lib, { open, closeWindow, openerAccessor, crossOriginMembers, checkHasDocument, selfClosed: () => natives.closed(selfNav) });
})
