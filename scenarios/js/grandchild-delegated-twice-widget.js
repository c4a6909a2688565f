// The middle frame of scenarios/policy/grandchild-delegated-twice.jsonc registers a tool for
// itself.
document.modelContext.registerTool({ name: 'widget_settings', description: 'Open the widget settings', execute: () => 'ok' });
