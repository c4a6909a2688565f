// The page registers a tool without a title and lists it 10 ms later.
const mc = document.modelContext;
mc.registerTool({ name: 'search', description: 'Search products', execute: () => 'ok' });
setTimeout(() => mc.getTools(), 10);
