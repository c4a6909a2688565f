// The page of window "b" in scenarios/js/different-traversable-variant-caller-navigates.jsonc:
// 10 ms after it loads it calls the tool its opener registered, naming the opener's window in the
// RegisteredTool; 10 ms later it navigates itself away.
setTimeout(() => {
  document.modelContext
    .executeTool({ name: 'watch_inbox', description: '', origin: 'https://example.com', window: window.opener })
    .catch(() => {});
}, 10);
setTimeout(() => {
  location.href = '/sent';
}, 20);
