// A standalone reproduction of the Chromium finding "a toolchange is sometimes lost when the
// tool owner's modelContext is first read in the registering task" (docs/chromium.md), without
// the simulator or its driver.
//
//   node tools/chromium-driver/repro/toolchange-lost.mjs VARIANT RUNS [WAIT_MS]
//
// The parent page is the spec's example after "notify documents of a tool change": it sets its
// own ontoolchange and its same-origin iframe's, registers a tool, and queues a timer. The child
// page is empty, except in the variants `…created-earlier`, where its own script reads
// `document.modelContext` at parse time (before the parent's task). Variants:
//   same-task        the child's modelContext is first read in the parent's task that registers
//   created-earlier  the child's own script read its modelContext long before
//   delayed-register the parent registers 50 ms after setting the handlers (another task)
//   owner-removed    the parent sets its own ontoolchange at parse time; its task registers a
//                    tool on the child's modelContext (first read in that task) and removes the
//                    iframe in the same task (scenarios/null-navigable/notify-2-tool-owner-
//                    removed.jsonc): the parent's toolchange is the one that can be lost
//   owner-removed-created-earlier
//                    as owner-removed, the child's own script having read its modelContext
// Each run is a fresh browser context; every request is answered by Playwright's route (the
// DevTools Fetch domain), so both pages are on https://example.com. Prints the counts of each
// order of the page's own log array, read WAIT_MS (300 by default) after the parent's task.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../', import.meta.url));
const { chromium } = require('playwright-core');
const variant = process.argv[2] ?? 'same-task';
const runs = Number(process.argv[3] ?? 30);
const waitMs = Number(process.argv[4] ?? 300);
const variants = ['same-task', 'created-earlier', 'delayed-register', 'owner-removed', 'owner-removed-created-earlier'];
if (!variants.includes(variant)) {
  console.error(`unknown variant ${variant}: ${variants.join(', ')}`);
  process.exit(2);
}
const register = `
  const p = document.modelContext.registerTool({name: 'tool_name', description: 'tool_desc', execute: async () => {}});
  p.then(() => logs.push('Register promise resolved'));
  setTimeout(() => logs.push('Post-register task'));`;
const parentHandler = `document.modelContext.ontoolchange = () => logs.push('Parent toolchange');`;
const ownerRemoved = variant.startsWith('owner-removed');
// The parent's task (\`go\`): the spec's example, or the registration on the child and its removal.
const go = ownerRemoved
  ? `
  const iframe = document.querySelector('iframe');
  iframe.contentDocument.modelContext.registerTool({name: 'tool_name', description: 'tool_desc', execute: () => new Promise(() => {})});
  iframe.remove();`
  : `
  ${parentHandler}
  document.querySelector('iframe').contentDocument.modelContext.ontoolchange = () => logs.push('Child toolchange');
  ${variant === 'delayed-register' ? `setTimeout(() => { ${register} }, 50);` : register}`;
const parent = `<!doctype html><script>
window.logs = [];
${ownerRemoved ? parentHandler : ''}
window.go = () => {${go}
};
</script><iframe src="https://example.com/frame"></iframe>`;
const child = `<!doctype html><script>${variant.endsWith('created-earlier') ? 'window.mc = document.modelContext;' : ''}</script>`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--enable-features=WebMCP'],
});
const counts = new Map();
for (let i = 0; i < runs; i++) {
  const ctx = await browser.newContext();
  await ctx.route('**/*', (r) =>
    r.fulfill({ status: 200, headers: { 'content-type': 'text/html' }, body: r.request().url().endsWith('/frame') ? child : parent }),
  );
  const page = await ctx.newPage();
  await page.goto('https://example.com/', { waitUntil: 'load' });
  await page.evaluate(() => setTimeout(go, 0));
  await new Promise((r) => setTimeout(r, waitMs));
  const order = (await page.evaluate(() => logs)).join(' | ');
  counts.set(order, (counts.get(order) ?? 0) + 1);
  await ctx.close();
}
console.log(`${browser.version()} ${variant}, ${runs} runs, read after ${waitMs} ms:`);
await browser.close();
for (const [order, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(4)}  ${order}`);
