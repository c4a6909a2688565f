// The page registers get_weather but calls get_forecast, with a tool dictionary written by hand.
const mc = document.modelContext;
mc.registerTool({ name: 'get_weather', description: 'Current weather for a city', execute: async () => ({ tempC: 21 }) });
// Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
mc.executeTool({ name: 'get_forecast', description: '', origin: 'https://example.com', window }).catch(() => {});
