// The app of scenarios/get-tools/not-allowed-target-skipped.jsonc asks for the ad frame's
// tools 10 ms in.
setTimeout(() => document.modelContext.getTools({ fromOrigins: ['https://ads.example'] }), 10);
