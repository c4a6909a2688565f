// The page of tab "a" in scenarios/js/different-traversable-variant-caller-navigates.jsonc: it
// registers a tool that runs until its signal aborts, and opens /compose in a new window named
// "b" (its opener is this window).
document.modelContext.registerTool({
  name: 'watch_inbox',
  description: 'Wait for the next message; stops when the caller aborts',
  execute: (input, { signal }) => {
    console.log('watch_inbox runs');
    return new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => {
        console.log('watch_inbox aborted');
        reject(signal.reason);
      });
    });
  },
});
window.open('/compose', 'b');
