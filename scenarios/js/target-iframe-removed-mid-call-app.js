// The app of scenarios/lifecycle/target-iframe-removed-mid-call.jsonc calls the chart's tool
// 5 ms in and removes the chart iframe from a 0 ms timer.
setTimeout(() => {
  document.modelContext.getTools().then((tools) => {
    const call = document.modelContext.executeTool(tools.find((t) => t.name === 'render_chart'));
    setTimeout(() => document.getElementById('chart').remove());
    call.catch(() => console.log('call rejected'));
  });
}, 5);
