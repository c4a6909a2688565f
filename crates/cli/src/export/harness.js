// webmcp-sim export (crates/cli/src/export.rs): the test page's harness. It collects the records
// every document of the scenario forwards (export/shim.js), starts every event loop at one common
// moment once the page and its iframes have loaded, waits for quiescence (no record for
// `quietMs` and no scenario timer pending, as tools/chromium-driver/driver.mjs waits) or the
// timeout, and then hands the assertions a view of what each document observed: its console
// lines, its uncaught exceptions and its named promises' final states, in the notation and
// canonical form of `webmcp-sim chromium` (crates/cli/src/chromium/view.rs).
const webmcpSimExport = (() => {
  const MARK = '\u2063wmcp';
  const cfg = JSON.parse(document.getElementById('webmcp-sim-plan').textContent).harness;
  setup({ explicit_done: true, allow_uncaught_exception: true });
  const records = [];
  const seen = new Set();
  const timers = new Map(); // emitter → [sequence number, timers pending]
  let last = Date.now();
  let unrealized = null;
  const startedAt = Date.now();
  const notRealized = (why) => { if (unrealized === null) unrealized = why; };
  const onRecord = (text) => {
    let r;
    try { r = JSON.parse(text.slice(MARK.length)); } catch { return; }
    const key = r.src + '#' + r.n;
    if (seen.has(key)) return;
    seen.add(key);
    last = Date.now();
    if (r.k === 'timers' || r.k === 'gone') {
      const [n] = timers.get(r.src) ?? [0, 0];
      if (n < r.n) timers.set(r.src, [r.n, r.k === 'gone' ? 0 : r.c]);
      if (r.k === 'timers') return;
    }
    records.push(r);
  };
  const win = (id) => (id === cfg.tab ? window : window.__wmcp.win(id));
  addEventListener('message', (e) => {
    const d = e.data;
    if (!d || typeof d !== 'object') return;
    if (typeof d.wmcpExportRecord === 'string') onRecord(d.wmcpExportRecord);
    if (d.wmcpExportArmed) {
      const { id, late, left } = d.wmcpExportArmed;
      if (cfg.slackMs !== null && late > cfg.slackMs) {
        notRealized(id + "'s event loop started " + late + ' ms after its planned moment, more than the '
          + cfg.slackMs + " ms the scenario's shortest timer gap allows");
      }
      for (const other of left) {
        const w = win(other);
        if (w) w.postMessage({ wmcpExportStart: { ids: [other], moment: cfg.moment } }, '*');
        else notRealized(other + ': no window: its script did not start');
      }
    }
  });
  // The scenario's canonical value notation (crates/cli/src/chromium/view.rs, `canonical`):
  // object members sorted by key, exception messages left out, a Window named by its navigable.
  const canonical = (text) => {
    const s = text;
    let i = 0;
    const fail = () => { throw new Error('not a value'); };
    const eat = (t) => (s.startsWith(t, i) ? ((i += t.length), true) : false);
    const string = () => {
      const start = i;
      i += 1;
      for (;;) {
        if (i >= s.length) fail();
        if (s[i] === '\\') i += 2;
        else if (s[i] === '"') return s.slice(start, ++i);
        else i += 1;
      }
    };
    const value = () => {
      if (i >= s.length) fail();
      const c = s[i];
      if (c === '"') return string();
      if (c === '[') {
        i += 1;
        const items = [];
        if (eat(']')) return '[]';
        for (;;) {
          items.push(value());
          if (eat(']')) return '[' + items.join(', ') + ']';
          if (!eat(', ')) fail();
        }
      }
      if (c === '{') {
        i += 1;
        const members = [];
        if (eat('}')) return '{}';
        for (;;) {
          const start = i;
          while (s[i] !== ':') { if (i >= s.length) fail(); i += 1; }
          const key = s.slice(start, i);
          if (!eat(': ')) fail();
          members.push([key, value()]);
          if (eat('}')) {
            members.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
            return '{' + members.map(([k, v]) => k + ': ' + v).join(', ') + '}';
          }
          if (!eat(', ')) fail();
        }
      }
      if (c === '<') {
        const start = i;
        while (s[i] !== '>') { if (i >= s.length) fail(); i += 1; }
        i += 1;
        const t = s.slice(start, i);
        if (!t.startsWith('<Window of ')) return t;
        const label = t.slice('<Window of '.length).replace(/>+$/, '');
        return '<Window of ' + label.split('@')[0] + '>';
      }
      const start = i;
      while (i < s.length && /[A-Za-z0-9+._-]/.test(s[i])) i += 1;
      const word = s.slice(start, i);
      if (word === '') fail();
      if (s[i] !== '(') return word;
      i += 1;
      if (word === 'DOMException') {
        const nameStart = i;
        while (i < s.length && /[A-Za-z0-9]/.test(s[i])) i += 1;
        const name = s.slice(nameStart, i);
        let depth = 1;
        while (depth > 0) {
          if (i >= s.length) fail();
          if (s[i] === '(') depth += 1;
          else if (s[i] === ')') depth -= 1;
          i += 1;
        }
        return 'DOMException(' + name + ')';
      }
      string();
      if (!eat(')')) fail();
      return word;
    };
    try {
      const v = value();
      return i === s.length ? v : text;
    } catch {
      return text;
    }
  };
  const canonicalState = (state) => {
    for (const prefix of ['fulfilled(', 'rejected(']) {
      if (state.startsWith(prefix) && state.endsWith(')')) {
        return prefix + canonical(state.slice(prefix.length, -1)) + ')';
      }
    }
    return state;
  };
  // What each document observed (view.rs, `View::of_records`): documents that observed nothing
  // left out.
  const view = () => {
    const docs = {};
    const doc = (d) => (docs[d] ??= { console: [], uncaught: [], promises: {} });
    for (const r of records) {
      if (r.k === 'log') doc(r.d).console.push(r.t);
      else if (r.k === 'uncaught') {
        // An unhandled rejection: its prefix, then the reason (view.rs, `canonical_uncaught`).
        const p = 'Uncaught (in promise) ';
        doc(r.d).uncaught.push(r.t.startsWith(p) ? p + canonical(r.t.slice(p.length)) : canonical(r.t));
      }
      else if (r.k === 'promise') doc(r.d).promises[r.p] ??= 'pending';
      else if (r.k === 'settle') doc(r.d).promises[r.p] = canonicalState(r.s);
    }
    for (const [d, v] of Object.entries(docs)) {
      if (!v.console.length && !v.uncaught.length && !Object.keys(v.promises).length) delete docs[d];
    }
    return docs;
  };
  const sameView = (a, b) => {
    const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);
    const keys = (o) => Object.keys(o).sort();
    if (!same(keys(a), keys(b))) return false;
    return keys(a).every((d) => same(a[d].console, b[d].console) && same(a[d].uncaught, b[d].uncaught)
      && same(keys(a[d].promises), keys(b[d].promises))
      && keys(a[d].promises).every((p) => a[d].promises[p] === b[d].promises[p]));
  };
  const NO_PROMISE = '(no such promise)';
  let assertions = null;
  const finish = (how) => {
    if (unrealized !== null) {
      test(() => assert_implements_optional(false, 'this run did not realize the scenario: ' + unrealized),
        'the run realizes the scenario (every event loop started at its moment)');
      done();
      return;
    }
    const observed = view();
    const empty = { console: [], uncaught: [], promises: {} };
    const helpers = {
      how,
      observed,
      doc: (d) => observed[d] ?? empty,
      promise: (d, p) => (observed[d] ?? empty).promises[p] ?? NO_PROMISE,
      isOneOf: (allowed) => allowed.some((v) => sameView(v, observed)),
    };
    try {
      assertions(helpers);
    } finally {
      done();
    }
  };
  const poll = () => {
    const now = Date.now();
    const pending = [...timers.values()].reduce((a, [, c]) => a + c, 0);
    if (now - last >= cfg.quietMs && pending === 0) return finish('quiescent');
    if (now - startedAt >= cfg.timeoutMs) return finish('timeout, ' + pending + ' timer(s) pending');
    setTimeout(poll, 10);
  };
  addEventListener('load', () => {
    cfg.moment = Date.now() + cfg.barrierMs;
    for (const ids of cfg.starts) {
      let w = null;
      try { w = win(ids[0]); } catch {}
      if (w) w.postMessage({ wmcpExportStart: { ids, moment: cfg.moment } }, '*');
      else notRealized(ids[0] + ': no window: its script did not start');
    }
    // The user's steps (only `removeIframe` is exported), once every script has started, as the
    // driver of `webmcp-sim chromium` takes them: an untimed one in the next task, a timed one
    // (`at`, `within`) at a random moment of its real window counted from the start moment. The
    // iframe is removed by its parent document, in a task of the parent's event loop.
    const user = async () => {
      for (const step of cfg.user) {
        const when = step.fromMs === undefined ? 0
          : step.fromMs + Math.floor(Math.random() * (step.toMs - step.fromMs + 1));
        await new Promise((r) => setTimeout(r, Math.max(0, cfg.moment + when - Date.now())));
        let parent = null;
        try { parent = win(step.navigable)?.parent ?? null; } catch {}
        if (parent) parent.postMessage({ wmcpExportRemove: step.navigable }, '*');
        last = Date.now();
      }
    };
    setTimeout(async () => { await user(); last = Date.now(); poll(); }, cfg.barrierMs);
  });
  return { assert: (f) => { assertions = f; }, NO_PROMISE, canonical, canonicalState };
})();
