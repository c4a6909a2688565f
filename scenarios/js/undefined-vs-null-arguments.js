// The page registers a tool with inputSchema: undefined and one with inputSchema: null, then
// calls the first with undefined, with null and with no input.
const mc = document.modelContext;
mc.registerTool({ name: 'echo', description: 'Echoes.', inputSchema: undefined, execute: () => 'ok' });
// Handled: the outcome shows the promises; an unhandled rejection would be reported too.
mc.registerTool({ name: 'nullSchema', description: 'Null schema.', inputSchema: null, execute: () => 'ok' }).catch(() => {});
mc.getTools().then((tools) => {
  const echo = tools.find((t) => t.name === 'echo');
  mc.executeTool(echo, undefined);
  mc.executeTool(echo, null).catch(() => {});
  mc.executeTool(echo);
});
