// The widget's cross-origin iframe in scenarios/policy/grandchild-not-delegated.jsonc, embedded
// without allow="tools", tries to register a tool.
document.modelContext
  .registerTool({ name: 'maps_tool', description: "The map's tool", execute: () => 'ok' })
  // Handled: the outcome shows the promise; an unhandled rejection would be reported too.
  .catch(() => {});
