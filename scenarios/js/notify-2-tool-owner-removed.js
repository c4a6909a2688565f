// The app of scenarios/null-navigable/notify-2-tool-owner-removed.jsonc listens for toolchange,
// and 5 ms in registers a tool on the widget iframe's ModelContext and removes the iframe.
document.modelContext.ontoolchange = () => console.log('app toolchange');
setTimeout(() => {
  const widget = document.getElementById('widget');
  widget.contentDocument.modelContext.registerTool({
    name: 'refresh',
    description: 'Refresh the widget',
    execute: () => new Promise(() => {}),
  });
  widget.remove();
}, 5);
