// The maps frame of scenarios/get-tools/cross-origin-not-requested.jsonc exposes a tool to the app.
document.modelContext.registerTool(
  { name: 'show_route', description: 'Show a route on the map', execute: () => 'ok' },
  { exposedTo: ['https://app.example'] },
);
