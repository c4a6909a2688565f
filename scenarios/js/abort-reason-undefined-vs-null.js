// The page aborts one controller with undefined and another with null, and registers a tool
// with each signal.
const mc = document.modelContext;
const undefinedReason = new AbortController();
undefinedReason.abort(undefined);
// Handled: the outcome shows the promises; an unhandled rejection would be reported too.
mc.registerTool({ name: 'a', description: 'A.', execute() {} }, { signal: undefinedReason.signal }).catch(() => {});
const nullReason = new AbortController();
nullReason.abort(null);
mc.registerTool({ name: 'b', description: 'B.', execute() {} }, { signal: nullReason.signal }).catch(() => {});
