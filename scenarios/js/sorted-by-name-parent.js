// The parent of scenarios/get-tools/sorted-by-name.jsonc registers four tools out of order and
// lists every tool 10 ms later.
const mc = document.modelContext;
for (const [name, description] of [
  ['beta', 'b'],
  ['alpha', 'a'],
  ['_private', 'underscore'],
  ['Zebra', 'uppercase Z'],
]) {
  mc.registerTool({ name, description, execute: () => 'ok' });
}
setTimeout(() => mc.getTools(), 10);
