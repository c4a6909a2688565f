// The app of scenarios/lifecycle/caller-iframe-removed-mid-call.jsonc registers a tool that
// runs until its signal aborts, and removes the assistant iframe 10 ms in.
document.modelContext.registerTool({
  name: 'export_report',
  description: 'Export the report as PDF',
  execute: (input, { signal }) => {
    console.log('export started');
    return new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => {
        console.log('export aborted');
        reject(signal.reason);
      });
    });
  },
});
setTimeout(() => document.getElementById('assistant').remove(), 10);
