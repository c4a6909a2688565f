// The parent keeps the child's document, removes the iframe, then asks it for its tools.
const iframe = document.getElementById('child');
const doc = iframe.contentDocument;
iframe.remove();
// Handled: the outcome shows the promise; an unhandled rejection would be reported too.
doc.modelContext.getTools().catch(() => {});
