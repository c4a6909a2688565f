// The cart iframe registers its tool at once.
document.modelContext.registerTool({ name: 'view_cart', description: 'Show the cart', execute: async () => 'ok' });
