// The page of scenarios/js/history-back-restores-caller.jsonc: it registers a tool, calls it
// (executeTool on its own window), and navigates away in the same task;
// the page at /results goes back. The listeners note pagehide's `persisted` and, once the page
// is shown again, log it with pageshow's and what getTools returns. (pagehide is not logged when
// it fires: Chromium fires it once more when the driver closes the page after the run.)
let hidden = 'none';
addEventListener('pagehide', (event) => {
  hidden = event.persisted;
});
addEventListener('pageshow', (event) => {
  console.log(`pageshow persisted=${event.persisted} after pagehide persisted=${hidden}`);
  document.modelContext.getTools().then((tools) => console.log(`tools after restore: [${tools.map((t) => t.name).join(', ')}]`));
});
document.modelContext.registerTool({
  name: 'slow_search',
  description: 'Search the catalogue',
  execute: () => {
    console.log('tool ran');
    return { found: true };
  },
});
document.modelContext
  .executeTool({ name: 'slow_search', description: 'Search the catalogue', origin: 'https://example.com', window })
  .then((result) => console.log(`call fulfilled: ${result}`), (error) => console.log(`call rejected: ${error.name}`));
location.assign('https://example.com/results');
