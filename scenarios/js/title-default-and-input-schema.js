// The page registers a tool with an inputSchema and no title, and one with a title and no
// inputSchema, and lists them 10 ms later.
const mc = document.modelContext;
mc.registerTool({
  name: 'search',
  description: 'Search products',
  inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  execute: () => 'ok',
});
mc.registerTool({ name: 'refresh', title: 'Refresh', description: 'Reload the list', execute: () => 'ok' });
setTimeout(() => mc.getTools(), 10);
