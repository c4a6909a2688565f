// Drives headless Chromium for `webmcp-sim chromium` (crates/cli/src/chromium.rs).
//
// Reads one JSON plan on stdin: the pages to serve (every request is answered from the plan by
// the DevTools Fetch domain, through Playwright's route API, so each document lives on its own
// real https origin with no server, DNS rule or certificate), the tabs, the order in which the
// initial documents' scripts start, and the user's steps. Runs the plan `runs` times, each in a
// fresh browser context, with random timing jitter, and writes one JSON result on stdout:
// per run, the records the pages logged (console lines, settlements, uncaught exceptions, in
// each document's own order), how the run ended (quiescent or timeout) and the run's log.
//
// Jitter is bounded so it cannot reorder what a scenario orders: it delays the start of each
// event loop's scripts by up to `startJitterMs` (documents that share an event loop keep tree
// order), busy-waits up to a quarter of that at the start of each document's script (a slow
// page), and delays each untimed user and agent step by up to `jitterMs`. `startJitterMs` is
// `jitterMs`, or less when the scenario's timers are closer than that (crates/cli/src/chromium/
// plan.rs, `start_jitter`): a loop started after another loop's timer fired would run its script
// in an order the simulator never takes.
// The starts are armed against one start barrier on the machine's clock, not fired by round
// trips; a start that lands later than `startSlackMs` after its moment, or not at all, marks the
// run `unrealized` (with why): it is reported and not judged.
import { launchChromium } from './launch.mjs';

const MARK = '\u2063wmcp';

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

// A small seeded generator (mulberry32), so the jitter choices of a run can be repeated; the
// timing Chromium adds on top cannot.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// One run. `out` holds what the run has recorded so far (its records, its log, its browser
// context), so a run stopped at its hard deadline still reports them.
async function runOnce(browser, plan, run, out) {
  const random = rng((plan.seed ?? 0) * 1000003 + run);
  const jitter = () => Math.floor(random() * (plan.jitterMs + 1));
  const startJitterMs = plan.startJitterMs ?? plan.jitterMs;
  const startJitter = () => Math.floor(random() * (startJitterMs + 1));
  const { records, log } = out;
  const pendingTimers = new Map();
  // Why this run does not realize the scenario (an event loop started too late, or not at all),
  // or null: such a run is reported but not judged.
  let unrealized = null;
  const t0 = Date.now();
  let tScenario = t0;
  let lastActivity = Date.now();
  const at = () => `${String(Date.now() - t0).padStart(5)} ms`;

  const ctx = await browser.newContext();
  out.ctx = ctx;
  // Documents served so far per navigable (the tab's id for its main frame, else the iframe's
  // name), for a document's label as the simulator gives it: `player`, then `player@2`, ….
  const served = new Map();
  // The windows pages open (`window.open`), each with its navigable id: its target name, as
  // the simulator names it (crates/webmcp/src/window_open.rs), or '' when it has none.
  const popups = new Map();
  // The navigable id of each iframe a page made (`document.createElement('iframe')`), as the
  // simulator names it (crates/webmcp/src/script/engine.rs, `script_insert_iframe`): its `name`
  // attribute (the child navigable's target name, which Playwright knows only once the frame
  // has committed a document), else its parent's navigable and the count of iframes inserted
  // there, `app-iframe1`, `app-iframe2`, …, in the order their first requests come. That first
  // document reads its label from `window.name` as it starts (`byWindowName`).
  const madeIframes = new WeakMap();
  const iframeCounts = new Map();
  const navigableOf = (frame) => {
    const page = frame.page();
    const index = pages.indexOf(page);
    const tab = index >= 0 ? plan.tabIds[index] : popups.get(page) ?? '';
    const parent = frame.parentFrame();
    if (!parent) return { tab, navigable: tab };
    const made = madeIframes.get(frame);
    if (frame.name() !== '') {
      // A made iframe's name, once known: its documents go on counting from its first one.
      if (made !== undefined && made !== frame.name() && !served.has(frame.name())) served.set(frame.name(), served.get(made) ?? 1);
      return { tab, navigable: frame.name() };
    }
    if (made !== undefined) return { tab, navigable: made };
    const container = navigableOf(parent).navigable;
    const k = (iframeCounts.get(container) ?? 0) + 1;
    iframeCounts.set(container, k);
    madeIframes.set(frame, `${container}-iframe${k}`);
    return { tab, navigable: `${container}-iframe${k}`, byWindowName: true };
  };
  const whereOf = (request) => {
    let frame;
    try {
      frame = request.frame();
    } catch {
      // A window a page opens asks for its first document before Playwright has its frame
      // (Request.frame() throws for a popup's navigation): the document names itself by its
      // window's name when it runs (below).
      return { popup: true };
    }
    try {
      return { ...navigableOf(frame), frame };
    } catch {
      return null;
    }
  };
  // The documents served to a navigation or an iframe that have not started yet (arm number →
  // its frame, URL and label): the run is not quiescent while one of them may still start. A
  // request served is no record, and such a document's script starts at its load event: a run
  // once ended 66 ms after an iframe's document was served and before its script ran (CI,
  // scenarios/js/page-inserted-iframes.jsonc). An awaited document stops being awaited when it
  // starts or is gone (a JavaScript page's document says so with its arm number, a plan's page
  // with its label), when its frame is detached, is served a newer document, or commits another
  // URL (a navigation superseded or a history traversal: that document never comes).
  const awaiting = new Map();
  const newestArm = new WeakMap();
  let arms = 0;
  const awaitDocument = (arm, frame, url, label, byLabel) => {
    newestArm.set(frame, arm);
    awaiting.set(arm, { frame, url, label, byLabel });
  };
  const stillAwaited = () => {
    for (const [arm, a] of awaiting) {
      if (a.frame.isDetached() || newestArm.get(a.frame) !== arm) awaiting.delete(arm);
    }
    return [...awaiting.values()].map((a) => a.label);
  };
  const onFrameNavigated = (frame) => {
    noteIframe(frame);
    for (const [arm, a] of awaiting) if (a.frame === frame && a.url !== frame.url()) awaiting.delete(arm);
  };
  // The navigable of each iframe, noted while it is attached (a detached frame has no parent to
  // name it by). An iframe that its parent's navigation detaches sends no `gone` record (the
  // record its `pagehide` logs never arrives, on either channel), so its documents' pending
  // timers are dropped when it detaches: they can no longer fire, and the run waited for them
  // until its timeout (scenarios/regressions/fetch-put-off-across-a-timer.jsonc, every run).
  const iframeNavigables = new WeakMap();
  const detachedDocs = new Set();
  const noteIframe = (frame) => {
    if (frame.parentFrame() !== null && frame.name() !== '') iframeNavigables.set(frame, frame.name());
  };
  const onFrameDetached = (frame) => {
    const nav = iframeNavigables.get(frame) ?? madeIframes.get(frame);
    if (nav === undefined) return;
    for (const label of pendingTimers.keys()) {
      if (label !== nav && !label.startsWith(`${nav}@`)) continue;
      pendingTimers.set(label, 0);
      detachedDocs.add(label);
    }
    log.push(`${at()} frame ${nav} detached`);
  };
  await ctx.route('**/*', (route) => {
    const request = route.request();
    const url = request.url();
    // Each served document's URL carries `wmcp=N`; look it up by that (the browser may
    // re-encode the rest of a hostile URL).
    const n = /[?&]wmcp=(\d+)/.exec(url);
    const page = plan.pages[url] ?? (n ? byNumber.get(n[1]) : undefined);
    if (page) {
      // A page of the plan knows its navigable and which of its documents it is.
      if (page.navigable !== undefined) served.set(page.navigable, Math.max(served.get(page.navigable) ?? 0, page.generation ?? 1));
      // A navigation's new document (the plan's later generations) is awaited until it starts.
      lastActivity = Date.now();
      if ((page.generation ?? 1) > 1 && request.isNavigationRequest()) {
        let frame = null;
        try { frame = request.frame(); } catch { /* a window's first document */ }
        if (frame !== null && page.label !== undefined) awaitDocument(++arms, frame, url, page.label, true);
      }
      return route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', ...page.headers },
        body: page.body,
      });
    }
    // JavaScript pages: a document a page's own navigation or iframe asks for is the scenario's
    // resource at the URL's path, at any origin, or a document with no script; its
    // configuration (label, navigable, tab) is written in as it is served.
    const where = plan.javascript && request.isNavigationRequest() ? whereOf(request) : null;
    if (where) {
      const path = new URL(url).pathname;
      const resource = plan.resources?.[path] ?? plan.emptyPage;
      let label;
      let text;
      // A served document counts as activity, and one in a known frame is awaited (above).
      lastActivity = Date.now();
      const arm = where.popup ? undefined : ++arms;
      if (where.popup) {
        // A window's first document: its label, navigable and tab are its window's name (the
        // simulator's label of a window opened with a target name; an unnamed one is `?`).
        label = '(the window\'s name)';
        const scale = JSON.stringify(plan.scale);
        text = `(() => { const n = window.name === '' ? '?' : window.name; return { label: n, nav: n, tab: n, scale: ${scale}, frames: {} }; })()`;
      } else if (where.byWindowName) {
        // An iframe a page made, its first document: its name attribute if it has one.
        served.set(where.navigable, 1);
        label = `${where.navigable} (or its window's name)`;
        const rest = JSON.stringify({ tab: where.tab, scale: plan.scale, frames: plan.framePaths?.[where.tab] ?? {} }).replace(/</g, '\\u003c');
        const fallback = JSON.stringify(where.navigable).replace(/</g, '\\u003c');
        text = `(() => { const n = window.name !== '' ? window.name : ${fallback}; return Object.assign({ label: n, nav: n, arm: ${arm} }, ${rest}); })()`;
      } else {
        const count = (served.get(where.navigable) ?? 0) + 1;
        served.set(where.navigable, count);
        label = where.navigable === '' ? '?' : count === 1 ? where.navigable : `${where.navigable}@${count}`;
        const cfg = { label, nav: where.navigable, tab: where.tab, scale: plan.scale, frames: plan.framePaths?.[where.tab] ?? {}, arm };
        text = JSON.stringify(cfg).replace(/</g, '\\u003c');
      }
      if (arm !== undefined) awaitDocument(arm, where.frame, url, label, false);
      log.push(`${at()} request ${url}: ${plan.resources?.[path] ? 'the resource ' + path : 'no resource at ' + path + ', a document with no script'}, as ${label}`);
      return route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', ...resource.headers },
        body: resource.body.replace(plan.cfgSlot, () => text),
      });
    }
    log.push(`${at()} request ${url}: not a page of the scenario, answered 404`);
    return route.fulfill({ status: 404, headers: { 'content-type': 'text/html' }, body: '' });
  });
  // Records arrive on two channels: Playwright's console events and a raw DevTools session of
  // each tab (Runtime.consoleAPICalled). Playwright alone lost, now and then, the last records
  // of a document unloaded by its own navigation (the native console line arrived, the record
  // logged right after it did not); the first copy of each record (emitter, sequence number)
  // is kept, and one recovered late goes back before its emitter's later records.
  const seen = new Set();
  const lastTimers = new Map();
  // The documents whose script has started (`started` records) or that are gone, and those the driver armed: a
  // run is not quiescent while an armed start has not come (a start that a busy machine delays
  // past the quiet period once ended a run before its only script ran).
  const startedDocs = new Set();
  const armed = new Set();
  const onRecord = (text, channel) => {
    let r;
    try {
      r = JSON.parse(text.slice(MARK.length));
    } catch (e) {
      log.push(`${at()} unreadable record: ${text}`);
      return;
    }
    const key = `${r.src}#${r.n}`;
    if (seen.has(key)) return;
    seen.add(key);
    lastActivity = Date.now();
    if (r.arm !== undefined) awaiting.delete(r.arm);
    if (r.k === 'started' || r.k === 'gone') {
      for (const [arm, a] of awaiting) if (a.byLabel && a.label === r.d) awaiting.delete(arm);
    }
    if (r.k === 'started') {
      startedDocs.add(r.d);
      return;
    }
    if (r.k === 'timers') {
      if (detachedDocs.has(r.d)) return;
      if ((lastTimers.get(r.src) ?? 0) < r.n) {
        lastTimers.set(r.src, r.n);
        pendingTimers.set(r.d, r.c);
      }
      return;
    }
    if (r.k === 'gone') {
      // A document unloaded before its start (its iframe removed by a script that ran first)
      // never starts: the simulator does not run its task either.
      startedDocs.add(r.d);
      lastTimers.set(r.src, r.n);
      pendingTimers.set(r.d, 0);
    }
    const later = records.findIndex((x) => x.src === r.src && x.n > r.n);
    if (later >= 0) records.splice(later, 0, r);
    else records.push(r);
    log.push(`${at()} ${r.d}: ${r.k} ${r.t ?? ''}${r.p ?? ''}${r.s ? ' ' + r.s : ''}${channel === 'raw' ? ' (first on the raw DevTools channel)' : ''}`);
  };
  const onConsole = (msg) => {
    const text = msg.text();
    if (text.startsWith(MARK)) onRecord(text, 'playwright');
    else log.push(`${at()} console.${msg.type()}: ${text}`);
  };
  const pages = [];
  // A window a page opens: its console records come through the context's console events (it
  // has no listener of its own before its first document runs), and its navigable id is its
  // target name (a later navigation of it is labelled `b@2`, …).
  ctx.on('page', (page) => {
    page.on('frameattached', noteIframe);
    page.on('framenavigated', onFrameNavigated);
    page.on('framedetached', onFrameDetached);
    page.opener().then((opener) => {
      if (opener === null || pages.includes(page)) return;
      page.on('pageerror', (e) => log.push(`${at()} pageerror (opened window): ${e.message}`));
      // Its records also come on a raw DevTools session of its own, as a tab's do: Playwright's
      // console events alone lost, now and then, the settlement an opened window logged last
      // (scenarios/js/different-traversable.jsonc: 1 run in 20 ended with the call "pending",
      // its rejection logged by the page; CI failed on it once).
      ctx.newCDPSession(page).then((raw) => {
        raw.on('Runtime.consoleAPICalled', (e) => {
          const text = e.args[0]?.value;
          if (typeof text === 'string' && text.startsWith(MARK)) onRecord(text, 'raw');
        });
        return raw.send('Runtime.enable');
      }).catch((e) => log.push(`${at()} an opened window's DevTools session: ${e.message}`));
      return page.evaluate(() => window.name).then((name) => {
        popups.set(page, name);
        if (name !== '' && !served.has(name)) served.set(name, 1);
        log.push(`${at()} a page opened a window named ${JSON.stringify(name)}: ${page.url()}`);
      });
    }).catch((e) => log.push(`${at()} an opened window: ${e.message}`));
  });
  ctx.on('console', (msg) => {
    let page = null;
    try { page = msg.page(); } catch { /* a worker's */ }
    if (page !== null && !pages.includes(page)) onConsole(msg);
  });
  const agent = (plan.agent ?? []).length > 0 ? newAgent(log, at, records, () => { lastActivity = Date.now(); }) : null;
  for (let i = 0; i < plan.tabs.length; i++) {
    const page = await ctx.newPage();
    page.on('console', onConsole);
    page.on('pageerror', (e) => log.push(`${at()} pageerror: ${e.message}`));
    const raw = await ctx.newCDPSession(page);
    raw.on('Runtime.consoleAPICalled', (e) => {
      const text = e.args[0]?.value;
      if (typeof text === 'string' && text.startsWith(MARK)) onRecord(text, 'raw');
    });
    await raw.send('Runtime.enable');
    // Why a history traversal did not restore a page from the back/forward cache, in the log.
    raw.on('Page.backForwardCacheNotUsed', (e) =>
      log.push(`${at()} back/forward cache not used: ${(e.notRestoredExplanations ?? []).map((x) => x.reason).join(', ')}`));
    await raw.send('Page.enable');
    // The agent's DevTools WebMCP domain, enabled before the tab loads anything.
    if (agent) await agent.attachTab(plan.tabIds[i], raw);
    pages.push(page);
  }
  const findFrame = (navigable) => {
    const tab = plan.tabIds.indexOf(navigable);
    if (tab >= 0) return pages[tab].mainFrame();
    for (const p of pages) {
      const f = p.frames().find((f) => f.name() === navigable);
      if (f) return f;
    }
    return null;
  };
  try {
    await Promise.all(pages.map((p, i) => p.goto(plan.tabs[i], { waitUntil: 'load', timeout: plan.timeoutMs })));
    log.push(`${at()} every tab loaded`);
    // Start the initial documents' scripts: one chain per event loop, in tree order inside it.
    const groups = new Map();
    for (const s of plan.starts) {
      if (!groups.has(s.group)) groups.set(s.group, []);
      groups.get(s.group).push(s);
    }
    // The documents of one event loop start as consecutive tasks of that loop (0 ms timers set
    // by its first document, so they keep tree order and no later timer comes between them);
    // a document the first one cannot reach is started by the driver right after.
    // Warm up every frame that starts a script before any start: the first evaluate into a
    // frame (an out-of-process iframe above all) creates its execution context and can take tens
    // of ms. The warm-up's slowest round trip also sizes the start barrier below.
    const warmStart = Date.now();
    await Promise.all(
      plan.starts.map((s) => {
        const frame = findFrame(s.navigable);
        return frame ? frame.evaluate(() => 0).catch(() => {}) : Promise.resolve();
      }),
    );
    const warmMs = Date.now() - warmStart;
    log.push(`${at()} every frame ready (warm-up ${warmMs} ms)`);
    // The scenario's timeout counts from here: loading has its own bound (each goto's timeout),
    // so a slow first page load on a busy machine does not eat the scenario's time.
    tScenario = Date.now();
    // One start barrier for every event loop: each loop's start is armed ahead of a common
    // moment (plus the loop's own jitter) and fires on the page's clock, the machine's, so the
    // round trips that arm it (slower on a loaded machine) do not spread the starts. A start
    // that lands more than `startSlackMs` after its moment, or cannot be armed at all, could run
    // one loop's script after another loop's timer, an order the simulator never takes: the run
    // then does not realize the scenario, says why, and is not judged (crates/cli/src/chromium.rs).
    const barrier = Date.now() + Math.max(50, 2 * warmMs);
    const slack = plan.startSlackMs ?? null;
    const lateStart = (id, late) => {
      if (slack !== null && late > slack && unrealized === null) {
        unrealized = `${id}'s event loop started ${late} ms after its planned moment, more than the ${slack} ms the scenario's shortest timer gap allows`;
      }
      if (late > 0) log.push(`${at()} ${id}'s event loop started ${late} ms late`);
    };
    const cannotStart = (id, why) => {
      log.push(`${at()} ${id}: ${why}`);
      if (unrealized === null) unrealized = `${id}: ${why}`;
    };
    let latest = barrier;
    const chains = [...groups.values()].map(async (docs) => {
      const moment = barrier + startJitter();
      latest = Math.max(latest, moment);
      const ids = docs.map((s) => s.navigable);
      const busies = docs.map(() => Math.floor(random() * (startJitterMs / 4 + 1)));
      let left = ids;
      const first = findFrame(ids[0]);
      if (first) {
        left = await first
          .evaluate(({ ids, busies, moment }) => {
            const left = [];
            const wins = [];
            ids.forEach((id, i) => {
              let w;
              try {
                w = i === 0 ? window : window.__wmcp.win(id);
                if (!w || typeof w.__wmcp_start !== 'function') throw new Error('unreachable');
              } catch {
                left.push(id);
                return;
              }
              wins.push([w, busies[i]]);
            });
            const late = Math.max(0, Date.now() - moment);
            // The browser's own setTimeout: a JavaScript page's is scaled by --time-scale.
            const timeout = window.__wmcp_setTimeout ?? setTimeout;
            timeout(() => {
              for (const [w, busy] of wins) timeout(() => w.__wmcp_start(busy), 0);
            }, Math.max(0, moment - Date.now()));
            return { left, late };
          }, { ids, busies, moment })
          .then(({ left, late }) => {
            lateStart(ids[0], late);
            for (const id of ids) if (!left.includes(id)) armed.add(id);
            return left;
          })
          .catch((e) => {
            log.push(`${at()} starting ${ids[0]}'s event loop: ${e.message}`);
            return ids;
          });
      }
      for (const id of left) {
        const frame = findFrame(id);
        if (!frame) {
          cannotStart(id, 'no frame: its script did not start');
          continue;
        }
        await frame
          .evaluate(({ busy, moment }) => {
            const late = Math.max(0, Date.now() - moment);
            (window.__wmcp_setTimeout ?? setTimeout)(() => window.__wmcp_start(busy), Math.max(0, moment - Date.now()));
            return late;
          }, { busy: busies[ids.indexOf(id)], moment })
          .then((late) => {
            lateStart(id, late);
            armed.add(id);
          })
          .catch((e) => cannotStart(id, `its script did not start: ${e.message}`));
      }
    });
    // The user's steps start once every initial script has started (a subset of the
    // simulator's interleavings, where the user's lane may also go first).
    await Promise.all(chains);
    await sleep(Math.max(0, latest - Date.now()));
    // Virtual time 0 for timed user steps: the last event loop's planned start.
    const started = Date.now();
    const user = (async () => {
      for (const step of plan.user) {
        if (step.fromMs === undefined) {
          await sleep(jitter());
        } else {
          // A timed step (`at`, `within`): at a seeded random moment of its real window, counted
          // from virtual time 0; no jitter on top (it would move an `at` step past a later timer).
          const when = step.fromMs + Math.floor(random() * (step.toMs - step.fromMs + 1));
          log.push(`${at()} user: timed step waits until ${when} ms after the scripts started (window ${step.fromMs}..${step.toMs} ms)`);
          await sleep(Math.max(0, started + when - Date.now()));
        }
        log.push(`${at()} user: ${step.kind} ${step.navigable} ${step.url ?? ''}`);
        const frame = findFrame(step.navigable);
        const page = pages[plan.tabIds.indexOf(step.navigable)];
        try {
          if (step.kind === 'navigate') {
            if (!frame) throw new Error(`no navigable ${step.navigable}`);
            await frame.goto(step.url, { waitUntil: 'commit', timeout: plan.timeoutMs });
          } else if (step.kind === 'removeIframe') {
            if (!frame || !frame.parentFrame()) throw new Error(`no iframe ${step.navigable}`);
            await frame.parentFrame().evaluate((name) => {
              for (const f of document.querySelectorAll('iframe')) if (f.name === name) f.remove();
            }, step.navigable);
          } else if (step.kind === 'enterBfcache') {
            await page.goto(plan.awayUrl, { waitUntil: 'load', timeout: plan.timeoutMs });
          } else if (step.kind === 'restoreFromBfcache') {
            await page.goBack({ waitUntil: 'commit', timeout: plan.timeoutMs });
          }
        } catch (e) {
          log.push(`${at()} user step failed: ${e.message}`);
        }
        lastActivity = Date.now();
      }
    })();
    // The agent's steps, on their own lane beside the user's (the simulator's AI agent queue),
    // each after a random delay: observations and calls through the DevTools WebMCP domain.
    const agentLane = (async () => {
      for (const step of plan.agent ?? []) {
        await sleep(jitter());
        await agent.step(step);
      }
    })();
    await Promise.all([user, agentLane]);
    lastActivity = Date.now();
    // Wait for quiescence: no record for quietMs and no scenario timer pending in any document
    // still alive; or the timeout.
    let end;
    for (;;) {
      const now = Date.now();
      const timers = [...pendingTimers.values()].reduce((a, b) => a + b, 0);
      const unstarted = [...armed].filter((id) => !startedDocs.has(id)).concat(stillAwaited());
      if (now - lastActivity >= plan.quietMs && timers === 0 && unstarted.length === 0) {
        end = { kind: 'quiescent', ms: now - t0 };
        break;
      }
      if (now - tScenario >= plan.timeoutMs) {
        end = { kind: 'timeout', ms: now - t0, pendingTimers: timers };
        if (unstarted.length > 0 && unrealized === null) {
          unrealized = `${unstarted.join(', ')}: its script did not start by the end of the run`;
        }
        break;
      }
      await sleep(10);
    }
    if (agent) agent.finish();
    log.push(`${at()} end: ${end.kind}`);
    if (unrealized !== null) log.push(`${at()} this run does not realize the scenario: ${unrealized}`);
    return { records, end, log, unrealized };
  } catch (e) {
    log.push(`${at()} driver error: ${e.message}`);
    return { records, end: { kind: 'error', ms: Date.now() - t0, error: e.message }, log };
  } finally {
    await ctx.close().catch(() => {});
  }
}

// The browser's agent (the scenario's `agent` steps) through the DevTools `WebMCP` domain.
// Every tab's DevTools session gets `WebMCP.enable` before the tab loads, and auto-attaches to
// its cross-site (out-of-process) frames with `waitForDebuggerOnStart`, enabling the domain on
// each before it runs (through `Target.sendMessageToTarget`: Playwright's sessions do not expose
// flat child sessions). The agent keeps the tools the domain announced (`toolsAdded`, and
// `toolsRemoved`, which fires only for an AbortSignal's unregistration) per frame, drops a
// frame's tools when it commits a new document or is detached (the domain announces neither),
// and: `observe` snapshots them for the tab's live frames (by navigable: the tab's id or the
// iframe's name); `callTool` calls a tool of the latest observation with `WebMCP.invokeTool` and
// waits for `toolResponded`. Like the simulator's agent, it refuses a tool it has not observed
// without asking the browser. Each observation and call result becomes a record (`k: 'observe'`
// or `k: 'agent'`), which crates/cli/src/chromium/view.rs turns into the outcome's `agent=[…]`.
function newAgent(log, at, records, activity) {
  const frames = new Map(); // frameId → {tab, send, tools: Set}
  const sessions = new Map(); // tab → [{send, live: bool}]
  const invocations = new Map(); // invocationId → call label
  const observations = new Map(); // tab → Map navigable → {frameId, send, tools}
  let n = 0;
  // Each call's result record, as a promise `awaitResult` and `inputFrom` wait on.
  const results = new Map(); // call label → {done, resolve}
  const result = (call) => {
    if (!results.has(call)) {
      let resolve;
      const done = new Promise((r) => (resolve = r));
      results.set(call, { done, resolve });
    }
    return results.get(call);
  };
  const record = (r) => {
    r.src = 'agent';
    r.n = ++n;
    records.push(r);
    if (r.k === 'agent') result(r.call).resolve(r);
    activity();
  };
  const frame = (id, tab, send) => {
    if (!frames.has(id)) frames.set(id, { tab, send, tools: new Set() });
    return frames.get(id);
  };
  // A response can overtake invokeTool's own reply: keep it until the call is known.
  const early = new Map();
  const responded = (e) => {
    const call = invocations.get(e.invocationId);
    if (call === undefined) {
      early.set(e.invocationId, e);
      return;
    }
    invocations.delete(e.invocationId);
    log.push(`${at()} agent: toolResponded ${call} ${e.status} ${JSON.stringify(e.output) ?? ''} ${e.errorText ?? ''}`);
    const r = { k: 'agent', call, status: e.status };
    if ('output' in e) r.output = JSON.stringify(e.output);
    if (e.errorText) r.errorText = e.errorText;
    if (e.exception) r.exception = JSON.stringify(e.exception);
    record(r);
  };
  const listen = (tab, send, on) => {
    on('WebMCP.toolsAdded', (e) => {
      for (const t of e.tools ?? []) frame(t.frameId, tab, send).tools.add(t.name);
      log.push(`${at()} agent: toolsAdded ${(e.tools ?? []).map((t) => t.name).join(', ')}`);
    });
    on('WebMCP.toolsRemoved', (e) => {
      for (const t of e.tools ?? []) frames.get(t.frameId)?.tools.delete(t.name);
      log.push(`${at()} agent: toolsRemoved ${(e.tools ?? []).map((t) => t.name).join(', ')}`);
    });
    on('WebMCP.toolResponded', (e) => responded(e));
    on('Page.frameNavigated', (e) => {
      const f = frames.get(e.frame.id);
      if (f && e.type !== 'BackForwardCacheRestore') f.tools.clear();
    });
    on('Page.frameDetached', (e) => frames.get(e.frameId)?.tools.clear());
  };
  // A frame tree's frames: id → navigable (the tab's id for its main frame, else the iframe's name).
  const walk = (tree, tab, out) => {
    out.set(tree.frame.id, tree.frame.parentId === undefined ? tab : tree.frame.name);
    for (const c of tree.childFrames ?? []) walk(c, tab, out);
  };
  return {
    async attachTab(tab, raw) {
      const list = [];
      sessions.set(tab, list);
      const main = { send: (m, p) => raw.send(m, p), live: true };
      list.push(main);
      listen(tab, main.send, (name, f) => raw.on(name, f));
      // Out-of-process frames: non-flat auto-attach, messages wrapped in Target.* commands.
      const children = new Map(); // sessionId → {pending, handlers}
      let id = 0;
      raw.on('Target.receivedMessageFromTarget', (e) => {
        const c = children.get(e.sessionId);
        if (!c) return;
        const m = JSON.parse(e.message);
        if (m.id !== undefined) {
          const p = c.pending.get(m.id);
          c.pending.delete(m.id);
          if (p) m.error ? p.reject(new Error(m.error.message)) : p.resolve(m.result);
        } else {
          for (const h of c.handlers.get(m.method) ?? []) h(m.params);
        }
      });
      raw.on('Target.attachedToTarget', async (e) => {
        const c = { pending: new Map(), handlers: new Map() };
        children.set(e.sessionId, c);
        const send = (method, params = {}) =>
          new Promise((resolve, reject) => {
            const mid = ++id;
            c.pending.set(mid, { resolve, reject });
            raw
              .send('Target.sendMessageToTarget', { sessionId: e.sessionId, message: JSON.stringify({ id: mid, method, params }) })
              .catch(reject);
          });
        const child = { send, live: true, sessionId: e.sessionId };
        list.push(child);
        listen(tab, send, (name, f) => {
          if (!c.handlers.has(name)) c.handlers.set(name, []);
          c.handlers.get(name).push(f);
        });
        log.push(`${at()} agent: attached to ${e.targetInfo.type} ${e.targetInfo.targetId}`);
        try {
          await send('WebMCP.enable');
          await send('Page.enable');
        } catch (err) {
          log.push(`${at()} agent: enabling WebMCP on ${e.targetInfo.targetId}: ${err.message}`);
        }
        await send('Runtime.runIfWaitingForDebugger').catch(() => {});
      });
      raw.on('Target.detachedFromTarget', (e) => {
        const s = list.find((s) => s.sessionId === e.sessionId);
        if (!s) return;
        s.live = false;
        for (const f of frames.values()) if (f.send === s.send) f.tools.clear();
      });
      await raw.send('WebMCP.enable');
      await raw.send('Page.enable');
      await raw.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
    },
    async step(step) {
      if (step.kind === 'observe') {
        // The tab's live frames now, and the tools the domain announced for each.
        const live = new Map();
        for (const s of sessions.get(step.tab) ?? []) {
          if (!s.live) continue;
          try {
            walk((await s.send('Page.getFrameTree')).frameTree, step.tab, live);
          } catch {}
        }
        const seen = new Map();
        const tools = {};
        for (const [frameId, navigable] of live) {
          const f = frames.get(frameId);
          if (!f || f.tools.size === 0) continue;
          const names = [...f.tools].sort();
          seen.set(navigable, { frameId, send: f.send, tools: names });
          tools[navigable] = names;
        }
        observations.set(step.tab, seen);
        log.push(`${at()} agent: observe ${step.tab}: ${JSON.stringify(tools)}`);
        record({ k: 'observe', tab: step.tab, tools });
      } else if (step.kind === 'awaitResult') {
        // The simulator's agent takes no step after `awaitResult` until the call's result has
        // reached it; a result that never comes leaves the agent waiting, as there.
        log.push(`${at()} agent: awaits the result of ${step.call}`);
        await result(step.call).done;
        log.push(`${at()} agent: the result of ${step.call} has come`);
      } else if (step.kind === 'callTool') {
        if (step.inputFrom !== undefined) {
          // The input is an earlier call's result (its JSON value); a failed call gives none, and
          // this call fails without reaching the browser, as the simulator's agent's does.
          const earlier = await result(step.inputFrom).done;
          if (earlier.status !== 'Completed' || earlier.output === undefined) {
            log.push(`${at()} agent: ${step.call}: ${step.inputFrom} failed, so there is no input`);
            record({ k: 'agent', call: step.call, status: 'NoInput' });
            return;
          }
          step = { ...step, input: JSON.parse(earlier.output) };
        }
        const seen = observations.get(step.tab)?.get(step.navigable);
        if (!seen || !seen.tools.includes(step.name)) {
          log.push(`${at()} agent: ${step.call}: ${step.name} of ${step.navigable} is not in the latest observation`);
          record({ k: 'agent', call: step.call, status: 'NotObserved' });
          return;
        }
        log.push(`${at()} agent: invokeTool ${step.name} of ${step.navigable} ${JSON.stringify(step.input)}`);
        try {
          const r = await seen.send('WebMCP.invokeTool', { frameId: seen.frameId, toolName: step.name, input: step.input });
          invocations.set(r.invocationId, step.call);
          if (early.has(r.invocationId)) {
            const e = early.get(r.invocationId);
            early.delete(r.invocationId);
            responded(e);
          }
        } catch (e) {
          log.push(`${at()} agent: invokeTool failed: ${e.message}`);
          record({ k: 'agent', call: step.call, status: 'InvokeFailed', errorText: e.message });
        }
      }
    },
    finish() {
      for (const call of invocations.values()) log.push(`${at()} agent: ${call}: no toolResponded by the end of the run`);
    },
  };
}

const plan = await readStdin();
const byNumber = new Map();
for (const [url, page] of Object.entries(plan.pages)) {
  const n = /[?&]wmcp=(\d+)/.exec(url);
  if (n) byNumber.set(n[1], page);
}
// Chromium's switches: launch.mjs (docs/chromium.md, "How Chromium is launched").
const browser = await launchChromium(plan.chromium);

const version = browser.version();
// A run's hard deadline: twice its timeout (loading, then the scenario from its start) plus
// `hardMarginMs` (30 s unless the plan says). The run's own timeout bounds loading, navigations
// and the wait for quiescence, but a DevTools call has
// none (an evaluate into a page that never yields, the agent's invokeTool): past this deadline
// the run ends as a driver error with what it recorded so far, its context is closed without
// waiting, and the next run starts in a fresh context.
const hardMs = 2 * plan.timeoutMs + (plan.hardMarginMs ?? 30000);
const runs = [];
for (let run = 0; run < plan.runs; run++) {
  const out = { records: [], log: [], ctx: null };
  let timer;
  const deadline = new Promise((resolve) => {
    timer = setTimeout(() => {
      const error = `the run did not end within ${hardMs} ms; the driver stopped waiting for it`;
      out.log.push(`${String(hardMs).padStart(5)} ms driver error: ${error}`);
      out.ctx?.close().catch(() => {});
      resolve({ records: [...out.records], end: { kind: 'error', ms: hardMs, error }, log: [...out.log] });
    }, hardMs);
  });
  runs.push(await Promise.race([runOnce(browser, plan, run, out), deadline]));
  clearTimeout(timer);
}
// Closing the browser gets 10 s; the result is written and the process ends either way.
await Promise.race([browser.close().catch(() => {}), sleep(10000)]);
process.stdout.write(JSON.stringify({ version, runs }) + '\n', () => process.exit(0));
