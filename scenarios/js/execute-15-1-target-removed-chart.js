// The chart iframe of scenarios/null-navigable/execute-15-1-target-removed.jsonc registers a
// tool that never settles.
document.modelContext.registerTool({
  name: 'render_chart',
  description: 'Render the chart',
  execute: () => new Promise(() => {}),
});
