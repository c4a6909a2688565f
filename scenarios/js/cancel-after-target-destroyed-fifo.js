// The app: 5 ms in it calls the editor's tool with a signal, and 10 ms later removes the editor and
// aborts the call.
setTimeout(() => {
  document.modelContext.getTools().then((tools) => {
    const ac = new AbortController();
    document.modelContext.executeTool(tools.find((t) => t.name === 'autosave'), undefined, { signal: ac.signal }).catch(() => {});
    setTimeout(() => {
      document.getElementById('editor').remove();
      ac.abort();
    }, 10);
  });
}, 5);
