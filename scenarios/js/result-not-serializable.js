// The page registers a tool that fulfils with a BigInt member, finds it with getTools and calls it.
const mc = document.modelContext;
mc.registerTool({
  name: 'get_weather',
  description: 'A tool',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
  execute: async () => {
    console.log('execute called');
    return { tempC: 21n };
  },
});
mc.getTools().then((tools) => {
  const tool = tools.find((t) => t.name === 'get_weather');
  mc.executeTool(tool, { city: 'Oslo' }).then(
    () => console.log('call fulfilled'),
    () => console.log('call rejected'),
  );
});
