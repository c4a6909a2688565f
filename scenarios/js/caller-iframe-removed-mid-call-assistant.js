// The assistant iframe of scenarios/lifecycle/caller-iframe-removed-mid-call.jsonc calls the
// app's tool 5 ms in.
setTimeout(() => {
  document.modelContext.getTools().then((tools) => {
    document.modelContext.executeTool(tools.find((t) => t.name === 'export_report'));
  });
}, 5);
