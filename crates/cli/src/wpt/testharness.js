// webmcp-sim's own testharness.js (issue 29): the API WPT's testharness.js documents
// (web-platform-tests.org, "testharness.js API"), written here for the simulator, not copied.
// `/resources/testharness.js` in a page maps to this file; `/resources/testharnessreport.js` to
// nothing (the report is this file's `report`). Where the documentation leaves a behaviour open,
// docs/wpt.md ("The harness") says what this file does.
//
// The results leave the page as one console line, `webmcp-sim:wpt-results {json}`, written with
// the `console.log` this file captured when it ran (a page that replaces console.log later does
// not touch it); the runner (crates/cli/src/wpt/verdict.rs) reads it from each explored outcome.
(function (global) {
  "use strict";
  const emit = global.console.log;
  const setTimer = global.setTimeout;
  const clearTimer = global.clearTimeout;
  const config = global.__webmcpSimWpt || {};
  const MARK = "webmcp-sim:wpt-results ";

  // Subtest and harness statuses, as testharness.js numbers and names them.
  const PASS = 0, FAIL = 1, TIMEOUT = 2, NOTRUN = 3, PRECONDITION_FAILED = 4;
  const STATUS = ["PASS", "FAIL", "TIMEOUT", "NOTRUN", "PRECONDITION_FAILED"];
  const H_OK = 0, H_ERROR = 1, H_TIMEOUT = 2, H_PRECONDITION_FAILED = 3;
  const HARNESS = ["OK", "ERROR", "TIMEOUT", "PRECONDITION_FAILED"];
  // A subtest's phases.
  const INITIAL = 0, STARTED = 1, HAS_RESULT = 2, CLEANING = 3, COMPLETE = 4;

  const settings = {
    harness_timeout: { normal: 10000, long: 60000 },
    test_timeout: null,
    explicit_done: false,
    explicit_timeout: false,
    allow_uncaught_exception: false,
    timeout_multiplier: 1,
    single_test: false,
  };

  class AssertionError extends Error {
    constructor(message) {
      super(message);
      this.name = "AssertionError";
    }
  }
  class OptionalFeatureUnsupportedError extends AssertionError {
    constructor(message) {
      super(message);
      this.name = "OptionalFeatureUnsupportedError";
    }
  }

  const harness = {
    tests: [],
    names: new Set(),
    status: H_OK,
    message: null,
    loaded: false,
    done_called: false,
    complete: false,
    // A cleanup threw or returned a value it may not (`abort_tests`).
    aborted: false,
    timer: null,
    chain: null,
    completion_callbacks: [],
    result_callbacks: [],
  };

  function harness_error(message) {
    if (harness.status === H_OK) {
      harness.status = H_ERROR;
      harness.message = String(message);
    }
  }

  // ---- formatting -------------------------------------------------------------------------

  function format_value(val, seen) {
    seen = seen || [];
    if (typeof val === "object" && val !== null) {
      if (seen.indexOf(val) !== -1) return "[...]";
      seen.push(val);
    }
    if (Array.isArray(val)) {
      return "[" + val.map((x) => format_value(x, seen)).join(", ") + "]";
    }
    switch (typeof val) {
      case "string":
        return JSON.stringify(val);
      case "boolean":
      case "undefined":
        return String(val);
      case "number":
        return val === 0 && 1 / val < 0 ? "-0" : String(val);
      case "bigint":
        return String(val) + "n";
      case "symbol":
        return val.toString();
      case "object":
        if (val === null) return "null";
      // fall through: other objects as `object "<String(val)>"`.
      default:
        try {
          let text = String(val);
          if (text.length > 1000) text = text.slice(0, 1000) + "…";
          return typeof val + ' "' + text + '"';
        } catch (e) {
          return "[stringifying object threw " + String(e) + " with type " + String(typeof e) + "]";
        }
    }
  }

  // The message of a failed assertion: `name: description error`, with each `${key}` of `error`
  // replaced by the formatted value of `substitutions[key]`.
  function make_message(function_name, description, error, substitutions) {
    const filled = String(error).replace(/\$\{([^}]+)\}/g, (_, key) =>
      Object.prototype.hasOwnProperty.call(substitutions || {}, key) ? format_value(substitutions[key]) : "${" + key + "}");
    return function_name + ": " + (description ? String(description) + " " : "") + filled;
  }

  function assert(expected_true, function_name, description, error, substitutions) {
    if (expected_true !== true) {
      throw new AssertionError(make_message(function_name, description, error, substitutions));
    }
  }

  function same_value(x, y) {
    if (y !== y) return x !== x; // NaN
    if (x === 0 && y === 0) return 1 / x === 1 / y; // +0 and -0 differ
    return x === y;
  }

  // ---- assertions -------------------------------------------------------------------------

  function assert_true(actual, description) {
    assert(actual === true, "assert_true", description, "expected true got ${actual}", { actual });
  }
  function assert_false(actual, description) {
    assert(actual === false, "assert_false", description, "expected false got ${actual}", { actual });
  }
  function assert_equals(actual, expected, description) {
    if (typeof actual !== typeof expected) {
      assert(false, "assert_equals", description, "expected (" + typeof expected + ") ${expected} but got (" + typeof actual + ") ${actual}", { expected, actual });
      return;
    }
    assert(same_value(actual, expected), "assert_equals", description, "expected ${expected} but got ${actual}", { expected, actual });
  }
  function assert_not_equals(actual, expected, description) {
    assert(!same_value(actual, expected), "assert_not_equals", description, "got disallowed value ${actual}", { actual });
  }
  function assert_in_array(actual, expected, description) {
    assert(expected.indexOf(actual) !== -1, "assert_in_array", description, "value ${actual} not in array ${expected}", { actual, expected });
  }
  function assert_array_equals(actual, expected, description) {
    const max = 50;
    const shorten = (a) => (a.length > max ? Array.prototype.slice.call(a, 0, max).concat(["…"]) : Array.prototype.slice.call(a));
    assert(typeof actual === "object" && actual !== null && "length" in actual, "assert_array_equals", description, "value is ${actual}, expected array", { actual });
    assert(actual.length === expected.length, "assert_array_equals", description,
      "lengths differ, expected array ${expected} length ${expectedLength}, got ${actual} length ${actualLength}",
      { expected: shorten(expected), expectedLength: expected.length, actual: shorten(actual), actualLength: actual.length });
    for (let i = 0; i < actual.length; i++) {
      assert(Object.prototype.hasOwnProperty.call(actual, i) === Object.prototype.hasOwnProperty.call(expected, i),
        "assert_array_equals", description, "expected property ${i} to be ${expected} but was ${actual} (expected array ${arrayExpected} got ${arrayActual})",
        { i, expected: Object.prototype.hasOwnProperty.call(expected, i) ? "present" : "missing", actual: Object.prototype.hasOwnProperty.call(actual, i) ? "present" : "missing", arrayExpected: shorten(expected), arrayActual: shorten(actual) });
      assert(same_value(expected[i], actual[i]), "assert_array_equals", description,
        "expected property ${i} to be ${expected} but got ${actual} (expected array ${arrayExpected} got ${arrayActual})",
        { i, expected: expected[i], actual: actual[i], arrayExpected: shorten(expected), arrayActual: shorten(actual) });
    }
  }
  function assert_array_approx_equals(actual, expected, epsilon, description) {
    assert(actual.length === expected.length, "assert_array_approx_equals", description, "lengths differ, expected ${expected} got ${actual}", { expected: expected.length, actual: actual.length });
    for (let i = 0; i < actual.length; i++) {
      assert(typeof actual[i] === "number", "assert_array_approx_equals", description, "property ${i}, expected a number but got a ${type_actual}", { i, type_actual: typeof actual[i] });
      assert(Math.abs(actual[i] - expected[i]) <= epsilon, "assert_array_approx_equals", description,
        "property ${i}, expected ${expected} +/- ${epsilon}, expected ${expected} but got ${actual}", { i, expected: expected[i], actual: actual[i], epsilon });
    }
  }
  function assert_approx_equals(actual, expected, epsilon, description) {
    assert(typeof actual === typeof expected, "assert_approx_equals", description, "expected a ${type_expected} but got a ${type_actual}", { type_expected: typeof expected, type_actual: typeof actual });
    if (actual === expected) return;
    assert(Math.abs(actual - expected) <= epsilon, "assert_approx_equals", description, "expected ${expected} +/- ${epsilon} but got ${actual}", { expected, actual, epsilon });
  }
  function numeric(name, cmp, text) {
    return function (actual, expected, description) {
      assert(typeof actual === "number" || typeof actual === "bigint", name, description, "expected a number but got a ${type_actual}", { type_actual: typeof actual });
      assert(typeof actual === typeof expected, name, description, "expected a ${type_expected} but got a ${type_actual}", { type_expected: typeof expected, type_actual: typeof actual });
      assert(cmp(actual, expected), name, description, "expected a number " + text + " ${expected} but got ${actual}", { expected, actual });
    };
  }
  const assert_greater_than = numeric("assert_greater_than", (a, e) => a > e, "greater than");
  const assert_less_than = numeric("assert_less_than", (a, e) => a < e, "less than");
  const assert_greater_than_equal = numeric("assert_greater_than_equal", (a, e) => a >= e, "greater than or equal to");
  const assert_less_than_equal = numeric("assert_less_than_equal", (a, e) => a <= e, "less than or equal to");
  function assert_between_exclusive(actual, lower, upper, description) {
    assert(typeof actual === "number", "assert_between_exclusive", description, "expected a number but got a ${type_actual}", { type_actual: typeof actual });
    assert(actual > lower && actual < upper, "assert_between_exclusive", description, "expected a number greater than ${lower} and less than ${upper} but got ${actual}", { lower, upper, actual });
  }
  function assert_between_inclusive(actual, lower, upper, description) {
    assert(typeof actual === "number", "assert_between_inclusive", description, "expected a number but got a ${type_actual}", { type_actual: typeof actual });
    assert(actual >= lower && actual <= upper, "assert_between_inclusive", description, "expected a number greater than or equal to ${lower} and less than or equal to ${upper} but got ${actual}", { lower, upper, actual });
  }
  function assert_regexp_match(actual, expected, description) {
    assert(expected.test(actual), "assert_regexp_match", description, "expected ${expected} but got ${actual}", { expected, actual });
  }
  function assert_class_string(object, class_string, description) {
    const actual = Object.prototype.toString.call(object);
    const expected = "[object " + class_string + "]";
    assert(same_value(actual, expected), "assert_class_string", description, "expected ${expected} but got ${actual}", { expected, actual });
  }
  function assert_own_property(object, property_name, description) {
    assert(Object.prototype.hasOwnProperty.call(object, property_name), "assert_own_property", description, "expected property ${p} missing", { p: property_name });
  }
  function assert_not_own_property(object, property_name, description) {
    assert(!Object.prototype.hasOwnProperty.call(object, property_name), "assert_not_own_property", description, "unexpected property ${p} is found on object", { p: property_name });
  }
  function assert_inherits(object, property_name, description) {
    assert(typeof object === "object" || typeof object === "function", "assert_inherits", description, "provided value is not an object");
    assert(!Object.prototype.hasOwnProperty.call(object, property_name), "assert_inherits", description, "property ${p} found on object expected in prototype chain", { p: property_name });
    assert(property_name in object, "assert_inherits", description, "property ${p} not found in prototype chain", { p: property_name });
  }
  function assert_idl_attribute(object, property_name, description) {
    assert(property_name in object, "assert_idl_attribute", description, "property ${p} not found in prototype chain", { p: property_name });
  }
  function assert_readonly(object, property_name, description) {
    const initial = object[property_name];
    try {
      object[property_name] = initial + "a";
      assert(same_value(object[property_name], initial), "assert_readonly", description, "changing property ${p} succeeded", { p: property_name });
    } finally {
      try { object[property_name] = initial; } catch (e) { /* read-only: as asserted */ }
    }
  }
  function assert_instance_of(object, constructor, description) {
    assert(object instanceof constructor, "assert_instance_of", description, "expected instance of ${constructor} but got ${object}", { constructor: constructor && constructor.name, object });
  }
  function assert_implements(condition, description) {
    assert(!!condition, "assert_implements", description, "");
  }
  function assert_implements_optional(condition, description) {
    if (!condition) throw new OptionalFeatureUnsupportedError(make_message("assert_implements_optional", description, ""));
  }
  function assert_unreached(description) {
    assert(false, "assert_unreached", description, "Reached unreachable code");
  }
  function assert_object_equals(actual, expected, description) {
    assert(typeof actual === "object" && actual !== null, "assert_object_equals", description, "value is ${actual}, expected object", { actual });
    const check = (a, e, path, stack) => {
      stack.push(a);
      for (const p in a) {
        assert(Object.prototype.hasOwnProperty.call(e, p), "assert_object_equals", description, "unexpected property ${p}", { p: path.concat(p).join(".") });
        if (typeof a[p] === "object" && a[p] !== null) {
          if (stack.indexOf(a[p]) === -1) check(a[p], e[p], path.concat(p), stack);
        } else {
          assert(same_value(a[p], e[p]), "assert_object_equals", description, "property ${p} expected ${expected} got ${actual}", { p: path.concat(p).join("."), expected: e[p], actual: a[p] });
        }
      }
      for (const p in e) {
        assert(Object.prototype.hasOwnProperty.call(a, p), "assert_object_equals", description, "expected property ${p} missing", { p: path.concat(p).join(".") });
      }
      stack.pop();
    };
    check(actual, expected, [], []);
  }

  // DOMException's legacy codes, by name and by constant (WebIDL, "DOMException names table").
  const DOM_NAMES = {
    IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
    NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InUseAttributeError: 10,
    InvalidStateError: 11, SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14,
    InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20,
    URLMismatchError: 21, QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24,
    DataCloneError: 25, EncodingError: 0, NotReadableError: 0, UnknownError: 0, ConstraintError: 0,
    DataError: 0, TransactionInactiveError: 0, ReadOnlyError: 0, VersionError: 0, OperationError: 0,
    NotAllowedError: 0, OptOutError: 0,
  };
  const DOM_CONSTANTS = {
    INDEX_SIZE_ERR: "IndexSizeError", HIERARCHY_REQUEST_ERR: "HierarchyRequestError", WRONG_DOCUMENT_ERR: "WrongDocumentError",
    INVALID_CHARACTER_ERR: "InvalidCharacterError", NO_MODIFICATION_ALLOWED_ERR: "NoModificationAllowedError",
    NOT_FOUND_ERR: "NotFoundError", NOT_SUPPORTED_ERR: "NotSupportedError", INVALID_STATE_ERR: "InvalidStateError",
    SYNTAX_ERR: "SyntaxError", INVALID_MODIFICATION_ERR: "InvalidModificationError", NAMESPACE_ERR: "NamespaceError",
    INVALID_ACCESS_ERR: "InvalidAccessError", TYPE_MISMATCH_ERR: "TypeMismatchError", SECURITY_ERR: "SecurityError",
    NETWORK_ERR: "NetworkError", ABORT_ERR: "AbortError", URL_MISMATCH_ERR: "URLMismatchError",
    QUOTA_EXCEEDED_ERR: "QuotaExceededError", TIMEOUT_ERR: "TimeoutError", INVALID_NODE_TYPE_ERR: "InvalidNodeTypeError",
    DATA_CLONE_ERR: "DataCloneError",
  };

  // A function as assertion messages show it: its source on one line, shortened.
  function describe_function(func) {
    try { return String(func).replace(/\s+/g, " ").slice(0, 60); } catch (e) { return "(function)"; }
  }

  // assert_throws_dom(type, [constructor,] func, description)
  function assert_throws_dom(type, funcOrConstructor, descriptionOrFunc, maybeDescription) {
    let constructor = global.DOMException, func = funcOrConstructor, description = descriptionOrFunc;
    if (typeof descriptionOrFunc === "function") {
      constructor = funcOrConstructor;
      func = descriptionOrFunc;
      description = maybeDescription;
    }
    assert_throws_dom_impl(type, func, description, "assert_throws_dom", constructor);
  }
  function assert_throws_dom_impl(type, func, description, assertion_type, constructor) {
    let name = type;
    if (typeof type === "number") {
      name = Object.keys(DOM_NAMES).find((n) => DOM_NAMES[n] === type && type !== 0);
    } else if (Object.prototype.hasOwnProperty.call(DOM_CONSTANTS, type)) {
      name = DOM_CONSTANTS[type];
    }
    assert(typeof name === "string" && Object.prototype.hasOwnProperty.call(DOM_NAMES, name), assertion_type, description,
      "test bug: unrecognized DOMException code ${type} passed to " + assertion_type + "()", { type });
    try {
      func.call(this);
    } catch (e) {
      if (e instanceof AssertionError) throw e;
      assert(typeof e === "object" && e !== null, assertion_type, description, "${func} threw ${e} with type ${type}, not an object", { func: describe_function(func), e, type: typeof e });
      assert(e.name === name, assertion_type, description, "${func} threw ${actual} that is not a DOMException " + name + ": property \"name\" is equal to ${actual_name}, expected ${expected}",
        { func: describe_function(func), actual: e, actual_name: e.name, expected: name });
      assert(typeof constructor !== "function" || e instanceof constructor, assertion_type, description,
        "${func} threw an exception from the wrong global", { func: describe_function(func) });
      return;
    }
    assert(false, assertion_type, description, "${func} did not throw", { func: describe_function(func) });
  }
  function assert_throws_js(constructor, func, description) {
    assert_throws_js_impl(constructor, func, description, "assert_throws_js");
  }
  function assert_throws_js_impl(constructor, func, description, assertion_type) {
    try {
      func.call(this);
    } catch (e) {
      if (e instanceof AssertionError) throw e;
      assert(typeof e === "object" && e !== null, assertion_type, description, "${func} threw ${e} with type ${type}, not an object", { func: describe_function(func), e, type: typeof e });
      assert(!(global.DOMException && e instanceof global.DOMException), assertion_type, description, "${func} threw ${e} which is a DOMException, expected a " + (constructor && constructor.name), { func: describe_function(func), e });
      assert(e instanceof constructor && e.name === constructor.name, assertion_type, description,
        "${func} threw ${actual} (${actual_name}) expected instance of ${expected}", { func: describe_function(func), actual: e, actual_name: e.name, expected: constructor && constructor.name });
      return;
    }
    assert(false, assertion_type, description, "${func} did not throw", { func: describe_function(func) });
  }
  function assert_throws_exactly(exception, func, description) {
    assert_throws_exactly_impl(exception, func, description, "assert_throws_exactly");
  }
  function assert_throws_exactly_impl(exception, func, description, assertion_type) {
    try {
      func.call(this);
    } catch (e) {
      if (e instanceof AssertionError) throw e;
      assert(same_value(e, exception), assertion_type, description, "${func} threw ${e} but we expected it to throw ${exception}", { func: describe_function(func), e, exception });
      return;
    }
    assert(false, assertion_type, description, "${func} did not throw", { func: describe_function(func) });
  }

  // promise_rejects_*(test, expected, promise, description): a promise for the check.
  function promise_rejects(test, promise, description, check) {
    return Promise.resolve(promise).then(
      test.unreached_func("Should have rejected" + (description === undefined ? "" : ": " + description)),
      (e) => check(e),
    );
  }
  function promise_rejects_dom(test, type, promiseOrConstructor, descriptionOrPromise, maybeDescription) {
    let constructor = global.DOMException, promise = promiseOrConstructor, description = descriptionOrPromise;
    if (maybeDescription !== undefined || (typeof promiseOrConstructor === "function" && descriptionOrPromise && typeof descriptionOrPromise.then === "function")) {
      constructor = promiseOrConstructor;
      promise = descriptionOrPromise;
      description = maybeDescription;
    }
    return promise_rejects(test, promise, description,
      (e) => assert_throws_dom_impl(type, () => { throw e; }, description, "promise_rejects_dom", constructor));
  }
  function promise_rejects_js(test, constructor, promise, description) {
    return promise_rejects(test, promise, description,
      (e) => assert_throws_js_impl(constructor, () => { throw e; }, description, "promise_rejects_js"));
  }
  function promise_rejects_exactly(test, exception, promise, description) {
    return promise_rejects(test, promise, description,
      (e) => assert_throws_exactly_impl(exception, () => { throw e; }, description, "promise_rejects_exactly"));
  }

  // ---- subtests ---------------------------------------------------------------------------

  function message_of(e) {
    if (typeof e === "object" && e !== null && "message" in e) return String(e.message);
    return String(e);
  }

  class Test {
    constructor(name, properties) {
      this.name = name === undefined || name === null ? String(config.title || "") : String(name);
      this.properties = properties || {};
      this.phase = INITIAL;
      this.status = NOTRUN;
      this.message = null;
      this.cleanup_callbacks = [];
      this.timeout_id = null;
      this.timeout_length = this.properties.timeout !== undefined ? this.properties.timeout : settings.test_timeout;
      this._on_complete = null;
      if (harness.complete) {
        // Created after the harness finished: it is not reported (docs/wpt.md).
        this.phase = COMPLETE;
        return;
      }
      if (harness.names.has(this.name)) harness_error("duplicate test name: " + JSON.stringify(this.name));
      harness.names.add(this.name);
      harness.tests.push(this);
      // After an abort (a cleanup that threw or returned a value it may not), a new subtest is
      // complete at once, NOTRUN, as testharness.js's Test constructor makes it.
      if (harness.aborted) this.phase = COMPLETE;
    }
    set_status(status, message) {
      this.status = status;
      this.message = message === undefined ? null : message;
    }
    step(func, this_obj, ...args) {
      if (this.phase > STARTED) return undefined;
      if (this.phase === INITIAL) {
        this.phase = STARTED;
        // Pessimistic until done: a subtest the harness stops while it runs timed out.
        this.set_status(TIMEOUT, "Test timed out");
        if (this.timeout_length !== null && this.timeout_length !== undefined) {
          this.timeout_id = setTimer(() => this.timeout(), this.timeout_length * settings.timeout_multiplier);
        }
      }
      try {
        return func.apply(this_obj === undefined ? this : this_obj, args);
      } catch (e) {
        if (this.phase >= HAS_RESULT) return undefined;
        this.set_status(e instanceof OptionalFeatureUnsupportedError ? PRECONDITION_FAILED : FAIL, message_of(e));
        this.phase = HAS_RESULT;
        this.done();
        return undefined;
      }
    }
    step_func(func, this_obj) {
      const test = this;
      return function (...args) {
        return test.step(func, this_obj === undefined ? this : this_obj, ...args);
      };
    }
    step_func_done(func, this_obj) {
      const test = this;
      return function (...args) {
        if (func) test.step(func, this_obj === undefined ? this : this_obj, ...args);
        test.done();
      };
    }
    unreached_func(description) {
      return this.step_func(function () { assert_unreached(description); });
    }
    step_timeout(func, timeout, ...args) {
      const test = this;
      return setTimer(this.step_func(function () { return func.apply(test, args); }), timeout * settings.timeout_multiplier);
    }
    step_wait_func(cond, func, description, timeout = 3000, interval = 100) {
      const test = this;
      let remaining = Math.ceil(timeout / interval);
      const wait = () => {
        if (cond()) { func(); return; }
        if (--remaining <= 0) { assert(false, "step_wait_func", description, "Timed out waiting on condition"); return; }
        test.step_timeout(wait, interval);
      };
      wait();
    }
    step_wait(cond, description, timeout = 3000, interval = 100) {
      return new Promise((resolve) => this.step_wait_func(cond, resolve, description, timeout, interval));
    }
    add_cleanup(callback) {
      this.cleanup_callbacks.push(callback);
    }
    force_timeout() {
      this.set_status(TIMEOUT, "Test timed out");
      this.phase = HAS_RESULT;
      this.done();
    }
    timeout() {
      this.timeout_id = null;
      if (this.phase >= HAS_RESULT) return;
      this.force_timeout();
    }
    done() {
      if (this.phase >= CLEANING) return;
      if (this.phase <= STARTED) this.set_status(PASS, null);
      this.phase = HAS_RESULT;
      if (this.timeout_id !== null) { clearTimer(this.timeout_id); this.timeout_id = null; }
      this.cleanup();
    }
    // Runs the cleanup callbacks in the order they were added; a promise test waits for the
    // promises they return. As testharness.js's Test.cleanup: a cleanup that throws, or returns
    // anything but undefined (a promise test's: anything but undefined or a thenable), aborts
    // the harness at once (`abort_tests`), and the harness message names the test.
    cleanup() {
      this.phase = CLEANING;
      let failed = 0, bad = 0;
      const pending = [];
      for (const callback of this.cleanup_callbacks) {
        let value;
        try {
          value = callback();
        } catch (e) {
          failed++;
          abort_tests();
          continue;
        }
        const thenable = !!value && typeof value.then === "function";
        if (value !== undefined && !(this._is_promise_test && thenable)) {
          bad++;
          abort_tests();
        } else if (thenable) {
          pending.push(value);
        }
      }
      const finish = (rejected) => {
        if (failed + rejected + bad > 0) {
          const n = this.cleanup_callbacks.length;
          let message = "Test named '" + this.name + "' specified " + n + " 'cleanup' function" + (n > 1 ? "s" : "");
          if (failed + rejected > 0) message += ", and " + (failed + rejected) + " failed";
          if (bad > 0) message += ", and " + bad + " returned a " + (this._is_promise_test ? "non-thenable" : "non-undefined") + " value";
          harness.status = H_ERROR;
          harness.message = message + ".";
        }
        this.phase = COMPLETE;
        result(this);
      };
      if (pending.length === 0) {
        finish(0);
      } else {
        Promise.all(pending.map((p) => Promise.resolve(p).then(() => 0, () => { abort_tests(); return 1; }))).then((r) => finish(r.reduce((a, b) => a + b, 0)));
      }
    }
  }

  // testharness.js's Tests.abort: the harness status is ERROR, every subtest not started yet
  // is complete (NOTRUN), subtests created later are too, and the harness completes without
  // waiting for the ones still running.
  function abort_tests() {
    harness.status = H_ERROR;
    harness.aborted = true;
    for (const t of harness.tests) {
      if (t.phase === INITIAL) t.phase = COMPLETE;
    }
  }

  function result(test) {
    for (const callback of harness.result_callbacks) {
      try { callback(test); } catch (e) { harness_error(message_of(e)); }
    }
    if (test._on_complete) test._on_complete();
    maybe_complete();
  }

  // ---- the harness ------------------------------------------------------------------------

  function all_done() {
    return (settings.explicit_done ? harness.done_called : harness.loaded) && (harness.aborted || harness.tests.every((t) => t.phase === COMPLETE));
  }
  function maybe_complete() {
    if (!harness.complete && all_done()) complete();
  }
  function complete() {
    if (harness.complete) return;
    harness.complete = true;
    if (harness.timer !== null) { clearTimer(harness.timer); harness.timer = null; }
    for (const t of harness.tests) {
      if (t.timeout_id !== null) { clearTimer(t.timeout_id); t.timeout_id = null; }
    }
    const status = { status: harness.status, message: harness.message };
    for (const callback of harness.completion_callbacks) {
      try { callback(harness.tests, status); } catch (e) { /* the report is already decided */ }
    }
    report();
  }
  function report() {
    // A resource document (an iframe's page the test loads) runs the harness for its helpers
    // (`step_timeout`, the asserts) but reports nothing: only the test page does.
    if (config.resource) return;
    const out = {
      status: HARNESS[harness.status],
      message: harness.message,
      allow_uncaught_exception: !!settings.allow_uncaught_exception,
      tests: harness.tests.map((t) => ({ name: t.name, status: STATUS[t.status], message: t.message })),
    };
    emit(MARK + JSON.stringify(out));
  }
  // The harness timeout: running subtests time out, queued ones never ran.
  function harness_timeout() {
    harness.timer = null;
    if (harness.complete) return;
    harness.status = H_TIMEOUT;
    harness.message = null;
    for (const t of harness.tests) {
      if (t.phase === INITIAL) { t.set_status(NOTRUN, null); t.phase = COMPLETE; }
      else if (t.phase < HAS_RESULT) { t.set_status(TIMEOUT, "Test timed out"); t.phase = COMPLETE; }
      else if (t.phase < COMPLETE) { t.phase = COMPLETE; }
    }
    complete();
  }

  function apply_properties(properties) {
    for (const key of Object.keys(properties || {})) {
      if (key === "timeout") settings.harness_timeout.normal = settings.harness_timeout.long = properties.timeout;
      else if (key in settings) settings[key] = properties[key];
    }
  }

  function setup(func_or_properties, maybe_properties) {
    let func = null, properties = {};
    if (typeof func_or_properties === "function") { func = func_or_properties; properties = maybe_properties || {}; }
    else properties = func_or_properties || {};
    apply_properties(properties);
    if (settings.single_test && !harness.single) {
      harness.single = new Test(config.title, {});
      harness.single.step(() => {});
    }
    if (func) {
      try { func(); } catch (e) { harness_error("setup failed: " + message_of(e)); harness.status = H_ERROR; complete(); }
    }
  }
  function promise_setup(func, properties) {
    apply_properties(properties);
    harness.chain = (harness.chain || Promise.resolve()).then(() => func()).then(undefined, (e) => {
      harness_error("promise_setup failed: " + message_of(e));
      complete();
      return new Promise(() => {});
    });
  }
  function done() {
    harness.done_called = true;
    if (harness.single) harness.single.done();
    // Without explicit_done, done() ends the file's test creation as the load event does.
    harness.loaded = true;
    maybe_complete();
  }
  function timeout() {
    harness_timeout();
  }

  function test(func, name, properties) {
    const t = new Test(name, properties);
    const value = t.step(func, t, t);
    if (value !== undefined && t.phase < HAS_RESULT) {
      t.set_status(FAIL, "Test named " + JSON.stringify(t.name) + " passed a function to `test` that returned a value.");
      t.phase = HAS_RESULT;
    }
    t.done();
    return t;
  }
  function async_test(func, name, properties) {
    if (typeof func !== "function") {
      properties = name;
      name = func;
      func = null;
    }
    const t = new Test(name, properties);
    if (func) t.step(func, t, t);
    return t;
  }
  function promise_test(func, name, properties) {
    const t = new Test(name, properties);
    t._is_promise_test = true;
    if (t.phase === COMPLETE) return;
    harness.chain = (harness.chain || Promise.resolve()).then(() => new Promise((resolve) => {
      if (t.phase === COMPLETE) { resolve(); return; }
      t._on_complete = resolve;
      const promise = t.step(func, t, t);
      t.step(() => {
        assert(!!promise && typeof promise.then === "function", "promise_test", null,
          "test body must return a 'thenable' object (received ${value})", { value: promise });
      });
      if (t.phase >= HAS_RESULT) return;
      promise.then(
        () => t.done(),
        t.step_func((value) => {
          if (value instanceof AssertionError) throw value;
          assert(false, "promise_test", null, "Unhandled rejection with value: ${value}", { value });
        }),
      );
    }));
  }
  function generate_tests(func, args, properties) {
    for (let i = 0; i < args.length; i++) {
      const [name, ...rest] = args[i];
      test(function () { func.apply(this, rest); }, name, Array.isArray(properties) ? properties[i] : properties);
    }
  }
  function step_timeout(func, timeout, ...args) {
    return setTimer(() => func(...args), timeout * settings.timeout_multiplier);
  }

  // EventWatcher(test, watchedNode, eventTypes[, timeoutPromise]): wait_for(types[, options]).
  function EventWatcher(test, watchedNode, eventTypes) {
    if (typeof eventTypes === "string") eventTypes = [eventTypes];
    let waiting = null;
    const handler = test.step_func((evt) => {
      assert_true(!!waiting, "Not expecting event, but got " + evt.type + " event");
      assert_equals(evt.type, waiting.types[0], "Expected " + waiting.types[0] + " event, but got " + evt.type + " event instead");
      if (waiting.types.length > 1) {
        waiting.types.shift();
        if (waiting.record) waiting.events.push(evt);
        return;
      }
      const w = waiting;
      waiting = null;
      w.resolve(w.record ? w.events.concat([evt]) : evt);
    });
    for (const type of eventTypes) watchedNode.addEventListener(type, handler, false);
    this.wait_for = function (types, options) {
      if (waiting) return Promise.reject("Already waiting for an event or events");
      if (typeof types === "string") types = [types];
      const record = options && options.record === "all";
      return new Promise((resolve) => { waiting = { types: types.slice(), resolve, record, events: [] }; });
    };
    this.stop_watching = function () {
      for (const type of eventTypes) watchedNode.removeEventListener(type, handler, false);
    };
    test.add_cleanup(() => this.stop_watching());
  }

  // The page's load event ends test creation (docs/wpt.md: at the microtask checkpoint after the
  // page's scripts), then the harness timeout starts.
  Promise.resolve().then(() => {
    harness.loaded = true;
    if (!settings.explicit_timeout && !harness.complete) {
      const length = settings.harness_timeout[config.timeout === "long" ? "long" : "normal"] * settings.timeout_multiplier;
      harness.timer = setTimer(harness_timeout, length);
    }
    maybe_complete();
  });

  const api = {
    test, async_test, promise_test, setup, promise_setup, done, timeout, generate_tests, step_timeout,
    format_value, EventWatcher, AssertionError, OptionalFeatureUnsupportedError,
    add_completion_callback: (f) => harness.completion_callbacks.push(f),
    add_result_callback: (f) => harness.result_callbacks.push(f),
    add_start_callback: () => {},
    assert_true, assert_false, assert_equals, assert_not_equals, assert_in_array, assert_array_equals,
    assert_array_approx_equals, assert_approx_equals, assert_greater_than, assert_less_than,
    assert_greater_than_equal, assert_less_than_equal, assert_between_exclusive, assert_between_inclusive,
    assert_regexp_match, assert_class_string, assert_own_property, assert_not_own_property, assert_inherits,
    assert_idl_attribute, assert_readonly, assert_instance_of, assert_implements, assert_implements_optional,
    assert_unreached, assert_object_equals, assert_throws_dom, assert_throws_js, assert_throws_exactly,
    promise_rejects_dom, promise_rejects_js, promise_rejects_exactly,
  };
  for (const [name, value] of Object.entries(api)) {
    Object.defineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
  }
  // A script that failed to parse (the runner puts this call in its place, docs/wpt.md).
  Object.defineProperty(global, "__webmcpSimWptScriptError", {
    value: (message) => harness_error(message),
    configurable: true,
  });
})(globalThis);
