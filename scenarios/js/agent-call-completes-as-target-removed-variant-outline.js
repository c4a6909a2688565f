// The outline iframe of scenarios/agent/call-completes-as-target-removed-variant.jsonc: its tool
// resolves 5 ms after it starts.
document.modelContext.registerTool({
  name: 'list_headings',
  description: "List the document's headings",
  execute: () => {
    console.log('list_headings ran');
    return new Promise((resolve) => setTimeout(() => resolve(['Intro', 'Method']), 5));
  },
});
