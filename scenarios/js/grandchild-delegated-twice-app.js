// The top document of scenarios/policy/grandchild-delegated-twice.jsonc asks for the maps
// origin's tools 10 ms in.
setTimeout(() => document.modelContext.getTools({ fromOrigins: ['https://maps.example'] }), 10);
