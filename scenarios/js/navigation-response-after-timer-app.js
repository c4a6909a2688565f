// The app of scenarios/lifecycle/navigation-response-after-timer.jsonc: 5 ms in, it reads the
// tools, navigates its player iframe (the server holds a page at /player), and 10 ms later
// calls the tool it read, while the navigation's response may still be on its way.
setTimeout(() => {
  document.modelContext.getTools().then((tools) => {
    document.getElementById('player').contentWindow.location.assign('https://example.com/player?v=2');
    setTimeout(() => {
      document.modelContext.executeTool(tools.find((t) => t.name === 'play')).catch(() => {});
    }, 10);
  });
}, 5);
