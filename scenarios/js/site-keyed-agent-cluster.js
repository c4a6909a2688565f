// The page, served with Origin-Agent-Cluster: ?0, calls get_weather through a tool dictionary
// written by hand (it could not have registered the tool or listed tools either).
document.modelContext
  .executeTool({ name: 'get_weather', description: '', origin: 'https://example.com', window })
  // Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
  .catch(() => {});
