// META: title=a .window.js test with a META script
// META: script=resources/tools.js
// Written for webmcp-sim's WPT corpus.
promise_test(async t => {
  const controller = new AbortController();
  t.add_cleanup(() => controller.abort());
  await document.modelContext.registerTool(echoTool("from-window-js"), { signal: controller.signal });
  const names = (await document.modelContext.getTools()).map(tool => tool.name);
  assert_array_equals(names, ["from-window-js"]);
}, "the META script's helper registers a tool");
