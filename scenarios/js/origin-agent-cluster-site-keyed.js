// The page, served with Origin-Agent-Cluster: ?0, registers a tool.
document.modelContext
  .registerTool({ name: 'search', description: 'Search the site', execute: () => 'ok' })
  // Handled: the outcome shows the promise; an unhandled rejection would be reported too.
  .catch(() => {});
