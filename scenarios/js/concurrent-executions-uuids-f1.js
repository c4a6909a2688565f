// The localhost iframe of scenarios/regressions/concurrent-executions-uuids.jsonc calls the
// same unregistered tool of its parent, through a tool dictionary written by hand.
document.modelContext
  .executeTool({ name: 'search', description: '', origin: 'https://a.example', window: parent })
  // Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
  .catch(() => {});
