// The page registers a coupon tool with a signal and aborts it at once.
const mc = document.modelContext;
mc.ontoolchange = () => console.log('toolchange');
const ac = new AbortController();
const coupon = mc.registerTool(
  { name: 'apply_coupon', description: 'Apply a coupon code', execute: async () => 'ok' },
  { signal: ac.signal },
);
ac.abort();
coupon.catch(() => console.log('registerTool rejected with AbortError'));
