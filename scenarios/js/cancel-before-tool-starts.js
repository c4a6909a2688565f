// A consequential tool that settles after 5 ms and logs an abort; the page calls it and aborts
// the call at once.
const mc = document.modelContext;
mc.registerTool({
  name: 'send_email',
  description: 'Send the drafted email',
  annotations: { consequentialHint: true },
  execute: (input, { signal }) => {
    console.log('send_email ran');
    signal.onabort = () => console.log('tool saw abort');
    return new Promise((resolve) => setTimeout(() => resolve('sent'), 5));
  },
});
mc.getTools().then((tools) => {
  const ac = new AbortController();
  // Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
  mc.executeTool(tools.find((t) => t.name === 'send_email'), undefined, { signal: ac.signal }).catch(() => {});
  ac.abort();
});
