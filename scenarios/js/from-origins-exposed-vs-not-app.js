// The app of scenarios/get-tools/from-origins-exposed-vs-not.jsonc registers its own tool and,
// 10 ms in, asks for tools from the maps origin too.
const mc = document.modelContext;
mc.registerTool({ name: 'app_search', description: 'Search the app', execute: () => 'ok' });
setTimeout(() => mc.getTools({ fromOrigins: ['https://maps.example'] }), 10);
