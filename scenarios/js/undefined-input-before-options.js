// The page registers an echo tool that logs its input and calls it with undefined as its input
// and a signal as its options.
const mc = document.modelContext;
mc.registerTool({
  name: 'echo',
  description: 'Echoes.',
  execute: (input) => {
    console.log(`input: ${JSON.stringify(input)}`);
    return { ok: true };
  },
});
const ac = new AbortController();
mc.executeTool({ name: 'echo', description: '', origin: 'https://example.com', window }, undefined, { signal: ac.signal }).then(
  () => console.log('call fulfilled'),
  () => console.log('call rejected'),
);
