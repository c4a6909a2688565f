// The other frame of scenarios/policy/allow-specific-origin.jsonc, whose origin its allow
// attribute does not name, tries to register a tool.
document.modelContext
  .registerTool({ name: 'other_tool', description: "Another frame's tool", execute: () => 'ok' })
  // Handled: the outcome shows the promise; an unhandled rejection would be reported too.
  .catch(() => {});
