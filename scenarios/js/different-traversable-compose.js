// The page of window "b" in scenarios/execute/different-traversable.jsonc: 10 ms after it loads,
// it calls the tool its opener registered, naming the opener's window in the RegisteredTool.
setTimeout(() => {
  document.modelContext
    .executeTool({ name: 'get_weather', description: '', origin: 'https://example.com', window: window.opener })
    .catch(() => {});
}, 10);
