// The widget of scenarios/register/cross-origin-iframe-without-allow.jsonc, embedded without
// allow="tools", tries to register a tool.
document.modelContext
  .registerTool({ name: 'widget_tool', description: "The widget's tool", execute: () => 'ok' })
  // Handled: the outcome shows the promise; an unhandled rejection would be reported too.
  .catch(() => {});
