// The app of scenarios/get-tools/cross-origin-not-requested.jsonc lists tools 10 ms in,
// without fromOrigins.
setTimeout(() => document.modelContext.getTools(), 10);
