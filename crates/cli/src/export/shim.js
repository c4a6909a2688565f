// webmcp-sim export (crates/cli/src/export.rs): the first script of every document of an exported
// test. It forwards each record the scenario's runtime logs (crates/cli/src/chromium/runtime.js:
// console.debug with a marker) to the test page (`top`) by postMessage, and starts this
// document's event loop when the test page says so: the documents of one event loop as
// consecutive tasks, in tree order, at the test page's common start moment (as
// tools/chromium-driver/driver.mjs starts them for `webmcp-sim chromium`); and removes an iframe
// of its own when the test page takes the user's `removeIframe` step.
(() => {
  const MARK = '\u2063wmcp';
  const debug = console.debug.bind(console);
  console.debug = function (...args) {
    if (typeof args[0] === 'string' && args[0].startsWith(MARK)) {
      try { top.postMessage({ wmcpExportRecord: args[0] }, '*'); } catch {}
    }
    return debug(...args);
  };
  addEventListener('message', (e) => {
    // The user's `removeIframe`, taken by the iframe's parent (this document).
    const remove = e.data && typeof e.data === 'object' ? e.data.wmcpExportRemove : undefined;
    if (typeof remove === 'string' && e.source === top) {
      for (const f of document.querySelectorAll('iframe')) if (f.name === remove) f.remove();
      return;
    }
    const start = e.data && typeof e.data === 'object' ? e.data.wmcpExportStart : undefined;
    if (!start || e.source !== top) return;
    const late = Math.max(0, Date.now() - start.moment);
    const wins = [];
    const left = [];
    start.ids.forEach((id, i) => {
      try {
        const w = i === 0 ? window : window.__wmcp.win(id);
        if (!w || typeof w.__wmcp_start !== 'function') throw new Error('unreachable');
        wins.push(w);
      } catch {
        if (i > 0) left.push(id);
      }
    });
    top.postMessage({ wmcpExportArmed: { id: start.ids[0], late, left } }, '*');
    setTimeout(() => {
      for (const w of wins) setTimeout(() => w.__wmcp_start(0), 0);
    }, Math.max(0, start.moment - Date.now()));
  });
})();
