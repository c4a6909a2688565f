// A tool that resolves with a string; the page calls it without input and logs how the call
// settles.
const mc = document.modelContext;
mc.registerTool({ name: 'greet', description: 'Says success', execute: async () => 'success' });
mc.getTools().then((tools) => {
  const call = mc.executeTool(tools.find((t) => t.name === 'greet'));
  call.then(() => console.log('call fulfilled'), () => console.log('call rejected'));
});
