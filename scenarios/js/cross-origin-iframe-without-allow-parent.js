// The parent of scenarios/register/cross-origin-iframe-without-allow.jsonc registers its own tool.
document.modelContext.registerTool({ name: 'parent_tool', description: "The parent's tool", execute: () => 'ok' });
