// The assistant iframe of scenarios/null-navigable/execute-15-1-caller-removed.jsonc: 5 ms in it
// calls the app's tool; the user removes the iframe at 5 ms.
setTimeout(() => {
  document.modelContext.getTools().then((tools) => {
    document.modelContext.executeTool(tools.find((t) => t.name === 'export_report')).catch(() => {});
  });
}, 5);
