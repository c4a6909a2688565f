// The page of scenarios/agent/call-with-non-object-input.jsonc: a tool the agent calls with 5.
document.modelContext.registerTool({
  name: 'square',
  description: 'Square a number',
  inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
  execute: () => {
    console.log('should not run');
    return 25;
  },
});
