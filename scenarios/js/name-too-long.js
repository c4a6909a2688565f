// The page registers a tool with the longest allowed name (128 code units), then one with a
// name one code unit longer.
const mc = document.modelContext;
mc.registerTool({ name: 't'.repeat(128), description: 'Longest allowed name', execute: () => 'ok' });
// Handled: the outcome shows the promise; an unhandled rejection would be reported too.
mc.registerTool({ name: 't'.repeat(129), description: 'One too long', execute: () => 'ok' }).catch(() => {});
