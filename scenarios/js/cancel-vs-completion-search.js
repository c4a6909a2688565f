// The search widget of scenarios/races/cancel-vs-completion.jsonc: a tool that settles after
// 10 ms and logs when its execution is aborted.
document.modelContext.registerTool(
  {
    name: 'slow_search',
    description: 'Search, slowly',
    execute: (input, { signal }) => {
      signal.addEventListener('abort', () => console.log('search: execution aborted'));
      return new Promise((resolve) => setTimeout(() => resolve({ hits: 3 }), 10));
    },
  },
  { exposedTo: ['https://app.example'] },
);
