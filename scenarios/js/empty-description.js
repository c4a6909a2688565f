// The page registers a tool whose description is the empty string.
document.modelContext
  .registerTool({ name: 'undocumented', description: '', execute: () => 'ok' })
  // Handled: the outcome shows the promise; an unhandled rejection would be reported too.
  .catch(() => {});
