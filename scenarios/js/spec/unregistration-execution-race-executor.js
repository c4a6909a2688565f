// -- Executing document. -- The spec's #unregistration-execution-race example. The spec writes
// its two lines with a top-level `await`, which only a module script allows; a page here is a
// classic script, so they run in an async function.
(async () => {
  // This could target either the "old" tool, or the "new" one above,
  // and the execution might encounter any requisite errors due to the mismatch.
  const [tool] = await document.modelContext.getTools();
  document.modelContext.executeTool(tool, { a: 10 });
})();
