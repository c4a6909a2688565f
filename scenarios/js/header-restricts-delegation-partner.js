// The partner frame of scenarios/policy/header-restricts-delegation.jsonc, which the header
// allows, registers a tool.
document.modelContext.registerTool({ name: 'partner_tool', description: "The partner's tool", execute: () => 'ok' });
