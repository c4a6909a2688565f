// The ad frame of scenarios/get-tools/not-allowed-target-skipped.jsonc, embedded without
// allow="tools", tries to expose a tool to the app.
document.modelContext
  .registerTool(
    { name: 'click_ad', description: 'Click the ad', execute: () => 'ok' },
    { exposedTo: ['https://app.example'] },
  )
  // Handled: the outcome shows the promise; an unhandled rejection would be reported too.
  .catch(() => {});
