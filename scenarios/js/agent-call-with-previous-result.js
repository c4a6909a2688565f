// The page of scenarios/agent/call-with-previous-result.jsonc: two tools, registered at once;
// `book_flight` logs its input (the action language's `logInput`: "input: <its JSON>").
document.modelContext.registerTool({
  name: 'find_flight',
  description: 'Find the cheapest flight',
  execute: () => ({ flight: 'SK4711' }),
});
document.modelContext.registerTool({
  name: 'book_flight',
  description: 'Book a flight',
  execute: (input) => {
    console.log(`input: ${JSON.stringify(input)}`);
    return 'booked';
  },
});
