// The page of scenarios/hostile/terminal-escapes.jsonc: names and console text a terminal would
// obey (OSC, CSI, NUL, line breaks, C1 controls, bidirectional overrides, invisible format
// characters); the race is a timer task against registerTool's resolve task.
const ac = new AbortController();
const p = document.modelContext.registerTool(
  { name: 'echo', description: 'Echoes \u001b]0;title\u0007 back', execute: () => 'ok\r\n\u0000' },
  { signal: ac.signal },
);
p.then(() => console.log('registered \u001b]0;PWNED\u0007\u009b2J\u202e'));
setTimeout(() => console.log('timer\nreplay: rm -rf ~ \u200b\ufeff\udb40\udc01'));
