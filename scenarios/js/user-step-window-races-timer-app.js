// The app of scenarios/timing/user-step-window-races-timer.jsonc: 5 ms in it gets the tools and
// calls the chart's.
function toolNamed(tools, name) {
  const tool = tools.find((t) => t.name === name);
  // As the action language's `fromGetTools`: a tool not in the array throws a TypeError.
  if (tool === undefined) throw new TypeError("Cannot read properties of undefined (reading 'name')");
  return tool;
}
setTimeout(() => {
  document.modelContext.getTools().then((tools) => {
    document.modelContext
      .executeTool(toolNamed(tools, 'render_chart'))
      // Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
      .catch(() => {});
  });
}, 5);
