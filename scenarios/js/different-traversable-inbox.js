// The page of tab "a" in scenarios/execute/different-traversable.jsonc: it registers a tool and
// opens /compose in a new window named "b" (its opener is this window).
document.modelContext.registerTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  execute: () => ({ tempC: 21 }),
});
window.open('/compose', 'b');
