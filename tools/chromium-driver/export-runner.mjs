// Runs testharness.js pages written by `webmcp-sim export` (crates/cli/src/export.rs) in headless
// Chromium and reports each subtest's result.
//
// Reads one JSON object on stdin: {"chromium": path, "testharness": path of a real testharness.js,
// "files": [exported .html files]}. Each file runs in a fresh browser context. Every request is
// answered by the DevTools Fetch domain (Playwright's route API), as tools/chromium-driver/
// driver.mjs serves `webmcp-sim chromium`'s plans: the exported page at its scenario's tab URL
// (the JSON block `webmcp-sim-plan` in the file names it, with the documents of the scenario's
// other origins), `/resources/testharness.js` from the given file, and `/resources/
// testharnessreport.js` as a small reporter that hands the results to this runner (a WPT runner
// supplies its own testharnessreport.js the same way). Writes one JSON result on stdout:
// {"version", "results": [{"file", "harness": {"status", "message"}, "tests": [{"name",
// "status", "message"}], "log": [...]}]} with testharness.js's status numbers (tests: 0 PASS,
// 1 FAIL, 2 TIMEOUT, 3 NOTRUN, 4 PRECONDITION_FAILED; harness: 0 OK, 1 ERROR, 2 TIMEOUT,
// 3 PRECONDITION_FAILED).
import { readFileSync } from 'node:fs';
import { launchChromium } from './launch.mjs';

const REPORT = `add_completion_callback((tests, status) => {
  window.__wmcpExportResult = {
    harness: { status: status.status, message: status.message },
    tests: tests.map((t) => ({ name: t.name, status: t.status, message: t.message })),
  };
});`;

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

// The embedded plan of an exported page.
function embedded(html) {
  const m = /<script type="application\/json" id="webmcp-sim-plan">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no webmcp-sim-plan block: not a page written by webmcp-sim export');
  return JSON.parse(m[1]);
}

async function runFile(browser, testharness, file) {
  const log = [];
  const t0 = Date.now();
  const at = () => `${String(Date.now() - t0).padStart(5)} ms`;
  const html = readFileSync(file, 'utf8');
  const plan = embedded(html);
  // Each served document's URL carries `wmcp=N`: look it up by that too (the browser may
  // re-encode the rest of a hostile URL).
  const tabNumber = /[?&]wmcp=(\d+)/.exec(plan.tab.url)?.[1];
  const byNumber = new Map();
  for (const [url, page] of Object.entries(plan.pages)) {
    const n = /[?&]wmcp=(\d+)/.exec(url);
    if (n) byNumber.set(n[1], page);
  }
  const ctx = await browser.newContext();
  try {
    await ctx.route('**/*', (route) => {
      const url = route.request().url();
      const path = new URL(url).pathname;
      const html_ = { 'content-type': 'text/html; charset=utf-8' };
      const n = /[?&]wmcp=(\d+)/.exec(url);
      if (url === plan.tab.url || (n && n[1] === tabNumber)) return route.fulfill({ status: 200, headers: { ...html_, ...plan.tab.headers }, body: html });
      if (path === '/resources/testharness.js') {
        return route.fulfill({ status: 200, headers: { 'content-type': 'text/javascript' }, body: testharness });
      }
      if (path === '/resources/testharnessreport.js') {
        return route.fulfill({ status: 200, headers: { 'content-type': 'text/javascript' }, body: REPORT });
      }
      const page = plan.pages[url] ?? (n ? byNumber.get(n[1]) : undefined);
      if (page) return route.fulfill({ status: 200, headers: { ...html_, ...page.headers }, body: page.body });
      log.push(`${at()} request ${url}: not a page of the test, answered 404`);
      return route.fulfill({ status: 404, headers: { 'content-type': 'text/html' }, body: '' });
    });
    const page = await ctx.newPage();
    page.on('console', (m) => { if (!m.text().startsWith('\u2063wmcp')) log.push(`${at()} console.${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => log.push(`${at()} pageerror: ${e.message}`));
    await page.goto(plan.tab.url, { waitUntil: 'commit', timeout: 30000 });
    // testharness.js's own timeout (`long`: 60 s) ends a test that never finishes.
    const handle = await page.waitForFunction(() => window.__wmcpExportResult, null, { timeout: 90000, polling: 50 });
    const result = await handle.jsonValue();
    log.push(`${at()} done`);
    return { file, ...result, log };
  } catch (e) {
    log.push(`${at()} runner error: ${e.message}`);
    return { file, harness: { status: -1, message: e.message }, tests: [], log };
  } finally {
    await ctx.close().catch(() => {});
  }
}

const input = await readStdin();
const testharness = readFileSync(input.testharness, 'utf8');
// Chromium's switches: launch.mjs (docs/chromium.md, "How Chromium is launched").
const browser = await launchChromium(input.chromium);

const version = browser.version();
const results = [];
for (const file of input.files) results.push(await runFile(browser, testharness, file));
await Promise.race([browser.close().catch(() => {}), new Promise((r) => setTimeout(r, 10000))]);
process.stdout.write(JSON.stringify({ version, results }) + '\n', () => process.exit(0));
