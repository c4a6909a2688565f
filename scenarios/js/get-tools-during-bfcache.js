// The page of scenarios/lifecycle/get-tools-during-bfcache.jsonc: a toolchange handler, a tool,
// and getTools, while the user caches and restores the tab.
document.modelContext.ontoolchange = () => console.log('toolchange');
document.modelContext.registerTool({ name: 'checkout', description: 'Check out the cart', execute: () => 'ok' });
document.modelContext.getTools().catch(() => {});
