// The top document of scenarios/policy/header-restricts-delegation.jsonc registers a tool.
document.modelContext.registerTool({ name: 'app_tool', description: "The app's tool", execute: () => 'ok' });
