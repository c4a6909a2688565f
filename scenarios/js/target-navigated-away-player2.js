// The player iframe's document after the navigation (/player?v=2): a tool of the same name.
document.modelContext.registerTool({ name: 'play', description: 'Play the video', execute: async () => 'playing v2' });
