// The page, served with Permissions-Policy: tools=(), registers a tool.
document.modelContext
  .registerTool({ name: 'search', description: 'Search the site', execute: () => 'ok' })
  // Handled: the outcome shows the promise; an unhandled rejection would be reported too.
  .catch(() => {});
