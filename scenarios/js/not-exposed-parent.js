// The parent of scenarios/execute/not-exposed.jsonc registers get_weather for itself only.
document.modelContext.registerTool({ name: 'get_weather', description: 'Current weather for a city', execute: async () => ({ tempC: 21 }) });
