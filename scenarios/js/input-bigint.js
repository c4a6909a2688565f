// The page registers get_weather and calls it, through a tool dictionary written by hand, with
// an input that has a BigInt member.
const mc = document.modelContext;
mc.registerTool({ name: 'get_weather', description: 'Current weather for a city', execute: async () => ({ tempC: 21 }) });
mc.executeTool({ name: 'get_weather', description: '', origin: 'https://example.com', window }, { city: 'Oslo', days: 3n })
  // Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
  .catch(() => {});
