// The page of scenarios/lifecycle/same-document-navigates.jsonc: it registers a tool that never
// settles, calls it, and navigates itself 10 ms later.
document.modelContext.registerTool({
  name: 'fill_form',
  description: 'Fill the form',
  execute: (input, { signal }) => {
    signal.addEventListener('abort', () => console.log('fill_form aborted'));
    return new Promise(() => {});
  },
});
document.modelContext.getTools().then((tools) => {
  document.modelContext.executeTool(tools.find((t) => t.name === 'fill_form'));
  setTimeout(() => { location.href = 'https://example.com/step2'; }, 10);
});
