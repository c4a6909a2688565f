// The cross-site maps iframe of scenarios/get-tools/two-registrations-one-task.jsonc: two tools
// registered in one task, both exposed to the app.
const options = { exposedTo: ['https://app.example'] };
document.modelContext.registerTool(
  { name: 'show_route', description: 'Show a route', execute: () => { console.log('show_route ran'); return 'ok'; } },
  options,
);
document.modelContext.registerTool(
  { name: 'zoom_in', description: 'Zoom in', execute: () => { console.log('zoom_in ran'); return 'ok'; } },
  options,
);
