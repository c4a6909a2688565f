// The page exposes a tool to "not a url", then the same tool to a valid origin and a plain http one.
const mc = document.modelContext;
const share = { name: 'share', description: 'Share the page', execute: () => 'ok' };
// Handled: the outcome shows the promises; an unhandled rejection would be reported too.
mc.registerTool(share, { exposedTo: ['not a url'] }).catch(() => {});
mc.registerTool(share, { exposedTo: ['https://partner.example', 'http://insecure.example'] }).catch(() => {});
