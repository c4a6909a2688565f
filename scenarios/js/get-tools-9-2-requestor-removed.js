// The app of scenarios/null-navigable/get-tools-9-2-requestor-removed.jsonc registers a tool,
// and 5 ms in calls getTools on the widget iframe's ModelContext and removes the iframe.
document.modelContext.registerTool({ name: 'search', description: 'Search the site', execute: () => ({ hits: 3 }) });
setTimeout(() => {
  const widget = document.getElementById('widget');
  widget.contentDocument.modelContext.getTools();
  widget.remove();
}, 5);
