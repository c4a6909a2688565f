// The page of scenarios/agent/observe-and-call.jsonc: one tool, registered at once.
document.modelContext.registerTool({
  name: 'search_flights',
  description: 'Search flights between two airports',
  inputSchema: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } } },
  execute: () => {
    console.log('search_flights ran');
    return { flights: 2 };
  },
});
