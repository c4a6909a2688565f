// -- Tool owner document. -- The spec's #unregistration-execution-race example, with its `{...}`
// filled in: a tool named "tool" whose old schema takes a number `a` and whose new schema needs
// a string `b`; each version logs the input it is run with.
const oldInputSchema = { type: 'object', properties: { a: { type: 'number' } } };
const newInputSchema = { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] };
const ac = new AbortController();
document.modelContext.registerTool(
  {
    name: 'tool',
    description: 'The old tool',
    execute: (input) => console.log(`old tool: ${JSON.stringify(input)}`),
    inputSchema: oldInputSchema,
  },
  { signal: ac.signal },
);

// Unregister, and quickly re-register with an updated input schema.
ac.abort();
document.modelContext.registerTool({
  name: 'tool',
  description: 'The new tool',
  execute: (input) => console.log(`new tool: ${JSON.stringify(input)}`),
  inputSchema: newInputSchema,
});
