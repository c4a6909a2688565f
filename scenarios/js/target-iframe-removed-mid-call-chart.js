// The chart iframe of scenarios/lifecycle/target-iframe-removed-mid-call.jsonc registers a tool
// that never settles.
document.modelContext.registerTool({
  name: 'render_chart',
  description: 'Render the chart',
  execute: () => new Promise(() => {}),
});
