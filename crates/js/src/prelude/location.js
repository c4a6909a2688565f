// HTML Location (https://html.spec.whatwg.org/#the-location-interface): one object per navigable
// this realm reaches (`location`, and `otherWindow.location` through a WindowProxy), made here so
// that the incumbent and entry settings object of its members is this realm's document
// (`location.rs` has the natives). Run after model_context.js, before window.js, which uses
// `lib.locationFor`. Setting a URL part other than `href` is not modelled and throws.
(function (natives, lib) {
  "use strict";
  const { guarded, DOMException } = lib;

  // A Location object's relevant Document: its relevant global object's navigable's active
  // document, or null.
  function relevantDocument(nav) {
    const doc = natives.locationDocument(nav);
    return doc < 0 ? null : doc;
  }
  function securityError(member) {
    return new DOMException(`Blocked a frame with origin "${natives.origin}" from accessing a cross-origin frame (Location.${member}).`, "SecurityError");
  }
  // The getters' step 1 (and assign's and reload's step 2-3): if this's relevant Document is
  // non-null and its origin is not same origin-domain with the entry settings object's origin,
  // then throw a "SecurityError" DOMException. Returns the relevant Document.
  function sameOriginDomainOrThrow(nav, member) {
    const doc = relevantDocument(nav);
    if (doc !== null && !natives.sameOriginDomain(doc)) throw securityError(member);
    return doc;
  }
  function rethrow(error) {
    if (error !== null) throw error;
  }

  const parts = ["href", "protocol", "host", "hostname", "port", "pathname", "search", "hash"];
  // A Location object's url: this's relevant Document's URL, if this's relevant Document is
  // non-null, and about:blank otherwise.
  const aboutBlank = ["about:blank", "about:", "", "", "", "blank", "", ""];
  function urlPart(nav, part) {
    const doc = sameOriginDomainOrThrow(nav, part);
    if (part === "origin") return doc === null ? "null" : natives.originOf(doc);
    const i = parts.indexOf(part);
    return doc === null ? aboutBlank[i] : natives.url(doc)[i];
  }

  class Location {
    constructor() { throw new TypeError("Illegal constructor"); }
  }
  Object.defineProperty(Location.prototype, Symbol.toStringTag, { value: "Location", configurable: true });

  const locations = new Map();
  function locationFor(nav) {
    let location = locations.get(nav);
    if (location) return location;
    const members = Object.create(Location.prototype);
    for (const part of ["href", "origin", ...parts.slice(1)]) {
      let set;
      if (part === "href") {
        // The href setter steps: 1. If this's relevant Document is null, then return. 2. Let url
        // be the result of encoding-parsing a URL given the given value, relative to the entry
        // settings object. 3. If url is failure, then throw a "SyntaxError" DOMException.
        // 4. Location-object navigate this to url. (No security check: HTML lets any origin set
        // it.)
        set = (value) => {
          if (relevantDocument(nav) === null) return;
          rethrow(natives.navigate(nav, String(value), "auto"));
        };
      } else if (part !== "origin") {
        set = () => { throw new TypeError(`Location.${part} (setting it navigates) is not modelled by webmcp-sim: set href`); };
      }
      Object.defineProperty(members, part, { get: () => urlPart(nav, part), set, enumerable: true });
    }
    Object.assign(members, {
      // assign(url): 1. If this's relevant Document is null, then return. 2. If this's relevant
      // Document's origin is not same origin-domain with the entry settings object's origin, then
      // throw a "SecurityError" DOMException. 3. Let urlRecord be the result of encoding-parsing a
      // URL given url, relative to the entry settings object. 4. If urlRecord is failure, then
      // throw a "SyntaxError" DOMException. 5. Location-object navigate this to urlRecord.
      assign(url) {
        if (arguments.length < 1) throw new TypeError("Failed to execute 'assign' on 'Location': 1 argument required, but only 0 present.");
        if (sameOriginDomainOrThrow(nav, "assign") === null) return;
        rethrow(natives.navigate(nav, String(url), "auto"));
      },
      // replace(url): 1. If this's relevant Document is null, then return. 2. Let urlRecord be
      // the result of encoding-parsing a URL given url, relative to the entry settings object.
      // 3. If urlRecord is failure, then throw a "SyntaxError" DOMException. 4. Location-object
      // navigate this to urlRecord given "replace".
      replace(url) {
        if (arguments.length < 1) throw new TypeError("Failed to execute 'replace' on 'Location': 1 argument required, but only 0 present.");
        if (relevantDocument(nav) === null) return;
        rethrow(natives.navigate(nav, String(url), "replace"));
      },
      // reload(): 1. Let document be this's relevant Document. 2. If document is null, then
      // return. 3. If document's origin is not same origin-domain with the entry settings
      // object's origin, then throw a "SecurityError" DOMException. 4. Reload document's node
      // navigable.
      reload() {
        const document = sameOriginDomainOrThrow(nav, "reload");
        if (document === null) return;
        natives.reload(document);
      },
      // The toString() method steps: return this's href getter steps.
      toString() { return urlPart(nav, "href"); },
    });
    location = guarded(members, "Location");
    locations.set(nav, location);
    return location;
  }

  Object.assign(lib, { Location, locationFor });
})
