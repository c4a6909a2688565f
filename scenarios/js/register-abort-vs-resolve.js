// The page registers a coupon tool with a signal and aborts it from a timer, with a reason.
const ac = new AbortController();
document.modelContext
  .registerTool(
    { name: 'apply_coupon', description: 'Apply a coupon code', execute: async () => 'ok' },
    { signal: ac.signal },
  )
  .then(() => console.log('registered'), () => console.log('registration aborted'));
setTimeout(() => ac.abort('coupon expired'));
