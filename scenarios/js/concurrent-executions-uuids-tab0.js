// The top document of scenarios/regressions/concurrent-executions-uuids.jsonc calls a tool it
// never registered, through a tool dictionary written by hand.
document.modelContext
  .executeTool({ name: 'search', description: '', origin: 'https://a.example', window })
  // Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
  .catch(() => {});
