// The app: 5 ms in it calls the editor's tool with a signal, and 10 ms later aborts the call and
// removes the editor.
setTimeout(() => {
  document.modelContext.getTools().then((tools) => {
    const ac = new AbortController();
    document.modelContext.executeTool(tools.find((t) => t.name === 'autosave'), undefined, { signal: ac.signal }).catch(() => {});
    setTimeout(() => {
      ac.abort();
      document.getElementById('editor').remove();
    }, 10);
  });
}, 5);
