// The parent of scenarios/spec/notify-task-ordering-cross-site.jsonc: the spec's example, with
// the tool exposed to the cross-site child (a cross-origin parent cannot reach the child's
// document, so the child sets its own handler).
document.modelContext.ontoolchange = (e) => console.log('Parent toolchange');

const p = document.modelContext.registerTool(
  { name: 'tool_name', description: 'tool_desc', execute: async () => {} },
  { exposedTo: ['https://other.example'] },
);

p.then(() => console.log('Register promise resolved'));

setTimeout(() => console.log('Post-register task'));
