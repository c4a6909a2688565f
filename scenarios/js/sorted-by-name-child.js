// The same-origin iframe of scenarios/get-tools/sorted-by-name.jsonc registers one tool.
document.modelContext.registerTool({ name: 'middle', description: 'from the iframe', execute: () => 'ok' });
