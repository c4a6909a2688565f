// The app of scenarios/null-navigable/completion-15-10-2-after-target-unloads.jsonc: 5 ms in it
// calls the chart's tool, and 10 ms later removes the chart iframe.
setTimeout(() => {
  document.modelContext.getTools().then((tools) => {
    document.modelContext.executeTool(tools.find((t) => t.name === 'render_chart')).catch(() => {});
    setTimeout(() => document.getElementById('chart').remove(), 10);
  });
}, 5);
