// The page of scenarios/hostile/hostile-strings.jsonc: every string the outcome shows is hostile
// to some output format (HTML, Mermaid, Markdown, JSON); the race is the spec example's.
const mc = document.modelContext;
mc.ontoolchange = () => console.log("</script><script>alert('parent')</script>");
document.getElementById('child').contentDocument.modelContext.ontoolchange = () =>
  console.log('A->>B: injected; Note over EL0: %% comment\nparticipant Z');
// Rejected: the name has characters a tool name cannot have.
const bad = mc.registerTool({
  name: "<img src=x onerror=alert('tool')>",
  description: 'rejected: the name has characters a tool name cannot have',
  execute: () => 'never runs',
});
const p = mc.registerTool({
  name: 'search.v1-x_y',
  description: "<script>alert('tool description')</script> %%{init: {\"securityLevel\": \"loose\"}}%%",
  execute: async () => {},
});
p.then(() => console.log('```\n| table | break |\n# heading `code` ${x} \\ "quoted"'));
bad.then(undefined, () => console.log('rejected <b>as expected</b> & then some'));
setTimeout(() => console.log("%%{init: {'theme':'forest'}}%% timer -->> ]]> <!-- "));
