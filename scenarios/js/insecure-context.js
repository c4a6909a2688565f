// The page, served over plain http, calls registerTool and then logs.
document.modelContext.registerTool({ name: 'search', description: 'Search the site', execute: () => 'ok' });
console.log('not reached');
