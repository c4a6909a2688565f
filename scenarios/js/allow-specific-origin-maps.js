// The maps frame of scenarios/policy/allow-specific-origin.jsonc, the origin its allow
// attribute names, registers a tool.
document.modelContext.registerTool({ name: 'show_route', description: 'Show a route', execute: () => 'ok' });
