// The page registers get_weather and calls it through two tool dictionaries, written by hand,
// whose origins are "not a url" and a data: URL.
const mc = document.modelContext;
mc.registerTool({ name: 'get_weather', description: 'Current weather for a city', execute: async () => ({ tempC: 21 }) });
// Handled: the outcome shows the calls' promises; an unhandled rejection would be reported too.
mc.executeTool({ name: 'get_weather', description: '', origin: 'not a url', window }).catch(() => {});
mc.executeTool({ name: 'get_weather', description: '', origin: 'data:text/plain,x', window }).catch(() => {});
