// Runs one WPT testharness.js test in headless Chromium for `webmcp-sim wpt --chromium`
// (crates/cli/src/wpt/chromium.rs). Reads one JSON plan on stdin: the test page's URL, every
// file WPT's server would serve for it keyed by URL path (crates/cli/src/wpt/serve.rs: the real
// testharness.js, our testharnessreport.js, `.sub.` files already substituted), the number of
// runs and each run's timeout. Every request, at any origin, is answered from that map through
// the DevTools Fetch domain (Playwright's route API), so the page lives at its WPT origin
// (`https://web-platform.test:8443/…`) with no server, DNS rule or certificate; a path not in
// the map is answered 404 and named in the run's `missing`. Each run is a fresh browser context;
// it ends when the report's console line arrives (`reported`), at the timeout, or on a driver
// error. Writes `{version, runs: [{results, end, log, missing}]}` on stdout.
//
// Chromium is launched as driver.mjs launches it (launch.mjs; docs/chromium.md, "How Chromium
// is launched"): the back/forward cache on, as in a user's Chromium.
import { launchChromium } from './launch.mjs';

const MARK = 'webmcp-sim:wpt-results ';

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function runOnce(browser, plan) {
  const t0 = Date.now();
  const at = () => `${String(Date.now() - t0).padStart(5)} ms`;
  const log = [];
  const missing = [];
  const ctx = await browser.newContext();
  try {
    await ctx.route('**/*', (route) => {
      const url = new URL(route.request().url());
      let path;
      try {
        path = decodeURIComponent(url.pathname);
      } catch {
        path = url.pathname;
      }
      const file = plan.files[path] ?? plan.files[url.pathname];
      if (file) {
        return route.fulfill({
          status: 200,
          headers: file.headers,
          body: Buffer.from(file.body, file.base64 ? 'base64' : 'utf8'),
        });
      }
      if (path !== '/favicon.ico') {
        missing.push(url.href);
        log.push(`${at()} request ${url.href}: not served, answered 404`);
      }
      return route.fulfill({ status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' });
    });
    const page = await ctx.newPage();
    let resolve;
    const reported = new Promise((r) => (resolve = r));
    page.on('console', (msg) => {
      const text = msg.text();
      if (text.startsWith(MARK)) {
        try {
          resolve(JSON.parse(text.slice(MARK.length)));
        } catch (e) {
          log.push(`${at()} unreadable report: ${e.message}`);
        }
      } else {
        log.push(`${at()} console.${msg.type()}: ${text}`);
      }
    });
    page.on('pageerror', (e) => log.push(`${at()} pageerror: ${e.message}`));
    await page.goto(plan.url, { waitUntil: 'commit', timeout: plan.timeoutMs });
    const results = await Promise.race([reported, sleep(Math.max(0, plan.timeoutMs - (Date.now() - t0))).then(() => null)]);
    if (results === null) {
      log.push(`${at()} no report within ${plan.timeoutMs} ms`);
      return { results: null, end: { kind: 'timeout', ms: Date.now() - t0 }, log, missing };
    }
    return { results, end: { kind: 'reported', ms: Date.now() - t0 }, log, missing };
  } catch (e) {
    log.push(`${at()} driver error: ${e.message}`);
    return { results: null, end: { kind: 'error', ms: Date.now() - t0, error: e.message }, log, missing };
  } finally {
    await Promise.race([ctx.close().catch(() => {}), sleep(10000)]);
  }
}

const plan = await readStdin();
const browser = await launchChromium(plan.chromium);

const version = browser.version();
const runs = [];
for (let run = 0; run < plan.runs; run++) {
  // A run's hard deadline: its timeout plus 30 s (a DevTools call that never answers).
  const hardMs = plan.timeoutMs + 30000;
  let timer;
  const deadline = new Promise((r) => {
    timer = setTimeout(
      () => r({ results: null, end: { kind: 'error', ms: hardMs, error: `the run did not end within ${hardMs} ms` }, log: [], missing: [] }),
      hardMs,
    );
  });
  runs.push(await Promise.race([runOnce(browser, plan), deadline]));
  clearTimeout(timer);
}
await Promise.race([browser.close().catch(() => {}), sleep(10000)]);
process.stdout.write(JSON.stringify({ version, runs }) + '\n', () => process.exit(0));
