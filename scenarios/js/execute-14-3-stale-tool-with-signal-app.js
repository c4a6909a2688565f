// The app of scenarios/null-navigable/execute-14-3-stale-tool-with-signal.jsonc: 5 ms in it keeps
// a getTools() result, removes the widget iframe whose tool it names, then calls that tool with
// an AbortSignal (executeTool 14.3 reads the removed document's null node navigable).
setTimeout(() => {
  document.modelContext.getTools().then((tools) => {
    document.getElementById('widget').remove();
    const ac = new AbortController();
    document.modelContext
      .executeTool(tools.find((t) => t.name === 'refresh'), undefined, { signal: ac.signal })
      // Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
      .catch(() => {});
  });
}, 5);
