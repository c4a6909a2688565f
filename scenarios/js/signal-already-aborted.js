// The page aborts its controller, then calls its own tool with the aborted signal.
const mc = document.modelContext;
mc.registerTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  execute: async () => {
    console.log('tool ran');
    return { tempC: 21 };
  },
});
const ac = new AbortController();
ac.abort();
// Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
mc.executeTool({ name: 'get_weather', description: '', origin: 'https://example.com', window }, undefined, { signal: ac.signal }).catch(() => {});
