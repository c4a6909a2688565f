// The page of scenarios/agent/observe-after-delayed-registration.jsonc: the tool is registered from a 50 ms timer.
setTimeout(() => {
  document.modelContext.registerTool({
    name: 'search_flights',
    description: 'Search flights between two airports',
    execute: () => {
      console.log('search_flights ran');
      return { flights: 2 };
    },
  });
}, 50);
