// The parent keeps the child's document, removes the iframe, then registers on the document.
const iframe = document.getElementById('child');
const doc = iframe.contentDocument;
iframe.remove();
doc.modelContext
  .registerTool({ name: 'late_tool', description: 'Registered after removal', execute: () => 'ok' })
  .then(undefined, () => console.log('registerTool rejected'));
