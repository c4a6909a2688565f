// The player iframe's first document: its tool never settles.
document.modelContext.registerTool({ name: 'play', description: 'Play the video', execute: () => new Promise(() => {}) });
