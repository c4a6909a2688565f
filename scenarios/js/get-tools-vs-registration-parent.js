// The parent listens for toolchange and asks for the tools at once.
const mc = document.modelContext;
mc.ontoolchange = () => console.log('parent: toolchange');
mc.getTools().then(() => console.log('getTools resolved'));
