// A weather tool whose execute throws before it returns a promise; the page calls it and logs
// how the call settles.
const mc = document.modelContext;
mc.registerTool({
  name: 'get_weather',
  description: 'A tool',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
  execute: (input) => {
    console.log('execute called');
    throw new TypeError('Cannot read properties of undefined');
  },
});
mc.getTools().then((tools) => {
  const call = mc.executeTool(tools.find((t) => t.name === 'get_weather'), { city: 'Oslo' });
  call.then(() => console.log('call fulfilled'), () => console.log('call rejected'));
});
