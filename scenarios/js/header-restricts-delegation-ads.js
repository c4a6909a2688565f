// The ad frame of scenarios/policy/header-restricts-delegation.jsonc, which the header excludes
// despite its allow="tools", tries to register a tool.
document.modelContext
  .registerTool({ name: 'ads_tool', description: "The ad's tool", execute: () => 'ok' })
  // Handled: the outcome shows the promise; an unhandled rejection would be reported too.
  .catch(() => {});
