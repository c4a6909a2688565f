// The page of scenarios/races/unregister-before-execution.jsonc: it registers a tool with a
// signal, calls it, and in a 0 ms timer unregisters it (aborts the signal).
const registration = new AbortController();
document.modelContext.registerTool({
  name: 'add_to_cart',
  description: 'Add an item to the cart',
  execute: () => {
    console.log('add_to_cart ran');
    return { added: true };
  },
}, { signal: registration.signal }).catch(() => {});
document.modelContext.getTools().then((tools) => {
  document.modelContext.executeTool(tools.find((t) => t.name === 'add_to_cart'), { sku: 'A-1' }).catch(() => {});
  setTimeout(() => {
    console.log('unregister');
    registration.abort();
  });
});
