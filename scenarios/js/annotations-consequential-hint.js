// The page registers three tools (two with annotations, one without) and reads them back with
// getTools from a 10 ms timer.
const mc = document.modelContext;
mc.registerTool({
  name: 'transfer_funds',
  title: 'Transfer funds',
  description: 'Move money between accounts',
  annotations: { readOnlyHint: false, untrustedContentHint: false, consequentialHint: true },
  execute: () => 'ok',
});
mc.registerTool({
  name: 'read_statement',
  title: 'Read statement',
  description: 'Read the latest statement',
  annotations: { readOnlyHint: true, untrustedContentHint: true },
  execute: () => 'ok',
});
mc.registerTool({ name: 'plain', title: 'Plain', description: 'No annotations', execute: () => 'ok' });
setTimeout(() => mc.getTools(), 10);
