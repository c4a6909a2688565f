// A tool whose promise never settles; the page calls it and would log how the call settles.
const mc = document.modelContext;
mc.registerTool({
  name: 'get_weather',
  description: 'A tool',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
  execute: (input) => {
    console.log('execute called');
    return new Promise(() => {});
  },
});
mc.getTools().then((tools) => {
  const call = mc.executeTool(tools.find((t) => t.name === 'get_weather'), { city: 'Oslo' });
  call.then(() => console.log('call fulfilled'), () => console.log('call rejected'));
});
