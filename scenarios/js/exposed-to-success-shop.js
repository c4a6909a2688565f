// The shop registers a tool 10 ms after load, exposed to a partner (given as URLs, not origins).
setTimeout(() => {
  document.modelContext.registerTool(
    { name: 'track_order', description: 'Track an order', execute: async () => 'ok' },
    { exposedTo: ['https://partner.example/some/path?q=1', 'http://localhost:8080'] },
  );
}, 10);
