// The widget of scenarios/execute/not-exposed.jsonc, allowed to use "tools", calls its
// parent's tool 10 ms in, through a tool dictionary written by hand.
setTimeout(() => {
  document.modelContext
    .executeTool({ name: 'get_weather', description: '', origin: 'https://example.com', window: parent })
    // Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
    .catch(() => {});
}, 10);
