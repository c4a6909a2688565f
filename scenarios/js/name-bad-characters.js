// The page registers a tool named "search web": a space is not allowed in a tool name.
document.modelContext
  .registerTool({ name: 'search web', description: 'Search the web', execute: () => 'ok' })
  // Handled: the outcome shows the promise; an unhandled rejection would be reported too.
  .catch(() => {});
