// The parent of scenarios/execute/caller-not-allowed.jsonc exposes get_weather to the widget.
document.modelContext.registerTool(
  { name: 'get_weather', description: 'Current weather for a city', execute: async () => ({ tempC: 21 }) },
  { exposedTo: ['https://widget.example'] },
);
