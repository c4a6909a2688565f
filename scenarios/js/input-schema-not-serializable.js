// The page registers three tools whose inputSchema cannot be serialized to JSON.
const mc = document.modelContext;
const cyclic = { type: 'object' };
cyclic.self = cyclic;
// Handled: the outcome shows the promises; an unhandled rejection would be reported too.
mc.registerTool({
  name: 'bigint_schema',
  description: 'Schema with a BigInt',
  inputSchema: { type: 'object', properties: { count: { type: 'integer', maximum: 10n } } },
  execute: () => 'ok',
}).catch(() => {});
mc.registerTool({
  name: 'cyclic_schema',
  description: 'Schema that contains itself',
  inputSchema: cyclic,
  execute: () => 'ok',
}).catch(() => {});
mc.registerTool({
  name: 'tojson_schema',
  description: 'Schema whose toJSON returns undefined',
  inputSchema: { toJSON: () => undefined },
  execute: () => 'ok',
}).catch(() => {});
