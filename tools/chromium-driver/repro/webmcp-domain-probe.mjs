// A probe of the DevTools `WebMCP` domain, the way agent steps would drive it (not used by the
// driver yet; docs/chromium.md, "Not run in Chromium"): a page registers a tool, a raw DevTools
// session of the tab enables the domain, then invokes the tool and prints every WebMCP event.
//
//   node tools/chromium-driver/repro/webmcp-domain-probe.mjs
import { createRequire } from 'node:module';

const require = createRequire(new URL('../', import.meta.url));
const { chromium } = require('playwright-core');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--enable-features=WebMCP'],
});
const ctx = await browser.newContext();
await ctx.route('**/*', (r) =>
  r.fulfill({
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: `<!doctype html><script>
      document.modelContext.registerTool({name: 'search_flights', description: 'Search flights',
        execute: (input) => { console.log('ran with ' + JSON.stringify(input)); return {flights: 2}; }});
    </script>`,
  }),
);
const page = await ctx.newPage();
page.on('console', (m) => console.log(`page console: ${m.text()}`));
const cdp = await ctx.newCDPSession(page);
for (const e of ['toolsAdded', 'toolsRemoved', 'toolInvoked', 'toolResponded']) {
  cdp.on(`WebMCP.${e}`, (ev) => console.log(`event WebMCP.${e}: ${JSON.stringify(ev)}`));
}
await page.goto('https://travel.example/');
const { frameTree } = await cdp.send('Page.getFrameTree');
console.log(`enable: ${JSON.stringify(await cdp.send('WebMCP.enable'))}`);
const done = new Promise((r) => cdp.once('WebMCP.toolResponded', r));
const invoked = await cdp.send('WebMCP.invokeTool', {
  frameId: frameTree.frame.id,
  toolName: 'search_flights',
  input: { from: 'OSL', to: 'CDG' },
});
console.log(`invokeTool: ${JSON.stringify(invoked)}`);
await Promise.race([done, new Promise((r) => setTimeout(r, 3000))]);
await browser.close();
