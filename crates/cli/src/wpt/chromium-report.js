// webmcp-sim's /resources/testharnessreport.js for runs in real Chromium (`webmcp-sim wpt
// --chromium`; crates/cli/src/wpt/serve.rs serves it beside WPT's real testharness.js): when the
// harness completes, one console line with the harness status and every subtest's status and
// message, in the names testharness.js documents. tools/chromium-driver/wpt.mjs reads the line.
(function () {
  var TEST = ["PASS", "FAIL", "TIMEOUT", "NOTRUN", "PRECONDITION_FAILED"];
  var HARNESS = ["OK", "ERROR", "TIMEOUT", "PRECONDITION_FAILED"];
  add_completion_callback(function (tests, status) {
    var results = {
      status: HARNESS[status.status] || String(status.status),
      message: status.message === undefined ? null : status.message,
      tests: tests.map(function (t) {
        return { name: t.name, status: TEST[t.status] || String(t.status), message: t.message === undefined ? null : t.message };
      }),
    };
    console.log("webmcp-sim:wpt-results " + JSON.stringify(results));
  });
})();
