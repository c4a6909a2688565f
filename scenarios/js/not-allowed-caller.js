// The assistant iframe of scenarios/get-tools/not-allowed-caller.jsonc, embedded without
// allow="tools", asks for its embedder's tools.
document.modelContext
  .getTools({ fromOrigins: ['https://example.com'] })
  // Handled: the outcome shows the promise; an unhandled rejection would be reported too.
  .catch(() => {});
