// page.js: the 30-line script both engines run; it registers one tool and calls it back.
const log = [];
document.modelContext.registerTool({
  name: "add",
  description: "Adds two numbers.",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
  async execute(args) {
    log.push("execute " + JSON.stringify(args));
    await null;
    const sum = await Promise.resolve(args.a + args.b);
    log.push("sum " + sum + " at " + Date.now());
    return { content: [{ type: "text", text: String(sum) }] };
  },
});
setTimeout(() => log.push("timer fired"), 10);
const r = Math.random().toFixed(6);
async function main() {
  const result = await document.modelContext.executeTool("add", JSON.stringify({ a: 2, b: 3 }));
  log.push("result " + result.content[0].text);
  return result;
}
main()
  .then((result) => {
    log.push("then " + result.content[0].text);
    log.push("keys " + Object.keys({ b: 1, a: 2, 10: 3, 2: 4 }).join(","));
    log.push("date " + new Date().getTime() + " random " + r);
    globalThis.done = log.join(" | ");
  })
  .catch((error) => {
    globalThis.done = "error " + error;
  });
