// The page asks for tools from a valid origin and a plain http one.
document.modelContext
  .getTools({ fromOrigins: ['https://widget.example', 'http://insecure.example'] })
  // Handled: the outcome shows the promise; an unhandled rejection would be reported too.
  .catch(() => {});
