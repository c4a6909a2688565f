// The widget's iframe in scenarios/policy/grandchild-not-delegated.jsonc that is same-origin
// with the top document, embedded without allow="tools", tries to register a tool.
document.modelContext
  .registerTool({ name: 'inner_tool', description: "The inner frame's tool", execute: () => 'ok' })
  // Handled: the outcome shows the promise; an unhandled rejection would be reported too.
  .catch(() => {});
