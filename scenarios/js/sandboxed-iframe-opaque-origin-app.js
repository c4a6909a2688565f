// The parent of scenarios/policy/sandboxed-iframe-opaque-origin.jsonc lists its own origin's
// tools whenever they change.
document.modelContext.ontoolchange = () => {
  console.log('app: toolchange');
  document.modelContext.getTools({ fromOrigins: ['https://example.com'] });
};
