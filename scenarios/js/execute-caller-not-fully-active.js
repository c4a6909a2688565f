// The parent keeps the child's document, registers its own tool, removes the iframe, then calls
// the tool from the removed document.
const iframe = document.getElementById('child');
const doc = iframe.contentDocument;
document.modelContext.registerTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  execute: () => ({ tempC: 21 }),
});
iframe.remove();
// Handled: the outcome shows the call's promise; an unhandled rejection would be reported too.
doc.modelContext.executeTool({ name: 'get_weather', description: '', origin: 'https://example.com', window }).catch(() => {});
