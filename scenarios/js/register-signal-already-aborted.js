// The page listens for toolchange, aborts a controller with a string reason, then registers a
// tool with its signal.
const mc = document.modelContext;
mc.addEventListener('toolchange', () => console.log('toolchange'));
const ac = new AbortController();
ac.abort('user left the checkout flow');
mc.registerTool(
  { name: 'checkout', description: 'Complete the purchase', execute: () => 'ok' },
  { signal: ac.signal },
).catch(() => console.log('rejected with the abort reason'));
