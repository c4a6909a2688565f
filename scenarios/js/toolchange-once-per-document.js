// The parent of scenarios/events/toolchange-once-per-document.jsonc registers a tool; no page
// listens for toolchange.
document.modelContext.registerTool({ name: 'search', description: 'Searches.', execute() {} });
