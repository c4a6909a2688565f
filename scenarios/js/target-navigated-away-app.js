// The app of scenarios/lifecycle/target-navigated-away.jsonc: 5 ms in, it calls the player's
// tool, and 10 ms after that it navigates the player iframe.
setTimeout(() => {
  document.modelContext.getTools().then((tools) => {
    document.modelContext.executeTool(tools.find((t) => t.name === 'play')).catch(() => {});
    setTimeout(() => {
      document.getElementById('player').contentWindow.location.assign('https://example.com/player?v=2');
    }, 10);
  });
}, 5);
