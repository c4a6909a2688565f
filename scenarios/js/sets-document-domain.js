// The page, which sets document.domain (the world's setsDocumentDomain), lists tools.
document.modelContext
  .getTools()
  // Handled: the outcome shows the promise; an unhandled rejection would be reported too.
  .catch(() => {});
