// The maps frame of scenarios/get-tools/from-origins-exposed-vs-not.jsonc registers one tool
// exposed to the app and one it keeps to itself.
const mc = document.modelContext;
mc.registerTool(
  { name: 'show_route', description: 'Show a route on the map', execute: () => 'ok' },
  { exposedTo: ['https://app.example'] },
);
mc.registerTool({ name: 'maps_internal', description: 'Internal to the map widget', execute: () => 'ok' });
