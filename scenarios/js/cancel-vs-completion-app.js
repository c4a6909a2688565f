// The app of scenarios/races/cancel-vs-completion.jsonc: after 5 ms it finds the search tool,
// calls it with a signal, and aborts the call 10 ms later.
setTimeout(() => {
  document.modelContext.getTools({ fromOrigins: ['https://search.example'] }).then((tools) => {
    const ac = new AbortController();
    const tool = tools.find((t) => t.name === 'slow_search');
    // Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
    document.modelContext.executeTool(tool, { q: 'flights' }, { signal: ac.signal }).catch(() => {});
    setTimeout(() => {
      console.log('app: abort');
      ac.abort();
    }, 10);
  });
}, 5);
