// The page registers get_weather, finds it with getTools, and calls it with the number 42.
const mc = document.modelContext;
mc.registerTool({ name: 'get_weather', description: 'Current weather for a city', execute: async () => ({ tempC: 21 }) });
mc.getTools().then((tools) => {
  const tool = tools.find((t) => t.name === 'get_weather');
  // Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
  mc.executeTool(tool, 42).catch(() => {});
});
