// The sandboxed frame of scenarios/policy/sandboxed-iframe-opaque-origin.jsonc (an opaque
// origin) exposes a tool to the parent's origin 10 ms in, after the parent set its handler.
setTimeout(() => {
  document.modelContext.registerTool(
    { name: 'render_post', description: 'Render a user post', execute: () => 'ok' },
    { exposedTo: ['https://example.com'] },
  );
}, 10);
