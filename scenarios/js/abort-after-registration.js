// The page registers a coupon tool with a signal and, once registered, aborts to unregister it.
const mc = document.modelContext;
mc.ontoolchange = () => console.log('toolchange');
const ac = new AbortController();
mc.registerTool(
  { name: 'apply_coupon', description: 'Apply a coupon code', execute: async () => 'ok' },
  { signal: ac.signal },
).then(() => {
  console.log('registered; now unregistering');
  ac.abort();
});
