// A weather tool whose promise rejects; the page calls it and logs how the call settles.
const mc = document.modelContext;
mc.registerTool({
  name: 'get_weather',
  description: 'A tool',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
  execute: (input) => {
    console.log('execute called');
    return Promise.reject({ error: 'city not found' });
  },
});
mc.getTools().then((tools) => {
  const call = mc.executeTool(tools.find((t) => t.name === 'get_weather'), { city: 'Oslo' });
  call.then(() => console.log('call fulfilled'), () => console.log('call rejected'));
});
