// The app of scenarios/null-navigable/execute-15-1-target-removed.jsonc calls the chart's tool
// 5 ms in and removes the chart iframe in the same task.
setTimeout(() => {
  document.modelContext.getTools().then((tools) => {
    document.modelContext
      .executeTool(tools.find((t) => t.name === 'render_chart'))
      // Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
      .catch(() => {});
    document.getElementById('chart').remove();
  });
}, 5);
