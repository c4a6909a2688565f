// How every driver of this folder launches Chromium (driver.mjs for `webmcp-sim chromium`,
// wpt.mjs for `webmcp-sim wpt --chromium`, export-runner.mjs for exported tests): one list of
// switches, each added to Playwright's defaults or removed from them with its reason in
// docs/chromium.md ("How Chromium is launched"); keep the two in step.
import { chromium } from 'playwright-core';

export function launchChromium(executablePath) {
  return chromium.launch({
    executablePath,
    headless: true,
    timeout: 60000,
    // Playwright disables the back/forward cache by default; scenarios test it (enterBfcache,
    // restoreFromBfcache), so Chromium keeps its own default: the cache on.
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--enable-features=WebMCP',
    ],
  });
}
