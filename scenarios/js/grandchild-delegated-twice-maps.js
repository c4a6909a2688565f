// The grandchild of scenarios/policy/grandchild-delegated-twice.jsonc exposes a tool to the
// top document.
document.modelContext.registerTool(
  { name: 'show_route', description: 'Show a route', execute: () => 'ok' },
  { exposedTo: ['https://app.example'] },
);
