// The app of scenarios/get-tools/two-registrations-one-task.jsonc: it gets the maps iframe's tools
// and calls each by name, so the outcome says which it got.
function toolNamed(tools, name) {
  const tool = tools.find((t) => t.name === name);
  // As the action language's `fromGetTools`: a tool not in the array throws a TypeError.
  if (tool === undefined) throw new TypeError("Cannot read properties of undefined (reading 'name')");
  return tool;
}
document.modelContext.getTools({ fromOrigins: ['https://maps.example'] }).then((tools) => {
  document.modelContext.executeTool(toolNamed(tools, 'show_route'), {});
  document.modelContext.executeTool(toolNamed(tools, 'zoom_in'), {});
});
