// The page, a local file served with Origin-Agent-Cluster: ?0, registers a tool.
document.modelContext.registerTool({ name: 'local_tool', description: 'A tool of a local file', execute: () => 'ok' });
