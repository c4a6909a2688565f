// A tool whose async execute returns nothing, as in the spec's examples; the page calls it and
// logs how the call settles.
const mc = document.modelContext;
mc.registerTool({
  name: 'log_visit',
  description: 'A tool',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
  execute: async (input) => {
    console.log('execute called');
  },
});
mc.getTools().then((tools) => {
  const call = mc.executeTool(tools.find((t) => t.name === 'log_visit'), { city: 'Oslo' });
  call.then(() => console.log('call fulfilled'), () => console.log('call rejected'));
});
