// The app of scenarios/regressions/caller-unloaded-before-15-12.jsonc: a consequential tool that
// logs when it runs and when its signal aborts, and never settles.
document.modelContext.registerTool({
  name: 'send_email',
  description: 'Sends an email.',
  annotations: { consequentialHint: true },
  execute: (input, { signal }) => {
    console.log('app: send_email runs');
    signal.addEventListener('abort', () => console.log('app: send_email aborted'));
    return new Promise(() => {});
  },
});
