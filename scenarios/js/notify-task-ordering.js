// The spec's own example after "notify documents of a tool change" (#notify-task-ordering), as
// the spec writes it; only `iframe` is looked up first (the spec leaves it to the reader).
const iframe = document.getElementById('child');

document.modelContext.ontoolchange = e => console.log('Parent toolchange');
iframe.contentDocument.modelContext.ontoolchange = e => console.log('Child toolchange');

// Queues a task to fire `toolchange`, on the `webmcp task source`.
const p = document.modelContext.registerTool({
  name: "tool_name",
  description: "tool_desc",
  execute: async () => {}
});

p.then(() => console.log('Register promise resolved'));

// Queues a task on the `timer task source`.
setTimeout(() => console.log('Post-register task'));

// `Parent toolchange` will always log before `Child toolchange`, and
// `Register promise resolved` will always log after both.
// But `Post-register task` can log before, in between, or after all three.
