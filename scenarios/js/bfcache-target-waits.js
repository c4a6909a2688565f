// The page of scenarios/lifecycle/bfcache-target-waits.jsonc: it registers a tool and calls it at
// once (a RegisteredTool dictionary naming its own window); the user caches and restores the tab.
document.modelContext.registerTool({
  name: 'resume_video',
  description: 'Resume playback',
  execute: () => {
    console.log('tool ran');
    return 'resumed';
  },
});
document.modelContext.executeTool({ name: 'resume_video', description: '', origin: 'https://example.com', window }).catch(() => {});
