// The page registers get_weather and calls it through a tool dictionary, written by hand, that
// names this window but another origin.
const mc = document.modelContext;
mc.registerTool({ name: 'get_weather', description: 'Current weather for a city', execute: async () => ({ tempC: 21 }) });
// Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
mc.executeTool({ name: 'get_weather', description: '', origin: 'https://other.example', window }).catch(() => {});
