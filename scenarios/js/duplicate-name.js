// The page registers add_to_cart twice; the second registration rejects.
const mc = document.modelContext;
mc.registerTool({ name: 'add_to_cart', description: 'Add an item to the cart', execute: async () => 'ok' });
// Handled: the outcome shows the promise; an unhandled rejection would be reported too.
mc.registerTool({ name: 'add_to_cart', description: 'Add an item (again)', execute: async () => 'ok' }).catch(() => {});
