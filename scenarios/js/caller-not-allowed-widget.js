// The widget of scenarios/execute/caller-not-allowed.jsonc, embedded without allow="tools",
// calls its parent's tool through a tool dictionary written by hand.
document.modelContext
  .executeTool({ name: 'get_weather', description: '', origin: 'https://example.com', window: parent })
  // Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
  .catch(() => {});
