// Helpers of webmcp-sim's WPT corpus.
function echoTool(name) {
  return {
    name,
    description: "Echo the text back",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    execute: async input => input.text,
  };
}
