// The widget of scenarios/policy/grandchild-not-delegated.jsonc, embedded with allow="tools",
// registers a tool.
document.modelContext.registerTool({ name: 'widget_tool', description: "The widget's tool", execute: () => 'ok' });
